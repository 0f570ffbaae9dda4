import { Redis } from 'ioredis';
import { logger } from './logger.ts';
import type { RateLimiter } from './rate-limit/bucket.ts';
import { withDeadline } from './rate-limit/deadline.ts';
import type { FallbackRateLimiterOptions } from './rate-limit/fallback.ts';
import { FallbackRateLimiter } from './rate-limit/fallback.ts';
import { MemoryTokenBucket } from './rate-limit/memory.ts';
import { RedisTokenBucket } from './rate-limit/redis.ts';

export type { RateDecision, RateLimiter, RatePolicy } from './rate-limit/bucket.ts';
export { DEFAULT_RATE_POLICY, rateLimitHeaders } from './rate-limit/bucket.ts';
export type { FallbackRateLimiterOptions, SharedRateLimiter } from './rate-limit/fallback.ts';
export { FallbackRateLimiter } from './rate-limit/fallback.ts';
export type { MemoryTokenBucketOptions } from './rate-limit/memory.ts';
export { MemoryTokenBucket } from './rate-limit/memory.ts';
export { RATE_LIMIT_KEY_PREFIX, RedisTokenBucket } from './rate-limit/redis.ts';

export interface OpenRateLimiterOptions extends Pick<FallbackRateLimiterOptions, 'callTimeoutMs' | 'probeIntervalMs'> {
  /** How long start-up waits for Redis before carrying on degraded. */
  connectTimeoutMs?: number;
}

/**
 * The service's rate limiter: Redis-backed (shared by every process) when a URL is given,
 * falling back to in-process buckets whenever Redis is away, including at start, so an
 * outage never stops the service from starting or answering. Without a URL, in-process only.
 */
export async function openRateLimiter(redisUrl?: string, options: OpenRateLimiterOptions = {}): Promise<RateLimiter> {
  if (!redisUrl) return new MemoryTokenBucket();
  // As RedisCache.connect: commands fail at once while disconnected instead of queueing, and
  // ioredis's default retry strategy keeps reconnecting for as long as the process lives.
  const redis = new Redis(redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  // Every failed reconnect emits an error; the limiter reports an outage once, so these are noise.
  redis.on('error', (error: Error) => logger.debug('rate limit: redis connection error', { error: error.message }));
  const shared = new RedisTokenBucket(redis);
  const { connectTimeoutMs = 2000, ...fallbackOptions } = options;
  try {
    await withDeadline(redis.connect(), connectTimeoutMs, 'redis connect');
    return new FallbackRateLimiter(shared, fallbackOptions);
  } catch (error) {
    return new FallbackRateLimiter(shared, { ...fallbackOptions, unavailableAtStart: error });
  }
}
