import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../core/logger.ts';
import type { RateDecision, RateLimiter } from '../core/rate-limit.ts';
import { RATE_LIMIT_KEY_PREFIX, openRateLimiter } from '../core/rate-limit.ts';
import {
  HAS_REDIS_SERVER,
  NO_REDIS_SERVER,
  RedisServer,
  freePort,
  inspect,
  sleep,
  waitFor,
} from './support/redis-server.ts';

/*
 * A real redis-server, killed with SIGKILL mid-traffic and started again on the same port:
 * the rate limiter must answer every call throughout, from memory while Redis is away, and
 * go back to Redis once it is up, without a restart of the application.
 */

const RUN = `rl-outage:${process.pid}:${Date.now()}`;
// Refills faster than the traffic below spends, so every steady call is allowed on either backend.
const policy = { capacity: 1000, refillPerSecond: 1000 };

/** Calls the limiter without pause, recording every outcome, until stopped. */
class Traffic {
  readonly decisions: Array<{ backend: RateLimiter['backend']; decision: RateDecision }> = [];
  readonly failures: unknown[] = [];
  slowestMs = 0;
  private running = true;
  private readonly done: Promise<void>;

  constructor(
    private readonly limiter: RateLimiter,
    key: string,
  ) {
    this.done = this.run(key);
  }

  private async run(key: string): Promise<void> {
    // Bounded so a wedged test cannot spin forever; far more calls than the test needs.
    for (let i = 0; this.running && i < 100_000; i += 1) {
      const started = Date.now();
      try {
        const decision = await this.limiter.take(key, policy);
        this.decisions.push({ backend: this.limiter.backend, decision });
      } catch (error) {
        this.failures.push(error);
      }
      this.slowestMs = Math.max(this.slowestMs, Date.now() - started);
      await sleep(5);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

describe('rate limiting through a Redis outage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'landgraph-redis-outage-'));
  const servers: RedisServer[] = [];
  const limiters: RateLimiter[] = [];

  async function server(): Promise<RedisServer> {
    const started = new RedisServer(await freePort(), dir);
    servers.push(started);
    return started;
  }

  async function limiterFor(redis: RedisServer): Promise<RateLimiter> {
    const limiter = await openRateLimiter(redis.url, {
      callTimeoutMs: 200,
      probeIntervalMs: 100,
      connectTimeoutMs: 1000,
    });
    limiters.push(limiter);
    return limiter;
  }

  beforeAll(() => {
    // The outage is the point of these tests; its log lines are asserted, not printed.
    vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    vi.spyOn(logger, 'info').mockImplementation(() => undefined);
  });

  afterEach(() => {
    vi.mocked(logger.warn).mockClear();
    vi.mocked(logger.info).mockClear();
  });

  afterAll(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
    await Promise.all(servers.map((s) => s.kill()));
    rmSync(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('answers every call from memory while Redis is killed, then returns to Redis when it restarts', async (ctx) => {
    if (!HAS_REDIS_SERVER) return ctx.skip(NO_REDIS_SERVER);
    const redis = await server();
    await redis.start();
    const limiter = await limiterFor(redis);
    expect(limiter.backend).toBe('redis');

    const key = `${RUN}:steady`;
    const traffic = new Traffic(limiter, key);
    try {
      await waitFor('traffic through Redis', () => traffic.decisions.length >= 20);
      expect(await inspect(redis.port, (r) => r.exists(`${RATE_LIMIT_KEY_PREFIX}${key}`))).toBe(1);

      await redis.kill();
      await waitFor('the fallback to memory', () => limiter.backend === 'memory');
      const atOutage = traffic.decisions.length;
      await waitFor('traffic through the outage', () => traffic.decisions.length >= atOutage + 50);
      expect(traffic.decisions.slice(atOutage).every((d) => d.backend === 'memory' && d.decision.allowed)).toBe(true);

      // The in-process buckets are real limits, not a pass-through.
      const tight = { capacity: 5, refillPerSecond: 0.01 };
      const outageBurst = await Promise.all(Array.from({ length: 8 }, () => limiter.take(`${RUN}:tight`, tight)));
      expect(outageBurst.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false, false]);
      expect(limiter.backend).toBe('memory');

      await redis.start();
      await waitFor('the return to Redis', () => limiter.backend === 'redis');
      const atRecovery = traffic.decisions.length;
      await waitFor('traffic after recovery', () => traffic.decisions.length >= atRecovery + 20);
    } finally {
      await traffic.stop();
    }

    expect(traffic.failures).toEqual([]);
    // The restarted Redis started empty, so a stored bucket proves decisions come from Redis again
    // (and that the script was reloaded into a server that had never seen it).
    expect(await inspect(redis.port, (r) => r.exists(`${RATE_LIMIT_KEY_PREFIX}${key}`))).toBe(1);
    expect(await inspect(redis.port, (r) => r.info('commandstats'))).toMatch(/cmdstat_eval:calls=[1-9]/);
    const afterBurst = await limiter.take(`${RUN}:tight`, { capacity: 5, refillPerSecond: 0.01 });
    expect(afterBurst).toMatchObject({ allowed: true, remaining: 4 });
    expect(await inspect(redis.port, (r) => r.hget(`${RATE_LIMIT_KEY_PREFIX}${RUN}:tight`, 'tokens'))).toMatch(/^4\./);

    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(vi.mocked(logger.warn).mock.calls[0]?.[0]).toContain('redis unavailable');
    expect(JSON.stringify(vi.mocked(logger.warn).mock.calls)).not.toContain(RUN);
    expect(logger.info).toHaveBeenCalledWith(expect.stringContaining('redis answering again'), expect.anything());
  });

  it('does not let a Redis that stops answering stall requests, and returns when it answers again', async (ctx) => {
    if (!HAS_REDIS_SERVER) return ctx.skip(NO_REDIS_SERVER);
    const redis = await server();
    await redis.start();
    const limiter = await limiterFor(redis);
    const traffic = new Traffic(limiter, `${RUN}:frozen`);
    try {
      await waitFor('traffic through Redis', () => traffic.decisions.length >= 20);
      redis.freeze();
      await waitFor('the fallback to memory', () => limiter.backend === 'memory');
      const atFreeze = traffic.decisions.length;
      await waitFor('traffic while Redis is frozen', () => traffic.decisions.length >= atFreeze + 50);
      redis.thaw();
      await waitFor('the return to Redis', () => limiter.backend === 'redis');
    } finally {
      redis.thaw();
      await traffic.stop();
    }
    expect(traffic.failures).toEqual([]);
    // One call pays the 200 ms call timeout; the margin is for a loaded machine, not the design.
    expect(traffic.slowestMs).toBeLessThan(1500);
    expect(traffic.decisions.every((d) => d.decision.allowed)).toBe(true);
  });

  it('starts on in-process buckets when Redis is down at start, and moves to Redis once it is up', async (ctx) => {
    if (!HAS_REDIS_SERVER) return ctx.skip(NO_REDIS_SERVER);
    const redis = await server();
    const limiter = await limiterFor(redis);
    expect(limiter.backend).toBe('memory');
    expect(await limiter.take(`${RUN}:late`, policy)).toMatchObject({ allowed: true, remaining: 999 });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('unreachable at start'), expect.anything());

    await redis.start();
    await waitFor('the move to Redis', () => limiter.backend === 'redis');
    // Redis never saw the take made from memory, so its bucket starts full.
    expect(await limiter.take(`${RUN}:late`, policy)).toMatchObject({ allowed: true, remaining: 999 });
    expect(await inspect(redis.port, (r) => r.exists(`${RATE_LIMIT_KEY_PREFIX}${RUN}:late`))).toBe(1);
  });
});
