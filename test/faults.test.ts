import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import type { Runtime } from '../app/runtime.ts';
import { startRuntime } from '../app/runtime.ts';
import { newSecret } from '../platform/secrets.ts';
import { UsageMeter } from '../platform/usage.ts';
import { createApp } from '../rest-facade/app.ts';
import type { ArcGisTestServer } from './support/arcgis-server.ts';
import { startArcGisServer } from './support/arcgis-server.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import { captureLog } from './support/log-capture.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';
import { TcpProxy } from './support/tcp-proxy.ts';

/*
 * Faults with real parts: the test database reached through a TCP relay that the test cuts,
 * which to the service is a database that crashed or fell off the network.
 */

/** A second handle on the test database, through a relay the test can cut. */
async function databaseBehindProxy(): Promise<{ db: Database; proxy: TcpProxy; close(): Promise<void> }> {
  const { runtime } = await testRuntime();
  const target = new URL(runtime.db.url);
  const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  const db = await openDatabase({
    databaseUrl: TcpProxy.rewrite(runtime.db.url, proxy.port),
    dataDir: mkdtempSync(join(tmpdir(), 'landgraph-faults-')),
    databasePoolMax: 2,
  });
  return {
    db,
    proxy,
    async close() {
      proxy.up();
      await db.close().catch(() => undefined);
      await proxy.close();
    },
  };
}

describe('usage meter during a long database outage', () => {
  let behind: Awaited<ReturnType<typeof databaseBehindProxy>>;
  beforeAll(async () => {
    behind = await databaseBehindProxy();
  });
  afterAll(async () => {
    await behind?.close();
  });

  it('keeps one counter per key, month and group however many flushes fail, drops new counters past its bound and logs them', async () => {
    const { runtime } = await testRuntime();
    const { key: a } = await runtime.keys.create({ name: 'meter-a', kind: 'test', scopes: ['cadastre.read'] });
    const { key: b } = await runtime.keys.create({ name: 'meter-b', kind: 'test', scopes: ['cadastre.read'] });
    const meter = new UsageMeter(behind.db, { maxPending: 3, flushIntervalMs: 3_600_000 });
    const log = captureLog();
    try {
      behind.proxy.down();
      for (let i = 0; i < 1000; i += 1) meter.record(a.id, 'cadastre');
      for (let i = 0; i < 10; i += 1) meter.record(a.id, 'address');
      for (let i = 0; i < 5; i += 1) meter.record(b.id, 'cadastre');
      // Failed flushes put their counts back once, not once per attempt.
      for (let attempt = 0; attempt < 4; attempt += 1) await meter.flush();
      for (let i = 0; i < 7; i += 1) meter.record(b.id, 'planning');
      meter.record(a.id, 'cadastre');
      await meter.flush();
      expect(meter.pendingCounters).toBe(3);
      expect(meter.dropped).toBe(7);
      const dropped = log.lines.filter((line) => line.message.startsWith('usage meter full'));
      expect(dropped).toEqual([expect.objectContaining({ level: 'error', droppedCalls: 7, maxPending: 3 })]);
      expect(log.lines.filter((line) => line.message.startsWith('usage flush failed')).length).toBe(5);

      behind.proxy.up();
      await meter.flush();
      expect(meter.pendingCounters).toBe(0);
      const rows = await runtime.db.query<{ key_id: string; route_group: string; calls: string }>(
        `SELECT key_id, route_group, calls::text AS calls FROM platform.usage_monthly
         WHERE key_id = ANY($1::text[]) ORDER BY key_id = $2 DESC, route_group`,
        [[a.id, b.id], a.id],
      );
      expect(rows).toEqual([
        { key_id: a.id, route_group: 'address', calls: '10' },
        { key_id: a.id, route_group: 'cadastre', calls: '1001' },
        { key_id: b.id, route_group: 'cadastre', calls: '5' },
      ]);
    } finally {
      log.restore();
      behind.proxy.up();
      await meter.close();
    }
  });

  it('says how many calls it could not write when it shuts down during the outage', async () => {
    const { runtime } = await testRuntime();
    const { key } = await runtime.keys.create({ name: 'meter-shutdown', kind: 'test', scopes: ['cadastre.read'] });
    const meter = new UsageMeter(behind.db, { flushIntervalMs: 3_600_000 });
    const log = captureLog();
    behind.proxy.down();
    try {
      for (let i = 0; i < 4; i += 1) meter.record(key.id, 'cadastre');
      meter.record(key.id, 'address');
      await meter.close();
    } finally {
      log.restore();
      behind.proxy.up();
    }
    expect(log.lines.filter((line) => line.message.startsWith('usage not written at shutdown'))).toEqual([
      expect.objectContaining({ level: 'error', calls: 5, counters: 2 }),
    ]);
  });

  it('writes a batch once even when the quota check after it fails', async () => {
    const { runtime } = await testRuntime();
    const { key } = await runtime.keys.create({
      name: 'meter-quota',
      kind: 'test',
      scopes: ['cadastre.read'],
      monthlyQuota: 1,
    });
    const meter = new UsageMeter(runtime.db, { flushIntervalMs: 3_600_000 });
    // The audit log is where an over-quota flag is written: without it the check fails after the write.
    await runtime.db.exec('ALTER TABLE platform.audit_log RENAME TO audit_log_away');
    try {
      meter.record(key.id, 'cadastre');
      meter.record(key.id, 'cadastre');
      await meter.flush();
      await meter.flush();
    } finally {
      await runtime.db.exec('ALTER TABLE platform.audit_log_away RENAME TO audit_log');
      await meter.close();
    }
    expect(await meter.usage(key.id, new Date().toISOString().slice(0, 7))).toEqual([
      { route_group: 'cadastre', calls: 2 },
    ]);
  });
});

describe('a database outage', () => {
  let behind: Awaited<ReturnType<typeof databaseBehindProxy>>;
  let runtime: Runtime;
  let app: ReturnType<typeof createApp>;
  let key: string;
  let point: { lat: number; lng: number };

  beforeAll(async () => {
    behind = await databaseBehindProxy();
    runtime = await startRuntime(testConfig(), { prepare: false, db: behind.db });
    app = createApp(runtime);
    key = await createTestKey(runtime, { scopes: ['cadastre.read', 'ugb.read'] });
    const [row] = await runtime.db.query<{ lat: number; lng: number }>(
      `SELECT ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng
       FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'VIC' ORDER BY parcel_pfi LIMIT 1`,
    );
    point = row!;
  });
  afterAll(async () => {
    behind?.proxy.up();
    await runtime?.close();
    await behind?.close();
  });

  const calls = () => ({
    'a known key': request(app).get('/api/cadastre/lookup').set('Authorization', `Bearer ${key}`).query(point),
    'an unknown key': request(app)
      .get('/api/cadastre/bbox')
      .set('Authorization', `Bearer ${newSecret('test')}`)
      .query({ bbox: '144.28,-36.72,144.29,-36.71' }),
    'a keyless route': request(app).get('/api/ugb/at-point').query({ lat: -37.54, lng: 144.88 }),
    'GraphQL with a key': request(app).post('/graphql').set('Authorization', `Bearer ${key}`).send({
      query: 'query ($lat: Float!, $lng: Float!) { parcelAt(lat: $lat, lng: $lng, state: "VIC") { status } }',
      variables: point,
    }),
  });

  it('answers 503, retryable with Retry-After, on every route for known, unknown and no keys; logs each with its request id; recovers at once', async () => {
    expect((await calls()['a known key']).status).toBe(200);
    const log = captureLog();
    behind.proxy.down();
    try {
      for (const [who, call] of Object.entries(calls())) {
        const res = await call;
        expect({ who, status: res.status }).toEqual({ who, status: 503 });
        expect(res.headers['retry-after']).toBe('5');
        // A key the service still holds in memory reaches the graph, which answers in GraphQL's shape.
        if (Array.isArray(res.body.errors)) {
          expect(res.body.errors[0]).toMatchObject({
            message: 'The service is temporarily unavailable.',
            extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503 } },
          });
        } else {
          expect(res.body).toMatchObject({ success: false, retryable: true });
          expect(res.body.error).toBe('The service is temporarily unavailable.');
        }
        const id = res.headers['x-request-id'] as string;
        const line = log.lines.find((l) => l.message === 'request failed' && l.requestId === id);
        expect(line, `log line for ${who}`).toMatchObject({ level: 'error', status: 503, code: 'SERVICE_UNAVAILABLE' });
        expect(line!.route).toMatch(/^\/(api|graphql)/);
        expect(line!.cause).toMatch(/\S/);
        // An outage answers many calls alike: no stack per call.
        expect(line).not.toHaveProperty('stack');
      }
      const health = await request(app).get('/api/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'unhealthy', checks: { database: { status: 'unhealthy' } } });
    } finally {
      log.restore();
      behind.proxy.up();
    }
    expect((await calls()['a known key']).status).toBe(200);
  });
});

describe('the rule for failures behind the service, across routes', () => {
  let behind: Awaited<ReturnType<typeof databaseBehindProxy>>;
  let source: ArcGisTestServer;
  let runtime: Runtime;
  let app: ReturnType<typeof createApp>;
  let liveKey: string;
  let parcel: Fixtures['vicParcel'];

  beforeAll(async () => {
    const shared = (await testRuntime()).runtime;
    parcel = (await loadFixtures(shared.db)).vicParcel;
    // The state's live cadastre service, which the test fails; a live key reads it and live G-NAF.
    source = await startArcGisServer({ Vicmap_Parcel: { features: [] } });
    await shared.db.exec(`
      INSERT INTO address.locality (dataset, locality_pid, locality_name, state, postcode)
        SELECT 'live', l.locality_pid, l.locality_name, l.state, l.postcode FROM address.locality l
        JOIN address.address_detail a ON a.dataset = l.dataset AND a.locality_pid = l.locality_pid
        WHERE a.dataset = 'sandbox' AND a.gnaf_pid = '${parcel.gnaf_pid}';
      INSERT INTO address.street_locality (dataset, street_locality_pid, locality_pid, street_name, street_type_code, street_suffix_code)
        SELECT 'live', s.street_locality_pid, s.locality_pid, s.street_name, s.street_type_code, s.street_suffix_code
        FROM address.street_locality s JOIN address.address_detail a
          ON a.dataset = s.dataset AND a.street_locality_pid = s.street_locality_pid
        WHERE a.dataset = 'sandbox' AND a.gnaf_pid = '${parcel.gnaf_pid}';
      INSERT INTO address.address_detail (dataset, gnaf_pid, street_locality_pid, locality_pid, state, postcode,
          number_first, number_last, lot_number, flat_number, formatted_address, search_key, geocode_type, geom)
        SELECT 'live', gnaf_pid, street_locality_pid, locality_pid, state, postcode, number_first, number_last,
          lot_number, flat_number, formatted_address, search_key, geocode_type, geom
        FROM address.address_detail WHERE dataset = 'sandbox' AND gnaf_pid = '${parcel.gnaf_pid}';
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
        VALUES ('live', 'address', 'VIC', 'Incorporates or developed using G-NAF (c) Geoscape Australia', 'Open G-NAF EULA', 'gnaf-test');`);
    behind = await databaseBehindProxy();
    const config = testConfig({
      LANDGRAPH_CADASTRE_LIVE: `VIC=${source.layerUrl('Vicmap_Parcel')}`,
      LANDGRAPH_CADASTRE_LIVE_TIMEOUT_MS: '5000', // the fake service is local; a loaded machine can be slow
    });
    runtime = await startRuntime(config, { prepare: false, db: behind.db });
    app = createApp(runtime);
    liveKey = await createTestKey(runtime, { kind: 'live' });
  });
  afterAll(async () => {
    source?.failWith(null);
    behind?.proxy.up();
    await runtime?.close();
    await behind?.close();
    await source?.close();
    const shared = (await testRuntime()).runtime;
    await shared.db.exec(`
      DELETE FROM address.address_detail WHERE dataset = 'live';
      DELETE FROM address.street_locality WHERE dataset = 'live';
      DELETE FROM address.locality WHERE dataset = 'live';
      DELETE FROM public.dataset_source WHERE dataset = 'live';`);
    shared.catalog.invalidate();
  });

  /** Two routes that read the same cadastre source: by point, and by address (DESIGN.md §4). */
  const calls = () => ({
    lookup: request(app)
      .get('/api/cadastre/lookup')
      .set('Authorization', `Bearer ${liveKey}`)
      .query({ lat: parcel.lat, lng: parcel.lng, state: 'VIC' }),
    'by-address': request(app)
      .get('/api/cadastre/by-address')
      .set('Authorization', `Bearer ${liveKey}`)
      .query({ q: parcel.address }),
  });

  it('answers the same failure with the same status on every route: a source down is 502, the database down 503', async () => {
    source.failWith({ kind: 'http', status: 500 });
    try {
      for (const [route, call] of Object.entries(calls())) {
        const res = await call;
        expect({ route, status: res.status }).toEqual({ route, status: 502 });
        expect(res.headers['retry-after'], route).toBe('5');
        expect(res.body, route).toMatchObject({ success: false, data: null, retryable: true });
        expect(res.body.error, route).toMatch(/cadastre source failed/);
      }
    } finally {
      source.failWith(null);
    }
    behind.proxy.down();
    try {
      for (const [route, call] of Object.entries(calls())) {
        const res = await call;
        expect({ route, status: res.status }).toEqual({ route, status: 503 });
        expect(res.headers['retry-after'], route).toBe('5');
        expect(res.body, route).toMatchObject({
          success: false,
          retryable: true,
          error: 'The service is temporarily unavailable.',
        });
      }
    } finally {
      behind.proxy.up();
    }
  });
});

describe('server errors in the log', () => {
  it('logs a 500 with the request id the caller is told to quote, the route and the cause, and tells the caller none of it', async () => {
    const { app, key, runtime } = await testRuntime();
    const log = captureLog();
    // A table gone from under a route: a fault of ours, not a passing outage.
    await runtime.db.exec('ALTER TABLE platform.usage_monthly RENAME TO usage_monthly_away');
    let res: request.Response;
    try {
      res = await request(app)
        .get('/v1/usage')
        .set('Authorization', `Bearer ${key}`)
        .set('X-Request-Id', 'quote-me-42');
    } finally {
      await runtime.db.exec('ALTER TABLE platform.usage_monthly_away RENAME TO usage_monthly');
      log.restore();
    }
    expect(res.status).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.body).toEqual({
      success: false,
      error: 'The request could not be completed.',
      hint: 'Retry later; if it persists, contact support with the X-Request-Id.',
    });
    const lines = log.lines.filter((line) => line.requestId === 'quote-me-42');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'request failed',
        method: 'GET',
        route: '/v1/usage',
        status: 500,
        code: 'INTERNAL',
        cause: expect.stringMatching(/usage_monthly/),
        stack: expect.stringMatching(/\n\s+at /),
      }),
    ]);
  });
});

/** Polls `condition` until it holds; the test's own timeout bounds the wait. */
async function eventually(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('notifications across a database outage', () => {
  it('listens again by itself after the connection drops, and says so once, since notifications may have been missed', async (ctx) => {
    const { runtime } = await testRuntime();
    // PGlite's socket does not pass NOTIFY between connections; key caches there are off (platform/keys.ts).
    if (runtime.db.kind === 'pglite') return ctx.skip('notifications need PostgreSQL (DATABASE_URL)');
    const behind = await databaseBehindProxy();
    const channel = `faults_${process.pid}`;
    const heard: string[] = [];
    const stop = await behind.db.listen(channel, (payload) => heard.push(payload));
    try {
      await runtime.db.query('SELECT pg_notify($1, $2)', [channel, 'before']);
      await eventually(() => heard.includes('before'));
      behind.proxy.down();
      behind.proxy.up();
      await eventually(() => heard.includes(''));
      await runtime.db.query('SELECT pg_notify($1, $2)', [channel, 'after']);
      await eventually(() => heard.includes('after'));
      expect(heard).toEqual(['before', '', 'after']);
    } finally {
      await stop();
      await behind.close();
    }
  });
});
