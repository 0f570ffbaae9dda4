import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
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
