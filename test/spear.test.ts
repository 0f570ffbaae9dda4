import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../app/runtime.ts';
import { startRuntime } from '../app/runtime.ts';
import { openDatabase } from '../core/db.ts';
import { ALL_SAMPLE_CASES, sandboxSamples } from '../prisma/sandbox/samples.ts';
import { createApp } from '../rest-facade/app.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

/** A sandbox VIC parcel touched by the most SPEAR applications, its point and how many touch it. */
type Touched = { pfi: string; lat: number; lng: number; n: number };

const TYPES = [
  'certification',
  'other',
  'permit_and_certification',
  'plan_of_subdivision',
  'planning_permit',
  'statement_of_compliance',
  'subdivision_permit',
];
const STATUSES = [
  'approved',
  'certified',
  'compliance_issued',
  'lapsed',
  'lodged',
  'refused',
  'registered',
  'under_assessment',
  'withdrawn',
];

describe('SPEAR: sandbox, lookups by point, window and parcel, and the property graph', () => {
  let t: TestRuntime;
  let spearKey: string;
  let otherKey: string;
  let touched: Touched;
  let multiLot: { reference: string; pfis: string[] };
  const get = (path: string, query: Record<string, string>, key = spearKey) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);
  const count = async (sql: string, params: unknown[] = []) =>
    (await t.runtime.db.query<{ n: number }>(sql, params))[0]!.n;

  beforeAll(async () => {
    t = await testRuntime();
    spearKey = await createTestKey(t.runtime, { scopes: ['spear.read'] });
    otherKey = await createTestKey(t.runtime, { scopes: ['development-applications.read'] });
    const [row] = await t.runtime.db.query<Touched>(
      `SELECT p.pfi, ST_Y(ST_PointOnSurface(c.geom)) AS lat, ST_X(ST_PointOnSurface(c.geom)) AS lng, p.n
       FROM (SELECT pfi, count(*)::int AS n FROM development.spear_application s, unnest(s.parcel_pfis) AS pfi
             WHERE s.dataset = 'sandbox' GROUP BY pfi) p
       JOIN cadastre.parcel c ON c.dataset = 'sandbox' AND c.state = 'VIC' AND c.parcel_pfi = p.pfi
       ORDER BY p.n DESC, p.pfi LIMIT 1`,
    );
    touched = row!;
    const [multi] = await t.runtime.db.query<{ reference: string; pfis: string[] }>(
      `SELECT spear_reference AS reference, parcel_pfis AS pfis FROM development.spear_application
       WHERE dataset = 'sandbox' AND cardinality(parcel_pfis) >= 3 ORDER BY spear_reference LIMIT 1`,
    );
    multiLot = multi!;
  });

  it('holds synthetic VIC applications of every type and status on sandbox VIC parcels, labelled demo; none in NSW or QLD', async () => {
    const [all] = await t.runtime.db.query<{ types: string[]; statuses: string[] }>(
      `SELECT array_agg(DISTINCT application_type ORDER BY application_type) AS types,
         array_agg(DISTINCT status ORDER BY status) AS statuses
       FROM development.spear_application WHERE dataset = 'sandbox'`,
    );
    expect(all!.types).toEqual(TYPES);
    expect(all!.statuses).toEqual(STATUSES);
    // every touched lot is a sandbox VIC parcel
    expect(
      await count(`SELECT count(*)::int AS n FROM development.spear_application s, unnest(s.parcel_pfis) AS pfi
        WHERE s.dataset = 'sandbox' AND NOT EXISTS (SELECT 1 FROM cadastre.parcel c
          WHERE c.dataset = 'sandbox' AND c.state = 'VIC' AND c.parcel_pfi = pfi)`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM development.spear_application WHERE dataset = 'sandbox'
        AND attribution NOT LIKE 'Landgraph sandbox: synthetic demo data%'`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM development.spear_application WHERE dataset = 'sandbox'
        AND ((status IN ('lodged', 'under_assessment')) <> (decided_date IS NULL) OR decided_date < lodged_date)`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM public.dataset_source WHERE dataset = 'sandbox' AND layer = 'spear'
        AND state <> 'VIC'`),
    ).toBe(0);
    // a lot touched by several applications, and an application touching several lots
    expect(touched.n).toBeGreaterThanOrEqual(2);
    expect(multiLot.pfis.length).toBeGreaterThanOrEqual(3);
  });

  it('answers by PFI with every application touching the lot, newest lodged first, credited in body and headers', async () => {
    const res = await get('/api/spear/parcel', { pfi: touched.pfi, state: 'VIC' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      status: 'ok',
      parcel_pfi: touched.pfi,
      count: touched.n,
      error: null,
    });
    const data = res.body.data as Array<Record<string, unknown> & { parcel_pfis: string[]; lodged_date: string }>;
    for (const d of data) expect(d.parcel_pfis).toContain(touched.pfi);
    const lodged = data.map((d) => d.lodged_date);
    expect([...lodged].sort().reverse()).toEqual(lodged);
    for (const field of [
      'spear_reference',
      'application_type',
      'responsible_authority',
      'council_reference',
      'status',
      'description',
      'lodged_date',
      'decided_date',
      'parcel_pfis',
      'location',
      'attribution',
      'license',
      'updated_at',
    ]) {
      expect(data[0], field).toHaveProperty(field);
    }
    expect(data[0]!.state).toBe('VIC');
    expect(res.body.source).toMatch(/^mirror:vic\/spear@sandbox-v11-/);
    expect(res.body.freshness).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.attribution).toMatch(/not real VIC SPEAR applications/);
    expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
    expect(res.headers['x-service-license']).toBe('CC BY 4.0');
  });

  it('keeps no GIN pending list on the lookup by parcel: its entries go straight into the index', async () => {
    // without autovacuum (the embedded database) a pending list is read whole by every lookup
    const [index] = await t.runtime.db.query<{ options: string[] | null }>(
      `SELECT reloptions AS options FROM pg_class WHERE oid = 'development.spear_application_pfis_idx'::regclass`,
    );
    expect(index?.options).toContain('fastupdate=off');
  });

  it('finds one multi-lot application from each of the lots it touches', async () => {
    for (const pfi of multiLot.pfis) {
      const res = await get('/api/spear/parcel', { pfi, state: 'VIC' });
      expect(res.status).toBe(200);
      const refs = (res.body.data as Array<{ spear_reference: string }>).map((d) => d.spear_reference);
      expect(refs).toContain(multiLot.reference);
    }
  });

  it('answers a parcel in NSW or QLD with not_covered, 404 for an unknown parcel, 400 without state, 403 without the scope', async () => {
    for (const state of ['NSW', 'QLD']) {
      const [other] = await t.runtime.db.query<{ parcel_pfi: string }>(
        `SELECT parcel_pfi FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = $1 ORDER BY parcel_pfi LIMIT 1`,
        [state],
      );
      const res = await get('/api/spear/parcel', { pfi: other!.parcel_pfi, state });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, status: 'not_covered', count: 0, data: [] });
      expect(res.body.hint).toMatch(/Victoria/);
      expect(res.headers['x-service-attribution']).toBeUndefined();
    }
    const unknown = await get('/api/spear/parcel', { pfi: 'NOPE999', state: 'VIC' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, data: null });
    expect((await get('/api/spear/parcel', { pfi: touched.pfi })).status).toBe(400);
    expect((await get('/api/spear/parcel', { pfi: touched.pfi, state: 'XX' })).status).toBe(400);
    const forbidden = await get('/api/spear/parcel', { pfi: touched.pfi, state: 'VIC' }, otherKey);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('Missing scope: spear.read');
  });

  it('answers by point, nearest first within the radius, and by pfi and state in place of lat/lng', async () => {
    const res = await get('/api/spear/nearby', { lat: String(touched.lat), lng: String(touched.lng), radius_m: '300' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', radius_m: 300, hint: null });
    expect(res.body.query).toMatchObject({ state: 'VIC', radius_m: 300 });
    const data = res.body.data as Array<{ distance_m: number; parcel_pfis: string[] }>;
    expect(data.length).toBe(res.body.count);
    for (let i = 1; i < data.length; i++) expect(data[i]!.distance_m).toBeGreaterThanOrEqual(data[i - 1]!.distance_m);
    expect(Math.max(...data.map((d) => d.distance_m))).toBeLessThanOrEqual(300);
    const expected = await count(
      `SELECT count(*)::int AS n FROM development.spear_application WHERE dataset = 'sandbox'
         AND ST_DWithin(geom::geography, ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography, 300)`,
      [touched.lng, touched.lat],
    );
    expect(data.length).toBe(expected);
    expect(data.some((d) => d.parcel_pfis.includes(touched.pfi))).toBe(true);
    const byPfi = await get('/api/spear/nearby', { pfi: touched.pfi, state: 'VIC' });
    expect(byPfi.status).toBe(200);
    expect(byPfi.body.property).toMatchObject({ parcel_pfi: touched.pfi, state: 'VIC' });
    expect(byPfi.body.radius_m).toBe(200);
    expect(byPfi.body.status).toBe('ok');
  });

  it('finds by point an application touching the lot under it, at 0 m, though its own point is on another lot', async () => {
    const last = multiLot.pfis.at(-1)!;
    const [spot] = await t.runtime.db.query<{ lat: number; lng: number }>(
      `SELECT ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng FROM cadastre.parcel
       WHERE dataset = 'sandbox' AND state = 'VIC' AND parcel_pfi = $1`,
      [last],
    );
    const res = await get('/api/spear/nearby', { lat: String(spot!.lat), lng: String(spot!.lng), radius_m: '1' });
    expect(res.status).toBe(200);
    const hit = (res.body.data as Array<{ spear_reference: string; distance_m: number }>).find(
      (d) => d.spear_reference === multiLot.reference,
    );
    expect(hit?.distance_m).toBe(0);
  });

  it('names, among the sandbox samples, a VIC address whose lot has SPEAR applications', async () => {
    const samples = await sandboxSamples(t.runtime.db, ALL_SAMPLE_CASES, ['SPEAR applications on the lot (VIC)']);
    const sample = samples.find((s) => s.note === 'SPEAR applications on the lot (VIC)');
    expect(sample).toMatchObject({ state: 'VIC', parcel_pfi: expect.any(String) });
    const expected = await count(
      `SELECT count(*)::int AS n FROM development.spear_application WHERE dataset = 'sandbox' AND $1 = ANY (parcel_pfis)`,
      [sample!.parcel_pfi],
    );
    expect(expected).toBeGreaterThan(0);
    const res = await get('/api/spear/parcel', { pfi: sample!.parcel_pfi!, state: 'VIC' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', count: expected });
    // and by its address point: the applications touching its lot, at 0 m
    const near = await get('/api/spear/nearby', { lat: String(sample!.lat), lng: String(sample!.lng) });
    expect(
      (near.body.data as Array<{ distance_m: number; parcel_pfis: string[] }>).filter(
        (d) => d.distance_m === 0 && d.parcel_pfis.includes(sample!.parcel_pfi!),
      ),
    ).toHaveLength(expected);
  });

  it('says no_data where nothing is near, not_covered in NSW; refuses bad points with 400 and other keys with 403', async () => {
    const empty = await get('/api/spear/nearby', { lat: '-37.5', lng: '143.2', radius_m: '2000' });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ status: 'no_data', count: 0, data: [] });
    expect(empty.body.hint).toMatch(/within 2000 m/);
    const sydney = await get('/api/spear/nearby', { lat: '-33.81', lng: '151.0' });
    expect(sydney.status).toBe(200);
    expect(sydney.body).toMatchObject({ status: 'not_covered', query: { state: 'NSW' }, data: [] });
    const point = { lat: String(touched.lat), lng: String(touched.lng) };
    const tooFar = await get('/api/spear/nearby', { ...point, radius_m: '2001' });
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.error).toMatch(/radius_m must be at most 2000/);
    expect((await get('/api/spear/nearby', { ...point, radius_m: '0' })).status).toBe(400);
    expect((await get('/api/spear/nearby', { lat: point.lat })).status).toBe(400);
    expect((await get('/api/spear/nearby', { pfi: touched.pfi })).status).toBe(400);
    expect((await get('/api/spear/nearby', { ...point, pfi: touched.pfi, state: 'VIC' })).status).toBe(400);
    expect((await get('/api/spear/nearby', { lat: '51.5', lng: '-0.1' })).status).toBe(400);
    expect((await get('/api/spear/nearby', { pfi: 'NOPE999', state: 'VIC' })).status).toBe(404);
    expect((await get('/api/spear/nearby', point, otherKey)).status).toBe(403);
  });

  it('answers a window with the applications whose point lies in it; the cadastre window limits; 403 without the scope', async () => {
    const d = 0.004;
    const bbox = [touched.lng - d, touched.lat - d, touched.lng + d, touched.lat + d].join(',');
    const res = await get('/api/spear/bbox', { bbox });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    const expected = await count(
      `SELECT count(*)::int AS n FROM development.spear_application WHERE dataset = 'sandbox'
         AND geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)`,
      [touched.lng - d, touched.lat - d, touched.lng + d, touched.lat + d],
    );
    expect(res.body.count).toBe(expected);
    const lodged = (res.body.data as Array<{ lodged_date: string }>).map((a) => a.lodged_date);
    expect([...lodged].sort().reverse()).toEqual(lodged);
    expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
    const empty = await get('/api/spear/bbox', { bbox: '143.2,-37.51,143.21,-37.5' });
    expect(empty.body).toMatchObject({ status: 'no_data', count: 0, data: [] });
    const nsw = await get('/api/spear/bbox', { bbox: '151.0,-33.82,151.01,-33.81', state: 'NSW' });
    expect(nsw.body).toMatchObject({ status: 'not_covered', data: [] });
    const wide = await get('/api/spear/bbox', { bbox: '144.0,-37.0,144.2,-36.9' });
    expect(wide.status).toBe(400);
    expect(wide.body.error).toMatch(/limit is 0.1 degrees per axis/);
    expect((await get('/api/spear/bbox', { bbox: '144.1,-37.0,144.0,-36.9' })).status).toBe(400);
    expect((await get('/api/spear/bbox', { bbox: '1,2,3' })).status).toBe(400);
    expect((await get('/api/spear/bbox', {})).status).toBe(400);
    expect((await get('/api/spear/bbox', { bbox }, otherKey)).status).toBe(403);
  });

  it('puts spear_applications in the property graph under spear.read, and not without', async () => {
    const query = { pfi: touched.pfi, state: 'VIC' };
    const withSpear = await createTestKey(t.runtime, { scopes: ['property-graph.read', 'spear.read'] });
    const res = await get('/v1/property/graph', query, withSpear);
    expect(res.status).toBe(200);
    expect(res.body.layers.spear_applications).toMatchObject({ status: 'ok', license: 'CC BY 4.0' });
    expect(res.body.layers.spear_applications.data).toHaveLength(touched.n);
    expect(res.body.layers.spear_applications.freshness).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const graphOnly = await createTestKey(t.runtime, { scopes: ['property-graph.read'] });
    const without = await get('/v1/property/graph', query, graphOnly);
    expect(without.status).toBe(200);
    expect(Object.keys(without.body.layers)).not.toContain('spear_applications');
    const [nsw] = await t.runtime.db.query<{ parcel_pfi: string }>(
      `SELECT parcel_pfi FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'NSW' ORDER BY parcel_pfi LIMIT 1`,
    );
    const outside = await get('/v1/property/graph', { pfi: nsw!.parcel_pfi, state: 'NSW' }, withSpear);
    expect(outside.body.layers.spear_applications).toMatchObject({ status: 'not_covered', data: null });
    const graphql = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${graphOnly}`)
      .send({
        query: `{ propertyByParcel(parcel_pfi: "${touched.pfi}", state: "VIC") { spear_applications { status } } }`,
      });
    expect(JSON.stringify(graphql.body.errors)).toMatch(/Missing scope: spear.read/);
  });

  it("answers GraphQL by placeAt and placeOfParcel with the REST route's applications; the parcels under the place only to cadastre.read", async () => {
    type Near = {
      status: string;
      freshness: string | null;
      applications: Array<{ spear_reference: string; distance_m: number; parcel_pfis: string[] }>;
    };
    type Place = { lat: number; lng: number; state: string; parcel_pfis: string[] | null; near: Near };
    type Answer = {
      data?: Record<string, Place | null> | null;
      errors?: Array<{ message: string; path?: string[]; extensions?: { code?: string } }>;
    };
    const NEAR = 'status freshness applications { spear_reference distance_m parcel_pfis }';
    const gql = async (key: string, query: string, variables: Record<string, unknown> = {}) =>
      (await request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query, variables }))
        .body as Answer;
    const last = multiLot.pfis.at(-1)!;
    const [spot] = await t.runtime.db.query<{ lat: number; lng: number }>(
      `SELECT ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng FROM cadastre.parcel
       WHERE dataset = 'sandbox' AND state = 'VIC' AND parcel_pfi = $1`,
      [last],
    );
    const rest = await get('/api/spear/nearby', { lat: String(spot!.lat), lng: String(spot!.lng), radius_m: '1' });
    const byPoint = await gql(
      spearKey,
      `query($lat: Float!, $lng: Float!) { place: placeAt(lat: $lat, lng: $lng, state: "vic") {
        state parcel_pfis near: spear_applications_near(radius_m: 1) { ${NEAR} } } }`,
      spot,
    );
    // spear.read buys the applications, not the cadastre's parcels under the point
    expect(byPoint.errors?.map((e) => `${e.path?.join('.')}: ${e.message}`)).toEqual([
      'place.parcel_pfis: Missing scope: cadastre.read',
    ]);
    const place = byPoint.data!.place!;
    expect(place).toMatchObject({
      state: 'VIC',
      parcel_pfis: null,
      near: { status: 'ok', freshness: rest.body.freshness },
    });
    const rows = (list: Near['applications']) => list.map((a) => [a.spear_reference, a.distance_m]);
    expect(rows(place.near.applications)).toEqual(rows(rest.body.data as Near['applications']));
    expect(place.near.applications.find((a) => a.spear_reference === multiLot.reference)?.distance_m).toBe(0);
    const both = await createTestKey(t.runtime, { scopes: ['spear.read', 'cadastre.read'] });
    const open = await gql(
      both,
      'query($lat: Float!, $lng: Float!) { place: placeAt(lat: $lat, lng: $lng, state: "VIC") { parcel_pfis } }',
      spot,
    );
    expect(open.errors).toBeUndefined();
    expect(open.data?.place?.parcel_pfis).toContain(last);
    // a parcel's place is its analysis point, as propertyByParcel's location; an unknown parcel has none
    const ofParcel = await gql(
      spearKey,
      `query($pfi: String!) { place: placeOfParcel(parcel_pfi: $pfi, state: "VIC") {
        lat lng near: spear_applications_near(radius_m: 1) { ${NEAR} } }
        none: placeOfParcel(parcel_pfi: "NOPE999", state: "VIC") { lat } }`,
      { pfi: last },
    );
    expect(ofParcel.errors).toBeUndefined();
    expect(ofParcel.data?.place).toEqual({ lat: spot!.lat, lng: spot!.lng, near: place.near });
    expect(ofParcel.data?.none).toBeNull();
    // NSW: not_covered; a bad radius and a bad point are refused in the REST route's words
    const nsw = await gql(
      spearKey,
      `{ place: placeAt(lat: -33.81, lng: 151.0, state: "NSW") { near: spear_applications_near { ${NEAR} } } }`,
    );
    expect(nsw.data?.place?.near).toMatchObject({ status: 'not_covered', applications: [] });
    const far = await gql(
      spearKey,
      `{ placeAt(lat: ${spot!.lat}, lng: ${spot!.lng}, state: "VIC") { spear_applications_near(radius_m: 2001) { status } } }`,
    );
    expect(far.errors?.[0]?.message).toBe('radius_m must be more than 0 and at most 2000 metres.');
    const london = await gql(
      spearKey,
      '{ placeAt(lat: 51.5, lng: -0.1, state: "VIC") { spear_applications_near { status } } }',
    );
    expect(london.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    // the old root is gone (it had no way to the cadastre's parcels); without spear.read the place is refused
    const gone = await gql(spearKey, '{ spearApplicationsNear(lat: -37.8, lng: 145.0, state: "VIC") { status } }');
    expect(JSON.stringify(gone.errors)).toMatch(/Cannot query field \\"spearApplicationsNear\\"/);
    const refused = await gql(otherKey, `{ placeAt(lat: ${spot!.lat}, lng: ${spot!.lng}, state: "VIC") { lat } }`);
    expect(JSON.stringify(refused.errors)).toMatch(/Missing scope: spear.read/);
  });

  it('reports a failed read of the parcels under the point as the SPEAR source failing (502), as when it read them itself', async () => {
    const point = { lat: String(touched.lat), lng: String(touched.lng) };
    await t.runtime.db.exec('ALTER TABLE cadastre.parcel RENAME TO parcel_offline');
    try {
      const res = await get('/api/spear/nearby', point);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ success: false, error: 'The SPEAR source failed for this request.' });
    } finally {
      await t.runtime.db.exec('ALTER TABLE cadastre.parcel_offline RENAME TO parcel');
    }
  });
});

/**
 * The data statements of one /api/spear/nearby call, once the process has its credits cached
 * (the key lookup, a platform statement, aside). By point: the cadastre's parcels under the point
 * (Place.parcel_pfis), then the applications; the second depends on the first, so they cannot
 * fold. By parcel: the parcel's point and the parcels under it in one cadastre statement, then the
 * applications, in one graph operation where it took two (the point, then the applications).
 */
describe('SPEAR nearby: data statements per call', () => {
  let runtime: Runtime;
  const statements: string[] = [];

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    const db = await openDatabase(testConfig(), { onQuery: (sql) => statements.push(sql) });
    runtime = await startRuntime(testConfig(), { db, prepare: false });
  });

  afterAll(async () => {
    await runtime.close();
  });

  it('sends two by point in VIC, two by parcel, one in NSW; none reads the cadastre from the development layer', async () => {
    const app = createApp(runtime);
    const key = await createTestKey(runtime, { scopes: ['spear.read'] });
    const [vic] = await runtime.db.query<{ pfi: string; lat: number; lng: number }>(
      `SELECT c.parcel_pfi AS pfi, ST_Y(ST_PointOnSurface(c.geom)) AS lat, ST_X(ST_PointOnSurface(c.geom)) AS lng
       FROM cadastre.parcel c WHERE c.dataset = 'sandbox' AND c.state = 'VIC'
         AND EXISTS (SELECT 1 FROM development.spear_application s WHERE s.dataset = c.dataset AND c.parcel_pfi = ANY (s.parcel_pfis))
       ORDER BY c.parcel_pfi LIMIT 1`,
    );
    const cases: Array<[string, Record<string, string>, number]> = [
      ['VIC point', { lat: String(vic!.lat), lng: String(vic!.lng) }, 2],
      ['VIC parcel', { pfi: vic!.pfi, state: 'VIC' }, 2],
      ['NSW point', { lat: '-33.81', lng: '151.0' }, 1],
    ];
    const counts: Record<string, number> = {};
    const expected: Record<string, number> = {};
    for (const [name, query, n] of cases) {
      const call = () => request(app).get('/api/spear/nearby').query(query).set('Authorization', `Bearer ${key}`);
      expect((await call()).status).toBe(200); // fills the credit caches
      statements.length = 0;
      expect((await call()).status).toBe(200);
      const data = statements.map((s) => s.replace(/\s+/g, ' ')).filter((s) => !/"platform"\./.test(s));
      counts[name] = data.length;
      expected[name] = n;
      // the applications' statement names no cadastre table: it gets the parcels as a bound array
      for (const sql of data.filter((s) => /development\.spear_application/.test(s)))
        expect(sql).not.toMatch(/cadastre\./);
    }
    expect(counts).toEqual(expected);
  });
});
