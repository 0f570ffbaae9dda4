import { execute, parse } from 'graphql';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubgraphs } from '../app/runtime.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import type { SandboxSample } from '../prisma/sandbox/load.ts';
import { sandboxSamples } from '../prisma/sandbox/load.ts';
import { ALL_SAMPLE_CASES } from '../prisma/sandbox/samples.ts';
import { estimateBal } from '../subgraphs/hazards/bal.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

type Point = { lat: number; lng: number; state: string };
type Evidence = { type: string; code: string | null; description: string; severity: string; distance_m: number };
type HazardJson = {
  severity: string | null;
  coverage: string;
  freshness: string | null;
  message: string | null;
  evidence: Evidence[];
  bal: { rating: string; distance_m: number; note: string } & Record<string, unknown>;
};
type HazardsJson = {
  status: string;
  source: string | null;
  attribution: string | null;
  license: string | null;
  message: string | null;
  freshness: string | null;
  data: Record<'flood' | 'bushfire' | 'contamination', HazardJson>;
};

const HAZARD_FIELDS = `status source attribution license message freshness
  data {
    flood { severity coverage freshness message evidence { type code description severity source distance_m status snapshot_date } }
    bushfire { severity coverage freshness message evidence { type code severity distance_m }
      bal { rating method table fdi vegetation_class distance_m effective_slope_deg slope_direction slope_band
            distance_band_m indicative note } }
    contamination { severity coverage freshness message evidence { type code description severity source distance_m status } }
  }`;

describe('hazards layer', () => {
  let t: TestRuntime;
  /** A point of each sandbox case, found from the loaded rows rather than hard-coded coordinates. */
  const points: Record<string, Point> = {};

  const graphql = (query: string, key = t.key) =>
    request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query });
  const hazardsAt = async (p: Point) => {
    const res = await graphql(`{ hazardsAt(lat: ${p.lat}, lng: ${p.lng}, state: "${p.state}") { ${HAZARD_FIELDS} } }`);
    expect(res.body.errors).toBeUndefined();
    return (res.body as { data: { hazardsAt: HazardsJson } }).data.hazardsAt;
  };

  async function pointOf(sql: string, params: unknown[] = []): Promise<Point> {
    const [row] = await t.runtime.db.query<{ lat: number; lng: number; state: string }>(sql, params);
    if (!row) throw new Error(`No sandbox point for ${sql}`);
    return { lat: Number(row.lat), lng: Number(row.lng), state: row.state };
  }

  beforeAll(async () => {
    t = await testRuntime();
    const inOverlay = (code: string, state: string) =>
      pointOf(
        `SELECT ST_Y(ST_PointOnSurface(o.geom)) AS lat, ST_X(ST_PointOnSurface(o.geom)) AS lng, o.state
         FROM hazards.overlay o WHERE o.dataset = 'sandbox' AND o.code = $1 AND o.state = $2 ORDER BY o.id LIMIT 1`,
        [code, state],
      );
    points.floodway = await inOverlay('FO', 'VIC');
    points.bmo = await inOverlay('BMO', 'VIC');
    points.eao = await inOverlay('EAO', 'VIC');
    points.nswFlood = await inOverlay('FPA', 'NSW');
    // the middle of a suburb: checked for every hazard, and nothing there
    points.clear = await pointOf(
      `SELECT ST_Y(ST_Centroid(c.geom)) AS lat, ST_X(ST_Centroid(c.geom)) AS lng, c.state
       FROM hazards.coverage c WHERE c.dataset = 'sandbox' AND c.name = 'HUNTLY' AND c.kind = 'flood'`,
    );
    points.castleHill = await pointOf(
      `SELECT ST_Y(ST_Centroid(c.geom)) AS lat, ST_X(ST_Centroid(c.geom)) AS lng, c.state
       FROM cadastre.coverage c WHERE c.dataset = 'sandbox' AND c.name = 'CASTLE HILL'`,
    );
    // North Lakes' flood mapping reaches its southern half only: a point its other hazards cover
    points.northLakesUnmapped = await pointOf(
      `SELECT ST_Y(p) AS lat, ST_X(p) AS lng, 'QLD' AS state FROM (
         SELECT ST_PointOnSurface(ST_Difference(b.geom, f.geom)) AS p
         FROM hazards.coverage b JOIN hazards.coverage f ON f.dataset = b.dataset AND f.name = b.name AND f.kind = 'flood'
         WHERE b.dataset = 'sandbox' AND b.name = 'NORTH LAKES' AND b.kind = 'bushfire') d`,
    );
  });

  it('finds a flood overlay with its code, severity, coverage and freshness', async () => {
    const layer = await hazardsAt(points.floodway!);
    expect(layer.status).toBe('ok');
    expect(layer.source).toMatch(/^mirror:vic\/hazards@sandbox-v11-/);
    expect(layer.attribution).toMatch(/synthetic/);
    expect(layer.license).toBe('CC BY 4.0');
    const { flood } = layer.data;
    expect(flood).toMatchObject({ severity: 'high', coverage: 'found', freshness: '2025-09-01' });
    expect(flood.evidence.map((e) => e.code)).toEqual(['FO', 'LSIO']);
    expect(flood.evidence[0]).toMatchObject({
      type: 'overlay',
      severity: 'high',
      distance_m: 0,
      source: 'Vicmap Planning',
    });
    // the layer is as fresh as its oldest source
    expect(layer.freshness).toBe('2025-07-15');
  });

  it('rates the BAL by AS 3959 Method 1 from the classified vegetation nearby', async () => {
    const layer = await hazardsAt(points.bmo!);
    const { bushfire } = layer.data;
    expect(bushfire.coverage).toBe('found');
    expect(bushfire.evidence.map((e) => e.code)).toEqual(expect.arrayContaining(['BMO', 'BPA']));
    expect(bushfire.bal).toMatchObject({
      fdi: 100,
      vegetation_class: 'forest',
      effective_slope_deg: 0,
      slope_direction: 'flat',
      indicative: true,
    });
    expect(bushfire.bal.method).toMatch(/^AS 3959-2018 Method 1/);
    expect(bushfire.bal.distance_m).toBeLessThan(100);
    expect(bushfire.bal.rating).toBe(
      estimateBal({
        vegetation: 'forest',
        distance_m: bushfire.bal.distance_m,
        effective_slope_deg: 0,
        slope_direction: 'flat',
        fdi: 100,
      }).rating,
    );
    expect(bushfire.bal.note).toMatch(/flat land/);
    expect(bushfire.severity).toMatch(/^(high|extreme)$/);
  });

  it('reports contamination from the audit overlay and a register site with its distance', async () => {
    const { contamination } = (await hazardsAt(points.eao!)).data;
    expect(contamination.coverage).toBe('found');
    const types = contamination.evidence.map((e) => e.type);
    expect(types).toEqual(['overlay', 'register']);
    const site = contamination.evidence[1]!;
    expect(site).toMatchObject({
      source: 'EPA Victoria Priority Sites Register',
      status: 'Priority site: clean-up notice',
    });
    expect(site.distance_m).toBeGreaterThanOrEqual(0);
    expect(site.distance_m).toBeLessThanOrEqual(200);
  });

  it('tells clear (checked, nothing there) from not mapped', async () => {
    const clear = await hazardsAt(points.clear!);
    expect(clear.status).toBe('no_data');
    for (const kind of ['flood', 'bushfire', 'contamination'] as const) {
      expect(clear.data[kind]).toMatchObject({ severity: 'none', coverage: 'clear', evidence: [] });
      expect(clear.data[kind].freshness).toMatch(/^2025-\d\d-\d\d$/);
    }
    expect(clear.data.bushfire.bal.rating).toBe('BAL-LOW');

    const parramatta = await hazardsAt(points.nswFlood!);
    expect(parramatta.status).toBe('ok');
    expect(parramatta.data.contamination).toMatchObject({ severity: null, coverage: 'not_mapped', freshness: null });
    expect(parramatta.data.contamination.message).toMatch(/do not reach this point/);

    const northLakes = await hazardsAt(points.northLakesUnmapped!);
    expect(northLakes.data.flood.coverage).toBe('not_mapped');
    expect(northLakes.data.contamination.coverage).not.toBe('not_mapped');
  });

  it('is not_covered where no hazard dataset reaches, and in a state without hazards data', async () => {
    const castleHill = await hazardsAt(points.castleHill!);
    expect(castleHill).toMatchObject({ status: 'not_covered', data: null });
    expect(castleHill.message).toMatch(/do not reach this point/);
    const sa = await hazardsAt({ lat: -34.93, lng: 138.6, state: 'SA' });
    expect(sa).toMatchObject({ status: 'not_covered', data: null, source: null });
  });

  it('is skipped for a property with no point, and rides on the property graph', async () => {
    // an address G-NAF could place only on its street has no parcel, so no point to look at
    const [offParcel] = await t.runtime.db.query<{ gnaf_pid: string }>(
      `SELECT gnaf_pid FROM address.address_detail WHERE dataset = 'sandbox' AND parcel_pfi IS NULL ORDER BY gnaf_pid LIMIT 1`,
    );
    const res = await graphql(
      `{ propertyByGnafPid(gnaf_pid: "${offParcel!.gnaf_pid}") { hazards { status message } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.propertyByGnafPid.hazards).toMatchObject({ status: 'skipped' });
    const { lat, lng, state } = points.floodway!;
    const onProperty = await graphql(
      `{ propertyAt(lat: ${lat}, lng: ${lng}, state: "${state}") { hazards { status data { flood { coverage } } } } }`,
    );
    expect(onProperty.body.errors).toBeUndefined();
    expect(onProperty.body.data.propertyAt.hazards).toMatchObject({
      status: 'ok',
      data: { flood: { coverage: 'found' } },
    });
  });

  // One statement answers every hazard of the mirror (docs/p6-notes-hazards-data.md): a hazard
  // table failing fails the hazards layer, never another layer. One hazard alone is `unavailable`
  // where its live source fails (test/hazards-live.test.ts).
  it('keeps a failing hazards mirror inside the hazards layer: the other layers answer', async () => {
    const { lat, lng, state } = points.floodway!;
    await t.runtime.db.exec('ALTER TABLE hazards.contamination_site RENAME TO contamination_site_away');
    try {
      const res = await graphql(
        `{ propertyAt(lat: ${lat}, lng: ${lng}, state: "${state}") { planning { status } hazards { ${HAZARD_FIELDS} } } }`,
      );
      expect(res.body.errors).toBeUndefined();
      const { planning, hazards } = res.body.data.propertyAt;
      expect(planning.status).toBe('ok');
      expect(hazards).toMatchObject({
        status: 'error',
        data: null,
        message: 'Every hazard source failed for this property; other layers are unaffected. Retry later.',
      });
    } finally {
      await t.runtime.db.exec('ALTER TABLE hazards.contamination_site_away RENAME TO contamination_site');
    }
  });

  it('needs risk.read (or risk.summary.read)', async () => {
    const key = await createTestKey(t.runtime, { scopes: ['planning.read'] });
    const { lat, lng, state } = points.floodway!;
    const res = await graphql(`{ hazardsAt(lat: ${lat}, lng: ${lng}, state: "${state}") { status } }`, key);
    expect(res.body.errors[0].message).toBe('Missing scope: risk.read');
    const summaryKey = await createTestKey(t.runtime, { scopes: ['risk.summary.read'] });
    const ok = await graphql(`{ hazardsAt(lat: ${lat}, lng: ${lng}, state: "${state}") { status } }`, summaryKey);
    expect(ok.body.data.hazardsAt.status).toBe('ok');
  });

  it('refuses a point outside Australia with the error shape', async () => {
    const res = await graphql('{ hazardsAt(lat: 51.5, lng: -0.12, state: "VIC") { status } }');
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});

describe('hazards subgraph batching', () => {
  let db: Database;
  const queries: string[] = [];

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    db = await openDatabase(testConfig(), { onQuery: (sql) => queries.push(sql) });
  });

  afterAll(async () => {
    await db.close();
  });

  it('answers every hazard of a batch of properties in one statement, each as it answers alone', async () => {
    const catalog = new ProvenanceCatalog(db);
    const hazards = buildSubgraphs(db, catalog).hazards;
    // credits are cached per process, not per request
    for (const state of ['VIC', 'NSW', 'QLD']) await catalog.get('sandbox', 'hazards', state);
    // parcels of every state, and the points on an overlay, a register site's neighbourhood and classified vegetation
    const points = await db.query<{ state: string; lat: number; lng: number }>(
      `(SELECT state, lat, lng FROM (
          SELECT p.state, ST_Y(ST_PointOnSurface(p.geom)) AS lat, ST_X(ST_PointOnSurface(p.geom)) AS lng,
                 row_number() OVER (PARTITION BY p.state ORDER BY p.parcel_pfi) AS n
          FROM cadastre.parcel p WHERE p.dataset = 'sandbox' AND p.state IN ('VIC', 'NSW', 'QLD')) p WHERE n <= 6)
       UNION ALL
       (SELECT o.state, ST_Y(ST_PointOnSurface(o.geom)), ST_X(ST_PointOnSurface(o.geom))
          FROM hazards.overlay o WHERE o.dataset = 'sandbox' ORDER BY o.id LIMIT 6)
       UNION ALL
       (SELECT s.state, ST_Y(s.geom), ST_X(s.geom) + 0.0005 FROM hazards.contamination_site s
          WHERE s.dataset = 'sandbox' ORDER BY s.id LIMIT 3)
       UNION ALL
       (SELECT v.state, ST_Y(ST_Centroid(v.geom)), ST_X(ST_Centroid(v.geom)) FROM hazards.vegetation v
          WHERE v.dataset = 'sandbox' ORDER BY v.id LIMIT 3)`,
    );
    const fields = `status source attribution license message freshness data {
      flood { severity coverage freshness message evidence { type code description severity source distance_m status snapshot_date } }
      bushfire { severity coverage freshness message evidence { type code description severity source distance_m status snapshot_date }
        bal { rating table fdi vegetation_class distance_m distance_band_m note } }
      contamination { severity coverage freshness message evidence { type code description severity source distance_m status snapshot_date } } }`;
    const run = async (document: string, variableValues: Record<string, unknown>) => {
      const result = await execute({
        schema: hazards.schema,
        document: parse(document),
        variableValues,
        contextValue: hazards.createContext({ dataset: 'sandbox', requestId: 'test', scopes: '*' }),
      });
      expect(result.errors).toBeUndefined();
      return result.data as Record<string, unknown>;
    };
    queries.length = 0;
    const batch = await run(
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Property { hazards { ${fields} } } } }`,
      {
        r: points.map((p, i) => ({
          __typename: 'Property',
          parcel_pfi: `batch-${i}`,
          state: p.state,
          location: { lat: Number(p.lat), lng: Number(p.lng) },
        })),
      },
    );
    expect(queries).toHaveLength(1);
    const entities = batch._entities as Array<{
      hazards: { status: string; data: Record<string, { coverage: string }> };
    }>;
    expect(entities).toHaveLength(points.length);
    const coverages = new Set(
      entities.flatMap((e) => (e.hazards.data ? Object.values(e.hazards.data) : [])).map((h) => h.coverage),
    );
    expect([...coverages].sort()).toEqual(['clear', 'found', 'not_mapped']);
    // each property's answer in the batch is the answer it gets alone
    for (const [i, p] of points.entries()) {
      const alone = await run(
        `query($lat: Float!, $lng: Float!, $state: String!) { hazardsAt(lat: $lat, lng: $lng, state: $state) { ${fields} } }`,
        { lat: Number(p.lat), lng: Number(p.lng), state: p.state },
      );
      expect(entities[i]!.hazards, JSON.stringify(p)).toEqual(alone.hazardsAt);
    }
  });
});

// the calculator's own tables are tested in test/bal.test.ts; these pin the rows the sandbox relies on
describe('AS 3959 Method 1 (FDI 100, flat land)', () => {
  const rate = (vegetation: 'forest' | 'grassland' | null, distance_m: number | null) =>
    estimateBal({ vegetation, distance_m, effective_slope_deg: 0, slope_direction: 'flat', fdi: 100 }).rating;

  it.each([
    [18.9, 'BAL-FZ'],
    [19, 'BAL-40'],
    [25, 'BAL-29'],
    [35, 'BAL-19'],
    [48, 'BAL-12.5'],
    [99.9, 'BAL-12.5'],
    [100, 'BAL-LOW'],
  ])('forest at %s m is %s', (distance, rating) => {
    expect(rate('forest', distance)).toBe(rating);
  });

  it('is BAL-LOW with no classified vegetation within 100 m', () => {
    expect(rate(null, null)).toBe('BAL-LOW');
  });
});

describe('sandbox samples of the hazards layer', () => {
  it('lists a sample of each hazard case, and each answers as its note says', async () => {
    const t = await testRuntime();
    const samples = await sandboxSamples(t.runtime.db, ALL_SAMPLE_CASES, ['hazards']);
    const byNote = new Map(samples.map((s) => [s.note, s]));
    const hazardsOf = async (note: string) => {
      const s = byNote.get(note);
      expect(s, note).toBeDefined();
      const res = await request(t.app)
        .post('/graphql')
        .set('Authorization', `Bearer ${t.key}`)
        .send({
          query: `{ hazardsAt(lat: ${s!.lat}, lng: ${s!.lng}, state: "${s!.state}") {
            status data { flood { coverage } bushfire { coverage } contamination { coverage } } } }`,
        });
      return (res.body as { data: { hazardsAt: HazardsJson } }).data.hazardsAt;
    };
    expect((await hazardsOf('hazards: flood overlay found (VIC)')).data.flood.coverage).toBe('found');
    expect((await hazardsOf('hazards: bushfire overlay found (QLD)')).data.bushfire.coverage).toBe('found');
    expect(await hazardsOf('hazards: every hazard checked and clear')).toMatchObject({
      status: 'no_data',
      data: { flood: { coverage: 'clear' }, bushfire: { coverage: 'clear' }, contamination: { coverage: 'clear' } },
    });
    expect((await hazardsOf('hazards: contamination not mapped')).data.contamination.coverage).toBe('not_mapped');
    expect((await hazardsOf('hazards: flood not mapped')).data.flood.coverage).toBe('not_mapped');
    expect((await hazardsOf('hazards not covered')).status).toBe('not_covered');
  });
});

describe('GET /api/hazards and GET /v1/risk-summary', () => {
  let t: TestRuntime;
  let sample: SandboxSample;
  const get = (path: string, query: Record<string, string | number>, key = t.key) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    t = await testRuntime();
    const samples = await sandboxSamples(t.runtime.db, ALL_SAMPLE_CASES);
    sample = samples.find((s) => s.note === 'hazards: flood overlay found (VIC)')!;
    expect(sample.parcel_pfi).not.toBeNull();
  });

  it('answers at a point with each hazard, the property block and the credit in body and headers', async () => {
    const res = await get('/api/hazards', { lat: sample.lat, lng: sample.lng });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      query: { lat: sample.lat, lng: sample.lng, state: 'VIC' },
      property: { parcel_pfi: sample.parcel_pfi, state: 'VIC' },
      status: 'ok',
      data: { flood: { coverage: 'found' } },
    });
    expect(res.body.freshness).toMatch(/^2025-/);
    expect(res.body.data.bushfire.bal.rating).toMatch(/^BAL-/);
    expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
    expect(res.headers['x-service-license']).toBe('CC BY 4.0');
  });

  it('takes pfi + state or gnaf_pid in place of lat/lng, echoing what it resolved', async () => {
    const byPfi = await get('/api/hazards', { pfi: sample.parcel_pfi!, state: 'VIC' });
    expect(byPfi.status).toBe(200);
    expect(byPfi.body).toMatchObject({ query: { pfi: sample.parcel_pfi, state: 'VIC' } });
    expect(byPfi.body.property.parcel_pfi).toBe(sample.parcel_pfi);
    const byGnaf = await get('/api/hazards', { gnaf_pid: sample.gnaf_pid });
    expect(byGnaf.status).toBe(200);
    expect(byGnaf.body.property).toMatchObject({ gnaf_pid: sample.gnaf_pid, parcel_pfi: sample.parcel_pfi });
    const missing = await get('/api/hazards', { gnaf_pid: 'GAVIC999999999' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, error: 'No property with gnaf_pid GAVIC999999999.' });
  });

  it('refuses a request that does not identify the property one way', async () => {
    const queries: Array<Record<string, string | number>> = [
      {},
      { lat: sample.lat },
      { lat: sample.lat, lng: sample.lng, gnaf_pid: 'X' },
      { pfi: '1' },
    ];
    for (const query of queries) {
      const res = await get('/api/hazards', query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toEqual(expect.any(String));
    }
  });

  it('needs risk.read, and the risk summary risk.summary.read', async () => {
    const key = await createTestKey(t.runtime, { scopes: ['risk.summary.read'] });
    expect((await get('/api/hazards', { lat: sample.lat, lng: sample.lng }, key)).status).toBe(403);
    expect((await get('/v1/risk-summary', { lat: sample.lat, lng: sample.lng }, key)).status).toBe(200);
    const riskOnly = await createTestKey(t.runtime, { scopes: ['risk.read'] });
    expect((await get('/v1/risk-summary', { lat: sample.lat, lng: sample.lng }, riskOnly)).status).toBe(403);
    expect((await get('/api/hazards', { lat: sample.lat, lng: sample.lng }, riskOnly)).status).toBe(200);
  });

  it('summarises each hazard as severity, coverage and freshness, with the BAL (spec 2.7)', async () => {
    const key = await createTestKey(t.runtime, { scopes: ['risk.summary.read'] });
    const res = await get('/v1/risk-summary', { gnaf_pid: sample.gnaf_pid }, key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      query: { gnaf_pid: sample.gnaf_pid },
      property: { gnaf_pid: sample.gnaf_pid, parcel_pfi: sample.parcel_pfi, state: 'VIC' },
    });
    for (const kind of ['flood', 'bushfire', 'contamination']) {
      expect(Object.keys(res.body[kind] as object).sort()).toEqual(
        kind === 'bushfire' ? ['bal', 'coverage', 'freshness', 'severity'] : ['coverage', 'freshness', 'severity'],
      );
    }
    expect(res.body.bushfire.bal).toMatch(/^BAL-/);
    const detail = await get('/api/hazards', { gnaf_pid: sample.gnaf_pid });
    expect(res.body.flood).toEqual({
      severity: detail.body.data.flood.severity,
      coverage: detail.body.data.flood.coverage,
      freshness: detail.body.data.flood.freshness,
    });
    expect(res.body.overall_severity).toBe(
      ['extreme', 'high', 'medium', 'low', 'none'].find((s) =>
        ['flood', 'bushfire', 'contamination'].some((k) => detail.body.data[k].severity === s),
      ),
    );
    expect(res.headers['x-service-attribution']).toMatch(/synthetic/);
  });

  it('answers not_covered where no hazard dataset reaches, with each hazard not mapped', async () => {
    const samples = await sandboxSamples(t.runtime.db, ALL_SAMPLE_CASES);
    const outside = samples.find((s) => s.note === 'hazards not covered')!;
    const res = await get('/v1/risk-summary', { lat: outside.lat, lng: outside.lng });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'not_covered',
      overall_severity: null,
      flood: { severity: null, coverage: 'not_mapped', freshness: null },
      bushfire: { bal: null },
    });
  });

  it('answers 502 when every hazard source fails, and the property graph keeps its other layers', async () => {
    await t.runtime.db.exec('ALTER TABLE hazards.coverage RENAME TO coverage_away');
    try {
      const res = await get('/api/hazards', { lat: sample.lat, lng: sample.lng });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ success: false, error: expect.stringMatching(/hazard source/) });
      const graph = await get('/v1/property/graph', { lat: sample.lat, lng: sample.lng });
      expect(graph.status).toBe(200);
      expect(graph.body.layers.hazards.status).toBe('error');
      expect(graph.body.layers.planning.status).toBe('ok');
      expect(graph.body.layers.cadastre.status).toBe('ok');
    } finally {
      await t.runtime.db.exec('ALTER TABLE hazards.coverage_away RENAME TO coverage');
    }
  });

  it('adds the hazards layer, with its freshness, to the property graph for keys with risk.read', async () => {
    const res = await get('/v1/property/graph', { gnaf_pid: sample.gnaf_pid });
    expect(res.body.layers.hazards).toMatchObject({ status: 'ok', data: { flood: { coverage: 'found' } } });
    expect(res.body.layers.hazards.freshness).toMatch(/^2025-/);
    const key = await createTestKey(t.runtime, { scopes: ['property-graph.read', 'cadastre.read'] });
    const without = await get('/v1/property/graph', { gnaf_pid: sample.gnaf_pid }, key);
    expect(without.status).toBe(200);
    expect(without.body.layers.hazards).toBeUndefined();
  });
});
