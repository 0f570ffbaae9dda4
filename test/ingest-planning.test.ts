import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../core/db.ts';
import { formatPlanningSummary, runIngestPlanningCommand } from '../cli/ingest/planning-cli.ts';
import {
  IngestError,
  ingestPlanning,
  type PlanningIngestOptions,
  type PlanningIngestResult,
} from '../cli/ingest/planning.ts';
import { Progress } from '../cli/ingest/progress.ts';
import { createTestKey, type TestRuntime, testRuntime } from './support/runtime.ts';
import { writeShapefile } from './support/shapefile.ts';

const BENDIGO = fileURLToPath(new URL('../data/samples/vicmap-planning-bendigo/', import.meta.url));
const DCPO = join(BENDIGO, 'vicmap_planning_overlay_DCPO_greater_bendigo.geojson');
const LGA = join(BENDIGO, 'lga_greater_bendigo.geojson');
/** Datasets nobody serves, for the runs that need not be looked up through the graph. */
const SIDE = 'planning_test';
const SHP = 'planning_test_shp';
const GDA2020_PRJ =
  'GEOGCS["GCS_GDA2020",DATUM["D_GDA2020",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';
const MGA55_PRJ = `PROJCS["GDA2020_MGA_Zone_55",${GDA2020_PRJ},PROJECTION["Transverse_Mercator"],UNIT["Meter",1.0]]`;

type Feature = { type: 'Feature'; properties: Record<string, string | number | null>; geometry: unknown };
type Collection = { type: 'FeatureCollection'; crs?: unknown; features: Feature[] };
const DCPO_FEATURES = (JSON.parse(readFileSync(DCPO, 'utf8')) as Collection).features;

type Ring = number[][];
/** A ring from flat lng, lat pairs, so a test reads its corners in one line. */
const ring = (...xy: number[]): Ring => xy.flatMap((v, i) => (i % 2 === 0 ? [[v, xy[i + 1]!]] : []));
const polygon = (...xy: number[]) => ({ type: 'Polygon', coordinates: [ring(...xy)] });
const box = (lng: number, lat: number, d = 0.01) =>
  polygon(lng, lat, lng + d, lat, lng + d, lat + d, lng, lat + d, lng, lat);
const feature = (properties: Feature['properties'], geometry: unknown): Feature => ({
  type: 'Feature',
  properties,
  geometry,
});
const zone = (pfi: number | null, code: string, description: string, geometry: unknown) =>
  feature(
    {
      PFI: pfi,
      ZONE_CODE: code,
      ZONE_DESCRIPTION: description,
      SCHEME_CODE: code.replace(/\d+$/, ''),
      LGA_CODE: '325',
      LGA: 'GREATER BENDIGO',
    },
    geometry,
  );

type PlanningLayerJson = { status: string; source: string | null; attribution: string | null; data: unknown };

const quiet = () => new Progress({ write: () => true });

describe('landgraph ingest planning', () => {
  let t: TestRuntime;
  let db: Database;
  let dir: string;
  let first: PlanningIngestResult;
  let liveKey: string;
  const ingest = (options: Partial<PlanningIngestOptions> & { file: string }) =>
    ingestPlanning(db, { state: 'VIC', progress: quiet(), ...options });
  const file = (name: string, collection: Collection) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(collection));
    return path;
  };
  const count = async (sql: string, params: unknown[] = []) => (await db.query<{ n: number }>(sql, params))[0]?.n;
  const cleanUp = async () => {
    await db.exec(`
      DELETE FROM planning.zone WHERE dataset IN ('${SIDE}', '${SHP}') OR (dataset = 'live' AND state = 'VIC');
      DELETE FROM planning.overlay WHERE dataset IN ('${SIDE}', '${SHP}') OR (dataset = 'live' AND state = 'VIC');
      DELETE FROM planning.coverage WHERE dataset IN ('${SIDE}', '${SHP}') OR (dataset = 'live' AND state = 'VIC');
      DELETE FROM planning.ugb WHERE dataset IN ('${SIDE}', '${SHP}') OR (dataset = 'live' AND state = 'VIC');
      DELETE FROM public.dataset_source WHERE dataset IN ('${SIDE}', '${SHP}')
        OR (dataset = 'live' AND state = 'VIC' AND layer IN ('planning', 'ugb'));`);
    t.runtime.catalog.invalidate();
  };
  const planningAt = async (lat: number, lng: number) => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${liveKey}`)
      .send({
        query: `query($lat: Float!, $lng: Float!) { planningAt(lat: $lat, lng: $lng, state: "VIC") {
          status source attribution license data { zone { code } overlays { code description scheme_code lga_name } } } }`,
        variables: { lat, lng },
      })
      .expect(200);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.planningAt as PlanningLayerJson;
  };

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    dir = mkdtempSync(join(tmpdir(), 'landgraph-planning-'));
    await cleanUp();
    first = await ingest({ file: DCPO, coverage: LGA, dataset: 'live' });
    t.runtime.catalog.invalidate();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['planning.read'] });
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the real DCPO overlays with the LGA boundary as coverage, and says so', () => {
    expect(first.layers).toEqual([{ layer: 'overlay', read: 2, loaded: 2, repaired: 0, refused: 0 }]);
    expect(first.coverage).toEqual({ from: 'lga_greater_bendigo.geojson', names: ['GREATER BENDIGO'] });
    expect(first.snapshot).toMatch(/^vicmap_planning_overlay_DCPO_greater_bendigo-\d{4}-\d{2}-\d{2}$/);
    const summary = formatPlanningSummary(first);
    expect(summary).toMatch(/^overlay\s+2\s+2\s+0\s+0$/m);
    expect(summary).toContain('coverage: GREATER BENDIGO (from lga_greater_bendigo.geojson)');
  });

  it('answers a live key inside DCPO2 with the overlay, its description and the Vicmap credit', async () => {
    // 376 m inside the DCPO2 polygon, north-east of Bendigo near Huntly.
    const layer = await planningAt(-36.6624, 144.3549);
    expect(layer).toMatchObject({
      status: 'ok',
      source: `mirror:vic/planning@${first.snapshot}`,
      license: 'CC BY 4.0',
      data: {
        zone: null,
        overlays: [
          {
            code: 'DCPO2',
            description: 'DEVELOPMENT CONTRIBUTIONS PLAN OVERLAY - SCHEDULE 2',
            scheme_code: 'DCPO',
            lga_name: 'GREATER BENDIGO',
          },
        ],
      },
    });
    expect(layer.attribution).toBe(
      'Vicmap Planning © State of Victoria (Department of Transport and Planning), CC BY 4.0',
    );
  });

  it('answers no_data inside the LGA but outside both overlays, and not_covered outside the LGA', async () => {
    const centre = await planningAt(-36.757, 144.2794); // Bendigo's Pall Mall
    expect(centre).toMatchObject({
      status: 'no_data',
      data: null,
      attribution: expect.stringContaining('Vicmap Planning'),
    });
    expect((await planningAt(-37.8136, 144.9631)).status).toBe('not_covered'); // Melbourne
  });

  it('replaces rather than duplicates on a rerun', async () => {
    await ingest({ file: DCPO, coverage: LGA, dataset: 'live' });
    const vic = (table: string) =>
      count(`SELECT count(*)::int AS n FROM ${table} WHERE dataset = 'live' AND state = 'VIC'`);
    expect([await vic('planning.overlay'), await vic('planning.coverage'), await vic('public.dataset_source')]).toEqual(
      [2, 1, 1],
    );
  });

  it('loads the same rows from a shapefile with truncated column names', async () => {
    const fields = ['PFI', 'UFI', 'SCHEME_COD', 'LGA_CODE', 'LGA', 'ZONE_CODE', 'ZONE_DESCR'];
    const shp = writeShapefile(join(dir, 'PLAN_OVERLAY'), DCPO_FEATURES, fields, GDA2020_PRJ);
    const result = await ingest({ file: shp, dataset: SHP });
    expect(result.source).toEqual({ file: 'PLAN_OVERLAY.shp', format: 'shapefile', crs: 'GCS_GDA2020' });
    expect(result.layers).toEqual([{ layer: 'overlay', read: 2, loaded: 2, repaired: 0, refused: 0 }]);
    const overlays = (dataset: string) =>
      db.query(
        `SELECT id, overlay_code, overlay_description, scheme_code, lga_code, lga_name,
           ST_AsText(ST_Normalize(geom)) AS wkt FROM planning.overlay WHERE dataset = $1 ORDER BY id`,
        [dataset],
      );
    const live = await overlays('live');
    expect(live.map((r) => (r as { id: string }).id)).toEqual(['VIC:PFI:1589855', 'VIC:PFI:4252253']);
    expect(await overlays(SHP)).toEqual(live);
  });

  it('refuses a projected CRS by name, from a GeoJSON crs or a .prj', async () => {
    const mga = file('mga.geojson', {
      type: 'FeatureCollection',
      crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::28355' } },
      features: DCPO_FEATURES,
    });
    await expect(ingest({ file: mga, dataset: SIDE })).rejects.toThrow(
      /projected CRS EPSG:28355 \(GDA94 \/ MGA zone 55\)/,
    );
    const shp = writeShapefile(join(dir, 'mga'), DCPO_FEATURES, ['PFI', 'ZONE_CODE'], MGA55_PRJ);
    await expect(ingest({ file: shp, dataset: SIDE })).rejects.toThrow(/projected CRS GDA2020_MGA_Zone_55/);
  });

  it('rolls the whole run back when a later feature shows the file is projected after all', async () => {
    const eastings = polygon(255000, 5930000, 256000, 5930000, 256000, 5931000, 255000, 5930000);
    const bad = file('unmarked.geojson', {
      type: 'FeatureCollection',
      features: [
        zone(901, 'GRZ1', 'GENERAL RESIDENTIAL ZONE', box(144.28, -36.76)),
        zone(902, 'GRZ1', 'GENERAL RESIDENTIAL ZONE', eastings),
      ],
    });
    await expect(ingest({ file: bad, dataset: SIDE, batchRows: 1 })).rejects.toThrow(IngestError);
    const side = (table: string) => count(`SELECT count(*)::int AS n FROM ${table} WHERE dataset = $1`, [SIDE]);
    expect([await side('planning.zone'), await side('planning.coverage'), await side('public.dataset_source')]).toEqual(
      [0, 0, 0],
    );
  });

  it('mends invalid rings, reports every feature it refuses, and covers the union of the zones', async () => {
    const result = await ingest({
      file: file('mixed.geojson', {
        type: 'FeatureCollection',
        features: [
          zone(1, 'GRZ1', 'GENERAL RESIDENTIAL ZONE - SCHEDULE 1', box(144.28, -36.76)),
          zone(
            2,
            'NRZ1',
            'NEIGHBOURHOOD RESIDENTIAL ZONE',
            polygon(144.3, -36.76, 144.31, -36.75, 144.31, -36.76, 144.3, -36.75, 144.3, -36.76),
          ),
          zone(
            3,
            'PPRZ',
            'PUBLIC PARK AND RECREATION ZONE',
            polygon(144.32, -36.76, 144.33, -36.76, 144.34, -36.76, 144.32, -36.76),
          ),
          zone(4, 'RDZ1', 'ROAD ZONE - CATEGORY 1', {
            type: 'LineString',
            coordinates: ring(144.3, -36.7, 144.4, -36.7),
          }),
          zone(1, 'GRZ1', 'GENERAL RESIDENTIAL ZONE - SCHEDULE 1', box(144.28, -36.74)),
          zone(null, 'C1Z', 'COMMERCIAL 1 ZONE', box(144.28, -36.72)),
          zone(7, 'HO1', 'HERITAGE OVERLAY', polygon(144.281, -36.759, 144.282, -36.759, 144.282, -36.758)),
        ],
      }),
      dataset: SIDE,
    });
    expect(result.layers).toEqual([
      { layer: 'zone', read: 6, loaded: 2, repaired: 1, refused: 4 },
      { layer: 'overlay', read: 1, loaded: 1, repaired: 1, refused: 0 },
    ]);
    expect(result.refused.map((r) => [r.feature, r.reason])).toEqual([
      [3, expect.stringMatching(/^its geometry has no area left once mended/)],
      [4, 'its geometry is a LineString, not a polygon'],
      [5, 'it repeats the PFI 1 of feature 1'],
      [6, 'it has neither a PFI nor a UFI to keep its row stable across runs'],
    ]);
    expect(result.repaired.map((r) => [r.key, r.reason])).toEqual([
      ['PFI 2', 'mended by ST_MakeValid: Self-intersection'],
      ['PFI 7', 'closed a ring left open'],
    ]);
    const [area] = await db.query<{ name: string; km2: number; valid: boolean }>(
      `SELECT name, ST_Area(geom::geography) / 1e6 AS km2, ST_IsValid(geom) AS valid FROM planning.coverage WHERE dataset = $1`,
      [SIDE],
    );
    // The GRZ1 square (about 0.99 km²) and the bowtie's two triangles (a quarter of such a square each).
    expect(area).toMatchObject({ name: 'GREATER BENDIGO', valid: true });
    expect(area!.km2).toBeCloseTo(0.99 * 1.5, 1);
  });

  it('loads a UGB layer with its GAIC flag under its own source', async () => {
    const ugb = file('plan_ugb.geojson', {
      type: 'FeatureCollection',
      features: [
        feature({ PFI: 77, LGA_CODE: '332', LGA: 'WYNDHAM', GAIC: 'Y' }, box(144.6, -37.9)),
        feature({ PFI: 78, LGA_CODE: '332', LGA: 'WYNDHAM', GAIC: null }, box(144.62, -37.9)),
      ],
    });
    const result = await ingest({ file: ugb, dataset: SIDE });
    expect(result.layers).toEqual([{ layer: 'ugb', read: 2, loaded: 2, repaired: 0, refused: 0 }]);
    expect(
      await db.query(`SELECT id, lga_name, gaic_applies FROM planning.ugb WHERE dataset = $1 ORDER BY id`, [SIDE]),
    ).toEqual([
      { id: 'VIC:PFI:77', lga_name: 'WYNDHAM', gaic_applies: true },
      { id: 'VIC:PFI:78', lga_name: 'WYNDHAM', gaic_applies: false },
    ]);
    const [source] = await db.query<{ snapshot_id: string }>(
      `SELECT snapshot_id FROM public.dataset_source WHERE dataset = $1 AND state = 'VIC' AND layer = 'ugb'`,
      [SIDE],
    );
    expect(source?.snapshot_id).toMatch(/^plan_ugb-\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    ['a missing file', [join(BENDIGO, 'nope.geojson'), '--state', 'VIC'], /no such file: .*nope\.geojson/],
    [
      'an unknown layer',
      [DCPO, '--state', 'VIC', '--layer', 'parcels'],
      /unknown layer "parcels": one of zone, overlay, ugb/,
    ],
    ['a wrong state code', [DCPO, '--state', 'VIX'], /unknown state "VIX"/],
    ['a state of another layout', [DCPO, '--state', 'NSW'], /only Vicmap Planning \(VIC\)/],
    [
      'an unknown attribute layout',
      [LGA, '--state', 'VIC'],
      /lacks ZONE_CODE, ZONE_DESCRIPTION \(or ZONE_DESCR\), SCHEME_CODE \(or SCHEME_COD\), LGA_CODE, LGA \(or LGA_NAME\), PFI or UFI/,
    ],
  ])('exits 2 with one line for %s', async (_name, args, message) => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runIngestPlanningCommand(args)).toBe(2);
      const written = stderr.mock.calls.map((call) => String(call[0])).join('');
      expect(written).toMatch(message);
      expect(written.trimEnd().split('\n')).toHaveLength(1);
    } finally {
      stderr.mockRestore();
    }
  });
});
