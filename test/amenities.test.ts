import { execute, parse } from 'graphql';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubgraphs } from '../app/runtime.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import { AMENITY_CATEGORIES } from '../core/amenities.ts';
import { SUBURB_METRIC_NAMES } from '../core/suburb-metrics.ts';
import { amenitiesSuburbMetrics, nearestMetric } from '../subgraphs/amenities/suburb-metrics.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

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
    expect(res.body).toMatchObject({ status: 'ok', state: 'VIC', suburb: vic.name, extent_method: 'sal-boundary' });
    // the ABS boundary's credit joins OpenStreetMap's
    expect(res.headers['x-service-license']).toBe('ODbL | CC BY 4.0');
    const counts = res.body.counts as Count[];
    expect(counts.map((c) => c.category)).toEqual([...AMENITY_CATEGORIES]);
    const school = counts.find((c) => c.category === 'school')!;
    expect(school.count).toBeGreaterThanOrEqual(3);
    expect(school.nearest_m).toBeGreaterThanOrEqual(0);
    expect(school.nearest_name).toMatch(/demo/i);
    await get('/api/locality/amenities/suburb', { state: 'VIC', suburb: 'Nowhere Such' }).expect(404);
    await get('/api/locality/amenities/suburb', { state: 'VIC' }).expect(400);
  });

  it("counts inside the suburb's SAL boundary, read through the graph, and falls back to the address hull", async () => {
    const vic = suburbs.find((s) => s.state === 'VIC')!;
    const db = t.runtime.db;
    const [sal] = await db.query<{ code: string; name: string }>(
      `SELECT code, name FROM census.boundary WHERE dataset = 'sandbox' AND geography = 'SAL' AND state = 'VIC' AND name_key = $1`,
      [vic.name],
    );
    expect(sal).toBeDefined();
    // the counts worked out here, inside the boundary itself and inside the hull of the addresses
    const inside = (extent: string) =>
      db.query<{ category: string; n: number }>(
        `WITH e AS (${extent})
         SELECT a.category, count(*)::int AS n FROM amenities.amenity a, e
         WHERE a.dataset = 'sandbox' AND a.state = 'VIC' AND ST_Intersects(a.geom, e.g) GROUP BY a.category`,
        [vic.name],
      );
    const bySal = await inside(
      `SELECT geom AS g FROM census.boundary WHERE dataset = 'sandbox' AND geography = 'SAL' AND state = 'VIC' AND name_key = $1`,
    );
    const byHull = await inside(
      `SELECT ST_Buffer(ST_ConvexHull(ST_Collect(d.geom))::geography, 25)::geometry AS g FROM address.locality l
       JOIN address.address_detail d ON d.dataset = l.dataset AND d.locality_pid = l.locality_pid
       WHERE l.dataset = 'sandbox' AND l.state = 'VIC' AND upper(l.locality_name) = $1`,
    );
    const countsOf = (rows: Array<{ category: string; n: number }>) =>
      Object.fromEntries(AMENITY_CATEGORIES.map((c) => [c, rows.find((r) => r.category === c)?.n ?? 0]));
    const graphql = (query: string) =>
      request(t.app).post('/graphql').set('Authorization', `Bearer ${t.key}`).send({ query });
    const answer = async () => {
      const res = await get('/api/locality/amenities/suburb', { state: 'VIC', suburb: vic.name }).expect(200);
      return {
        body: res.body,
        counts: Object.fromEntries((res.body.counts as Count[]).map((c) => [c.category, c.count])),
      };
    };
    const withSal = await answer();
    expect(withSal.body).toMatchObject({ extent_method: 'sal-boundary', sal: { code: sal!.code, name: sal!.name } });
    expect(withSal.counts).toEqual(countsOf(bySal));
    const [demographics] = await db.query<{ attribution: string }>(
      `SELECT attribution FROM public.dataset_source WHERE dataset = 'sandbox' AND layer = 'demographics' AND state = 'VIC'`,
    );
    expect(withSal.body.attribution).toContain(demographics!.attribution);
    // without a boundary of the name the hull stands, and says so
    await db.query(
      `UPDATE census.boundary SET name_key = name_key || ' (MOVED)' WHERE dataset = 'sandbox' AND geography = 'SAL' AND name_key = $1`,
      [vic.name],
    );
    try {
      const withHull = await answer();
      expect(withHull.body).toMatchObject({ extent_method: 'address-hull', sal: null, license: 'ODbL' });
      expect(withHull.counts).toEqual(countsOf(byHull));
      // the hull is the address subgraph's (Suburb.address_hull), read by the amenities through @requires
      const hullGraph = await graphql(
        `{ suburbByName(state: "VIC", name: "${vic.name}") { address_hull { addresses } amenities { extent_method sal_code } } }`,
      );
      expect(hullGraph.body.errors).toBeUndefined();
      const [held] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM address.locality l
         JOIN address.address_detail d ON d.dataset = l.dataset AND d.locality_pid = l.locality_pid
         WHERE l.dataset = 'sandbox' AND l.state = 'VIC' AND upper(l.locality_name) = $1`,
        [vic.name],
      );
      expect(held!.n).toBeGreaterThan(0);
      expect(hullGraph.body.data).toEqual({
        suburbByName: {
          address_hull: { addresses: held!.n },
          amenities: { extent_method: 'address-hull', sal_code: null },
        },
      });
    } finally {
      await db.query(
        `UPDATE census.boundary SET name_key = $1 WHERE dataset = 'sandbox' AND geography = 'SAL' AND name_key = $1 || ' (MOVED)'`,
        [vic.name],
      );
    }
    // the GraphQL field says the same; the older root field, which read the address tables itself, is gone
    const graph = await graphql(
      `{ suburbByName(state: "VIC", name: "${vic.name.toLowerCase()}") { amenities { extent_method sal_code } } }`,
    );
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data).toEqual({
      suburbByName: { amenities: { extent_method: 'sal-boundary', sal_code: sal!.code } },
    });
    const gone = await graphql(`{ suburbAmenities(state: "VIC", suburb: "${vic.name}") { extent_method } }`);
    expect(gone.body.errors?.[0]?.message).toMatch(/Cannot query field "suburbAmenities"/);
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

  it('answers Property.walking_catchment beside the other layers, the same catchment as at its point', async () => {
    const graphql = (query: string, key = t.key) =>
      request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query });
    const CATCHMENT = `status approximate minutes budget_m origin_node origin_access_m reached_nodes reached_edges
      attribution license polygon amenities { id category walking_distance_m walking_minutes }`;
    const catchmentOnly = await createTestKey(t.runtime, { scopes: ['catchment.read'] });
    const res = await graphql(
      `{ propertyByParcel(parcel_pfi: "${f.vicParcel.parcel_pfi}", state: "VIC") {
        walking_catchment(minutes: 10) { ${CATCHMENT} } } }`,
      catchmentOnly,
    );
    expect(res.body.errors).toBeUndefined();
    const layer = res.body.data.propertyByParcel.walking_catchment;
    expect(layer).toMatchObject({ status: 'ok', approximate: false, minutes: 10, budget_m: 800, license: 'ODbL' });
    expect(layer.reached_edges).toBeGreaterThan(5);
    expect(layer.amenities.length).toBeGreaterThan(0);
    // the point the property is analysed at, and the root field there: the same answer
    const [point] = await t.runtime.db.query<{ lat: number; lng: number }>(
      `SELECT ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng FROM cadastre.parcel
       WHERE dataset = 'sandbox' AND state = 'VIC' AND parcel_pfi = $1`,
      [f.vicParcel.parcel_pfi],
    );
    const atPoint = await graphql(
      `{ walkingCatchment(lat: ${point!.lat}, lng: ${point!.lng}, minutes: 10, state: "VIC") { ${CATCHMENT} } }`,
      catchmentOnly,
    );
    expect(atPoint.body.data.walkingCatchment).toEqual(layer);
    const localityOnly = await createTestKey(t.runtime, { scopes: ['locality.read'] });
    const refused = await graphql(
      `{ propertyByParcel(parcel_pfi: "${f.vicParcel.parcel_pfi}", state: "VIC") { walking_catchment(minutes: 5) { status } } }`,
      localityOnly,
    );
    expect(JSON.stringify(refused.body.errors)).toContain('Missing scope: catchment.read');
    const bad = await graphql(
      `{ propertyByParcel(parcel_pfi: "${f.vicParcel.parcel_pfi}", state: "VIC") { walking_catchment(minutes: 7) { status } } }`,
      catchmentOnly,
    );
    expect(JSON.stringify(bad.body.errors)).toContain('minutes must be one of 5, 10, 15');
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
    expect(c.section).toMatchObject({ extent_method: 'sal-boundary' });
    const credits = await amenitiesSuburbMetrics.credits(t.runtime.db, 'sandbox', 'VIC');
    expect(credits).toEqual([expect.objectContaining({ license: 'ODbL' })]);
    // a dataset without the layer contributes nothing rather than zeros
    expect((await amenitiesSuburbMetrics.contribute(t.runtime.db, 'no_such_dataset', 'VIC')).size).toBe(0);
  });
});

describe('walking catchments of a batch of properties', () => {
  let db: Database;
  const statements: string[] = [];

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    db = await openDatabase(testConfig(), { onQuery: (sql) => statements.push(sql) });
  });

  afterAll(async () => {
    await db.close();
  });

  it('answers every entity of one operation with two statements, whatever their number, as each alone', async () => {
    const catalog = new ProvenanceCatalog(db);
    await catalog.get('sandbox', 'amenities', 'VIC'); // credits are cached per process
    const subgraph = buildSubgraphs(db, catalog).amenities;
    const points = await db.query<{ parcel_pfi: string; state: string; lat: number; lng: number }>(
      `SELECT DISTINCT ON (p.state) p.parcel_pfi, p.state, ST_Y(ST_PointOnSurface(p.geom)) AS lat,
         ST_X(ST_PointOnSurface(p.geom)) AS lng
       FROM cadastre.parcel p WHERE p.dataset = 'sandbox' ORDER BY p.state, p.parcel_pfi`,
    );
    expect(points.length).toBeGreaterThan(1);
    const batch = [
      ...points.map((p) => ({ parcel_pfi: p.parcel_pfi, state: p.state, location: { lat: p.lat, lng: p.lng } })),
      // Melbourne's CBD: no sandbox network, so the straight-line buffer; and a property with no point
      { parcel_pfi: 'NOWHERE', state: 'VIC', location: { lat: -37.8136, lng: 144.9631 } },
      { parcel_pfi: 'ROAD', state: 'VIC', location: null },
    ];
    const run = async (entities: typeof batch) => {
      statements.length = 0;
      const result = await execute({
        schema: subgraph.schema,
        document: parse(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Property {
          walking_catchment(minutes: 10) { status approximate reached_edges polygon
            amenities { id walking_distance_m distance_m } } } } }`),
        variableValues: { r: entities.map((p) => ({ __typename: 'Property', ...p })) },
        contextValue: subgraph.createContext({ dataset: 'sandbox', requestId: 'test', scopes: '*' }),
      });
      expect(result.errors).toBeUndefined();
      return {
        entities: (result.data as { _entities: unknown[] })._entities,
        statements: statements.filter((s) => /amenities\.walk_|amenities\.amenity/.test(s)).length,
      };
    };
    const all = await run(batch);
    expect(all.statements).toBe(2);
    const alone = [];
    for (const p of batch) alone.push((await run([p])).entities[0]);
    expect(all.entities).toEqual(alone);
    type Layer = { status: string; approximate: boolean; reached_edges: number; amenities: unknown[] };
    const layers = all.entities.map((e) => (e as { walking_catchment: Layer }).walking_catchment);
    for (const layer of layers.slice(0, points.length)) {
      expect(layer).toMatchObject({ status: 'ok', approximate: false });
      expect(layer.reached_edges).toBeGreaterThan(0);
    }
    expect(layers.at(-2)).toMatchObject({ status: 'ok', approximate: true, reached_edges: 0 });
    expect(layers.at(-1)).toMatchObject({ status: 'skipped', amenities: [] });
  });
});
