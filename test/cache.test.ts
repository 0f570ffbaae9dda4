import { NO_REDIS, REDIS_URL, redisReachable } from './support/redis-server.ts';
import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../core/cache.ts';
import { MemoryCache, RedisCache } from '../core/cache.ts';

const implementations: Array<[string, () => Promise<Cache | undefined>]> = [
  ['in-process', async () => new MemoryCache()],
  ['redis', async () => ((await redisReachable(REDIS_URL)) ? RedisCache.connect(REDIS_URL) : undefined)],
];

describe.each(implementations)('%s cache', (_name, open) => {
  let cache: Cache | undefined;
  const prefix = `landgraph-test:${process.pid}:${Date.now()}:`;

  afterAll(async () => {
    await cache?.close();
  });

  it('stores, expires and deletes values', async (ctx) => {
    cache = await open();
    if (!cache) return ctx.skip(NO_REDIS);
    await cache.set(`${prefix}a`, 'one', 60);
    expect(await cache.get(`${prefix}a`)).toBe('one');
    await cache.set(`${prefix}short`, 'gone soon', 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await cache.get(`${prefix}short`)).toBeNull();
    await cache.delete(`${prefix}a`);
    expect(await cache.get(`${prefix}a`)).toBeNull();
  });

  it('counts atomically under concurrent increments', async (ctx) => {
    cache ??= await open();
    if (!cache) return ctx.skip(NO_REDIS);
    const key = `${prefix}counter`;
    const results = await Promise.all(Array.from({ length: 50 }, () => cache!.increment(key, 2, 60)));
    expect(Math.max(...results)).toBe(100);
    expect(new Set(results).size).toBe(50);
    expect(await cache.get(key)).toBe('100');
  });
});
