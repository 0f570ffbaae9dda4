import { NO_REDIS, REDIS_URL, redisReachable } from './support/redis-server.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { logger } from '../core/logger.ts';
import type { RateDecision, RateLimiter, RatePolicy, SharedRateLimiter } from '../core/rate-limit.ts';
import {
  DEFAULT_RATE_POLICY,
  FallbackRateLimiter,
  MemoryTokenBucket,
  RATE_LIMIT_KEY_PREFIX,
  RedisTokenBucket,
  openRateLimiter,
  rateLimitHeaders,
} from '../core/rate-limit.ts';

const RUN = `rl-test:${process.pid}:${Date.now()}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The limiter under test and, for Redis, the connection it uses, to look at what it stored. */
type Subject = { limiter: RateLimiter; redis?: Redis };

async function openRedisSubject(): Promise<Subject | undefined> {
  if (!(await redisReachable(REDIS_URL))) return undefined;
  // Made as openRateLimiter makes it, so the suite runs against the production connection settings.
  const redis = new Redis(REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  await redis.connect();
  return { limiter: new RedisTokenBucket(redis), redis };
}

const implementations: Array<[string, () => Promise<Subject | undefined>]> = [
  ['in-process', async () => ({ limiter: new MemoryTokenBucket() })],
  ['redis', openRedisSubject],
];

describe.each(implementations)('%s token bucket', (name, open) => {
  let subject: Subject | undefined;
  const prefix = `${RUN}:${name}:`;

  beforeAll(async () => {
    subject = await open();
  });

  afterAll(async () => {
    if (subject?.redis) {
      const keys = await subject.redis.keys(`${RATE_LIMIT_KEY_PREFIX}${prefix}*`);
      if (keys.length > 0) await subject.redis.del(...keys);
    }
    await subject?.limiter.close();
  });

  async function takeMany(key: string, policy: RatePolicy, count: number): Promise<RateDecision[]> {
    const decisions: RateDecision[] = [];
    for (let i = 0; i < count; i += 1) decisions.push(await subject!.limiter.take(key, policy));
    return decisions;
  }

  it('allows a fresh bucket its capacity, then refuses with remaining 0 and a retry time', async (ctx) => {
    if (!subject) return ctx.skip(NO_REDIS);
    const policy = { capacity: 5, refillPerSecond: 1 };
    const before = Date.now() / 1000;
    const allowed = await takeMany(`${prefix}burst`, policy, 5);
    expect(allowed.map((d) => [d.allowed, d.remaining, d.retryAfter, d.limit])).toEqual([
      [true, 4, 0, 5],
      [true, 3, 0, 5],
      [true, 2, 0, 5],
      [true, 1, 0, 5],
      [true, 0, 0, 5],
    ]);
    const refused = await subject.limiter.take(`${prefix}burst`, policy);
    expect(refused).toMatchObject({ allowed: false, limit: 5, remaining: 0, retryAfter: 1 });
    // Empty at 1 token a second: full again about 5 s from now (margins for a slow machine).
    expect(refused.resetAt).toBeGreaterThanOrEqual(Math.floor(before) + 4);
    expect(refused.resetAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 6);
  });

  it('asks a refused request for a large cost to wait until that many tokens have refilled', async (ctx) => {
    if (!subject) return ctx.skip(NO_REDIS);
    const policy = { capacity: 10, refillPerSecond: 2 };
    expect((await subject.limiter.take(`${prefix}cost`, policy, 10)).remaining).toBe(0);
    const refused = await subject.limiter.take(`${prefix}cost`, policy, 5);
    expect(refused.allowed).toBe(false);
    // 5 tokens at 2 a second is 2.5 s, rounded up to 3 (2 only if this machine stalled for a second).
    expect(refused.retryAfter).toBeGreaterThanOrEqual(2);
    expect(refused.retryAfter).toBeLessThanOrEqual(3);
  });

  it('refills over time, never above capacity', async (ctx) => {
    if (!subject) return ctx.skip(NO_REDIS);
    const policy = { capacity: 3, refillPerSecond: 10 };
    const key = `${prefix}refill`;
    await takeMany(key, policy, 3);
    expect((await subject.limiter.take(key, policy)).allowed).toBe(false);
    // 0.6 s refills 6 tokens' worth into a bucket of 3: full, not overflowing.
    await sleep(600);
    const again = await takeMany(key, policy, 3);
    expect(again.map((d) => d.allowed)).toEqual([true, true, true]);
    expect(again[0]!.remaining).toBe(2);
  });

  it('keeps every key in its own bucket, each with its own policy', async (ctx) => {
    if (!subject) return ctx.skip(NO_REDIS);
    const tight = { capacity: 2, refillPerSecond: 0.01 };
    await takeMany(`${prefix}a`, tight, 2);
    expect((await subject.limiter.take(`${prefix}a`, tight)).allowed).toBe(false);
    expect(await subject.limiter.take(`${prefix}b`, tight)).toMatchObject({ allowed: true, remaining: 1 });
    const enterprise = { capacity: 600, refillPerSecond: 10 };
    expect(await subject.limiter.take(`${prefix}c`, enterprise)).toMatchObject({
      allowed: true,
      limit: 600,
      remaining: 599,
    });
    expect(await subject.limiter.take(`${prefix}d`, DEFAULT_RATE_POLICY)).toMatchObject({ limit: 60, remaining: 59 });
  });

  it('allows exactly the capacity when 100 requests race for 50 tokens', async (ctx) => {
    if (!subject) return ctx.skip(NO_REDIS);
    const policy = { capacity: 50, refillPerSecond: 0.001 };
    const limiter = subject.limiter;
    const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.take(`${prefix}race`, policy)));
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).toHaveLength(50);
    // Each winner saw a different level: no two read the bucket before the other wrote it.
    expect(new Set(allowed.map((d) => d.remaining)).size).toBe(50);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.retryAfter > 0)).toBe(true);
  });

  it('refuses a cost larger than the bucket as a caller error', async (ctx) => {
    if (!subject) return ctx.skip(NO_REDIS);
    await expect(subject.limiter.take(`${prefix}huge`, { capacity: 5, refillPerSecond: 1 }, 6)).rejects.toThrow(
      RangeError,
    );
    await expect(subject.limiter.take(`${prefix}huge`, { capacity: 0, refillPerSecond: 1 })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('redis token bucket storage', () => {
  let subject: Subject | undefined;

  afterAll(async () => {
    await subject?.redis?.del(`${RATE_LIMIT_KEY_PREFIX}${RUN}:ttl`);
    await subject?.limiter.close();
  });

  it('stores a Redis bucket under landgraph:rl: with an expiry of about its time to refill', async (ctx) => {
    subject = await openRedisSubject();
    if (!subject?.redis) return ctx.skip(NO_REDIS);
    await subject.limiter.take(`${RUN}:ttl`, { capacity: 60, refillPerSecond: 1 }, 3);
    const stored = `${RATE_LIMIT_KEY_PREFIX}${RUN}:ttl`;
    expect(Number(await subject.redis.hget(stored, 'tokens'))).toBeCloseTo(57, 0);
    // 3 tokens at 1 a second is 3 s to full, plus the script's one-second margin.
    const ttl = await subject.redis.pttl(stored);
    expect(ttl).toBeGreaterThan(2000);
    expect(ttl).toBeLessThanOrEqual(4000);
  });
});

describe('in-process token bucket with a controlled clock', () => {
  const start = 1_700_000_000_000;

  function clocked(options: { maxBuckets?: number } = {}) {
    const clock = { now: start };
    return { clock, limiter: new MemoryTokenBucket({ ...options, now: () => clock.now }) };
  }

  it('accrues fractions of a token between requests', async () => {
    const { clock, limiter } = clocked();
    const policy = { capacity: 3, refillPerSecond: 10 };
    await limiter.take('k', policy, 3);
    clock.now += 50;
    expect(await limiter.take('k', policy)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1 });
    clock.now += 50;
    expect(await limiter.take('k', policy)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('reports the reset as the epoch second the bucket is full again', async () => {
    const { clock, limiter } = clocked();
    expect((await limiter.take('k', DEFAULT_RATE_POLICY)).resetAt).toBe(start / 1000 + 1);
    expect((await limiter.take('k', DEFAULT_RATE_POLICY, 9)).resetAt).toBe(start / 1000 + 10);
    clock.now += 3_600_000;
    expect(await limiter.take('k', DEFAULT_RATE_POLICY)).toMatchObject({ remaining: 59, resetAt: start / 1000 + 3601 });
  });

  it('keeps memory bounded: refilled buckets are dropped first, then the least recently used', async () => {
    const { clock, limiter } = clocked({ maxBuckets: 10 });
    const policy = { capacity: 5, refillPerSecond: 1 };
    await limiter.take('peek', policy, 0);
    expect(limiter.size).toBe(0);
    for (let i = 0; i < 10; i += 1) await limiter.take(`idle-${i}`, policy);
    expect(limiter.size).toBe(10);
    clock.now += 10_000;
    // One bucket over the bound: the ten idle ones have refilled, so the sweep drops exactly them.
    await limiter.take('busy-0', policy);
    expect(limiter.size).toBe(1);
    for (let i = 1; i <= 10; i += 1) await limiter.take(`busy-${i}`, policy);
    expect(limiter.size).toBeLessThanOrEqual(10);
    // All in use, so the oldest went: busy-0 starts afresh while busy-10 still has its token spent.
    expect((await limiter.take('busy-10', policy)).remaining).toBe(3);
    expect((await limiter.take('busy-0', policy)).remaining).toBe(4);
  });
});

/** Stands in for Redis: an in-process bucket that can be made to refuse connections or hang. */
class FakeShared implements SharedRateLimiter {
  readonly backend = 'redis' as const;
  state: 'up' | 'down' | 'hung' = 'up';
  takes = 0;
  private readonly store = new MemoryTokenBucket();

  take(key: string, policy: RatePolicy, cost = 1): Promise<RateDecision> {
    this.takes += 1;
    return this.answer(() => this.store.take(key, policy, cost));
  }

  ping(): Promise<void> {
    return this.answer(async () => undefined);
  }

  async close(): Promise<void> {}

  private answer<T>(work: () => Promise<T>): Promise<T> {
    if (this.state === 'down') return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    if (this.state === 'hung') return new Promise<T>(() => undefined);
    return work();
  }
}

describe('fallback rate limiter', () => {
  const limiters: RateLimiter[] = [];
  const policy = { capacity: 3, refillPerSecond: 0.01 };

  function fallback(shared: FakeShared, options: ConstructorParameters<typeof FallbackRateLimiter>[1] = {}) {
    const limiter = new FallbackRateLimiter(shared, { callTimeoutMs: 50, probeIntervalMs: 20, ...options });
    limiters.push(limiter);
    return limiter;
  }

  async function until(condition: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !condition(); i += 1) await sleep(10);
  }

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(limiters.splice(0).map((l) => l.close()));
  });

  it('answers from in-process buckets when Redis refuses, logging once and never the key', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const shared = new FakeShared();
    const limiter = fallback(shared);
    expect(limiter.backend).toBe('redis');
    shared.state = 'down';
    const secretKey = 'landgraph_live_0123456789abcdef';
    const decisions = await Promise.all(Array.from({ length: 5 }, () => limiter.take(secretKey, policy)));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(limiter.backend).toBe('memory');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(secretKey);
    // Degraded, it stops asking Redis at all until a probe says Redis is back.
    const takesSoFar = shared.takes;
    await limiter.take('other', policy);
    expect(shared.takes).toBe(takesSoFar);
  });

  it('does not let a hung Redis stall a request beyond the call timeout', async () => {
    vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const shared = new FakeShared();
    shared.state = 'hung';
    const limiter = fallback(shared, { callTimeoutMs: 50 });
    const started = Date.now();
    expect(await limiter.take('k', policy)).toMatchObject({ allowed: true, remaining: 2 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(limiter.backend).toBe('memory');
  });

  it('returns to Redis once it answers a probe again, and says so', async () => {
    vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const info = vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    const shared = new FakeShared();
    const limiter = fallback(shared, { unavailableAtStart: new Error('connect ECONNREFUSED') });
    shared.state = 'down';
    expect(limiter.backend).toBe('memory');
    expect((await limiter.take('k', policy)).allowed).toBe(true);
    await sleep(100);
    expect(limiter.backend).toBe('memory');
    shared.state = 'up';
    await until(() => limiter.backend === 'redis');
    expect(limiter.backend).toBe('redis');
    expect(info).toHaveBeenCalledWith(expect.stringContaining('redis answering again'), expect.anything());
    const takesSoFar = shared.takes;
    // Redis never saw the degraded take, so its bucket is still full.
    expect(await limiter.take('k', policy)).toMatchObject({ allowed: true, remaining: 2 });
    expect(shared.takes).toBe(takesSoFar + 1);
  });

  it('rejects an impossible cost itself rather than treating it as an outage', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const limiter = fallback(new FakeShared());
    await expect(limiter.take('k', policy, 4)).rejects.toThrow(RangeError);
    expect(limiter.backend).toBe('redis');
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('openRateLimiter', () => {
  it('uses in-process buckets when no Redis URL is configured', async () => {
    const limiter = await openRateLimiter(undefined);
    expect(limiter.backend).toBe('memory');
    expect(await limiter.take('k', DEFAULT_RATE_POLICY)).toMatchObject({ allowed: true, remaining: 59 });
    await limiter.close();
  });

  it('starts degraded instead of failing when Redis is unreachable at start', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const limiter = await openRateLimiter('redis://127.0.0.1:1', { connectTimeoutMs: 1000 });
    try {
      expect(limiter.backend).toBe('memory');
      expect(await limiter.take('k', DEFAULT_RATE_POLICY)).toMatchObject({ allowed: true, remaining: 59 });
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      await limiter.close();
      warn.mockRestore();
    }
  });
});

describe('rateLimitHeaders', () => {
  it('gives the limit, whole remaining tokens and the reset time on an allowed request', () => {
    const headers = rateLimitHeaders({
      allowed: true,
      limit: 60,
      remaining: 41.7,
      resetAt: 1_700_000_019,
      retryAfter: 0,
    });
    expect(headers).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '41',
      'X-RateLimit-Reset': '1700000019',
    });
  });

  it('adds Retry-After in seconds only when the request is refused', () => {
    const headers = rateLimitHeaders({
      allowed: false,
      limit: 600,
      remaining: 0,
      resetAt: 1_700_000_060,
      retryAfter: 3,
    });
    expect(headers).toEqual({
      'X-RateLimit-Limit': '600',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1700000060',
      'Retry-After': '3',
    });
  });
});
