import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IngestError } from '../cli/ingest/gnaf-release.ts';
import { Progress } from '../cli/ingest/progress.ts';
import { ingestSoil, parseReactivity, type SoilIngestResult, soilLayout } from '../cli/ingest/soil.ts';
import { formatSoilSummary, runIngestSoilCommand } from '../cli/ingest/soil-cli.ts';
import type { Database } from '../core/db.ts';
import { estimateSiteClass } from '../subgraphs/soil/site-class.ts';
import { createTestKey, type TestRuntime, testRuntime } from './support/runtime.ts';
import { writeShapefile } from './support/shapefile.ts';

/*
 * `ingest soil` on a fixture in the Soil and Landscape Grid's attribute layout (CLY, DES)
 * summarised over polygons (no real such file could be found: see the fixture's README), then
 * read back through GET /api/soil, at a point and over a parcel through the property graph's
 * soil field, with a live key.
 */

const SOIL = fileURLToPath(
  new URL('./fixtures/slga-soil-polygons/slga_cly_des_parramatta_20250301.geojson', import.meta.url),
);
const SIDE = 'soil_test';
/** A live NSW test parcel over the P1 polygon and the gap east of it. */
const PARCEL = {
  pfi: 'SET-SOIL-1',
  spi: '7//DP1234569',
  west: 151.0115,
  south: -33.8295,
  east: 151.0125,
  north: -33.8285,
};

const box = (w: number, s: number, e: number, n: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ],
});

describe('landgraph ingest soil', () => {
  let t: TestRuntime;
  let db: Database;
  let dir: string;
  let liveKey: string;
  let first: SoilIngestResult;
  const quiet = () => new Progress({ write: () => true, isTTY: false });
  const count = async (sql: string) => (await db.query<{ n: number }>(sql))[0]!.n;
  const soilAt = (query: Record<string, string | number>) =>
    request(t.app).get('/api/soil').query(query).set('Authorization', `Bearer ${liveKey}`);
  const write = (name: string, features: unknown[]) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
    return file;
  };

  async function cleanUp() {
    await db.exec(`
      DELETE FROM soil.polygon WHERE dataset IN ('live', '${SIDE}') AND state = 'NSW';
      DELETE FROM soil.coverage WHERE dataset IN ('live', '${SIDE}') AND state = 'NSW';
      DELETE FROM public.dataset_source WHERE dataset IN ('live', '${SIDE}') AND layer = 'soil';
      DELETE FROM cadastre.parcel WHERE dataset = 'live' AND parcel_pfi LIKE 'SET-SOIL-%';
      DELETE FROM cadastre.coverage WHERE dataset = 'live' AND name = 'SET SOIL PARRAMATTA';
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'cadastre' AND state = 'NSW' AND snapshot_id = 'set-soil-test';`);
    t.runtime.catalog.invalidate();
  }

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    dir = mkdtempSync(join(tmpdir(), 'landgraph-soil-'));
    await cleanUp();
    const p = PARCEL;
    await db.exec(`
      INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, parcel_lot_number, parcel_plan_number, area_m2, geom)
        VALUES ('live', 'NSW', '${p.pfi}', '${p.spi}', '7', 'DP1234569', 10000,
          ST_Multi(ST_MakeEnvelope(${p.west}, ${p.south}, ${p.east}, ${p.north}, 4326)));
      INSERT INTO cadastre.coverage (dataset, state, name, geom)
        VALUES ('live', 'NSW', 'SET SOIL PARRAMATTA', ST_Multi(ST_MakeEnvelope(151.0, -33.84, 151.03, -33.82, 4326)));
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
        VALUES ('live', 'cadastre', 'NSW', 'test parcels', 'CC BY 4.0', 'set-soil-test')
        ON CONFLICT (dataset, layer, state) DO NOTHING;`);
    first = await ingestSoil(db, { file: SOIL, state: 'NSW', progress: quiet() });
    t.runtime.catalog.invalidate();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['soil.read'] });
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the usable polygons by their SLGA names, listing the ones without figures', () => {
    expect(first).toMatchObject({
      dataset: 'live',
      state: 'NSW',
      snapshotDate: '2025-03-01',
      read: 5,
      loaded: 2,
      withoutReactivity: 2,
      elsewhere: 1,
      repaired: [],
      credit: { license: 'CC BY 4.0' },
      file: { format: 'GeoJSON' },
    });
    expect(first.mapping).toBe('clay CLY, depth DES, reactivity none (not in the source)');
    expect(first.refused.map((r) => [r.feature, r.key, r.reason])).toEqual([
      [2, 'NSW-soil-P2', 'clay -9999 is not a percentage (0-100)'],
      [3, 'NSW-soil-P3', 'no soil depth (DES is blank)'],
    ]);
    const summary = formatSoilSummary(first);
    expect(summary).toContain('read 5, loaded 2 (2 without a shrink-swell class)');
    expect(summary).toContain('Soil and Landscape Grid of Australia');
  });

  it('answers a live key at a point with the figures loaded and the class they suggest, no class made up', async () => {
    const res = await soilAt({ lat: -33.829, lng: 151.011, state: 'NSW' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      freshness: '2025-03-01',
      license: 'CC BY 4.0',
      data: {
        clay_percent: 42.5,
        depth_m: 1.6,
        reactivity: null,
        basis: 'clay_and_depth',
        site_class_indicative: estimateSiteClass(42.5, 1.6, null).site_class,
        polygons: 1,
        product: 'SLGA CLY/DES (summarised over polygons)',
      },
    });
    expect(res.body.data.explanation).toMatch(/maps no shrink-swell class/);
    expect(res.body.source).toMatch(/^mirror:nsw\/soil@slga_cly_des_parramatta_20250301-/);
    expect(res.headers['x-service-attribution']).toMatch(/Soil and Landscape Grid/);
  });

  it('tells no data between the polygons from not covered beyond them', async () => {
    // between P1 and P5: inside the area the file spans, no polygon loaded there
    const gap = await soilAt({ lat: -33.829, lng: 151.015, state: 'NSW' }).expect(200);
    expect(gap.body).toMatchObject({ status: 'no_data', data: null });
    const beyond = await soilAt({ lat: -33.86, lng: 151.05, state: 'NSW' }).expect(200);
    expect(beyond.body).toMatchObject({ status: 'not_covered', data: null });
  });

  it('answers the property graph soil field over a parcel (pfi and state) from the loaded rows', async () => {
    const res = await soilAt({ pfi: PARCEL.pfi, state: 'NSW' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      data: { clay_percent: 42.5, depth_m: 1.6, polygons: 1 },
      freshness: '2025-03-01',
    });
  });

  it('replaces rather than duplicates on a rerun', async () => {
    await ingestSoil(db, { file: SOIL, state: 'NSW', progress: quiet() });
    expect(
      await Promise.all([
        count(`SELECT count(*)::int AS n FROM soil.polygon WHERE dataset = 'live' AND state = 'NSW'`),
        count(`SELECT count(*)::int AS n FROM soil.coverage WHERE dataset = 'live' AND state = 'NSW'`),
        count(`SELECT count(*)::int AS n FROM public.dataset_source WHERE dataset = 'live' AND layer = 'soil'`),
      ]),
    ).toEqual([2, 1, 1]);
  });

  it("averages SLGA's clay slices over the soil depth, and keeps a source's shrink-swell class", async () => {
    const sliced = {
      CLY_000_005_EV: 10,
      CLY_005_015_EV: 20,
      CLY_015_030_EV: 30,
      CLY_030_060_EV: 40,
      CLY_060_100_EV: 50,
      CLY_100_200_EV: 60,
    };
    const file = write('sliced.geojson', [
      // DES 0.3 m: only the three slices above 30 cm count, by thickness: (10*5 + 20*10 + 30*15) / 30
      {
        type: 'Feature',
        properties: { ufi: 1, ...sliced, DES: 0.3, Shrink_Swell: 'Very high' },
        geometry: box(151.02, -33.83, 151.021, -33.829),
      },
      {
        type: 'Feature',
        properties: { ufi: 2, ...sliced, DES: 2, Shrink_Swell: '' },
        geometry: box(151.021, -33.83, 151.022, -33.829),
      },
      {
        type: 'Feature',
        properties: { ufi: 3, ...sliced, DES: 1, Shrink_Swell: 'swelling' },
        geometry: box(151.022, -33.83, 151.023, -33.829),
      },
    ]);
    const result = await ingestSoil(db, {
      file,
      state: 'NSW',
      dataset: SIDE,
      snapshot: 'slga-2021-09-02',
      progress: quiet(),
    });
    expect(result).toMatchObject({ loaded: 2, withoutReactivity: 1, snapshotDate: '2021-09-02' });
    expect(result.mapping).toMatch(
      /^clay CLY_000_005_EV\+.*\(averaged over the soil depth\), depth DES, reactivity Shrink_Swell$/,
    );
    expect(result.refused.map((r) => r.reason)).toEqual([
      expect.stringMatching(/shrink-swell class "swelling" is none of/),
    ]);
    const rows = await db.query<{ id: string; clay_percent: number; depth_m: number; reactivity: string | null }>(
      `SELECT id, clay_percent, depth_m, reactivity FROM soil.polygon WHERE dataset = '${SIDE}' ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: 'NSW-soil-1', clay_percent: 23.3, depth_m: 0.3, reactivity: 'very_high' },
      { id: 'NSW-soil-2', clay_percent: 49.5, depth_m: 2, reactivity: null },
    ]);
  });

  it('maps a layer of other names with --clay, --depth and --depth-unit', async () => {
    const file = write('named.geojson', [
      {
        type: 'Feature',
        properties: { OBJECTID: 7, B_CLAY: '35', SOLUM_CM: '120' },
        geometry: box(151.024, -33.83, 151.025, -33.829),
      },
    ]);
    const result = await ingestSoil(db, {
      file,
      state: 'NSW',
      dataset: SIDE,
      clay: 'b_clay',
      depth: 'SOLUM_CM',
      depthUnit: 'cm',
      product: 'Test soil survey',
      attribution: 'Test soil survey © nobody',
      license: 'CC BY 4.0',
      progress: quiet(),
    });
    expect(result).toMatchObject({
      loaded: 1,
      product: 'Test soil survey',
      credit: { attribution: 'Test soil survey © nobody' },
    });
    const [row] = await db.query<{ clay_percent: number; depth_m: number; source: string }>(
      `SELECT clay_percent, depth_m, source FROM soil.polygon WHERE dataset = '${SIDE}' AND id = 'NSW-soil-7'`,
    );
    expect(row).toEqual({ clay_percent: 35, depth_m: 1.2, source: 'Test soil survey' });
  });

  it('reads the same polygons from a shapefile (dBASE text figures)', async () => {
    const { features } = JSON.parse(readFileSync(SOIL, 'utf8')) as {
      features: Array<{ properties: Record<string, unknown>; geometry: { coordinates: unknown } }>;
    };
    const multi = features.map((f) => ({
      properties: { ...f.properties, id: `shp-${String(f.properties.id)}` },
      geometry: { type: 'MultiPolygon', coordinates: [f.geometry.coordinates] },
    }));
    const prj =
      'GEOGCS["GCS_GDA2020",DATUM["D_GDA2020",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';
    const shp = writeShapefile(join(dir, 'slga_cly_des'), multi, ['id', 'CLY', 'DES'], prj);
    const result = await ingestSoil(db, { file: shp, state: 'NSW', dataset: SIDE, progress: quiet() });
    expect(result).toMatchObject({ read: 5, loaded: 2, elsewhere: 1, file: { format: 'shapefile' } });
    const [row] = await db.query<{ clay_percent: number; depth_m: number }>(
      `SELECT clay_percent, depth_m FROM soil.polygon WHERE dataset = '${SIDE}' AND id = 'NSW-soil-shp-P1'`,
    );
    expect(row).toEqual({ clay_percent: 42.5, depth_m: 1.6 });
  });

  it('refuses a map of soil landscape codes, a bad file, the sandbox and a wrong state, writing nothing', async () => {
    const before = await count(`SELECT count(*)::int AS n FROM soil.polygon WHERE dataset = '${SIDE}'`);
    const codes = write('espade.geojson', [
      {
        type: 'Feature',
        properties: { SALIS_CODE: 'bt', NAME: 'Blacktown' },
        geometry: box(151.0, -33.83, 151.001, -33.829),
      },
    ]);
    await expect(ingestSoil(db, { file: codes, state: 'NSW', dataset: SIDE, progress: quiet() })).rejects.toThrow(
      /espade\.geojson gives no clay figure .* and no soil depth .*: its fields are SALIS_CODE, NAME/,
    );
    const broken = join(dir, 'broken.geojson');
    writeFileSync(broken, '{"type":"FeatureCollection","features":[');
    await expect(ingestSoil(db, { file: broken, state: 'NSW', dataset: SIDE, progress: quiet() })).rejects.toThrow(
      /broken\.geojson is not valid JSON/,
    );
    // every polygon refused: the run fails and its transaction leaves nothing behind
    const blank = write('blank.geojson', [
      { type: 'Feature', properties: { CLY: '', DES: 1 }, geometry: box(151.026, -33.83, 151.027, -33.829) },
    ]);
    await expect(ingestSoil(db, { file: blank, state: 'NSW', dataset: SIDE, progress: quiet() })).rejects.toThrow(
      /no soil polygon of blank\.geojson could be loaded \(feature 1: no clay figure \(CLY is blank\)\)/,
    );
    await expect(ingestSoil(db, { file: SOIL, state: 'NSW', dataset: 'sandbox', progress: quiet() })).rejects.toThrow(
      IngestError,
    );
    await expect(ingestSoil(db, { file: SOIL, state: 'TAS', progress: quiet() })).rejects.toThrow(
      /--state TAS: soil loads for VIC, NSW, QLD/,
    );
    await expect(ingestSoil(db, { file: SOIL, state: 'NSW', clay: 'CLAY_B', progress: quiet() })).rejects.toThrow(
      /--clay CLAY_B: the file has no such field/,
    );
    expect(await count(`SELECT count(*)::int AS n FROM soil.polygon WHERE dataset = '${SIDE}'`)).toBe(before);
    expect(() => soilLayout('x', ['CLY', 'DES'], { depthUnit: 'ft' })).toThrow(/--depth-unit ft: one of m, cm, mm/);
    expect(parseReactivity('NON-REACTIVE')).toBe('nil');
  });

  it('says how to call it when the state is missing, before opening a database (exit 2)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runIngestSoilCommand([SOIL])).toBe(2);
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/--state[\s\S]*Usage: landgraph ingest soil/);
      expect(await runIngestSoilCommand([join(dir, 'missing.geojson'), '--state', 'NSW'])).toBe(2);
      expect(String(stderr.mock.calls[1]?.[0])).toMatch(/no such file/);
    } finally {
      stderr.mockRestore();
    }
  });
});
