import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { CENSUS_CHARACTERS, SA1_PER_SUBURB } from '../prisma/sandbox/census.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

type Profile = {
  geography: string;
  code: string;
  name: string;
  state: string;
  population: number;
  median_age: number;
  age_groups: { band: string; persons: number }[];
  households: Record<string, number>;
  tenure: Record<string, number>;
  dwellings: Record<string, number>;
  families: Record<string, number>;
};

describe('Census 2021 demographics: graph, routes and the property graph', () => {
  let t: TestRuntime;
  let f: Fixtures;
  let key: string;
  let graphOnlyKey: string;
  let soilKey: string;
  const get = (path: string, query: Record<string, string>, k = key) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${k}`);
  const point = (p: { lat: number; lng: number }) => ({ lat: String(p.lat), lng: String(p.lng) });

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    key = await createTestKey(t.runtime, { scopes: ['locality.read', 'property-graph.read'] });
    graphOnlyKey = await createTestKey(t.runtime, { scopes: ['property-graph.read'] });
    soilKey = await createTestKey(t.runtime, { scopes: ['soil.read'] });
  });

  it('answers a point with its SA1 and its suburb, the SA1 inside the SAL, credited in body and headers', async () => {
    const res = await get('/api/locality/demographics', point(f.vicParcel));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'ok', data: { census_year: 2021 } });
    const { sa1, sal } = res.body.data as { sa1: Profile; sal: Profile };
    expect(sal.geography).toBe('SAL');
    expect(sa1.geography).toBe('SA1');
    expect(sal.state).toBe('VIC');
    // the ABS state digit opens both codes; the SA1 is one of the SAL's and smaller than it
    expect(sal.code[0]).toBe('2');
    expect(sa1.code[0]).toBe('2');
    expect(sa1.population).toBeLessThan(sal.population);
    // the SAL's age groups add up to its population, youngest first
    expect(sal.age_groups.map((b) => b.band)[0]).toBe('0_4');
    expect(sal.age_groups.reduce((s, b) => s + b.persons, 0)).toBe(sal.population);
    expect(sal.tenure.total).toBe(sal.households.total);
    expect(res.body.attribution).toMatch(/synthetic demo data/);
    expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
    expect(res.headers['x-service-license']).toBe(res.body.license);
  });

  it('sums the SAL from its SA1s: every SA1 of the suburb is counted once', async () => {
    const [row] = await t.runtime.db.query<{ sal: number; sa1: number; n: number }>(
      `SELECT (SELECT population FROM census.profile WHERE dataset = 'sandbox' AND geography = 'SAL' AND code = s.code) AS sal,
              sum(p.population)::int AS sa1, count(*)::int AS n
       FROM census.boundary s
       JOIN census.boundary a ON a.dataset = s.dataset AND a.geography = 'SA1' AND ST_Within(ST_PointOnSurface(a.geom), s.geom)
       JOIN census.profile p ON p.dataset = a.dataset AND p.geography = 'SA1' AND p.code = a.code
       WHERE s.dataset = 'sandbox' AND s.geography = 'SAL' AND s.name_key = 'PARRAMATTA'
       GROUP BY s.code`,
    );
    expect(row).toEqual({ sal: row!.sa1, sa1: row!.sa1, n: SA1_PER_SUBURB });
  });

  it('answers by parcel and by address at the same point, echoing the identifiers', async () => {
    const byPoint = await get('/api/locality/demographics', point(f.nswParcel));
    const byParcel = await get('/api/locality/demographics', { pfi: f.nswParcel.parcel_pfi, state: 'NSW' });
    const byAddress = await get('/api/locality/demographics', { gnaf_pid: f.nswParcel.gnaf_pid });
    for (const res of [byParcel, byAddress]) {
      expect(res.status).toBe(200);
      expect(res.body.data.sal.code).toBe(byPoint.body.data.sal.code);
      expect(res.body.data.sa1.code).toBe(byPoint.body.data.sa1.code);
    }
    expect(byParcel.body.property).toEqual({ parcel_pfi: f.nswParcel.parcel_pfi, state: 'NSW' });
    expect(byAddress.body.property).toEqual({ gnaf_pid: f.nswParcel.gnaf_pid, state: 'NSW' });
  });

  it('says no_data outside every boundary and not_covered where no figures are loaded', async () => {
    const outside = await get('/api/locality/demographics', point(f.outsideCoverage));
    expect(outside.status).toBe(200);
    expect(outside.body).toMatchObject({ status: 'no_data', data: null });
    // Adelaide: the sandbox loads no South Australian figures
    const sa = await get('/api/locality/demographics', { lat: '-34.93', lng: '138.6' });
    expect(sa.body).toMatchObject({ status: 'not_covered', data: null, attribution: null });
    // a Victorian point asked about as NSW: NSW's areas do not hold it
    const wrongState = await get('/api/locality/demographics', { ...point(f.vicParcel), state: 'NSW' });
    expect(wrongState.body).toMatchObject({ status: 'no_data', data: null });
  });

  it('refuses bad input naming the parameter, and an unknown parcel with 404', async () => {
    const noLng = await get('/api/locality/demographics', { lat: '-36.7' });
    expect(noLng.status).toBe(400);
    expect(JSON.stringify(noLng.body)).toMatch(/lat and lng/);
    const badLat = await get('/api/locality/demographics', { lat: 'north', lng: '144.3' });
    expect(badLat.status).toBe(400);
    expect(JSON.stringify(badLat.body)).toMatch(/lat/);
    const unknown = await get('/api/locality/demographics', { pfi: '999999999', state: 'VIC' });
    expect(unknown.status).toBe(404);
  });

  it('finds a suburb by name, its ABS suffix optional, case-insensitive; 404 for an unknown one', async () => {
    for (const suburb of ['Huntly', 'huntly', 'HUNTLY (Vic.)', ' Huntly  ']) {
      const res = await get('/api/locality/demographics/suburb', { state: 'VIC', suburb });
      expect(res.status, suburb).toBe(200);
      expect(res.body.data).toMatchObject({ geography: 'SAL', name: CENSUS_CHARACTERS.huntly!.salName, state: 'VIC' });
      expect(res.body.others).toEqual([]);
      expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
    }
    const castle = await get('/api/locality/demographics/suburb', { state: 'NSW', suburb: 'castle hill' });
    expect(castle.body.data.median_age).toBeGreaterThan(35);
    const unknown = await get('/api/locality/demographics/suburb', { state: 'VIC', suburb: 'Nowhere Flat' });
    expect(unknown.status).toBe(404);
    // Huntly is a Victorian suburb: NSW has none of the name
    expect((await get('/api/locality/demographics/suburb', { state: 'NSW', suburb: 'Huntly' })).status).toBe(404);
    const badState = await get('/api/locality/demographics/suburb', { state: 'XX', suburb: 'Huntly' });
    expect(badState.status).toBe(400);
    expect(JSON.stringify(badState.body)).toMatch(/state/);
    const noSuburb = await get('/api/locality/demographics/suburb', { state: 'VIC' });
    expect(noSuburb.status).toBe(400);
    expect(JSON.stringify(noSuburb.body)).toMatch(/suburb/);
    const sa = await get('/api/locality/demographics/suburb', { state: 'SA', suburb: 'Glenelg' });
    expect(sa.body).toMatchObject({ status: 'not_covered', data: null });
  });

  it('carries demographics in /v1/property/graph under locality.read only', async () => {
    const withScope = await get('/v1/property/graph', point(f.qldParcel));
    expect(withScope.status).toBe(200);
    expect(withScope.body.layers.demographics).toMatchObject({ status: 'ok', data: { census_year: 2021 } });
    // the graph carries the headline figures; the ABS state digit 3 opens a Queensland code
    const { sal } = withScope.body.layers.demographics.data as { sal: Record<string, unknown> };
    expect(String(sal.code)[0]).toBe('3');
    expect(sal).toMatchObject({ geography: 'SAL', population: expect.any(Number), median_age: expect.any(Number) });
    expect(sal.tenure).toEqual({ owner_occupied_pct: expect.any(Number), rented_pct: expect.any(Number) });
    expect(withScope.body.attribution).toContain(withScope.body.layers.demographics.attribution);
    const without = await get('/v1/property/graph', point(f.qldParcel), graphOnlyKey);
    expect(without.status).toBe(200);
    expect(without.body.layers.demographics).toBeUndefined();
  });

  it('denies the routes and the graph fields without locality.read', async () => {
    const res = await get('/api/locality/demographics', point(f.vicParcel), soilKey);
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).toMatch(/Missing scope: locality.read/);
    const suburb = await get('/api/locality/demographics/suburb', { state: 'VIC', suburb: 'Huntly' }, soilKey);
    expect(suburb.status).toBe(403);
    const graphql = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${soilKey}`)
      .send({ query: '{ suburbDemographics(state: "VIC", suburb: "Huntly") { status } }' });
    expect(JSON.stringify(graphql.body)).toMatch(/Missing scope: locality.read/);
  });
});
