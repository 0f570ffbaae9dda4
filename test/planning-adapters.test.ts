import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.ts';
import type { StateCode } from '../core/geo.ts';
import { SourceError } from '../core/sources/errors.ts';
import type { LivePlanningAdapter, LiveSettings } from '../subgraphs/planning/sources/live.ts';
import { liveAdapterFor } from '../subgraphs/planning/sources/live.ts';
import { WfsClient } from '../core/sources/wfs.ts';
import type { ArcGisTestServer } from './support/arcgis-server.ts';
import type { WfsTestServer } from './support/wfs-server.ts';
import { BENDIGO, SYDNEY, startPlanningServices } from './support/planning-services.ts';

let wfs: WfsTestServer;
let arcgis: ArcGisTestServer;
let clock = 1_000_000;
const delays: number[] = [];

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

const settings = (overrides: Partial<LiveSettings> = {}): LiveSettings => ({
  timeoutMs: 1000,
  retries: 2,
  circuitThreshold: 3,
  circuitCooldownMs: 30_000,
  cacheTtlSeconds: 0,
  now: () => clock,
  random: () => 0.5,
  sleep: async (ms) => {
    delays.push(ms);
  },
  ...overrides,
});
const vic = (overrides: Partial<LiveSettings> = {}) =>
  liveAdapterFor('VIC', { protocol: 'wfs', url: wfs.serviceUrl }, settings(overrides));
const nsw = (overrides: Partial<LiveSettings> = {}, service = 'Planning/EPI_Primary_Planning_Layers') =>
  liveAdapterFor('NSW', { protocol: 'arcgis', url: arcgis.layerUrl(service, 2) }, settings(overrides));

async function failure(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

const atBendigo = (adapter: LivePlanningAdapter) => adapter.atPoint(BENDIGO.lng, BENDIGO.lat);
const atSydney = (adapter: LivePlanningAdapter) => adapter.atPoint(SYDNEY.lng, SYDNEY.lat);

describe('planning live configuration', () => {
  it('reads each state’s live service with its protocol, and the resilience settings with their defaults', () => {
    const config = loadConfig({
      LANDGRAPH_PLANNING_LIVE:
        'vic=wfs:https://opendata.maps.vic.gov.au/geoserver/wfs, NSW=arcgis:https://a.test/arcgis/rest/services/Planning/EPI_Primary_Planning_Layers/MapServer/2/',
      LANDGRAPH_PLANNING_CACHE_TTL_S: '0',
    });
    expect(config.planningLive).toEqual({
      VIC: { protocol: 'wfs', url: 'https://opendata.maps.vic.gov.au/geoserver/wfs' },
      NSW: {
        protocol: 'arcgis',
        url: 'https://a.test/arcgis/rest/services/Planning/EPI_Primary_Planning_Layers/MapServer/2',
      },
    });
    expect(config.planningCacheTtlS).toBe(0);
    expect(loadConfig({})).toMatchObject({
      planningLive: {},
      planningLiveTimeoutMs: 4000,
      planningLiveRetries: 2,
      planningCircuitThreshold: 5,
      planningCircuitCooldownMs: 30_000,
      planningCacheTtlS: 300,
    });
  });

  it.each([
    ['VIC', /'VIC' is not STATE=wfs:URL or STATE=arcgis:URL/],
    ['VIC=https://a.test/wfs', /VIC: name the protocol before the URL \(wfs:https:\.\.\. or arcgis:https:\.\.\.\)/],
    ['VIC=wms:https://a.test/wms', /VIC: unknown protocol 'wms' \(use wfs or arcgis\)/],
    ['NSW=arcgis:https://a.test/arcgis/rest/services/Planning', /NSW: .* is not an ArcGIS layer URL/],
    ['VIC=wfs:https://a.test/wfs?request=GetCapabilities', /without a request parameter/],
    ['VIC=wfs:ftp://a.test/wfs', /VIC: 'ftp:\/\/a.test\/wfs' is not an http\(s\) URL/],
    ['VIC=wfs:https://a.test/wfs,VIC=wfs:https://b.test/wfs', /VIC is given twice/],
  ])('refuses LANDGRAPH_PLANNING_LIVE=%s at start', (value, message) => {
    expect(() => loadConfig({ LANDGRAPH_PLANNING_LIVE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ LANDGRAPH_PLANNING_LIVE: value })).toThrow(message);
  });

  it('refuses a state without a profile, and a protocol its publisher does not speak', () => {
    const refusal = (state: StateCode, protocol: 'wfs' | 'arcgis') => () =>
      liveAdapterFor(state, { protocol, url: 'https://a.test/arcgis/rest/services/x/MapServer/0' }, settings());
    expect(refusal('SA', 'arcgis')).toThrow(/no live planning profile for SA \(there are profiles for VIC, NSW, QLD\)/);
    expect(refusal('VIC', 'arcgis')).toThrow(/VIC's planning service is published over WFS, not ArcGIS REST/);
    expect(refusal('NSW', 'wfs')).toThrow(/NSW's planning service is published over ArcGIS REST, not WFS/);
  });
});

describe('live VIC planning over WFS 2.0', () => {
  it('answers the zone and overlays at a point in the Vicmap layout, asking GetFeature with a CRS:84 BBOX', async () => {
    const before = wfs.requests.length;
    expect(await atBendigo(vic())).toEqual({
      zone: {
        code: 'MUZ',
        description: 'MIXED USE ZONE',
        scheme_code: 'MUZ',
        lga_code: '325',
        lga_name: 'GREATER BENDIGO',
      },
      overlays: [
        {
          code: 'DCPO2',
          description: 'DEVELOPMENT CONTRIBUTIONS PLAN OVERLAY - SCHEDULE 2',
          scheme_code: 'DCPO',
          lga_code: '325',
          lga_name: 'GREATER BENDIGO',
        },
      ],
      overlaysAsked: true,
    });
    const asked = wfs.requests.slice(before);
    expect(asked.map((p) => p.get('typenames')).sort()).toEqual([
      'open-data-platform:plan_overlay',
      'open-data-platform:plan_zone',
    ]);
    for (const params of asked) {
      expect(params.get('version')).toBe('2.0.0');
      expect(params.get('request')).toBe('GetFeature');
      expect(params.get('outputformat')).toBe('application/json');
      expect(params.get('srsname')).toBe('EPSG:4326');
      expect(params.get('bbox')).toMatch(/^144\.35\d*,-36\.66\d*,144\.35\d*,-36\.66\d*,CRS:84$/);
    }
  });

  it('pages with count and startIndex while numberMatched says more follow past the server’s cap', async () => {
    const client = new WfsClient({ serviceUrl: wfs.serviceUrl, label: 'test WFS', timeoutMs: 2000 });
    const before = wfs.requests.length;
    const features = await client.getFeatures({ typeName: 'test:crowded' });
    expect(features.map((f) => f.properties.zone_code)).toEqual(['GRZ1', 'GRZ2', 'GRZ3', 'GRZ4', 'GRZ5']);
    expect(wfs.requests.slice(before).map((p) => p.get('startindex'))).toEqual(['0', '2', '4']);
  });

  it('reads an ows:ExceptionReport as a refusal, retried only when the server says it is its own trouble (5xx)', async () => {
    const client = new WfsClient({ serviceUrl: wfs.serviceUrl, label: 'test WFS', timeoutMs: 2000 });
    const refused = await failure(client.getFeatures({ typeName: 'open-data-platform:plan_zonex' }));
    expect(refused).toMatchObject({
      failure: 'ows',
      retryable: false,
      details: { status: 400, exceptionCode: 'InvalidParameterValue' },
    });
    expect(refused.message).toBe(
      'The test WFS refused the request (WFS InvalidParameterValue: Feature type open-data-platform:plan_zonex unknown).',
    );
    wfs.failWith({ kind: 'exception', code: 'OperationProcessingFailed', text: 'Pool exhausted', status: 503 }, 1);
    const adapter = vic();
    expect((await atBendigo(adapter)).zone?.code).toBe('MUZ');
    expect(adapter.snapshot()).toMatchObject({ requests: 1, successes: 1, retries: 1, errors: 0 });
  });

  it('reports a body that is not GeoJSON as malformed, without retrying', async () => {
    wfs.failWith({ kind: 'malformed' });
    const adapter = vic();
    const error = await failure(atBendigo(adapter));
    wfs.failWith(null);
    expect(error).toMatchObject({ failure: 'malformed', retryable: false });
    expect(error.message).toBe('The live VIC planning service answered something that is not JSON.');
    expect(adapter.snapshot()).toMatchObject({ requests: 1, errors: 1, retries: 0 });
  });
});

describe('live NSW planning over ArcGIS REST', () => {
  it('answers the zone at a point from the Land Zoning layer, the smallest where zones overlap', async () => {
    const before = arcgis.requests.length;
    expect(await atSydney(nsw())).toEqual({
      zone: { code: 'RE1', description: 'Public Recreation', scheme_code: 'RE1', lga_code: null, lga_name: 'SYDNEY' },
      overlays: [],
      overlaysAsked: false,
    });
    const [asked] = arcgis.requests.slice(before);
    expect(asked?.layer).toBe('Planning/EPI_Primary_Planning_Layers');
    expect(Object.fromEntries(asked?.params ?? [])).toMatchObject({
      geometryType: 'esriGeometryPoint',
      inSR: '4326',
      outSR: '4326',
      spatialRel: 'esriSpatialRelIntersects',
    });
  });

  it('pages past the 1000-record limit (exceededTransferLimit) before choosing', async () => {
    const before = arcgis.requests.length;
    expect((await atSydney(nsw({}, 'Planning/Crowded'))).zone?.code).toBe('Z0');
    expect(arcgis.requests.slice(before).map((r) => r.params.get('resultOffset'))).toEqual(['0', '1000']);
  });
});

describe('resilience of a live planning call', () => {
  it('times each attempt out, retries with exponential backoff and jitter, and counts it all', async () => {
    arcgis.failWith({ kind: 'slow', delayMs: 400 });
    delays.length = 0;
    const adapter = nsw({ timeoutMs: 100 });
    const error = await failure(atSydney(adapter));
    arcgis.failWith(null);
    expect(error).toMatchObject({ failure: 'timeout', retryable: true });
    expect(error.message).toBe('The live NSW planning service did not answer within 100 ms.');
    // Full jitter at random 0.5: half of 200 ms, then half of 400 ms.
    expect(delays).toEqual([100, 200]);
    expect(adapter.snapshot()).toMatchObject({
      requests: 1,
      successes: 0,
      errors: 1,
      retries: 2,
      timeouts: 3,
      successRate: 0,
      lastError: error.message,
      lastFailureAt: clock,
      lastSuccessAt: null,
    });
  });

  it.each([
    ['a 5xx', { kind: 'http', status: 503 } as const],
    ['a dropped connection', { kind: 'reset' } as const],
  ])('retries %s and succeeds, counting the retry', async (_name, mode) => {
    arcgis.failWith(mode, 1);
    const adapter = nsw();
    expect((await atSydney(adapter)).zone?.code).toBe('RE1');
    expect(adapter.snapshot()).toMatchObject({
      requests: 1,
      successes: 1,
      errors: 0,
      retries: 1,
      successRate: 1,
      lastSuccessAt: clock,
      lastError: null,
    });
    expect(adapter.snapshot().latency.maxMs).toBeGreaterThan(0);
  });

  it.each([
    ['a 4xx', { kind: 'http', status: 400 } as const, 'The live NSW planning service answered HTTP 400.'],
    [
      'malformed JSON',
      { kind: 'malformed' } as const,
      'The live NSW planning service answered something that is not JSON.',
    ],
    [
      'an ArcGIS refusal',
      { kind: 'arcgis-error', code: 400, message: 'Invalid query' } as const,
      'The live NSW planning service refused the query (ArcGIS error 400: Invalid query).',
    ],
  ])('never retries %s', async (_name, mode, message) => {
    arcgis.failWith(mode);
    const before = arcgis.requests.length;
    const adapter = nsw();
    const error = await failure(atSydney(adapter));
    arcgis.failWith(null);
    expect(error).toMatchObject({ retryable: false, message });
    expect(arcgis.requests.length - before).toBe(1);
    expect(adapter.snapshot()).toMatchObject({ requests: 1, errors: 1, retries: 0 });
  });

  it('opens the circuit after consecutive failures, refuses without asking, and closes after a trial', async () => {
    const adapter = nsw({ retries: 0, circuitThreshold: 2 });
    arcgis.failWith({ kind: 'http', status: 500 });
    await failure(atSydney(adapter));
    expect(adapter.snapshot().circuitState).toBe('closed');
    await failure(atSydney(adapter));
    expect(adapter.snapshot()).toMatchObject({ circuitState: 'open', consecutiveFailures: 2, retryAt: clock + 30_000 });
    const before = arcgis.requests.length;
    const refused = await failure(atSydney(adapter));
    expect(refused).toMatchObject({ failure: 'circuit-open', retryable: false });
    expect(refused.message).toBe(
      `The live NSW planning service is paused after 2 failed calls in a row; it is asked again after ${new Date(clock + 30_000).toISOString()}.`,
    );
    expect(arcgis.requests.length).toBe(before);

    clock += 30_000;
    expect(adapter.snapshot().circuitState).toBe('half-open');
    await failure(atSydney(adapter));
    expect(adapter.snapshot().circuitState).toBe('open');
    expect(arcgis.requests.length).toBe(before + 1);

    clock += 30_000;
    arcgis.failWith({ kind: 'slow', delayMs: 150 });
    const trial = atSydney(adapter);
    const meanwhile = await failure(atSydney(adapter));
    expect(meanwhile.message).toMatch(/once the trial call under way answers/);
    expect((await trial).zone?.code).toBe('RE1');
    arcgis.failWith(null);
    expect(adapter.snapshot()).toMatchObject({
      circuitState: 'closed',
      consecutiveFailures: 0,
      requests: 6,
      successes: 1,
      errors: 5,
      retries: 0,
    });
  });

  it('keeps answers for the cache’s lifetime: asking the same point again asks nothing and counts no call', async () => {
    const adapter = nsw({ cacheTtlSeconds: 60 });
    const before = arcgis.requests.length;
    const first = await atSydney(adapter);
    expect(await atSydney(adapter)).toEqual(first);
    expect(arcgis.requests.length - before).toBe(1);
    expect(adapter.snapshot().requests).toBe(1);
    clock += 61_000;
    await atSydney(adapter);
    expect(arcgis.requests.length - before).toBe(2);
  });

  it('probes with a query that asks for nothing; probes close together share one answer', async () => {
    const adapter = nsw();
    const before = arcgis.requests.length;
    const probe = await adapter.probe();
    expect(probe).toEqual({ ok: true, at: clock, message: 'The live NSW planning service answered a probe.' });
    expect(await adapter.probe()).toBe(probe);
    expect(arcgis.requests.slice(before).map((r) => r.params.get('where'))).toEqual(['1=0']);
    clock += 10_000;
    arcgis.failWith({ kind: 'http', status: 502 });
    expect(await adapter.probe()).toEqual({
      ok: false,
      at: clock,
      message: 'The live NSW planning service answered HTTP 502.',
    });
    arcgis.failWith(null);
  });
});
