import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../app/runtime.ts';
import { startRuntime } from '../app/runtime.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { SourceError } from '../core/sources/errors.ts';
import { createApp } from '../rest-facade/app.ts';
import type { LiveHazardService, LiveSettings } from '../subgraphs/hazards/sources/live.ts';
import { HazardLiveSources } from '../subgraphs/hazards/sources/registry.ts';
import type { ArcGisTestServer, FixtureFeature } from './support/arcgis-server.ts';
import { startArcGisServer } from './support/arcgis-server.ts';
import { square } from './support/planning-services.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';
import type { WfsTestServer } from './support/wfs-server.ts';
import { startWfsServer } from './support/wfs-server.ts';

/*
 * The hazards layer's live sources: Vicmap Planning's overlays over WFS 2.0, and the NSW and
 * QLD hazard layers over ArcGIS REST, each a local server speaking the real protocol. Each
 * service speaks for its own hazards: its failure makes those `unavailable`, the rest answer.
 */

/** Mickleham, north of Melbourne; Penrith, west of Sydney; Caboolture, north of Brisbane. */
const VIC_FLOODED = { lat: -37.54, lng: 144.88 };
const VIC_BARE = { lat: -37.54, lng: 144.95 };
const NSW_PRONE = { lat: -33.75, lng: 150.69 };
const QLD_PRONE = { lat: -27.08, lng: 152.95 };

const overlay = (code: string, description: string, at: { lat: number; lng: number }, half: number) =>
  ({
    geometry: square(at.lng, at.lat, half),
    properties: {
      zone_code: code,
      zone_description: description,
      scheme_code: code.replace(/\d+$/, ''),
      lga_code: '333',
      lga: 'HUME',
    },
  }) satisfies FixtureFeature;

const VIC_OVERLAYS: FixtureFeature[] = [
  overlay('FO', 'FLOODWAY OVERLAY', VIC_FLOODED, 0.002),
  overlay('LSIO1', 'LAND SUBJECT TO INUNDATION OVERLAY - SCHEDULE 1', VIC_FLOODED, 0.004),
  // not a hazard: skipped
  overlay('DCPO2', 'DEVELOPMENT CONTRIBUTIONS PLAN OVERLAY - SCHEDULE 2', VIC_FLOODED, 0.01),
  overlay('EAO', 'ENVIRONMENTAL AUDIT OVERLAY', VIC_FLOODED, 0.001),
];

const NSW_BFPL: FixtureFeature[] = [
  {
    geometry: square(NSW_PRONE.lng, NSW_PRONE.lat, 0.001),
    properties: { Category: 1, d_Category: 'Vegetation Category 1' },
  },
  {
    geometry: square(NSW_PRONE.lng, NSW_PRONE.lat, 0.003),
    properties: { Category: 0, d_Category: 'Vegetation Buffer' },
  },
];
const QLD_BPA: FixtureFeature[] = [
  {
    geometry: square(QLD_PRONE.lng, QLD_PRONE.lat, 0.002),
    properties: { CLASS: 'High potential bushfire intensity' },
  },
];
const QLD_FLOOD: FixtureFeature[] = [
  { geometry: square(QLD_PRONE.lng, QLD_PRONE.lat, 0.002), properties: { DESCRIPTION: 'Flood hazard area' } },
];

let wfs: WfsTestServer;
/** NSW's hazard service; QLD's flood and bushfire layers on servers of their own, so one can fail alone. */
let nsw: ArcGisTestServer;
let qldFlood: ArcGisTestServer;
let qldBushfire: ArcGisTestServer;
let urls: string;

beforeAll(async () => {
  wfs = await startWfsServer({ 'open-data-platform:plan_overlay': { features: VIC_OVERLAYS } });
  nsw = await startArcGisServer({
    'ePlanning/Planning_Portal_Hazard': { features: NSW_BFPL },
    'ePlanning/Planning_Portal_Hazard_Flood': { features: [] },
  });
  qldFlood = await startArcGisServer({ 'PlanningCadastre/SPPFloodHazardArea': { features: QLD_FLOOD } });
  qldBushfire = await startArcGisServer({ 'PlanningCadastre/SPPBushfireProneArea': { features: QLD_BPA } });
  urls = [
    `VIC.overlays=${wfs.serviceUrl}`,
    `NSW.bushfire=${nsw.layerUrl('ePlanning/Planning_Portal_Hazard', 229)}`,
    // NSW publishes no flood planning area around this point: the layer answers, empty
    `NSW.flood=${nsw.layerUrl('ePlanning/Planning_Portal_Hazard_Flood', 230)}`,
    `QLD.flood=${qldFlood.layerUrl('PlanningCadastre/SPPFloodHazardArea', 0)}`,
    `QLD.bushfire=${qldBushfire.layerUrl('PlanningCadastre/SPPBushfireProneArea', 0)}`,
  ].join(',');
});

afterEach(() => {
  for (const server of [wfs, nsw, qldFlood, qldBushfire]) server?.failWith(null);
});

afterAll(async () => {
  for (const server of [wfs, nsw, qldFlood, qldBushfire]) await server?.close();
});

describe('live hazard configuration', () => {
  it('reads the states, the endpoint overrides and the resilience settings with their defaults', () => {
    expect(loadConfig({})).toMatchObject({
      hazardsLive: [],
      hazardsLiveUrls: {},
      hazardsLiveTimeoutMs: 4000,
      hazardsLiveRetries: 1,
      hazardsCircuitThreshold: 5,
      hazardsCircuitCooldownMs: 30_000,
      hazardsCacheTtlS: 300,
    });
    const config = loadConfig({
      LANDGRAPH_HAZARDS_LIVE: 'vic, NSW',
      LANDGRAPH_HAZARDS_LIVE_URLS: 'vic.Overlays=https://a.test/geoserver/wfs',
    });
    expect(config.hazardsLive).toEqual(['VIC', 'NSW']);
    expect(config.hazardsLiveUrls).toEqual({ 'VIC.overlays': 'https://a.test/geoserver/wfs' });
  });

  it.each([
    [{ LANDGRAPH_HAZARDS_LIVE: 'VIC,XY' }, /unknown state 'XY'/],
    [{ LANDGRAPH_HAZARDS_LIVE: 'VIC,vic' }, /VIC is given twice/],
    [{ LANDGRAPH_HAZARDS_LIVE_URLS: 'VIC=https://a.test/wfs' }, /'VIC=https:\/\/a.test\/wfs' is not STATE.service=URL/],
    [
      { LANDGRAPH_HAZARDS_LIVE_URLS: 'VIC.overlays=ftp://a.test/wfs' },
      /VIC.overlays: 'ftp:\/\/a.test\/wfs' is not an http\(s\) URL/,
    ],
    [{ LANDGRAPH_HAZARDS_LIVE_TIMEOUT_MS: '10' }, /LANDGRAPH_HAZARDS_LIVE_TIMEOUT_MS/],
    [{ LANDGRAPH_HAZARDS_CIRCUIT_THRESHOLD: '0' }, /LANDGRAPH_HAZARDS_CIRCUIT_THRESHOLD/],
  ])('refuses %o at start', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('refuses a state without a profile, a service its state does not publish, and a malformed endpoint', () => {
    const build = (env: Record<string, string>) => () => HazardLiveSources.fromConfig(loadConfig(env));
    expect(build({ LANDGRAPH_HAZARDS_LIVE: 'SA' })).toThrow(
      /no live hazard profile for SA \(there are profiles for VIC, NSW, QLD\)/,
    );
    expect(
      build({ LANDGRAPH_HAZARDS_LIVE: 'VIC', LANDGRAPH_HAZARDS_LIVE_URLS: 'VIC.flood=https://a.test/wfs' }),
    ).toThrow(/VIC has no live hazard service 'flood' \(it has VIC.overlays\)/);
    expect(
      build({ LANDGRAPH_HAZARDS_LIVE_URLS: 'NSW.bushfire=https://a.test/arcgis/rest/services/x/MapServer/1' }),
    ).toThrow(/NSW.bushfire is given but NSW is not in LANDGRAPH_HAZARDS_LIVE/);
    expect(
      build({
        LANDGRAPH_HAZARDS_LIVE: 'QLD',
        LANDGRAPH_HAZARDS_LIVE_URLS: 'QLD.flood=https://a.test/arcgis/rest/services/x',
      }),
    ).toThrow(/QLD.flood: 'https:\/\/a.test\/arcgis\/rest\/services\/x' is not an ArcGIS layer URL/);
    // the published defaults need no override
    const defaults = HazardLiveSources.fromConfig(loadConfig({ LANDGRAPH_HAZARDS_LIVE: 'VIC,NSW,QLD' }));
    expect(defaults.all().map((s) => s.label)).toEqual([
      'live VIC hazard overlay service',
      'live NSW bushfire service',
      'live NSW flood service',
      'live QLD flood service',
      'live QLD bushfire service',
    ]);
    expect(defaults.servicesFor('sandbox', 'VIC')).toEqual([]);
  });
});

describe('live hazard services over their protocols', () => {
  const clock = { now: Date.UTC(2026, 10, 24, 12) };
  const sources = (overrides: Partial<LiveSettings> = {}) =>
    HazardLiveSources.fromConfig(
      loadConfig({ LANDGRAPH_HAZARDS_LIVE: 'VIC,NSW,QLD', LANDGRAPH_HAZARDS_LIVE_URLS: urls }),
      {
        timeoutMs: 1000,
        retries: 1,
        circuitThreshold: 3,
        circuitCooldownMs: 30_000,
        cacheTtlSeconds: 0,
        now: () => clock.now,
        random: () => 0.5,
        sleep: async () => undefined,
        ...overrides,
      },
    );
  const service = (live: HazardLiveSources, state: string, kind: 'flood' | 'bushfire' | 'contamination') =>
    live.serviceFor('live', state, kind)!;
  async function failure(promise: Promise<unknown>): Promise<SourceError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SourceError);
    return error as SourceError;
  }

  it('reads the Vicmap hazard overlays at a point over WFS GetFeature, skipping the other overlays', async () => {
    const vic = service(sources(), 'VIC', 'flood');
    const before = wfs.requests.length;
    const answer = await vic.atPoint(VIC_FLOODED.lng, VIC_FLOODED.lat);
    expect(answer).toEqual({
      asOf: '2026-11-24',
      overlays: [
        {
          kind: 'contamination',
          code: 'EAO',
          description: 'ENVIRONMENTAL AUDIT OVERLAY',
          severity: 'medium',
          source: 'Vicmap Planning',
          snapshot_date: '2026-11-24',
        },
        expect.objectContaining({ kind: 'flood', code: 'FO', severity: 'high' }),
        expect.objectContaining({ kind: 'flood', code: 'LSIO1', severity: 'medium' }),
      ],
    });
    const asked = wfs.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.get('typenames')).toBe('open-data-platform:plan_overlay');
    expect(asked[0]!.get('bbox')).toMatch(/,CRS:84$/);
    // one service speaks for every VIC hazard
    expect(vic.kinds).toEqual(['flood', 'bushfire', 'contamination']);
  });

  it('reads NSW bush fire prone land categories and QLD potential intensity over an ArcGIS point query', async () => {
    const live = sources();
    const nswAnswer = await service(live, 'NSW', 'bushfire').atPoint(NSW_PRONE.lng, NSW_PRONE.lat);
    expect(nswAnswer.overlays.map((o) => [o.code, o.severity, o.description])).toEqual([
      ['BFPL_BUFFER', 'low', 'Bush fire prone land: vegetation buffer'],
      ['BFPL_CAT1', 'high', 'Bush fire prone land: vegetation category 1'],
    ]);
    const query = nsw.requests.at(-1)!.params;
    expect(query.get('geometryType')).toBe('esriGeometryPoint');
    expect(query.get('outSR')).toBe('4326');
    const qld = await service(live, 'QLD', 'bushfire').atPoint(QLD_PRONE.lng, QLD_PRONE.lat);
    expect(qld.overlays).toEqual([
      expect.objectContaining({
        kind: 'bushfire',
        code: 'BPA_HIGH',
        severity: 'high',
        source: 'QLD SPP bushfire prone area',
      }),
    ]);
  });

  it('answers nothing where nothing is mapped: the hazard is clear', async () => {
    const live = sources();
    expect((await service(live, 'VIC', 'flood').atPoint(VIC_BARE.lng, VIC_BARE.lat)).overlays).toEqual([]);
    expect((await service(live, 'QLD', 'flood').atPoint(VIC_BARE.lng, VIC_BARE.lat)).overlays).toEqual([]);
  });

  it('retries a 5xx, names a timeout, and opens the circuit after repeated failures', async () => {
    const live = sources({ retries: 1, circuitThreshold: 2, timeoutMs: 200 });
    const flood = service(live, 'QLD', 'flood');
    qldFlood.failWith({ kind: 'http', status: 503 });
    const before = qldFlood.requests.length;
    const http = await failure(flood.atPoint(QLD_PRONE.lng, QLD_PRONE.lat));
    expect(http).toMatchObject({ failure: 'http', message: 'The live QLD flood service answered HTTP 503.' });
    expect(qldFlood.requests.length - before).toBe(2); // the first attempt and one retry
    qldFlood.failWith({ kind: 'slow', delayMs: 2000 });
    const timeout = await failure(flood.atPoint(QLD_PRONE.lng, QLD_PRONE.lat));
    expect(timeout).toMatchObject({
      failure: 'timeout',
      message: 'The live QLD flood service did not answer within 200 ms.',
    });
    // two failed calls in a row: the circuit is open, and the next call is refused without asking
    qldFlood.failWith(null);
    const asked = qldFlood.requests.length;
    const refused = await failure(flood.atPoint(QLD_PRONE.lng, QLD_PRONE.lat));
    expect(refused.failure).toBe('circuit-open');
    expect(refused.message).toMatch(/live QLD flood service is paused after 2 failed calls in a row/);
    expect(qldFlood.requests.length).toBe(asked);
    expect(flood.snapshot()).toMatchObject({ circuitState: 'open', timeouts: 2 });
    // the other QLD service has its own circuit
    const bushfire: LiveHazardService = service(live, 'QLD', 'bushfire');
    expect((await bushfire.atPoint(QLD_PRONE.lng, QLD_PRONE.lat)).overlays).toHaveLength(1);
    // after the cool-down one trial call goes, and its success closes the circuit
    clock.now += 30_000;
    expect((await flood.atPoint(QLD_PRONE.lng, QLD_PRONE.lat)).overlays).toHaveLength(1);
    expect(flood.snapshot().circuitState).toBe('closed');
  });
});

describe('the hazards layer from live services', () => {
  let runtime: Runtime;
  let app: ReturnType<typeof createApp>;
  let liveKey: string;

  beforeAll(async () => {
    const shared = await testRuntime();
    const config = testConfig({
      LANDGRAPH_HAZARDS_LIVE: 'VIC,NSW,QLD',
      LANDGRAPH_HAZARDS_LIVE_URLS: urls,
      LANDGRAPH_HAZARDS_LIVE_TIMEOUT_MS: '300',
      LANDGRAPH_HAZARDS_LIVE_RETRIES: '0',
      LANDGRAPH_HAZARDS_CIRCUIT_THRESHOLD: '3',
      LANDGRAPH_HAZARDS_CACHE_TTL_S: '0',
    });
    runtime = await startRuntime(config, { db: shared.runtime.db, prepare: false });
    app = createApp(runtime);
    liveKey = await createTestKey(runtime, { kind: 'live' });
  });

  afterAll(async () => {
    await runtime?.close();
  });

  const FIELDS = `status source attribution license message freshness data {
    flood { severity coverage freshness message evidence { type code source snapshot_date } }
    bushfire { severity coverage freshness message evidence { type code severity source } bal { rating } }
    contamination { severity coverage freshness message evidence { type code source } } }`;
  const hazardsAt = async (state: string, at: { lat: number; lng: number }, key = liveKey) => {
    const res = await request(app)
      .post('/graphql')
      .set('Authorization', `Bearer ${key}`)
      .send({
        query: `{ hazardsAt(lat: ${at.lat}, lng: ${at.lng}, state: "${state}") { ${FIELDS} }
                  planningAt(lat: ${at.lat}, lng: ${at.lng}, state: "${state}") { status } }`,
      });
    expect(res.body.errors).toBeUndefined();
    return res.body.data as {
      hazardsAt: {
        status: string;
        source: string | null;
        attribution: string | null;
        license: string | null;
        message: string | null;
        freshness: string | null;
        data: Record<
          'flood' | 'bushfire' | 'contamination',
          Record<string, unknown> & { coverage: string; evidence: Array<Record<string, unknown>> }
        >;
      };
      planningAt: { status: string };
    };
  };

  it('answers each VIC hazard from the Vicmap overlays, credited to the state, fresh as of the answer', async () => {
    const before = wfs.requests.length;
    const { hazardsAt: layer } = await hazardsAt('VIC', VIC_FLOODED);
    // one service speaks for the three hazards: asked once for the point
    expect(wfs.requests.length - before).toBe(1);
    expect(layer).toMatchObject({
      status: 'ok',
      source: 'live:vic/hazards',
      attribution: expect.stringMatching(/State of Victoria/),
      license: 'CC BY 4.0',
    });
    const { flood, bushfire, contamination } = layer.data;
    expect(flood).toMatchObject({ severity: 'high', coverage: 'found' });
    expect(flood.evidence.map((e) => [e.code, e.source])).toEqual([
      ['FO', 'Vicmap Planning'],
      ['LSIO1', 'Vicmap Planning'],
    ]);
    expect(flood.freshness).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(flood.evidence[0]!.snapshot_date).toBe(flood.freshness);
    expect(layer.freshness).toBe(flood.freshness);
    expect(contamination).toMatchObject({ severity: 'medium', coverage: 'found' });
    // checked and clear; no BAL, since a live service publishes no classified vegetation
    expect(bushfire).toMatchObject({ severity: 'none', coverage: 'clear', evidence: [], bal: null });
  });

  it('is clear (no_data) where the services map nothing, and a test key never asks them', async () => {
    const { hazardsAt: bare } = await hazardsAt('VIC', VIC_BARE);
    expect(bare.status).toBe('no_data');
    for (const kind of ['flood', 'bushfire', 'contamination'] as const) expect(bare.data[kind].coverage).toBe('clear');
    const asked = wfs.requests.length;
    const testKey = await createTestKey(runtime);
    const { hazardsAt: sandbox } = await hazardsAt('VIC', VIC_FLOODED, testKey);
    expect(sandbox.source ?? '').not.toMatch(/^live:/);
    expect(wfs.requests.length).toBe(asked);
  });

  it('leaves the hazards a state publishes no service for not mapped', async () => {
    const { hazardsAt: layer } = await hazardsAt('NSW', NSW_PRONE);
    expect(layer.status).toBe('ok');
    expect(layer.data.bushfire).toMatchObject({ severity: 'high', coverage: 'found' });
    expect(layer.data.flood).toMatchObject({ severity: 'none', coverage: 'clear' });
    expect(layer.data.contamination).toMatchObject({ severity: null, coverage: 'not_mapped' });
    expect(layer.attribution).toMatch(/NSW Rural Fire Service/);
  });

  it('makes only the failing service’s hazard unavailable (5xx, timeout); the other hazards and layers answer', async () => {
    for (const mode of [{ kind: 'http', status: 502 } as const, { kind: 'slow', delayMs: 1500 } as const]) {
      qldFlood.failWith(mode);
      const { hazardsAt: layer, planningAt } = await hazardsAt('QLD', QLD_PRONE);
      expect(planningAt.status).not.toBe('error');
      expect(layer.status).toBe('ok');
      expect(layer.message).toBe('The flood source failed; the other hazards answered.');
      expect(layer.data.flood).toMatchObject({
        severity: null,
        coverage: 'unavailable',
        freshness: null,
        evidence: [],
      });
      expect(layer.data.flood.message).toMatch(
        mode.kind === 'http'
          ? /^The live QLD flood service answered HTTP 502\. The flood source failed for this request/
          : /^The live QLD flood service did not answer within 300 ms\. The flood source failed/,
      );
      expect(layer.data.bushfire).toMatchObject({ severity: 'high', coverage: 'found' });
      expect(layer.data.contamination.coverage).toBe('not_mapped');
    }
    // a third failure in a row opens the flood service's circuit: refused at once, still that hazard only
    qldFlood.failWith({ kind: 'http', status: 500 });
    await hazardsAt('QLD', QLD_PRONE);
    qldFlood.failWith(null);
    const asked = qldFlood.requests.length;
    const { hazardsAt: paused } = await hazardsAt('QLD', QLD_PRONE);
    expect(qldFlood.requests.length).toBe(asked);
    expect(paused.data.flood.coverage).toBe('unavailable');
    expect(paused.data.flood.message).toMatch(/live QLD flood service is paused after 3 failed calls in a row/);
    expect(paused.data.bushfire.coverage).toBe('found');
  });

  it('is an error only when every hazard’s source failed, and the property graph keeps its other layers', async () => {
    wfs.failWith({ kind: 'http', status: 503 });
    const { hazardsAt: layer, planningAt } = await hazardsAt('VIC', VIC_FLOODED);
    expect(layer).toMatchObject({ status: 'error', data: null, source: 'live:vic/hazards' });
    expect(layer.message).toMatch(/Every hazard source failed/);
    expect(planningAt.status).not.toBe('error');
  });
});
