import { Redis } from 'ioredis';
import { logger } from './logger.ts';
import { withDeadline } from './rate-limit/deadline.ts';
import { RedisFailover } from './rate-limit/failover.ts';

/**
 * A small key-value cache with expiry. Redis when REDIS_URL is set (shared by every process),
 * otherwise an in-process map with the same behaviour for a single process. Both pass the
 * same tests; rate limits and response caches build on this interface.
 */
export interface Cache {
  /** Where values live right now: a Redis-backed cache serving from memory during an outage says 'memory'. */
  readonly kind: 'redis' | 'memory';
  /** Resolves when the shared store answers (at once for an in-process cache); for health checks. */
  ping(): Promise<void>;
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

  async ping(): Promise<void> {}

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
  private closing = false;

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

  async ping(): Promise<void> {
    // A connection whose first attempt failed has ended, and ioredis does not retry it by itself.
    if (this.redis.status === 'end' && !this.closing) this.redis.connect().catch(() => undefined);
    await this.redis.ping();
  }

  async close(): Promise<void> {
    this.closing = true;
    // A Redis that never answers must not hold up shutdown.
    await withDeadline(this.redis.quit(), 1000, 'redis quit').catch(() => undefined);
    this.redis.disconnect();
  }
}

export type FallbackCacheOptions = {
  /** The most a call waits on Redis before it is answered from memory. */
  callTimeoutMs?: number;
  /** How often a degraded cache asks whether Redis is back. */
  probeIntervalMs?: number;
  /** Set when Redis was unreachable at start: begin on the in-process map. */
  unavailableAtStart?: unknown;
};

/**
 * A Redis cache that survives Redis being away, at start or mid-run, as FallbackRateLimiter
 * does for rate limits: on the first failed call it logs once and answers from an in-process
 * map, probes Redis in the background and moves back when it answers. Values written while
 * degraded stay in this process (a daily cap counts per process for that while).
 */
export class FallbackCache implements Cache {
  private readonly local = new MemoryCache();
  private readonly callTimeoutMs: number;
  private readonly failover: RedisFailover;

  constructor(
    private readonly shared: RedisCache,
    options: FallbackCacheOptions = {},
  ) {
    this.callTimeoutMs = options.callTimeoutMs ?? 200;
    this.failover = new RedisFailover(
      { store: 'cache', local: 'the in-process cache', shared: 'the shared cache' },
      () => this.pingShared(),
      options.probeIntervalMs ?? 1000,
      options.unavailableAtStart,
    );
  }

  get kind(): 'redis' | 'memory' {
    return this.failover.kind;
  }

  get(key: string): Promise<string | null> {
    return this.run((cache) => cache.get(key));
  }

  set(key: string, value: string, ttlSeconds: number): Promise<void> {
    return this.run((cache) => cache.set(key, value, ttlSeconds));
  }

  increment(key: string, by: number, ttlSeconds: number): Promise<number> {
    return this.run((cache) => cache.increment(key, by, ttlSeconds));
  }

  delete(key: string): Promise<void> {
    return this.run((cache) => cache.delete(key));
  }

  /** Asks Redis itself, whichever store answers calls now: health reports Redis's own state. */
  async ping(): Promise<void> {
    try {
      await this.pingShared();
    } catch (error) {
      // Health noticed before any call did: serve from memory from now on, as a failed call would.
      this.failover.lost(error);
      throw error;
    }
  }

  private pingShared(): Promise<void> {
    return withDeadline(this.shared.ping(), this.callTimeoutMs, 'redis ping');
  }

  async close(): Promise<void> {
    this.failover.close();
    await Promise.all([this.shared.close(), this.local.close()]);
  }

  private async run<T>(call: (cache: Cache) => Promise<T>): Promise<T> {
    if (this.failover.kind === 'redis') {
      try {
        return await withDeadline(call(this.shared), this.callTimeoutMs, 'redis cache');
      } catch (error) {
        this.failover.lost(error);
      }
    }
    return call(this.local);
  }
}

export type OpenCacheOptions = Omit<FallbackCacheOptions, 'unavailableAtStart'> & {
  /** How long start-up waits for Redis before carrying on with the in-process cache. */
  connectTimeoutMs?: number;
};

/**
 * The service's cache: Redis (shared by every process) when a URL is given, falling back to the
 * in-process map whenever Redis is away, including at start, so an outage never stops the
 * service from starting or answering. Without a URL, in-process only.
 */
export async function openCache(redisUrl: string | undefined, options: OpenCacheOptions = {}): Promise<Cache> {
  if (!redisUrl) return new MemoryCache();
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
  // Every failed reconnect emits an error; the cache reports an outage once, so these are noise.
  redis.on('error', (error: Error) => logger.debug('cache: redis connection error', { error: error.message }));
  const { connectTimeoutMs = 2000, ...fallbackOptions } = options;
  const shared = new RedisCache(redis);
  try {
    await withDeadline(redis.connect(), connectTimeoutMs, 'redis connect');
    return new FallbackCache(shared, fallbackOptions);
  } catch (error) {
    return new FallbackCache(shared, { ...fallbackOptions, unavailableAtStart: error });
  }
}
