import { NO_REDIS, REDIS_URL, redisReachable } from './support/redis-server.ts';
import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../core/cache.ts';
import { MemoryCache, RedisCache } from '../core/cache.ts';
import { BoundedMemo } from '../core/bounded-memo.ts';

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

describe('bounded memo (statement names, prepared operations, row converters)', () => {
  it('works a value out once per key, keeps null as a value, and stays within its bound', () => {
    const memo = new BoundedMemo<string, string | null>(2);
    let made = 0;
    const make = (key: string) => {
      made += 1;
      return key === 'none' ? null : key.toUpperCase();
    };
    expect(memo.get('a', make)).toBe('A');
    expect(memo.get('a', make)).toBe('A');
    expect(memo.get('none', make)).toBeNull();
    expect(memo.get('none', make)).toBeNull();
    expect(made).toBe(2);
    expect(memo.get('b', make)).toBe('B'); // a third key: the full memo drops its coldest key ('a')
    expect(memo.get('b', make)).toBe('B');
    expect(made).toBe(3);
    expect(memo.get('a', make)).toBe('A');
    expect(made).toBe(4);
    memo.clear();
    expect(memo.get('b', make)).toBe('B');
    expect(made).toBe(5);
  });

  it('evicts the least recently used key, so a stream of new keys never makes a hot key cold', () => {
    const memo = new BoundedMemo<string, string>(3);
    const made: string[] = [];
    const make = (key: string) => {
      made.push(key);
      return key.toUpperCase();
    };
    memo.get('hot', make);
    for (let i = 0; i < 100; i += 1) {
      memo.get(`cold-${i}`, make);
      expect(memo.get('hot', make)).toBe('HOT'); // each use makes it the most recent again
    }
    expect(made.filter((key) => key === 'hot')).toHaveLength(1);
    expect(memo.size).toBe(3);
    expect(memo.has('cold-99')).toBe(true);
    expect(memo.has('cold-98')).toBe(true);
    expect(memo.has('cold-97')).toBe(false);
    // Without a use, the hot key is the oldest and goes first.
    memo.get('new-1', make);
    memo.get('new-2', make);
    memo.get('new-3', make);
    expect(memo.has('hot')).toBe(false);
    expect(() => new BoundedMemo(0)).toThrow(RangeError);
  });
});
