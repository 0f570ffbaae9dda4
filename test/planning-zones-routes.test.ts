import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StateCode } from '../core/geo.ts';
import type { Graph } from '../gateway/graph.ts';
import type { Runtime } from '../app/runtime.ts';
import { startRuntime } from '../app/runtime.ts';
import { createApp } from '../rest-facade/app.ts';
import type { ArcGisTestServer } from './support/arcgis-server.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import { BENDIGO, SYDNEY, startPlanningServices } from './support/planning-services.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';
import type { WfsTestServer } from './support/wfs-server.ts';

let wfs: WfsTestServer;
let arcgis: ArcGisTestServer;

beforeAll(async () => {
  ({ wfs, arcgis } = await startPlanningServices());
});

// A failing test must not leave a server failing for the next.
afterEach(() => {
  wfs.failWith(null);
  arcgis.failWith(null);
});

afterAll(async () => {
  await wfs?.close();
  await arcgis?.close();
});

describe('planning-zone service routes and live lookups through the REST facade', () => {
  let runtime: Runtime;
  let app: ReturnType<typeof createApp>;
  let f: Fixtures;
  let liveKey: string;
  let testKey: string;
  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
  const VIC_PROVIDER = 'Vicmap Planning, Department of Transport and Planning (Victoria)';
  const NSW_PROVIDER = 'NSW Planning Portal (EPI Primary Planning Layers: Land Zoning)';
  const SANDBOX = 'Landgraph sandbox (synthetic demo data)';
  const UNSUPPORTED: StateCode[] = ['SA', 'WA', 'TAS', 'NT', 'ACT'];
  const unsupported = (state: StateCode) => ({
    status: 'unsupported',
    serviceType: 'none',
    provider: 'none',
    successRate: null,
    errorCount: 0,
    message: `No planning source for ${state}: no database mirror holds it and no live service is configured.`,
  });

  beforeAll(async () => {
    const shared = await testRuntime();
    f = await loadFixtures(shared.runtime.db);
    const config = testConfig({
      LANDGRAPH_PLANNING_LIVE: `VIC=wfs:${wfs.serviceUrl},NSW=arcgis:${arcgis.layerUrl('Planning/EPI_Primary_Planning_Layers', 2)}`,
      // generous: the fake services are local, and a loaded CI machine once took over 500 ms to answer
      LANDGRAPH_PLANNING_LIVE_TIMEOUT_MS: '5000',
      LANDGRAPH_PLANNING_LIVE_RETRIES: '0',
      LANDGRAPH_PLANNING_CIRCUIT_THRESHOLD: '2',
      LANDGRAPH_PLANNING_CACHE_TTL_S: '60',
    });
    runtime = await startRuntime(config, { db: shared.runtime.db, prepare: false });
    app = createApp(runtime);
    liveKey = await createTestKey(runtime, { kind: 'live' });
    testKey = await createTestKey(runtime);
  });

  afterAll(async () => {
    wfs.failWith(null);
    await runtime?.close();
  });

  const graphAt = (key: string, point: { lat: number; lng: number }, state: string) =>
    request(app)
      .get('/v1/property/graph')
      .query({ lat: point.lat, lng: point.lng, state })
      .set('Authorization', `Bearer ${key}`);

  it('answers the coverage of every state, by the mirror or a live service (spec 2.15)', async () => {
    const res = await request(app).get('/api/planning-zones/coverage').expect(200);
    expect(res.body).toEqual({
      timestamp: expect.stringMatching(ISO),
      coverage: {
        supported: ['NSW', 'VIC', 'QLD'],
        unsupported: UNSUPPORTED,
        totalStates: 8,
        supportedCount: 3,
        coveragePercentage: 37.5,
      },
      details: {
        NSW: { supported: true, protocol: 'arcgis-rest', provider: NSW_PROVIDER },
        VIC: { supported: true, protocol: 'wfs', provider: VIC_PROVIDER },
        QLD: { supported: true, protocol: 'database-mirror', provider: SANDBOX },
        ...Object.fromEntries(UNSUPPORTED.map((s) => [s, { supported: false, protocol: 'none', provider: 'none' }])),
      },
    });
  });

  it('answers 200 healthy with every adapter by state (spec 2.13), without asking live services a mirror fronts', async () => {
    const asked = wfs.requests.length + arcgis.requests.length;
    const res = await request(app).get('/api/planning-zones/health').expect(200);
    const live = (serviceType: string, provider: string, service: string) => ({
      status: 'healthy',
      serviceType,
      provider,
      successRate: null,
      errorCount: 0,
      message: `Serves the database mirror (sandbox) first, the ${service} where it does not reach (live keys only): no live calls yet.`,
    });
    expect(res.body).toEqual({
      status: 'healthy',
      timestamp: expect.stringMatching(ISO),
      responseTime: expect.any(Number),
      coverage: { statesSupported: ['NSW', 'VIC', 'QLD'], statesCount: 3, totalStates: 8, coveragePercentage: 37.5 },
      adapters: {
        NSW: live('arcgis-rest', NSW_PROVIDER, 'live NSW planning service'),
        VIC: live('wfs', VIC_PROVIDER, 'live VIC planning service'),
        QLD: {
          status: 'healthy',
          serviceType: 'database-mirror',
          provider: SANDBOX,
          successRate: null,
          errorCount: 0,
          message: expect.stringMatching(
            /^Serves the database mirror \(sandbox, mirror:qld\/planning@.+\); no live service/,
          ),
        },
        ...Object.fromEntries(UNSUPPORTED.map((s) => [s, unsupported(s)])),
      },
      configuration: { cacheEnabled: true, cacheTTL: 60, requestTimeout: 5000 },
      summary: { healthyAdapters: 3, degradedAdapters: 0, unhealthyAdapters: 0, unsupportedStates: 5 },
    });
    expect(wfs.requests.length + arcgis.requests.length).toBe(asked);
  });

  it('gives a live key the live service’s planning where the mirror does not reach, with the state’s credit', async () => {
    const res = await graphAt(liveKey, BENDIGO, 'VIC').expect(200);
    expect(res.body.layers.planning).toEqual({
      status: 'ok',
      source: 'live:vic/planning',
      attribution: '© State of Victoria (Department of Transport and Planning)',
      license: 'CC BY 4.0',
      message: null,
      // a live answer is as fresh as the day it was read
      freshness: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      data: {
        zone: {
          code: 'MUZ',
          description: 'MIXED USE ZONE',
          scheme_code: 'MUZ',
          lga_code: '325',
          lga_name: 'GREATER BENDIGO',
        },
        overlays: [expect.objectContaining({ code: 'DCPO2', scheme_code: 'DCPO' })],
      },
    });
    expect(res.headers['x-service-attribution']).toContain('State of Victoria (Department of Transport and Planning)');
    const nsw = await graphAt(liveKey, SYDNEY, 'NSW').expect(200);
    expect(nsw.body.layers.planning).toMatchObject({
      status: 'ok',
      source: 'live:nsw/planning',
      attribution: '© State of New South Wales (Department of Planning, Housing and Infrastructure)',
      message: 'The zone is from the live NSW planning service, which publishes no overlays: none are listed.',
      data: { zone: { code: 'RE1', description: 'Public Recreation' }, overlays: [] },
    });
  });

  it('keeps test keys on the frozen sandbox: the live services are never asked for them', async () => {
    const asked = wfs.requests.length + arcgis.requests.length;
    const vic = await graphAt(testKey, f.outsideCoverage, 'VIC').expect(200);
    expect(vic.body.layers.planning).toMatchObject({
      status: 'not_covered',
      message: 'The VIC planning mirror does not reach this point.',
      source: expect.stringMatching(/^mirror:vic\/planning@/),
    });
    const nsw = await graphAt(testKey, f.planningNotCovered, 'NSW').expect(200);
    expect(nsw.body.layers.planning.status).toBe('not_covered');
    expect(wfs.requests.length + arcgis.requests.length).toBe(asked);
  });

  it('counts the live calls per state (spec 2.14)', async () => {
    const res = await request(app).get('/api/planning-zones/metrics').expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['adapters', 'responseTime', 'system', 'timestamp']);
    expect(Object.keys(res.body.adapters)).toEqual(['NSW', 'VIC', 'QLD']);
    expect(res.body.adapters.VIC).toEqual({
      serviceType: 'wfs',
      requests: 1,
      successes: 1,
      errors: 0,
      retries: 0,
      timeouts: 0,
      successRate: 1,
      circuitState: 'closed',
      latency: {
        meanMs: expect.any(Number),
        p50Ms: expect.any(Number),
        p95Ms: expect.any(Number),
        maxMs: expect.any(Number),
      },
      lastError: null,
      lastSuccessAt: expect.stringMatching(ISO),
      lastFailureAt: null,
    });
    expect(res.body.adapters.QLD).toMatchObject({
      serviceType: 'database-mirror',
      requests: 0,
      circuitState: 'closed',
    });
    expect(res.body.system).toEqual({
      cacheEnabled: true,
      cacheTTL: 60,
      requestTimeout: 5000,
      performanceTracking: true,
    });
  });

  it('answers 503 with the same shape when a live service fails its probe, and names it when a lookup fails', async () => {
    wfs.failWith({ kind: 'http', status: 503 });
    const res = await request(app).get('/api/planning-zones/health').query({ refresh: 'true' }).expect(503);
    expect(res.body).toMatchObject({
      status: 'degraded',
      summary: { healthyAdapters: 2, degradedAdapters: 0, unhealthyAdapters: 1, unsupportedStates: 5 },
    });
    expect(res.body.adapters.VIC).toMatchObject({ status: 'unhealthy', serviceType: 'wfs' });
    expect(res.body.adapters.VIC.message).toMatch(
      /the last probe failed: The live VIC planning service answered HTTP 503\.$/,
    );
    expect(res.body.adapters.NSW.status).toBe('healthy');

    const failed = await graphAt(liveKey, { lng: BENDIGO.lng + 0.0001, lat: BENDIGO.lat }, 'VIC').expect(200);
    expect(failed.body.layers.planning).toEqual({
      status: 'error',
      source: 'live:vic/planning',
      attribution: null,
      license: null,
      // the live service did not answer: there is no snapshot to date
      freshness: null,
      data: null,
      message: expect.stringMatching(/live VIC planning service .*Retry shortly; other layers are unaffected\.$/),
    });
    wfs.failWith(null);
  });

  it('answers 500 in each route’s own error shape when the graph itself fails', async () => {
    const broken: Graph = {
      ...runtime.graph,
      execute: () => Promise.reject(new Error('gateway down')),
    };
    const down = createApp({ ...runtime, graph: broken });
    const health = await request(down).get('/api/planning-zones/health').expect(500);
    expect(health.body).toEqual({
      status: 'unhealthy',
      timestamp: expect.stringMatching(ISO),
      error: 'The planning-zone health check failed.',
      message: 'The planning service could not be asked.',
    });
    const metrics = await request(down).get('/api/planning-zones/metrics').expect(500);
    expect(metrics.body).toEqual({
      error: 'The planning-zone metrics could not be read.',
      timestamp: expect.stringMatching(ISO),
      message: 'The planning service could not be asked.',
    });
    const coverage = await request(down).get('/api/planning-zones/coverage').expect(500);
    expect(coverage.body).toEqual({
      timestamp: expect.stringMatching(ISO),
      error: 'The planning-zone coverage could not be read: The planning service could not be asked.',
    });
  });
});
