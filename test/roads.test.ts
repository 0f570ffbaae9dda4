import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NEAREST_ROADS, NEAREST_ROAD_REACH_M } from '../core/limits.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { ROADS_NEAREST } from '../subgraphs/roads/sql.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

type FrontingRoad = { name: string | null; road_class: string; frontage_m: number; distance_m: number; front: boolean };
type NearbyRoad = { name: string | null; road_class: string; distance_m: number; geometry: { type: string } };

const LAYER = 'status source attribution license message';
const ROADS_OF_PARCEL = `query RoadsOfParcel($pfi: String!, $state: String!) {
  property: propertyByParcel(parcel_pfi: $pfi, state: $state) {
    roads { ${LAYER} data { name road_class frontage_m distance_m front } }
  }
}`;
const ROADS_NEAR = `query RoadsNear($lat: Float!, $lng: Float!, $state: String!, $limit: Int) {
  roadsNear(lat: $lat, lng: $lng, state: $state, limit: $limit) {
    ${LAYER} data { name road_class distance_m geometry }
  }
}`;

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Order By'?: string };
type Plan = PlanNode & { Plans?: Plan[] };
const planNodes = (plan: Plan): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(planNodes)];

describe('roads subgraph', () => {
  let t: TestRuntime;
  let f: Fixtures;
  const graph = (query: string, variables: Record<string, unknown>, key = t.key) =>
    request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query, variables });

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
  });

  it('gives the roads a lot fronts, the front first, by the classification the envelope uses', async () => {
    const { vicParcel: p } = f;
    const res = await graph(ROADS_OF_PARCEL, { pfi: p.parcel_pfi, state: p.state }).expect(200);
    expect(res.body.errors).toBeUndefined();
    const layer = res.body.data.property.roads;
    expect(layer).toMatchObject({
      status: 'ok',
      message: null,
      source: expect.stringMatching(/^mirror:vic\/roads@/),
      attribution: expect.stringContaining('modelled on Vicmap Transport'),
    });
    const roads = layer.data as FrontingRoad[];
    expect(roads.length).toBeGreaterThan(0);
    expect(roads[0]!.front).toBe(true);
    expect(roads.filter((r) => r.front)).toHaveLength(1);
    for (const road of roads) {
      expect(road.frontage_m).toBeGreaterThan(0);
      // a centreline runs down the middle of the reserve, 6 to 40 m from the lot
      expect(road.distance_m).toBeGreaterThan(5);
      expect(road.distance_m).toBeLessThanOrEqual(40);
    }

    // the envelope's front boundaries face the front road and add up to its frontage
    const envelope = await graph(
      `query E($pfi: String!, $state: String!) { property: propertyByParcel(parcel_pfi: $pfi, state: $state) {
        envelope { status data { boundaries { kind length_m road_name } } } } }`,
      { pfi: p.parcel_pfi, state: p.state },
    ).expect(200);
    const boundaries = envelope.body.data.property.envelope.data.boundaries as Array<{
      kind: string;
      length_m: number;
      road_name: string | null;
    }>;
    const front = boundaries.filter((b) => b.kind === 'front');
    expect(new Set(front.map((b) => b.road_name))).toEqual(new Set([roads[0]!.name]));
    expect(roads[0]!.frontage_m).toBeCloseTo(
      front.reduce((sum, b) => sum + b.length_m, 0),
      1,
    );
  });

  it('skips the fronting roads of a point on no parcel', async () => {
    const { roadReserve: r } = f;
    const res = await graph(
      `query At($lat: Float!, $lng: Float!, $state: String!) { property: propertyAt(lat: $lat, lng: $lng, state: $state) {
        roads { ${LAYER} data { name } } } }`,
      r,
    ).expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.property.roads).toMatchObject({ status: 'skipped', data: null, message: expect.any(String) });
  });

  it('lists the centrelines nearest a point, nearest first, credited, at most limit', async () => {
    const { vicParcel: p } = f;
    const res = await graph(ROADS_NEAR, { lat: p.lat, lng: p.lng, state: 'VIC', limit: 3 }).expect(200);
    expect(res.body.errors).toBeUndefined();
    const layer = res.body.data.roadsNear;
    expect(layer).toMatchObject({ status: 'ok', attribution: expect.stringContaining('Vicmap Transport') });
    const roads = layer.data as NearbyRoad[];
    expect(roads).toHaveLength(3);
    const distances = roads.map((r) => r.distance_m);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    expect(roads.every((r) => r.geometry.type === 'LineString' && r.road_class.length > 0)).toBe(true);
    // the lot's own front road is among the nearest
    const fronting = await graph(ROADS_OF_PARCEL, { pfi: p.parcel_pfi, state: p.state }).expect(200);
    const frontName = (fronting.body.data.property.roads.data as FrontingRoad[])[0]!.name;
    expect(roads.map((r) => r.name)).toContain(frontName);

    const defaults = await graph(ROADS_NEAR, { lat: p.lat, lng: p.lng, state: 'VIC' }).expect(200);
    expect(defaults.body.data.roadsNear.data).toHaveLength(5);
  });

  it('takes the nearest centrelines from the GiST index in distance order, never by sorting all of the state', async () => {
    // A plan that reads every centreline of the state and sorts them by distance answers the same rows, so only
    // the plan tells them apart: at a million parcels that sort was 30 ms of PostgreSQL a request (issue P6).
    const { vicParcel: p } = f;
    const nearest = ROADS_NEAREST('sandbox', 'VIC', p.lng, p.lat, DEFAULT_NEAREST_ROADS, NEAREST_ROAD_REACH_M);
    const [row] = await t.runtime.db.sql<{ 'QUERY PLAN': unknown }>(Prisma.sql`EXPLAIN (FORMAT JSON) ${nearest}`);
    const raw = row!['QUERY PLAN'];
    const [{ Plan: plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: Plan }];
    const reads = planNodes(plan).filter((node) => node['Relation Name'] === 'centreline');
    expect(reads.map((node) => [node['Node Type'], node['Index Name'], node['Order By']])).toEqual([
      ['Index Scan', 'centreline_geom_idx', expect.stringContaining('<->')],
    ]);
  });

  it('answers not_covered where the dataset holds no roads of the state, and no_data far from every road', async () => {
    const sa = await graph(ROADS_NEAR, { lat: -34.93, lng: 138.6, state: 'SA' }).expect(200);
    expect(sa.body.data.roadsNear).toMatchObject({ status: 'not_covered', data: null, source: null });
    const far = await graph(ROADS_NEAR, { ...f.outsideCoverage, state: 'VIC' }).expect(200);
    expect(far.body.data.roadsNear).toMatchObject({
      status: 'no_data',
      data: null,
      message: expect.stringMatching(/2000 m/),
      attribution: expect.stringContaining('Vicmap Transport'),
    });
  });

  it('refuses a limit out of range and a point outside Australia with BAD_REQUEST', async () => {
    const { vicParcel: p } = f;
    for (const limit of [0, 51]) {
      const res = await graph(ROADS_NEAR, { lat: p.lat, lng: p.lng, state: 'VIC', limit });
      expect(res.body.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/limit must be a whole number from 1 to 50/),
        extensions: { code: 'BAD_REQUEST' },
      });
    }
    const swapped = await graph(ROADS_NEAR, { lat: p.lng, lng: p.lat, state: 'VIC' });
    expect(swapped.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
  });

  it('needs scope roads.read for the roads layer and roadsNear; other layers still answer', async () => {
    const { vicParcel: p } = f;
    const key = await createTestKey(t.runtime, { scopes: ['cadastre.read', 'property-graph.read'] });
    const near = await graph(ROADS_NEAR, { lat: p.lat, lng: p.lng, state: 'VIC' }, key);
    expect(near.body.errors?.[0]).toMatchObject({
      message: 'Missing scope: roads.read',
      extensions: { code: 'FORBIDDEN' },
    });
    const layer = await graph(
      `query L($pfi: String!, $state: String!) { property: propertyByParcel(parcel_pfi: $pfi, state: $state) {
        cadastre { status } roads { status } road_lines { status } } }`,
      { pfi: p.parcel_pfi, state: p.state },
      key,
    );
    expect(layer.body.data.property.cadastre.status).toBe('ok');
    expect(layer.body.data.property.roads).toBeNull();
    expect(layer.body.data.property.road_lines).toBeNull();
    const messages = (layer.body.errors as Array<{ message: string; path: string[] }>).map((e) => e.path.join('.'));
    expect(messages.sort()).toEqual(['property.road_lines', 'property.roads']);
  });
});

describe('roads routes', () => {
  let t: TestRuntime;
  let f: Fixtures;
  const get = (path: string, query: Record<string, string>, key = t.key) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
  });

  it('GET /api/roads/nearest lists the nearest centrelines, state detected, credited in the headers', async () => {
    const { vicParcel: p } = f;
    const res = await get('/api/roads/nearest', { lat: String(p.lat), lng: String(p.lng), limit: '2' }).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      state: 'VIC',
      status: 'ok',
      message: null,
      source: expect.stringMatching(/^mirror:vic\/roads@/),
      attribution: expect.stringContaining('Vicmap Transport'),
    });
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toEqual({
      name: expect.any(String),
      road_class: expect.any(String),
      distance_m: expect.any(Number),
      geometry: { type: 'LineString', coordinates: expect.any(Array) },
    });
    expect(res.headers['x-service-attribution']).toBe(res.body.attribution);

    const uncovered = await get('/api/roads/nearest', { lat: '-34.93', lng: '138.6' }).expect(200);
    expect(uncovered.body).toMatchObject({ state: 'SA', status: 'not_covered', data: [], source: null });
  });

  it('GET /api/roads/nearest refuses a bad limit or point with the error envelope', async () => {
    const { vicParcel: p } = f;
    const point = { lat: String(p.lat), lng: String(p.lng) };
    for (const [limit, message] of [
      ['0', 'limit must be at least 1.'],
      ['51', 'limit must be at most 50.'],
      ['2.5', 'limit must be a whole number.'],
      ['many', 'limit must be a number'],
    ] as const) {
      const res = await get('/api/roads/nearest', { ...point, limit }).expect(400);
      expect(res.body).toMatchObject({ success: false, error: expect.stringContaining(message) });
    }
    const missing = await get('/api/roads/nearest', { lat: point.lat }).expect(400);
    expect(missing.body.success).toBe(false);
  });

  it('GET /api/roads/fronting gives the same fronting roads by PFI as by a point on the lot', async () => {
    const { vicParcel: p } = f;
    const byPfi = await get('/api/roads/fronting', { pfi: p.parcel_pfi, state: 'vic' }).expect(200);
    expect(byPfi.body).toMatchObject({ success: true, state: 'VIC', status: 'ok', message: null });
    const roads = byPfi.body.data as FrontingRoad[];
    expect(roads[0]).toMatchObject({ front: true, frontage_m: expect.any(Number), road_class: expect.any(String) });
    const byPoint = await get('/api/roads/fronting', { lat: String(p.lat), lng: String(p.lng) }).expect(200);
    expect(byPoint.body.data).toEqual(roads);
    expect(byPoint.headers['x-service-license']).toBe(byPfi.body.license);
  });

  it('GET /api/roads/fronting answers 404 off any parcel or for an unknown PFI, 400 when the lot is named twice', async () => {
    const off = await get('/api/roads/fronting', { lat: String(f.roadReserve.lat), lng: String(f.roadReserve.lng) });
    expect(off.status).toBe(404);
    expect(off.body).toMatchObject({ success: false, error: 'No parcel found at this point in VIC.' });
    const unknown = await get('/api/roads/fronting', { pfi: 'NO-SUCH-PFI', state: 'VIC' }).expect(404);
    expect(unknown.body.error).toBe('No parcel with PFI NO-SUCH-PFI in VIC.');
    const twice = await get('/api/roads/fronting', { pfi: '1', state: 'VIC', lat: '-37', lng: '145' }).expect(400);
    expect(twice.body.error).toMatch(/Name the lot one way/);
    const noState = await get('/api/roads/fronting', { pfi: '1' }).expect(400);
    expect(noState.body.error).toMatch(/pfi needs state/);
  });

  it('refuses both routes without roads.read, and /v1/property/graph carries the roads layer only with it', async () => {
    const { vicParcel: p } = f;
    const graphOnly = await createTestKey(t.runtime, { scopes: ['property-graph.read'] });
    const point = { lat: String(p.lat), lng: String(p.lng) };
    for (const path of ['/api/roads/nearest', '/api/roads/fronting']) {
      const res = await get(path, point, graphOnly).expect(403);
      expect(res.body).toMatchObject({ success: false, error: expect.stringContaining('roads.read') });
    }
    const without = await get('/v1/property/graph', point, graphOnly).expect(200);
    expect(JSON.stringify(without.body)).not.toContain('frontage_m');
    const withRoads = await createTestKey(t.runtime, { scopes: ['property-graph.read', 'roads.read'] });
    const graph = await get('/v1/property/graph', point, withRoads).expect(200);
    const fronting = await get('/api/roads/fronting', point).expect(200);
    expect(JSON.stringify(graph.body)).toContain('"frontage_m"');
    expect(Object.keys(graph.body.layers)).toEqual(['roads']);
    expect(graph.body.layers.roads).toMatchObject({ status: 'ok', data: fronting.body.data });
  });
});
