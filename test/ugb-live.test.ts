import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../app/runtime.ts';
import { startRuntime } from '../app/runtime.ts';
import { createApp } from '../rest-facade/app.ts';
import type { FixtureFeature } from './support/arcgis-server.ts';
import { square } from './support/planning-services.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';
import type { WfsTestServer } from './support/wfs-server.ts';
import { startWfsServer } from './support/wfs-server.ts';

/** Mickleham, in Hume's growth area north of Melbourne: inside the UGB, where GAIC applies. */
const MICKLEHAM = { lat: -37.54, lng: 144.88 };
/** West of the boundary polygon below: rural land outside the UGB. */
const OUTSIDE = { lat: -37.54, lng: 144.84 };

const UGB: FixtureFeature = {
  geometry: square(MICKLEHAM.lng, MICKLEHAM.lat, 0.02),
  properties: { PFI: '5512001', LGA_CODE: '333', LGA: 'HUME', GAIC: 'Y' },
};
const ZONE: FixtureFeature = {
  geometry: square(MICKLEHAM.lng, MICKLEHAM.lat, 0.005),
  properties: {
    zone_code: 'UGZ1',
    zone_description: 'URBAN GROWTH ZONE - SCHEDULE 1',
    scheme_code: 'UGZ',
    lga_code: '333',
    lga: 'HUME',
  },
};

/**
 * The urban growth boundary from Victoria's live service (Vicmap's WFS), where no mirror holds
 * it: spec 4.3's `live:vic/ugb` source, for live keys and the keyless map mount.
 */
describe('UGB from the live Vicmap service', () => {
  let wfs: WfsTestServer;
  let runtime: Runtime;
  let app: ReturnType<typeof createApp>;
  let liveKey: string;

  beforeAll(async () => {
    wfs = await startWfsServer({
      'open-data-platform:plan_ugb': { features: [UGB] },
      'open-data-platform:plan_zone': { features: [ZONE] },
      'open-data-platform:plan_overlay': { features: [] },
    });
    const shared = await testRuntime();
    const config = testConfig({
      LANDGRAPH_PLANNING_LIVE: `VIC=wfs:${wfs.serviceUrl}`,
      LANDGRAPH_PLANNING_LIVE_TIMEOUT_MS: '5000', // the fake service is local; a loaded machine can be slow
      LANDGRAPH_PLANNING_LIVE_RETRIES: '0',
      LANDGRAPH_PLANNING_CACHE_TTL_S: '0',
    });
    runtime = await startRuntime(config, { db: shared.runtime.db, prepare: false });
    app = createApp(runtime);
    liveKey = await createTestKey(runtime, { kind: 'live' });
  });

  afterAll(async () => {
    wfs.failWith(null);
    await runtime?.close();
    await wfs?.close();
  });

  const atPoint = (point: { lat: number; lng: number }, key: string | null = liveKey) => {
    const req = request(app)
      .get('/api/ugb/at-point')
      .query({ ...point, state: 'VIC' });
    return key ? req.set('Authorization', `Bearer ${key}`) : req;
  };

  it('says a growth-area point is inside, with GAIC, the LGA and the zone, credited to the state', async () => {
    const res = await atPoint(MICKLEHAM).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      source: 'live:vic/ugb',
      data: {
        state: 'VIC',
        available: true,
        insideUGB: true,
        gaicApplies: true,
        ugbLga: 'HUME',
        zoneDescription: 'URBAN GROWTH ZONE - SCHEDULE 1',
      },
    });
    expect(res.body.attribution).toMatch(/State of Victoria/);
    expect(res.headers['x-mirror-source']).toBe('live:vic/ugb');
    expect(res.headers['x-service-license']).toBe('CC BY 4.0');
    const asked = wfs.requests.map((r) => r.get('typenames'));
    expect(asked).toContain('open-data-platform:plan_ugb');
  });

  it('says a point beyond the boundary is outside, and GAIC does not apply there', async () => {
    const res = await atPoint(OUTSIDE).expect(200);
    expect(res.body.data).toMatchObject({ available: true, insideUGB: false, gaicApplies: false, ugbLga: null });
  });

  it('serves the boundary polygons of a window to the keyless map mount', async () => {
    const bbox = [144.8, -37.6, 144.95, -37.5].join(',');
    const res = await request(app).get('/api/ugb/vector').query({ bbox }).expect(200);
    expect(res.body.source).toBe('live:vic/ugb');
    expect(res.body.features).toHaveLength(1);
    expect(res.body.features[0]).toMatchObject({
      type: 'Feature',
      properties: { lga_name: 'HUME', lga_code: '333', gaic_applies: true },
    });
  });

  it('answers a retryable 502 naming the live source when the service fails, and a test key never asks it', async () => {
    wfs.failWith({ kind: 'http', status: 503 });
    try {
      const res = await atPoint(MICKLEHAM).expect(502);
      expect(res.body).toMatchObject({ success: false, data: null, retryable: true });
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body.error).toMatch(/live VIC planning service/);
      const before = wfs.requests.length;
      const testKey = await createTestKey(runtime);
      const sandbox = await atPoint(MICKLEHAM, testKey).expect(200);
      expect(sandbox.body.source).toMatch(/^mirror:vic\/ugb@/);
      expect(wfs.requests.length).toBe(before);
    } finally {
      wfs.failWith(null);
    }
  });
});
