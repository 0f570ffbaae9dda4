import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { AMENITY_CATEGORIES } from '../core/amenities.ts';
import { SUBURB_METRIC_NAMES } from '../core/suburb-metrics.ts';
import { amenitiesSuburbMetrics, nearestMetric } from '../subgraphs/amenities/suburb-metrics.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

/* The locality routes and the suburb analytics contract on the sandbox's amenities and walking network. */

type Amenity = {
  id: string;
  category: string;
  name: string;
  school_sector: string | null;
  school_level: string | null;
  transport_mode: string | null;
  distance_m: number;
  walking_distance_m: number | null;
  walking_minutes: number | null;
  tags: Record<string, string>;
};
type Count = { category: string; count: number; nearest_m: number | null; nearest_name: string | null };

describe('amenities in the sandbox', () => {
  let t: TestRuntime;
  let f: Fixtures;
  let suburbs: Array<{ state: string; name: string }>;
  const get = (path: string, query: Record<string, string | number>, key = t.key) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    suburbs = (
      await t.runtime.db.query<{ state: string; locality_name: string }>(
        `SELECT state, locality_name FROM address.locality WHERE dataset = 'sandbox' ORDER BY state, locality_name`,
      )
    ).map((r) => ({ state: r.state, name: r.locality_name }));
  });

  it('holds a walking network and amenities of every category for every sandbox suburb, labelled demo', async () => {
    expect(suburbs.length).toBeGreaterThanOrEqual(6);
    const rows = await t.runtime.db.query<{ name: string; edges: number; footways: number; categories: number }>(
      `SELECT c.name,
         (SELECT count(*)::int FROM amenities.walk_edge e WHERE e.dataset = 'sandbox' AND ST_Intersects(e.geom, c.geom)) AS edges,
         (SELECT count(*)::int FROM amenities.walk_edge e WHERE e.dataset = 'sandbox' AND e.highway = 'footway' AND ST_Intersects(e.geom, c.geom)) AS footways,
         (SELECT count(DISTINCT a.category)::int FROM amenities.amenity a WHERE a.dataset = 'sandbox' AND ST_Intersects(a.geom, c.geom)) AS categories
       FROM amenities.coverage c WHERE c.dataset = 'sandbox' AND c.layer = 'walking-network' ORDER BY c.name`,
    );
    expect(rows.map((r) => r.name).sort()).toEqual(suburbs.map((s) => s.name).sort());
    for (const r of rows) {
      expect(r.edges, r.name).toBeGreaterThan(50);
      expect(r.footways, r.name).toBeGreaterThan(0);
      expect(r.categories, r.name).toBeGreaterThanOrEqual(7);
    }
    const [source] = await t.runtime.db.query<{ attribution: string; license: string }>(
      `SELECT attribution, license FROM public.dataset_source WHERE dataset = 'sandbox' AND layer = 'amenities' AND state = 'VIC'`,
    );
    expect(source).toMatchObject({ license: 'ODbL', attribution: expect.stringMatching(/synthetic demo data/) });
  });

  it('lists schools near a point, nearest first, with sector, level and walking distance', async () => {
    const res = await get('/api/locality/schools', {
      lat: f.vicParcel.lat,
      lng: f.vicParcel.lng,
      radius_m: 5000,
    }).expect(200);
    expect(res.body).toMatchObject({ success: true, status: 'ok', category: 'school', network: true, license: 'ODbL' });
    expect(res.headers['x-service-license']).toBe('ODbL');
    expect(res.headers['x-service-attribution']).toMatch(/sandbox/);
    const data = res.body.data as Amenity[];
    expect(data.length).toBeGreaterThanOrEqual(3);
    expect(data.every((a) => a.category === 'school')).toBe(true);
    expect(data.map((a) => a.distance_m)).toEqual([...data.map((a) => a.distance_m)].sort((a, b) => a - b));
    expect(data.some((a) => a.school_sector === 'catholic' && a.school_level === 'primary')).toBe(true);
    for (const a of data.filter((x) => x.distance_m < 2000)) {
      expect(a.walking_distance_m, a.name).not.toBeNull();
      expect(a.walking_distance_m!).toBeGreaterThanOrEqual(a.distance_m - 50);
      expect(a.walking_minutes).toBeCloseTo(a.walking_distance_m! / 80, 1);
    }
    expect(data[0]!.tags.amenity).toBe('school');
  });

  it('answers the other kinds, by point or by parcel, within the radius and limit asked', async () => {
    const stops = await get('/api/locality/transport-stops', {
      lat: f.vicParcel.lat,
      lng: f.vicParcel.lng,
      radius_m: 5000,
    });
    expect(stops.status).toBe(200);
    expect((stops.body.data as Amenity[]).every((a) => a.transport_mode !== null)).toBe(true);
    expect((stops.body.data as Amenity[]).map((a) => a.transport_mode)).toEqual(
      expect.arrayContaining(['bus', 'train']),
    );
    const childcare = await get('/api/locality/childcare', {
      pfi: f.vicParcel.parcel_pfi,
      state: 'VIC',
      radius_m: 5000,
      limit: 2,
    });
    expect(childcare.status).toBe(200);
    expect(childcare.body.query).toMatchObject({ pfi: f.vicParcel.parcel_pfi, state: 'VIC' });
    expect(childcare.body.data).toHaveLength(2);
    const shops = await get('/api/locality/supermarkets', {
      lat: f.vicParcel.lat,
      lng: f.vicParcel.lng,
      radius_m: 5000,
    });
    expect((shops.body.data as Amenity[]).every((a) => a.category === 'supermarket')).toBe(true);
    const small = await get('/api/locality/schools', { lat: f.vicParcel.lat, lng: f.vicParcel.lng, radius_m: 1 });
    expect(small.body).toMatchObject({ status: 'no_data', data: [] });
    const far = await get('/api/locality/schools', { lat: f.outsideCoverage.lat, lng: f.outsideCoverage.lng });
    expect(far.body.status).toBe('no_data');
  });

  it('refuses bad input with 400 naming the parameter, and an unknown parcel with 404', async () => {
    const point = { lat: f.vicParcel.lat, lng: f.vicParcel.lng };
    for (const [query, name] of [
      [{ ...point, radius_m: 5001 }, 'radius_m'],
      [{ ...point, radius_m: 0 }, 'radius_m'],
      [{ ...point, limit: 0 }, 'limit'],
      [{ ...point, limit: 101 }, 'limit'],
      [{ lat: point.lat }, 'lng'],
      [{ pfi: '123' }, 'state'],
    ] as const) {
      const res = await get('/api/locality/schools', query).expect(400);
      expect(JSON.stringify(res.body), JSON.stringify(query)).toContain(name);
    }
    await get('/api/locality/schools', { pfi: 'NO-SUCH-PFI', state: 'VIC' }).expect(404);
    const demo = await createTestKey(t.runtime, { scopes: ['catchment.read'] });
    const res = await get('/api/locality/schools', point, demo).expect(403);
    expect(JSON.stringify(res.body)).toContain('Missing scope: locality.read');
  });

  it("counts a suburb's amenities per category and measures its centre to the nearest of each", async () => {
    const vic = suburbs.find((s) => s.state === 'VIC')!;
    const res = await get('/api/locality/amenities/suburb', { state: 'vic', suburb: vic.name.toLowerCase() }).expect(
      200,
    );
    expect(res.body).toMatchObject({ status: 'ok', state: 'VIC', suburb: vic.name, extent_method: 'address-hull' });
    expect(res.headers['x-service-license']).toBe('ODbL');
    const counts = res.body.counts as Count[];
    expect(counts.map((c) => c.category)).toEqual([...AMENITY_CATEGORIES]);
    const school = counts.find((c) => c.category === 'school')!;
    expect(school.count).toBeGreaterThanOrEqual(3);
    expect(school.nearest_m).toBeGreaterThanOrEqual(0);
    expect(school.nearest_name).toMatch(/demo/i);
    await get('/api/locality/amenities/suburb', { state: 'VIC', suburb: 'Nowhere Such' }).expect(404);
    await get('/api/locality/amenities/suburb', { state: 'VIC' }).expect(400);
  });

  it('walks a 15-minute catchment over the sandbox network', async () => {
    const res = await get('/v1/catchment/walking', { lat: f.vicParcel.lat, lng: f.vicParcel.lng, minutes: 15 }).expect(
      200,
    );
    expect(res.body).toMatchObject({ status: 'ok', approximate: false, budget_m: 1200, license: 'ODbL' });
    expect(res.body.reached.edges).toBeGreaterThan(20);
    const amenities = res.body.amenities as Amenity[];
    expect(amenities.length).toBeGreaterThan(0);
    for (const a of amenities) expect(a.walking_distance_m!).toBeLessThanOrEqual(1200 + 40);
    expect(amenities.map((a) => a.walking_distance_m)).toEqual(
      [...amenities.map((a) => a.walking_distance_m)].sort((a, b) => a! - b!),
    );
  });

  it("takes a parcel in place of the point, with a key holding only the route's own scope", async () => {
    const catchmentOnly = await createTestKey(t.runtime, { scopes: ['catchment.read'] });
    const walk = await get(
      '/v1/catchment/walking',
      { pfi: f.vicParcel.parcel_pfi, state: 'VIC', minutes: 10 },
      catchmentOnly,
    ).expect(200);
    expect(walk.body).toMatchObject({ status: 'ok', approximate: false, query: { pfi: f.vicParcel.parcel_pfi } });
    expect(walk.body.location.lat).toBeCloseTo(f.vicParcel.lat, 2);
    await get('/v1/catchment/walking', { pfi: 'NO-SUCH-PFI', state: 'VIC', minutes: 10 }, catchmentOnly).expect(404);
    await get('/v1/catchment/walking', { pfi: f.vicParcel.parcel_pfi, minutes: 10 }, catchmentOnly).expect(400);
    const localityOnly = await createTestKey(t.runtime, { scopes: ['locality.read'] });
    const schools = await get(
      '/api/locality/schools',
      { pfi: f.vicParcel.parcel_pfi, state: 'VIC', radius_m: 3000 },
      localityOnly,
    ).expect(200);
    expect(schools.body.status).toBe('ok');
  });

  it('gives the suburb rollup the amenity metrics by the contract names, the same counts as the route', async () => {
    const vic = suburbs.find((s) => s.state === 'VIC')!;
    const byState = await amenitiesSuburbMetrics.contribute(t.runtime.db, 'sandbox', 'VIC');
    expect(amenitiesSuburbMetrics.section).toBe('amenities');
    const c = byState.get(vic.name)!;
    expect(c).toBeDefined();
    const res = await get('/api/locality/amenities/suburb', { state: 'VIC', suburb: vic.name });
    for (const row of res.body.counts as Count[]) {
      const name = {
        school: SUBURB_METRIC_NAMES.schools,
        childcare: SUBURB_METRIC_NAMES.childcare,
        supermarket: SUBURB_METRIC_NAMES.supermarkets,
        transport: SUBURB_METRIC_NAMES.transportStops,
        hospital: SUBURB_METRIC_NAMES.hospitals,
        recreation: SUBURB_METRIC_NAMES.recreation,
        cafe: SUBURB_METRIC_NAMES.cafes,
        retail: SUBURB_METRIC_NAMES.retail,
      }[row.category]!;
      expect(c.metrics[name], row.category).toBe(row.count);
      expect(c.metrics[nearestMetric(row.category as never)], row.category).toBe(
        row.nearest_m === null ? null : Math.round(row.nearest_m),
      );
    }
    expect(c.section).toMatchObject({ extent_method: 'address-hull' });
    const credits = await amenitiesSuburbMetrics.credits(t.runtime.db, 'sandbox', 'VIC');
    expect(credits).toEqual([expect.objectContaining({ license: 'ODbL' })]);
    // a dataset without the layer contributes nothing rather than zeros
    expect((await amenitiesSuburbMetrics.contribute(t.runtime.db, 'no_such_dataset', 'VIC')).size).toBe(0);
  });
});
