import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../cli/serve.ts';
import { serve } from '../cli/serve.ts';
import { createTestKey, testConfig } from './support/runtime.ts';
import { RATE_LIMIT_KEY_PREFIX } from '../core/rate-limit.ts';
import { HAS_REDIS_SERVER, NO_REDIS_SERVER, RedisServer, freePort, inspect, waitFor } from './support/redis-server.ts';

/*
 * The whole service on a real Redis that dies mid-traffic: lookups keep being answered, rate
 * limited from memory, health says so; when Redis is back the service returns to it by itself.
 */
describe.skipIf(!HAS_REDIS_SERVER)(
  `the service through a Redis outage${HAS_REDIS_SERVER ? '' : ` (${NO_REDIS_SERVER})`}`,
  () => {
    let redis: RedisServer;
    let server: RunningServer;
    let key: string;
    let point: { lat: number; lng: number };
    const dir = mkdtempSync(join(tmpdir(), 'landgraph-redis-'));

    beforeAll(async () => {
      redis = new RedisServer(await freePort(), dir);
      await redis.start();
      server = await serve(testConfig({ PORT: '0', REDIS_URL: redis.url }));
      key = await createTestKey(server.runtime, { scopes: ['cadastre.read'], rateLimitPerMinute: 100_000 });
      const [row] = await server.runtime.db.query<{ lat: number; lng: number }>(
        `SELECT ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng
       FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'VIC' ORDER BY parcel_pfi LIMIT 1`,
      );
      point = row!;
    });

    afterAll(async () => {
      await server?.stop();
      await redis?.kill();
      rmSync(dir, { recursive: true, force: true });
    });

    const lookup = () =>
      request(server.url).get('/api/cadastre/lookup').set('Authorization', `Bearer ${key}`).query(point);
    const health = async () =>
      (await request(server.url).get('/api/health')).body as {
        rateLimiter: string;
        cache: string;
        checks: { cache: { status: string } };
      };

    it('keeps answering while Redis is down and goes back to Redis when it returns', async () => {
      expect((await health()).rateLimiter).toBe('redis');
      for (let i = 0; i < 5; i += 1) expect((await lookup()).status).toBe(200);

      await redis.kill();
      const during: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const res = await lookup();
        during.push(res.status);
        expect(res.headers['x-ratelimit-limit']).toBe('100000');
      }
      expect(during.every((status) => status === 200)).toBe(true);
      const down = await health();
      expect(down.rateLimiter).toBe('memory');
      expect(down.checks.cache.status).toBe('unhealthy');
      // The in-process fallbacks serve: degraded, still 200, so a load balancer keeps the instance.
      const downResponse = await request(server.url).get('/api/health').expect(200);
      expect(downResponse.body).toMatchObject({
        status: 'degraded',
        cache: 'memory',
        checks: { database: { status: 'healthy' } },
      });

      await redis.start();
      await waitFor('the limiter to return to Redis', async () => {
        await lookup();
        return (await health()).rateLimiter === 'redis';
      });
      const back = await request(server.url).get('/api/health').expect(200);
      expect(back.body).toMatchObject({
        status: 'healthy',
        rateLimiter: 'redis',
        checks: { cache: { status: 'healthy' } },
      });
      expect((await lookup()).status).toBe(200);
    });
  },
);

/*
 * Redis down when the service starts: it starts anyway, answers from the in-process cache and
 * limiter (degraded, not unhealthy), and moves onto Redis by itself once one comes up.
 */
describe.skipIf(!HAS_REDIS_SERVER)(
  `the service started while Redis is down${HAS_REDIS_SERVER ? '' : ` (${NO_REDIS_SERVER})`}`,
  () => {
    let redis: RedisServer;
    let server: RunningServer;
    const dir = mkdtempSync(join(tmpdir(), 'landgraph-redis-late-'));

    beforeAll(async () => {
      // Nothing listens on the port yet: the service is pointed at a Redis that is not there.
      redis = new RedisServer(await freePort(), dir);
      server = await serve(testConfig({ PORT: '0', REDIS_URL: redis.url }));
    });

    afterAll(async () => {
      await server?.stop();
      await redis?.kill();
      rmSync(dir, { recursive: true, force: true });
    });

    it('starts, serves from memory, and uses Redis once it comes up', async () => {
      const { runtime } = server;
      const { key, secret } = await runtime.keys.create({
        name: 'late-redis',
        kind: 'test',
        scopes: ['cadastre.read'],
        rateLimitPerMinute: 100_000,
        dailyCap: 1000,
      });
      const [point] = await runtime.db.query<{ lat: number; lng: number }>(
        `SELECT ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng
         FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'VIC' ORDER BY parcel_pfi LIMIT 1`,
      );
      const lookup = () =>
        request(server.url).get('/api/cadastre/lookup').set('Authorization', `Bearer ${secret}`).query(point!);

      const before = await request(server.url).get('/api/health').expect(200);
      expect(before.body).toMatchObject({
        status: 'degraded',
        cache: 'memory',
        rateLimiter: 'memory',
        checks: { cache: { status: 'unhealthy' }, database: { status: 'healthy' } },
      });
      for (let i = 0; i < 3; i += 1) expect((await lookup()).status).toBe(200);

      await redis.start();
      await waitFor('the cache and the limiter to move onto Redis', async () => {
        const body = (await request(server.url).get('/api/health')).body as { cache: string; rateLimiter: string };
        return body.cache === 'redis' && body.rateLimiter === 'redis';
      });
      const after = await request(server.url).get('/api/health').expect(200);
      expect(after.body).toMatchObject({ status: 'healthy', checks: { cache: { status: 'healthy' } } });

      expect((await lookup()).status).toBe(200);
      const day = new Date().toISOString().slice(0, 10);
      const stored = await inspect(redis.port, async (client) => ({
        bucket: await client.exists(`${RATE_LIMIT_KEY_PREFIX}${key.id}`),
        daily: await client.get(`landgraph:daily:${key.id}:${day}`),
      }));
      // The token bucket and the daily count of the call after Redis came up live in Redis now.
      expect(stored).toEqual({ bucket: 1, daily: '1' });
    });
  },
);
