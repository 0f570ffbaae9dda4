import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxSamples } from '../prisma/sandbox/load.ts';
import { SOIL_SOURCE_DATE, SOIL_STRIPS } from '../prisma/sandbox/soil.ts';
import { classOfYs, estimateSiteClass, ysFromClay } from '../subgraphs/soil/site-class.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

describe('indicative AS 2870 site class', () => {
  it('bands ys as AS 2870 does, a boundary value taking the higher class', () => {
    expect([0, 0.1, 19.9, 20, 39.9, 40, 59.9, 60, 74.9, 75, 120].map(classOfYs)).toEqual([
      'A',
      'S',
      'S',
      'M',
      'M',
      'H1',
      'H1',
      'H2',
      'H2',
      'E',
      'E',
    ]);
  });

  it('grows ys with clay above 10 % and with soil depth up to 2 m only', () => {
    expect(ysFromClay(8, 3)).toBe(0);
    expect(ysFromClay(30, 1.5)).toBe(18);
    expect(ysFromClay(60, 2)).toBe(60);
    expect(ysFromClay(60, 4)).toBe(60);
  });

  it('keeps the more severe of the clay estimate and the mapped shrink-swell class', () => {
    // 30 % clay over 1.3 m is S by its figures; the source maps it moderate: M
    expect(estimateSiteClass(30, 1.3, 'moderate')).toMatchObject({ site_class: 'M', basis: 'reactivity' });
    // 62 % over 2.2 m gives ys 62.4 mm: H2 by the figures, more than "high" (H1) says
    const clay = estimateSiteClass(62, 2.2, 'high');
    expect(clay).toMatchObject({ site_class: 'H2', basis: 'clay_and_depth', ys_estimate_mm: 62.4 });
    expect(clay.explanation).toMatch(/the more severe, H2, is kept/);
    expect(estimateSiteClass(6, 0.4, 'nil')).toMatchObject({ site_class: 'A' });
    expect(estimateSiteClass(20, 3.5, 'problem')).toMatchObject({ site_class: 'P', basis: 'reactivity' });
  });

  it('spreads the sandbox soils over every class, A to P', () => {
    const classes = new Set(
      Object.values(SOIL_STRIPS)
        .flat()
        .flatMap((s) => (s ? [estimateSiteClass(s.clay_percent, s.depth_m, s.reactivity).site_class] : [])),
    );
    expect([...classes].sort()).toEqual(['A', 'E', 'H1', 'H2', 'M', 'P', 'S']);
  });
});

describe('soil layer, GET /api/soil and the property graph', () => {
  let t: TestRuntime;
  let soilKey: string;
  const get = (path: string, query: Record<string, string>, key = soilKey) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);
  const pointIn = async (sql: string, params: unknown[] = []) => {
    const [row] = await t.runtime.db.query<{ lat: number; lng: number }>(
      `SELECT ST_Y(p) AS lat, ST_X(p) AS lng FROM (SELECT ST_PointOnSurface(g) AS p FROM (${sql}) AS s(g)) AS q`,
      params,
    );
    if (!row) throw new Error(`no point for ${sql}`);
    return { lat: String(row.lat), lng: String(row.lng) };
  };
  const polygonPoint = (id: string) =>
    pointIn(`SELECT geom FROM soil.polygon WHERE dataset = 'sandbox' AND id = $1`, [id]);

  beforeAll(async () => {
    t = await testRuntime();
    soilKey = await createTestKey(t.runtime, { scopes: ['soil.read', 'property-graph.read'] });
  });

  it('answers at a point with the figures, the indicative class, its band and the credit', async () => {
    const res = await get('/api/soil', await polygonPoint('parramatta-soil-2'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      status: 'ok',
      message: null,
      source: expect.stringMatching(/^mirror:nsw\/soil@sandbox-v11-/),
      freshness: SOIL_SOURCE_DATE,
      license: 'CC BY 4.0',
      data: {
        indicative: true,
        clay_percent: 62,
        depth_m: 2.2,
        reactivity: 'very_high',
        ys_estimate_mm: 62.4,
        site_class_indicative: 'H2',
        band: { site_class: 'H2', ys_range: '60-75 mm' },
        polygons: 1,
      },
    });
    expect(res.body.query.state).toBe('NSW');
    expect(res.body.data.notice).toMatch(/geotechnical site classification/);
    expect(res.body.attribution).toMatch(/synthetic demo data, not real NSW soil/);
    expect(res.headers['x-service-license']).toBe('CC BY 4.0');
  });

  it('marks a problem site P with no movement band', async () => {
    const res = await get('/api/soil', await polygonPoint('kangaroo-flat-soil-3'));
    expect(res.body).toMatchObject({
      status: 'ok',
      data: { site_class_indicative: 'P', band: { site_class: 'P', ys_range: null }, basis: 'reactivity' },
    });
  });

  it('says no data inside the coverage where no soil is mapped, and not covered beyond it', async () => {
    const gap = await pointIn(`SELECT ST_Difference(c.geom, (SELECT ST_Union(s.geom) FROM soil.polygon s
      WHERE s.dataset = 'sandbox' AND s.state = 'NSW')) FROM soil.coverage c
      WHERE c.dataset = 'sandbox' AND c.name = 'PARRAMATTA'`);
    const noData = await get('/api/soil', gap);
    expect(noData.body).toMatchObject({ success: true, status: 'no_data', data: null, freshness: null });
    expect(noData.body.message).toMatch(/No soil is mapped at this point/);
    expect(noData.body.source).toMatch(/^mirror:nsw\/soil@/);
    const northLakes = await pointIn(
      `SELECT geom FROM cadastre.coverage WHERE dataset = 'sandbox' AND name = 'NORTH LAKES'`,
    );
    const uncovered = await get('/api/soil', northLakes);
    expect(uncovered.body).toMatchObject({ status: 'not_covered', data: null });
    expect(uncovered.body.message).toMatch(/QLD soil map does not reach this point/);
  });

  it('takes the most severe soil a parcel touches, by pfi and state and by gnaf_pid', async () => {
    // a Huntly parcel across the boundary of the A strip and the S strip
    const [parcel] = await t.runtime.db.query<{ parcel_pfi: string; gnaf_pid: string | null }>(
      `SELECT p.parcel_pfi, (SELECT a.gnaf_pid FROM address.address_detail a WHERE a.dataset = p.dataset
          AND a.state = p.state AND a.parcel_pfi = p.parcel_pfi ORDER BY a.gnaf_pid LIMIT 1) AS gnaf_pid
       FROM cadastre.parcel p
       JOIN soil.polygon a ON a.dataset = p.dataset AND a.id = 'huntly-soil-1' AND ST_Intersects(a.geom, p.geom)
       JOIN soil.polygon b ON b.dataset = p.dataset AND b.id = 'huntly-soil-2' AND ST_Intersects(b.geom, p.geom)
       WHERE p.dataset = 'sandbox' AND p.state = 'VIC'
         AND EXISTS (SELECT 1 FROM address.address_detail a WHERE a.dataset = p.dataset AND a.state = p.state
                     AND a.parcel_pfi = p.parcel_pfi)
       ORDER BY p.parcel_pfi LIMIT 1`,
    );
    expect(parcel).toBeDefined();
    const byPfi = await get('/api/soil', { pfi: parcel!.parcel_pfi, state: 'VIC' });
    expect(byPfi.status).toBe(200);
    expect(byPfi.body).toMatchObject({
      query: { pfi: parcel!.parcel_pfi, state: 'VIC' },
      property: { parcel_pfi: parcel!.parcel_pfi, state: 'VIC' },
      status: 'ok',
      data: { site_class_indicative: 'S', clay_percent: 18, polygons: 2 },
    });
    const byAddress = await get('/api/soil', { gnaf_pid: parcel!.gnaf_pid! });
    expect(byAddress.body).toMatchObject({
      property: { gnaf_pid: parcel!.gnaf_pid, state: 'VIC' },
      data: { site_class_indicative: 'S', polygons: 2 },
    });
  });

  it('refuses bad input with the plain error shape, and unknown identifiers with a 404', async () => {
    const bad: Array<Record<string, string>> = [
      { lat: '-36.7' },
      { pfi: '123' },
      { lat: '-36.7', lng: '144.3', gnaf_pid: 'GAVIC1' },
    ];
    for (const query of bad) {
      const res = await get('/api/soil', query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: expect.any(String) });
    }
    const lost = await get('/api/soil', { pfi: '999999999', state: 'VIC' });
    expect(lost.status).toBe(404);
    expect(lost.body.error).toBe('No parcel with PFI 999999999 in VIC.');
    const nowhere = await get('/api/soil', { gnaf_pid: 'GAVIC999999999' });
    expect(nowhere.status).toBe(404);
  });

  it('needs soil.read: on the route, on soilAt, and for the layer of the property graph', async () => {
    const other = await createTestKey(t.runtime, { scopes: ['property-graph.read', 'cadastre.read'] });
    const point = await polygonPoint('huntly-soil-3');
    expect((await get('/api/soil', point, other)).status).toBe(403);
    const graphWithout = await get('/v1/property/graph', point, other);
    expect(graphWithout.status).toBe(200);
    expect(graphWithout.body.layers.soil).toBeUndefined();
    const graph = await get('/v1/property/graph', point);
    expect(graph.status).toBe(200);
    expect(graph.body.layers.soil).toMatchObject({
      status: 'ok',
      freshness: SOIL_SOURCE_DATE,
      data: { indicative: true, site_class_indicative: 'M', clay_percent: 30 },
    });
    const gql = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${other}`)
      .send({ query: `{ soilAt(lat: ${point.lat}, lng: ${point.lng}, state: "VIC") { status } }` });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('reads the parcel boundary for the layer without selling it to soil.read', async () => {
    const soilOnly = await createTestKey(t.runtime, { scopes: ['soil.read'] });
    const [parcel] = await t.runtime.db.query<{ parcel_pfi: string }>(
      // across two strips, so only the parcel's boundary (not its point) finds both
      `SELECT p.parcel_pfi FROM cadastre.parcel p
       JOIN soil.polygon a ON a.dataset = p.dataset AND a.id = 'chermside-soil-1' AND ST_Intersects(a.geom, p.geom)
       JOIN soil.polygon b ON b.dataset = p.dataset AND b.id = 'chermside-soil-2' AND ST_Intersects(b.geom, p.geom)
       WHERE p.dataset = 'sandbox' ORDER BY p.parcel_pfi LIMIT 1`,
    );
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${soilOnly}`)
      .send({
        query: `{ propertyByParcel(parcel_pfi: "${parcel!.parcel_pfi}", state: "QLD") {
          parcel_geometry soil { status data { site_class_indicative polygons } } } }`,
      });
    expect(res.body.data.propertyByParcel).toEqual({
      parcel_geometry: null,
      soil: { status: 'ok', data: { site_class_indicative: 'H1', polygons: 2 } },
    });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({
      path: ['propertyByParcel', 'parcel_geometry'],
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('lists a sample for each soil case', async () => {
    const notes = (await sandboxSamples(t.runtime.db, 50)).map((s) => s.note);
    expect(notes).toEqual(
      expect.arrayContaining([
        'soil problem site (indicative class P)',
        'soil no data (unmapped strip inside coverage)',
        'soil not covered',
      ]),
    );
  });
});
