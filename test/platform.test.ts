import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_SCOPES } from '../core/scopes.ts';
import { DEMO_DAILY_CAP, ensureDemoKey } from '../platform/demo-key.ts';
import request from 'supertest';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setLogLevel } from '../core/logger.ts';
import { MemoryTokenBucket } from '../core/rate-limit.ts';
import { createApp } from '../rest-facade/app.ts';
import { deprecationHeaders } from '../rest-facade/versioning.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';
import { openDatabase } from '../core/db.ts';
import { KeyStore } from '../platform/keys.ts';
import { UsageMeter } from '../platform/usage.ts';

let t: TestRuntime;
let f: Fixtures;
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
const lookup = (secret: string) =>
  request(t.app).get('/api/cadastre/lookup').set(bearer(secret)).query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng });

beforeAll(async () => {
  t = await testRuntime();
  f = await loadFixtures(t.runtime.db);
});

describe('authentication', () => {
  it('answers a missing key with 401, the plain error body and WWW-Authenticate', async () => {
    const res = await request(t.app)
      .get('/api/cadastre/lookup')
      .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng })
      .expect(401);
    expect(res.body).toEqual({ success: false, error: 'Missing API key', hint: expect.any(String) });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it.each([
    ['an unknown key', 'Bearer landgraph_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed key', 'Bearer not-a-key'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
  ])('answers %s with 401 Invalid API key', async (_name, header) => {
    const res = await request(t.app)
      .get('/api/cadastre/lookup')
      .set('Authorization', header)
      .query({ lat: -36.7, lng: 144.3 });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Invalid API key');
  });

  it('stores only the SHA-256 of a secret, never the secret', async () => {
    const { key, secret } = await t.runtime.keys.create({
      name: 'hash-check',
      kind: 'live',
      scopes: ['cadastre.read'],
    });
    expect(secret).toMatch(/^landgraph_live_[A-Za-z0-9]{32}$/);
    const [row] = await t.runtime.db.query<Record<string, unknown>>('SELECT * FROM platform.api_key WHERE id = $1', [
      key.id,
    ]);
    expect(row!.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(await t.runtime.keys.list())).not.toContain(secret);
  });

  it('never writes a secret to a log line', async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      setLogLevel('debug');
      const { key, secret } = await t.runtime.keys.create({
        name: 'log-check',
        kind: 'test',
        scopes: ['cadastre.read'],
      });
      await lookup(secret).expect(200);
      // one character changed (a secret ending in X would otherwise be sent unchanged, 1 run in 62)
      await lookup(`${secret.slice(0, -1)}${secret.endsWith('X') ? 'Y' : 'X'}`).expect(401);
      const rotated = await t.runtime.keys.rotate(key.id);
      await lookup(secret).expect(401);
      await t.runtime.meter.flush();
      const logs = written.join('');
      for (const value of [secret, rotated.secret, secret.slice(15)]) expect(logs).not.toContain(value);
    } finally {
      setLogLevel('warn');
      spy.mockRestore();
    }
  });

  it('refuses a suspended key with 403 until resumed, and a revoked key for good', async () => {
    const secret = await createTestKey(t.runtime, { scopes: ['cadastre.read'] });
    const id = (await t.runtime.keys.authenticate(secret))!.id;
    await t.runtime.keys.suspend(id);
    expect((await lookup(secret).expect(403)).body.error).toBe('API key suspended');
    await t.runtime.keys.resume(id);
    await lookup(secret).expect(200);
    await t.runtime.keys.revoke(id);
    expect((await lookup(secret).expect(401)).body.error).toBe('Invalid API key');
    await expect(t.runtime.keys.resume(id)).rejects.toThrow(/revocation is final/);
  });

  it('rotates a key: the old secret fails at once, scopes and limits carry over, the new terms apply', async () => {
    const secret = await createTestKey(t.runtime, {
      scopes: ['cadastre.read', 'planning.read'],
      rateLimitPerMinute: 600,
      monthlyQuota: 5000,
    });
    const before = (await t.runtime.keys.authenticate(secret))!;
    const rotated = await t.runtime.keys.rotate(before.id);
    await lookup(secret).expect(401);
    await lookup(rotated.secret).expect(200);
    expect(rotated.key).toMatchObject({
      id: before.id,
      scopes: ['cadastre.read', 'planning.read'],
      rateLimitPerMinute: 600,
      monthlyQuota: 5000,
    });
    expect(rotated.key.rotatedAt).not.toBeNull();
    const audit = await t.runtime.db.query<{ action: string }>(
      'SELECT action FROM platform.audit_log WHERE key_id = $1 ORDER BY id',
      [before.id],
    );
    expect(audit.map((a) => a.action)).toEqual(['key.created', 'key.rotated']);
  });

  it('drops a cached key the moment another process rotates it', async () => {
    const secret = await createTestKey(t.runtime, { scopes: ['cadastre.read'] });
    await lookup(secret).expect(200); // now cached by the serving process (on PostgreSQL)
    const other = await openDatabase(testConfig());
    try {
      const rotated = await KeyStore.direct(other).rotate((await t.runtime.keys.authenticate(secret))!.id);
      await expect.poll(async () => (await lookup(secret)).status, { timeout: 2_000 }).toBe(401);
      await lookup(rotated.secret).expect(200);
    } finally {
      await other.close();
    }
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    const echoed = await lookup(t.key).set('X-Request-Id', 'client-123').expect(200);
    expect(echoed.headers['x-request-id']).toBe('client-123');
    const made = await lookup(t.key).set('X-Request-Id', '<script>').expect(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('key settings', () => {
  it('grants the bulk_export capability only when asked and refuses unknown scopes or capabilities', async () => {
    const plain = await t.runtime.keys.create({ name: 'plain', kind: 'live', scopes: ['cadastre.read'] });
    expect(plain.key.capabilities).toEqual([]);
    const exporter = await t.runtime.keys.create({
      name: 'exporter',
      kind: 'live',
      scopes: ['cadastre.read'],
      capabilities: ['bulk_export'],
    });
    expect(exporter.key.capabilities).toEqual(['bulk_export']);
    await expect(t.runtime.keys.create({ name: 'x', kind: 'live', scopes: ['cadastre.write'] })).rejects.toThrow(
      /Unknown scope: cadastre.write/,
    );
    await expect(
      t.runtime.keys.create({ name: 'x', kind: 'live', scopes: ['cadastre.read'], capabilities: ['everything'] }),
    ).rejects.toThrow(/Unknown capability: everything/);
  });

  it('makes one read-only, daily-capped demo key for the embedded default and reuses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'landgraph-demo-'));
    try {
      const secret = await ensureDemoKey(t.runtime.keys, dir);
      expect(await ensureDemoKey(t.runtime.keys, dir)).toBe(secret);
      const key = (await t.runtime.keys.authenticate(secret))!;
      expect(key).toMatchObject({ kind: 'test', dailyCap: DEMO_DAILY_CAP, scopes: [...DEMO_SCOPES] });
      expect(key.scopes).not.toContain('enrich.submit');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scopes', () => {
  it("answers 403 'Missing scope: <scope>' when the key lacks the route's scope", async () => {
    const secret = await createTestKey(t.runtime, { scopes: ['planning.read'] });
    const res = await lookup(secret).expect(403);
    expect(res.body).toMatchObject({ success: false, error: 'Missing scope: cadastre.read' });
  });

  it('gives the property graph exactly the layers the key may read', async () => {
    const secret = await createTestKey(t.runtime, { scopes: ['property-graph.read', 'cadastre.read'] });
    const res = await request(t.app)
      .get('/v1/property/graph')
      .set(bearer(secret))
      .query({ gnaf_pid: f.vicParcel.gnaf_pid })
      .expect(200);
    expect(Object.keys(res.body.layers)).toEqual(['cadastre']);
    expect(res.body.property.address).toBe(f.vicParcel.address);
  });

  it('holds GraphQL callers to the same scopes, field by field', async () => {
    const secret = await createTestKey(t.runtime, { scopes: ['property-graph.read', 'cadastre.read'] });
    const res = await request(t.app)
      .post('/graphql')
      .set(bearer(secret))
      .send({
        query:
          'query($pid: ID!) { propertyByGnafPid(gnaf_pid: $pid) { parcel_pfi cadastre { status } planning { status } } }',
        variables: { pid: f.vicParcel.gnaf_pid },
      });
    expect(res.body.data.propertyByGnafPid).toEqual({
      parcel_pfi: f.vicParcel.parcel_pfi,
      cadastre: { status: 'ok' },
      planning: null,
    });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      message: 'Missing scope: planning.read',
      path: ['propertyByGnafPid', 'planning'],
      extensions: { code: 'FORBIDDEN', http: { status: 403 } },
    });
  });

  it('refuses GraphQL operations without a key but serves the Sandbox page to a browser', async () => {
    const res = await request(t.app).post('/graphql').send({ query: '{ __typename }' }).expect(401);
    expect(res.body.error).toBe('Missing API key');
    await request(t.app).get('/graphql').set('Accept', 'text/html').expect(200);
  });
});

describe('rate limits', () => {
  it('allows the bucket, then answers 429 with Retry-After; headers on every keyed answer', async () => {
    const secret = await createTestKey(t.runtime, { scopes: ['cadastre.read'], rateLimitPerMinute: 3 });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await lookup(secret).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      remaining.push(res.headers['x-ratelimit-remaining'] as string);
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
      expect(reset).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 61);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await lookup(secret).expect(429);
    expect(limited.body.error).toMatch(/Rate limit of 3 requests per minute/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(20);
  });

  it('limits keyless calls of the open routes per client, then 429 with Retry-After; keyed calls apart', async () => {
    // its own limiter, and clients told apart behind one trusted proxy, so no other test shares the buckets;
    // 3 a minute, so the bucket cannot refill while the test runs however slow the machine
    const app = createApp({
      ...t.runtime,
      config: { ...t.runtime.config, trustProxyHops: 1, keylessRateLimitPerMinute: 3 },
      limiter: new MemoryTokenBucket(),
    });
    const point = { lat: String(f.vicParcel.lat), lng: String(f.vicParcel.lng), state: 'VIC' };
    const keyless = (client: string) =>
      request(app).get('/api/ugb/at-point').query(point).set('X-Forwarded-For', client);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await keyless('198.51.100.20');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      remaining.push(res.headers['x-ratelimit-remaining'] as string);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await keyless('198.51.100.20').expect(429);
    expect(limited.body.error).toMatch(/without an API key are limited to 3 a minute from one client/);
    expect(limited.body.hint).toMatch(/or send an API key/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // another client behind the same proxy, and a keyed call from the first, are not held back
    await keyless('198.51.100.21').expect(200);
    const ugbKey = await createTestKey(t.runtime, { scopes: ['ugb.read'] });
    await request(app)
      .get('/api/ugb/at-point')
      .query(point)
      .set('X-Forwarded-For', '198.51.100.20')
      .set(bearer(ugbKey))
      .expect(200);
  });

  it('caps a demo-style key per day', async () => {
    const secret = await createTestKey(t.runtime, { scopes: ['cadastre.read'], dailyCap: 2 });
    await lookup(secret).expect(200);
    await lookup(secret).expect(200);
    const capped = await lookup(secret).expect(429);
    expect(capped.body.error).toMatch(/capped at 2 lookups a day/);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('usage and quotas', () => {
  it('meters served calls per route group and shows a key its own usage', async () => {
    const secret = await createTestKey(t.runtime, {
      scopes: ['cadastre.read', 'property-graph.read'],
      monthlyQuota: 2,
    });
    await lookup(secret).expect(200);
    await lookup(secret).expect(200);
    await request(t.app)
      .get('/v1/property/graph')
      .set(bearer(secret))
      .query({ gnaf_pid: f.vicParcel.gnaf_pid })
      .expect(200);
    await request(t.app).get('/api/cadastre/lookup').set(bearer(secret)).query({ lat: 'x' }).expect(400); // not served, not metered
    const before = await request(t.app).get('/v1/usage').set(bearer(secret)).expect(200);
    expect(before.body.usage).toEqual([
      { route_group: 'cadastre', calls: 2 },
      { route_group: 'property', calls: 1 },
    ]);
    await t.runtime.meter.flush();
    const after = await request(t.app).get('/v1/usage').set(bearer(secret)).expect(200);
    expect(after.body).toMatchObject({ total: 3, monthly_quota: 2, billing_review: true });
    // Over the contracted volume is a billing review, never an automatic 429.
    await lookup(secret).expect(200);
  });

  it('meters each call in the UTC month it was made, across a month boundary either way', async () => {
    const { key } = await t.runtime.keys.create({ name: 'month-edge', kind: 'test', scopes: ['cadastre.read'] });
    const meter = new UsageMeter(t.runtime.db);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-10-31T23:59:59.000Z'));
      meter.record(key.id, 'cadastre');
      vi.setSystemTime(new Date('2026-11-01T00:00:00.000Z'));
      meter.record(key.id, 'cadastre');
      meter.record(key.id, 'cadastre');
      vi.setSystemTime(new Date('2026-09-15T12:00:00.000Z')); // a clock set back
      meter.record(key.id, 'cadastre');
    } finally {
      vi.useRealTimers();
    }
    const calls = async (month: string) => (await meter.usage(key.id, month))[0]?.calls ?? 0;
    expect([await calls('2026-09'), await calls('2026-10'), await calls('2026-11')]).toEqual([1, 1, 2]);
    await meter.close();
    expect(await calls('2026-11')).toBe(2); // written, not only pending
  });
});

describe('datasets', () => {
  it('serves test keys only the sandbox and live keys only live data', async () => {
    const { lat, lng } = f.vicParcel;
    const d = 0.0002;
    const square = `MULTIPOLYGON(((${lng - d} ${lat - d},${lng + d} ${lat - d},${lng + d} ${lat + d},${lng - d} ${lat + d},${lng - d} ${lat - d})))`;
    await t.runtime.db.exec(`
      INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, area_m2, geom)
        VALUES ('live', 'VIC', 'LIVE-ONLY-1', 800, ST_GeomFromText('${square}', 4326));
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
        VALUES ('live', 'cadastre', 'VIC', 'Test credit for live data', 'CC BY 4.0', 'live-test');`);
    t.runtime.catalog.invalidate();
    try {
      const testKey = await createTestKey(t.runtime, { scopes: ['cadastre.read'] });
      const { secret: liveKey } = await t.runtime.keys.create({
        name: 'live',
        kind: 'live',
        scopes: ['cadastre.read'],
        rateLimitPerMinute: 1000,
      });
      const sandbox = await lookup(testKey).expect(200);
      expect(sandbox.body.data.properties.parcel_pfi).toBe(f.vicParcel.parcel_pfi);
      expect(sandbox.body.attribution).toMatch(/synthetic/i);
      const live = await lookup(liveKey).expect(200);
      expect(live.body.data.properties.parcel_pfi).toBe('LIVE-ONLY-1');
      expect(live.body.attribution).toBe('Test credit for live data');
      await request(t.app)
        .get('/api/cadastre/lookup')
        .set(bearer(testKey))
        .query({ pfi: 'LIVE-ONLY-1', state: 'VIC' })
        .expect(404);
      await request(t.app)
        .get('/api/cadastre/lookup')
        .set(bearer(liveKey))
        .query({ pfi: f.vicParcel.parcel_pfi, state: 'VIC' })
        .expect(404);
    } finally {
      await t.runtime.db.exec(
        `DELETE FROM cadastre.parcel WHERE dataset = 'live'; DELETE FROM public.dataset_source WHERE dataset = 'live';`,
      );
      t.runtime.catalog.invalidate();
    }
  });
});

describe('versioning', () => {
  it('marks a deprecated route with Deprecation, Sunset and a Link to the changelog', () => {
    expect(deprecationHeaders({ deprecated: { since: '2026-11-01', sunset: '2027-11-30' } })).toEqual({
      Deprecation: '@1793491200', // 2026-11-01T00:00:00Z
      Sunset: 'Tue, 30 Nov 2027 00:00:00 GMT',
      Link: '</changelog>; rel="deprecation"; type="text/markdown"',
    });
    expect(deprecationHeaders({})).toEqual({});
  });

  it('serves the public changelog without a key', async () => {
    const res = await request(t.app).get('/changelog').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/markdown/);
    expect(res.text).toMatch(/^# Changelog/);
  });
});
