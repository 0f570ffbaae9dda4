import request from 'supertest';
import { sandboxSamples } from '../prisma/sandbox/samples.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../core/db.ts';
import { walkFrom } from '../subgraphs/amenities/walk.ts';
import { createTestKey, type TestRuntime, testRuntime } from './support/runtime.ts';

/*
 * The walking catchment on a hand-built network near Hobart (live dataset, TAS, which nothing
 * else loads), where the reachable set and the distances are known:
 *
 *        E (cafe)
 *        |  ~300 m
 *   A ---- B ---- C ---------- D          F (supermarket, 300 m north of A, on no way)
 *   ~367 m   ~367 m   ~734 m
 *                 (school beside C)
 *
 * At 80 m a minute: 5 minutes (400 m) from A reaches A and B; 10 minutes (800 m) adds C and E;
 * 15 minutes (1200 m) still not D (about 1468 m).
 */
const LAT = -42.88;
const LNG = 147.3;
const NODES: Record<string, [number, number]> = {
  A: [LNG, LAT],
  B: [LNG + 0.0045, LAT],
  C: [LNG + 0.009, LAT],
  D: [LNG + 0.018, LAT],
  E: [LNG + 0.0045, LAT + 0.0027],
};
const EDGES: Array<[string, string, string, string]> = [
  ['ab', 'A', 'B', 'footway'],
  ['bc', 'B', 'C', 'residential'],
  ['cd', 'C', 'D', 'residential'],
  ['be', 'B', 'E', 'path'],
];
const AMENITIES: Array<[string, string, string, number, number]> = [
  ['catchment-test/school', 'school', 'Test School near C', LNG + 0.009, LAT - 0.0001],
  ['catchment-test/cafe', 'cafe', 'Test Cafe at E', LNG + 0.0045, LAT + 0.0028],
  ['catchment-test/supermarket', 'supermarket', 'Test Supermarket off the network', LNG, LAT + 0.0027],
  ['catchment-test/stop', 'transport', 'Test Stop near D', LNG + 0.018, LAT + 0.0001],
];

type Amenity = { name: string; distance_m: number; walking_distance_m: number | null; walking_minutes: number | null };

describe('walking distances over a network (Dijkstra)', () => {
  const edges = [
    { id: 'ab', source: 'A', target: 'B', length_m: 300 },
    { id: 'bc', source: 'B', target: 'C', length_m: 300 },
    { id: 'cd', source: 'C', target: 'D', length_m: 600 },
    { id: 'ad', source: 'A', target: 'D', length_m: 1000 },
    { id: 'xy', source: 'X', target: 'Y', length_m: 10 },
  ];

  it('finds the shortest way to every node within the budget, and none beyond', () => {
    const walk = walkFrom('A', 0, edges, 1200);
    expect(Object.fromEntries(walk.distances)).toEqual({ A: 0, B: 300, C: 600, D: 1000 });
    const cd = walk.reached.find((r) => r.id === 'cd')!;
    // C at 600 and D at 1000: 600 + 1000 >= 2 * 600 - the walk covers the whole edge from both ends
    expect(cd.parts).toEqual([[0, 1]]);
    expect(walk.reached.find((r) => r.id === 'xy')).toBeUndefined();
  });

  it('reaches part of an edge it cannot walk to the end of, from each end it reaches', () => {
    const walk = walkFrom('A', 0, edges, 450);
    expect(Object.fromEntries(walk.distances)).toEqual({ A: 0, B: 300 });
    const bc = walk.reached.find((r) => r.id === 'bc')!;
    expect(bc.toSource).toBe(300);
    expect(bc.toTarget).toBe(Infinity);
    expect(bc.parts).toEqual([[0, 0.5]]);
    const ad = walk.reached.find((r) => r.id === 'ad')!;
    expect(ad.parts).toEqual([[0, 0.45]]);
  });

  it('counts the step from the point to its node, and reaches nothing when that step is over budget', () => {
    expect(Object.fromEntries(walkFrom('A', 200, edges, 450).distances)).toEqual({ A: 200 });
    expect(walkFrom('A', 500, edges, 450).distances.size).toBe(0);
  });
});

describe('GET /v1/catchment/walking', () => {
  let t: TestRuntime;
  let db: Database;
  let key: string;
  let lengths: Record<string, number>;
  const catchment = (query: Record<string, string | number>, k = key) =>
    request(t.app).get('/v1/catchment/walking').query(query).set('Authorization', `Bearer ${k}`);

  async function cleanUp() {
    await db.exec(`
      DELETE FROM amenities.amenity WHERE dataset = 'live' AND state = 'TAS';
      DELETE FROM amenities.walk_edge WHERE dataset = 'live' AND state = 'TAS';
      DELETE FROM amenities.walk_node WHERE dataset = 'live' AND state = 'TAS';
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'amenities' AND state = 'TAS';`);
    t.runtime.catalog.invalidate();
  }

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    await cleanUp();
    for (const [id, [lng, lat]] of Object.entries(NODES)) {
      await db.exec(`INSERT INTO amenities.walk_node (dataset, id, state, geom)
        VALUES ('live', 'test-${id}', 'TAS', ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326))`);
    }
    for (const [id, s, e, highway] of EDGES) {
      const [a, b] = [NODES[s]!, NODES[e]!];
      await db.exec(`INSERT INTO amenities.walk_edge (dataset, id, state, source, target, highway, length_m, geom)
        SELECT 'live', 'test-${id}', 'TAS', 'test-${s}', 'test-${e}', '${highway}', ST_Length(g::geography), g
        FROM (SELECT ST_SetSRID(ST_MakeLine(ST_MakePoint(${a[0]}, ${a[1]}), ST_MakePoint(${b[0]}, ${b[1]})), 4326) AS g) x`);
    }
    for (const [id, category, name, lng, lat] of AMENITIES) {
      await db.exec(`INSERT INTO amenities.amenity (dataset, id, osm_type, state, category, name, tags, geom)
        VALUES ('live', '${id}', 'synthetic', 'TAS', '${category}', '${name}', '{"note":"test"}',
          ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326))`);
    }
    await db.exec(`INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
      VALUES ('live', 'amenities', 'TAS', '© OpenStreetMap contributors (test network)', 'ODbL', 'catchment-test')`);
    t.runtime.catalog.invalidate();
    const rows = await db.query<{ id: string; length_m: number }>(
      `SELECT id, length_m FROM amenities.walk_edge WHERE dataset = 'live' AND state = 'TAS'`,
    );
    lengths = Object.fromEntries(rows.map((r) => [r.id.replace('test-', ''), r.length_m]));
    key = await createTestKey(t.runtime, { kind: 'live', scopes: ['catchment.read'] });
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
  });

  it('walks 5 minutes (400 m) from the nearest node: A and B, part of the way on, nothing off the network', async () => {
    const res = await catchment({ lat: LAT, lng: LNG, minutes: 5 }).expect(200);
    expect(lengths.ab).toBeGreaterThan(360);
    expect(lengths.ab).toBeLessThan(400);
    expect(res.body).toMatchObject({
      success: true,
      status: 'ok',
      state: 'TAS',
      minutes: 5,
      walking_speed_m_per_min: 80,
      walking_speed_kmh: 4.8,
      budget_m: 400,
      approximate: false,
      reason: null,
      origin: { node: 'test-A', access_m: 0 },
      reached: { nodes: 2, edges: 3 },
      attribution: '© OpenStreetMap contributors (test network)',
      license: 'ODbL',
    });
    expect(res.headers['x-service-license']).toBe('ODbL');
    // the supermarket is 300 m from the point as the crow flies but on no way: a circle would hold it
    expect(res.body.amenities).toEqual([]);
    expect(['Polygon', 'MultiPolygon']).toContain(res.body.polygon.type);
  });

  it('walks 10 minutes (800 m): C and E too, with each amenity at its network distance and time', async () => {
    const res = await catchment({ lat: LAT, lng: LNG, minutes: 10 }).expect(200);
    expect(res.body.reached.nodes).toBe(4);
    const byName = Object.fromEntries((res.body.amenities as Amenity[]).map((a) => [a.name, a]));
    expect(Object.keys(byName).sort()).toEqual(['Test Cafe at E', 'Test School near C']);
    const school = byName['Test School near C']!;
    // A-B-C plus the 11 m step off the street
    expect(school.walking_distance_m).toBeGreaterThan(lengths.ab! + lengths.bc!);
    expect(school.walking_distance_m).toBeLessThan(lengths.ab! + lengths.bc! + 15);
    expect(school.walking_minutes).toBeCloseTo(school.walking_distance_m! / 80, 1);
    const cafe = byName['Test Cafe at E']!;
    expect(cafe.walking_distance_m).toBeGreaterThan(lengths.ab! + lengths.be!);
    expect(cafe.walking_distance_m).toBeLessThan(lengths.ab! + lengths.be! + 15);
    // the walk to the cafe goes round by B: longer than the straight line
    expect(cafe.walking_distance_m).toBeGreaterThan(cafe.distance_m + 100);
    expect((res.body.amenities as Amenity[]).map((a) => a.name)).toEqual(['Test Cafe at E', 'Test School near C']);
  });

  it('walks 15 minutes (1200 m) without reaching D, 1470 m away by the only way there', async () => {
    const res = await catchment({ lat: LAT, lng: LNG, minutes: 15 }).expect(200);
    expect(res.body.reached.nodes).toBe(4);
    expect((res.body.amenities as Amenity[]).map((a) => a.name)).not.toContain('Test Stop near D');
  });

  it('walks 15 minutes over the street network of every sandbox suburb: a few hundred edges in one band', async () => {
    // a band over a few hundred reached edges is what a real 15-minute walk draws (the embedded
    // database once answered no row for it)
    const samples = (await sandboxSamples(db)).filter((sample) => sample.note.startsWith('all layers present'));
    expect(samples.map((sample) => sample.state).sort()).toEqual(['NSW', 'QLD', 'VIC']);
    for (const sample of samples) {
      const res = await catchment({ lat: sample.lat, lng: sample.lng, minutes: 15 }, t.key);
      expect(res.status, sample.address).toBe(200);
      expect(res.body.approximate).toBe(false);
      expect(res.body.reached.edges).toBeGreaterThan(100);
      expect(res.body.amenities.length).toBeGreaterThan(0);
      expect(['Polygon', 'MultiPolygon']).toContain(res.body.polygon.type);
    }
  });

  it('starts from the node nearest the point and walks the step to it first', async () => {
    // 50 m south of B
    const res = await catchment({ lat: LAT - 0.00045, lng: LNG + 0.0045, minutes: 5 }).expect(200);
    expect(res.body.origin.node).toBe('test-B');
    expect(res.body.origin.access_m).toBeGreaterThan(45);
    expect(res.body.origin.access_m).toBeLessThan(55);
  });

  it('degrades to a straight-line buffer, approximate with a reason, where no network is held', async () => {
    // about 4 km from the test network
    const res = await catchment({ lat: LAT, lng: LNG - 0.05, minutes: 5 }).expect(200);
    expect(res.body).toMatchObject({ status: 'ok', approximate: true, origin: null, reached: { nodes: 0, edges: 0 } });
    expect(res.body.reason).toMatch(/No walking network .* 400 m straight-line buffer/);
    expect(res.body.polygon.type).toBe('Polygon');
    // near the off-network supermarket the buffer holds it, at its straight-line distance and no walk
    const near = await catchment({ lat: LAT + 0.0045, lng: LNG - 0.006, minutes: 10 }).expect(200);
    expect(near.body.approximate).toBe(true);
    const names = (near.body.amenities as Amenity[]).map((a) => a.name);
    expect(names).toContain('Test Supermarket off the network');
    expect(near.body.amenities[0].walking_distance_m).toBeNull();
  });

  it('refuses minutes other than 5, 10 or 15, a bad point and an unknown state with 400 naming the parameter', async () => {
    for (const minutes of ['7', '0', '20', 'ten', '5.5']) {
      const res = await catchment({ lat: LAT, lng: LNG, minutes }).expect(400);
      expect(JSON.stringify(res.body)).toMatch(/minutes/);
    }
    expect(JSON.stringify((await catchment({ lat: LAT, lng: LNG }).expect(400)).body)).toMatch(/minutes/);
    expect(JSON.stringify((await catchment({ lat: 95, lng: LNG, minutes: 5 }).expect(400)).body)).toMatch(/lat/);
    const state = await catchment({ lat: LAT, lng: LNG, minutes: 5, state: 'XX' }).expect(400);
    expect(JSON.stringify(state.body)).toMatch(/state/);
    const offshore = await catchment({ lat: 0, lng: 0, minutes: 5 }).expect(400);
    expect(JSON.stringify(offshore.body)).toMatch(/outside Australia/);
  });

  it('takes state as an override of the detected state', async () => {
    const res = await catchment({ lat: LAT, lng: LNG, minutes: 5, state: 'VIC' }).expect(200);
    expect(res.body).toMatchObject({ state: 'VIC', state_detected: 'TAS' });
    // no VIC network at this point: the override answers from VIC's holdings, which do not reach it
    expect(res.body.approximate).toBe(true);
  });

  it('needs scope catchment.read', async () => {
    const other = await createTestKey(t.runtime, { kind: 'live', scopes: ['locality.read'] });
    const res = await catchment({ lat: LAT, lng: LNG, minutes: 5 }, other).expect(403);
    expect(JSON.stringify(res.body)).toContain('Missing scope: catchment.read');
  });
});
