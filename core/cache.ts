import { Redis } from 'ioredis';
import { logger } from './logger.ts';

/**
 * A small key-value cache with expiry. Redis when REDIS_URL is set (shared by every process),
 * otherwise an in-process map with the same behaviour for a single process. Both pass the
 * same tests; rate limits and response caches build on this interface.
 */
export interface Cache {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Adds `by` to a counter, creating it with the expiry when absent; returns the new value. */
  increment(key: string, by: number, ttlSeconds: number): Promise<number>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCache implements Cache {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
    if (this.entries.size > 100_000) this.evictExpired();
  }

  async increment(key: string, by: number, ttlSeconds: number): Promise<number> {
    // No await between the read and the write: that is what makes it atomic in one process.
    const entry = this.live(key);
    const next = (entry ? Number(entry.value) : 0) + by;
    this.entries.set(key, { value: String(next), expiresAt: entry?.expiresAt ?? Date.now() + ttlSeconds * 1000 });
    return next;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private live(key: string): { value: string; expiresAt: number } | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private evictExpired(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

// INCRBY and the first expiry in one step, so a counter can never be left without one.
const INCREMENT_WITH_EXPIRY = `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if value == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return value`;

export class RedisCache implements Cache {
  readonly kind = 'redis' as const;

  constructor(private readonly redis: Redis) {}

  /**
   * Connects before returning. Commands never queue while Redis is away: they fail at once,
   * so callers (rate limits) can fall back instead of waiting on a dead connection.
   */
  static async connect(url: string): Promise<RedisCache> {
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
    redis.on('error', (error: Error) => logger.warn('redis error', { error: error.message }));
    await redis.connect();
    return new RedisCache(redis);
  }

  get(key: string): Promise<string | null> {
    return this.redis.get(key);
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(key, value, 'EX', ttlSeconds);
  }

  async increment(key: string, by: number, ttlSeconds: number): Promise<number> {
    return Number(await this.redis.eval(INCREMENT_WITH_EXPIRY, 1, key, by, ttlSeconds));
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export async function openCache(redisUrl: string | undefined): Promise<Cache> {
  return redisUrl ? RedisCache.connect(redisUrl) : new MemoryCache();
}
