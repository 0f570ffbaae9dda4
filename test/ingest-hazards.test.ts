import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FeatureCollection } from 'geojson';
import { serialize as serializeFgb } from 'flatgeobuf/lib/mjs/geojson.js';
import type { Database } from '../core/db.ts';
import { formatHazardsSummary, runIngestHazardsCommand } from '../cli/ingest/hazards-cli.ts';
import { type HazardsIngestOptions, type HazardsIngestResult, ingestHazards } from '../cli/ingest/hazards.ts';
import { readCsv } from '../cli/ingest/csv.ts';
import { IngestError } from '../cli/ingest/planning.ts';
import { Progress } from '../cli/ingest/progress.ts';
import { createTestKey, type TestRuntime, testRuntime } from './support/runtime.ts';
import { writeShapefile } from './support/shapefile.ts';

const SAMPLE = fileURLToPath(
  new URL(
    '../data/samples/vicmap-planning-bendigo-hazards/vicmap_planning_overlay_hazards_bendigo_region.geojson',
    import.meta.url,
  ),
);
const DCPO = fileURLToPath(
  new URL(
    '../data/samples/vicmap-planning-bendigo/vicmap_planning_overlay_DCPO_greater_bendigo.geojson',
    import.meta.url,
  ),
);
const LGA = fileURLToPath(
  new URL('../data/samples/vicmap-planning-bendigo/lga_greater_bendigo.geojson', import.meta.url),
);
/** Synthetic, in a register's layout: no real register CSV with coordinates was found to carry. */
const REGISTER = fileURLToPath(new URL('./fixtures/epa-register-bendigo.csv', import.meta.url));
/** Hand-made, in the states' published layouts (test/fixtures/hazard-layers/README.txt): no real sample was found. */
const LAYER = (name: string) => fileURLToPath(new URL(`./fixtures/hazard-layers/${name}`, import.meta.url));
const BFPL = LAYER('BFPL20250529_fixture.geojson');
const NSW_FLOOD = LAYER('nsw_epi_flood_planning_fixture.geojson');
const QLD_BPA = LAYER('qld_bushfire_prone_area_fixture.geojson');
const QFAO = LAYER('qld_floodplain_assessment_overlay_fixture.geojson');
const VIC_BPA = LAYER('BUSHFIRE_PRONE_AREA_fixture.geojson');
const SIDE = 'hazards_test';

type Hazard = {
  severity: string | null;
  coverage: string;
  freshness: string | null;
  evidence: Array<{ type: string; code: string | null; severity: string; source: string; status: string | null }>;
  bal?: { rating: string; vegetation_class: string | null; distance_m: number | null } | null;
};
type HazardsBody = {
  status: string;
  freshness: string | null;
  attribution: string | null;
  license: string | null;
  data: { flood: Hazard; bushfire: Hazard; contamination: Hazard } | null;
};

const quiet = () => new Progress({ write: () => true });

describe('landgraph ingest hazards', () => {
  let t: TestRuntime;
  let db: Database;
  let dir: string;
  let first: HazardsIngestResult;
  let liveKey: string;
  const ingest = (options: Partial<HazardsIngestOptions> & { file: string }) =>
    ingestHazards(db, { state: 'VIC', progress: quiet(), ...options });
  const count = async (sql: string) => (await db.query<{ n: number }>(sql))[0]?.n;
  const cleanUp = async () => {
    await db.exec(`
      DELETE FROM hazards.overlay WHERE dataset = '${SIDE}' OR (dataset = 'live' AND state IN ('VIC', 'NSW', 'QLD'));
      DELETE FROM hazards.contamination_site WHERE dataset = '${SIDE}' OR (dataset = 'live' AND state = 'VIC');
      DELETE FROM hazards.vegetation WHERE dataset = '${SIDE}' OR (dataset = 'live' AND state IN ('VIC', 'NSW', 'QLD'));
      DELETE FROM hazards.coverage WHERE dataset = '${SIDE}' OR (dataset = 'live' AND state IN ('VIC', 'NSW', 'QLD'));
      DELETE FROM planning.overlay WHERE dataset = '${SIDE}';
      DELETE FROM planning.coverage WHERE dataset = '${SIDE}';
      DELETE FROM public.dataset_source WHERE dataset = '${SIDE}' OR (dataset = 'live' AND state IN ('VIC', 'NSW', 'QLD') AND layer = 'hazards');`);
    t.runtime.catalog.invalidate();
  };
  const hazardsAt = async (lat: number, lng: number, state = 'VIC'): Promise<HazardsBody> => {
    const res = await request(t.app)
      .get('/api/hazards')
      .query({ lat, lng, state })
      .set('Authorization', `Bearer ${liveKey}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as HazardsBody;
  };

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    dir = mkdtempSync(join(tmpdir(), 'landgraph-hazards-'));
    await cleanUp();
    first = await ingest({ file: SAMPLE, snapshot: 'bendigo-hazards-2024-11-29' });
    t.runtime.catalog.invalidate();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['risk.read'] });
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the real FO, SBO, BMO and EAO overlays into the live dataset, each LGA covering its hazards', () => {
    expect(first.dataset).toBe('live');
    expect(first.snapshotDate).toBe('2024-11-29');
    expect(first.kinds).toEqual([
      { kind: 'flood', read: 4, loaded: 4, refused: 0 },
      { kind: 'bushfire', read: 4, loaded: 4, refused: 0 },
      { kind: 'contamination', read: 5, loaded: 5, refused: 0 },
    ]);
    expect(first.coverage.kinds).toEqual(['flood', 'bushfire', 'contamination']);
    expect([...first.coverage.names].sort()).toEqual(['CAMPASPE', 'GREATER BENDIGO']);
    expect(first.coverageAreas).toEqual({ bushfire: 2, contamination: 2, flood: 2 });
    const summary = formatHazardsSummary(first);
    expect(summary).toMatch(/^flood\s+4\s+4\s+0$/m);
    expect(summary).toContain("into dataset 'live', VIC, snapshot bendigo-hazards-2024-11-29 (2024-11-29)");
  });

  it('finds each hazard inside its overlay with the severity of the hazards scale and the Vicmap credit', async () => {
    // Inside the Floodway Overlay PFI 4191774 north of Elmore (Campaspe).
    const flood = await hazardsAt(-36.40333, 144.42221);
    expect(flood).toMatchObject({
      status: 'ok',
      freshness: '2024-11-29',
      license: 'CC BY 4.0',
      data: {
        flood: { severity: 'high', coverage: 'found', evidence: [{ type: 'overlay', code: 'FO', severity: 'high' }] },
        bushfire: { severity: 'none', coverage: 'clear' },
      },
    });
    expect(flood.attribution).toContain('Vicmap Planning © State of Victoria');
    // Inside BMO1 PFI 4245382, Maiden Gully; EAO PFI 4238268, central Bendigo; SBO2 PFI 4251860.
    expect((await hazardsAt(-36.73285, 144.24928)).data?.bushfire).toMatchObject({
      severity: 'high',
      evidence: [{ code: 'BMO1', source: 'Vicmap Planning' }],
    });
    expect((await hazardsAt(-36.75111, 144.26502)).data?.contamination).toMatchObject({
      severity: 'medium',
      evidence: [{ code: 'EAO' }],
    });
    expect((await hazardsAt(-36.71037, 144.31454)).data?.flood).toMatchObject({ severity: 'low' });
  });

  it('answers clear inside the data but outside every overlay, and not_covered where the data does not reach', async () => {
    const centre = await hazardsAt(-36.757, 144.2794); // Bendigo's Pall Mall
    expect(centre.status).toBe('no_data');
    for (const hazard of ['flood', 'bushfire', 'contamination'] as const) {
      expect(centre.data?.[hazard], hazard).toMatchObject({
        severity: 'none',
        coverage: 'clear',
        freshness: '2024-11-29',
      });
    }
    expect((await hazardsAt(-37.8136, 144.9631)).status).toBe('not_covered'); // Melbourne
  });

  it('replaces rather than duplicates on a rerun', async () => {
    await ingest({ file: SAMPLE, snapshot: 'bendigo-hazards-2024-11-29' });
    expect(await count(`SELECT count(*)::int AS n FROM hazards.overlay WHERE dataset = 'live' AND state = 'VIC'`)).toBe(
      13,
    );
    expect(
      await count(`SELECT count(*)::int AS n FROM hazards.coverage WHERE dataset = 'live' AND state = 'VIC'`),
    ).toBe(6);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM public.dataset_source WHERE dataset = 'live' AND layer = 'hazards' AND state = 'VIC'`,
      ),
    ).toBe(1);
  });

  it('refuses the frozen sandbox, a file without ZONE_CODE, and a file with no hazard overlay', async () => {
    await expect(ingest({ file: SAMPLE, dataset: 'sandbox' })).rejects.toThrow(
      /sandbox dataset is generated .* frozen/,
    );
    const noCode = JSON.parse(readFileSync(SAMPLE, 'utf8')) as {
      features: Array<{ properties: Record<string, unknown> }>;
    };
    for (const f of noCode.features) delete f.properties.ZONE_CODE;
    const path = join(dir, 'no_zone_code.geojson');
    writeFileSync(path, JSON.stringify(noCode));
    const refusal = ingest({ file: path, dataset: SIDE });
    await expect(refusal).rejects.toBeInstanceOf(IngestError);
    await expect(refusal).rejects.toThrow(
      /no_zone_code\.geojson is not in .*PLAN_OVERLAY attribute layout: it lacks ZONE_CODE/,
    );
    await expect(ingest({ file: DCPO, dataset: SIDE })).rejects.toThrow(
      /no hazard overlay \(FO, LSIO, SBO, BMO, EAO\) of vicmap_planning_overlay_DCPO_greater_bendigo\.geojson/,
    );
    await expect(ingest({ file: SAMPLE, dataset: SIDE, kind: 'volcano' })).rejects.toThrow(/unknown --kind "volcano"/);
    expect(await count(`SELECT count(*)::int AS n FROM hazards.overlay WHERE dataset = '${SIDE}'`)).toBe(0);
  });

  it('rolls the whole run back when a later feature shows the file is projected, and refuses blank attributes', async () => {
    const collection = JSON.parse(readFileSync(SAMPLE, 'utf8')) as {
      features: Array<{ properties: Record<string, unknown>; geometry: unknown }>;
    };
    const before = await count(`SELECT count(*)::int AS n FROM hazards.overlay WHERE dataset = '${SIDE}'`);
    const projected = structuredClone(collection.features[0]!);
    projected.properties.PFI = 999_001;
    projected.geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [250000, 5900000],
          [250100, 5900000],
          [250100, 5900100],
          [250000, 5900000],
        ],
      ],
    };
    const path = join(dir, 'projected_late.geojson');
    writeFileSync(path, JSON.stringify({ ...collection, features: [...collection.features, projected] }));
    await expect(ingest({ file: path, dataset: SIDE })).rejects.toThrow(
      /feature 14 has the coordinate \(250000, 5900000\)/,
    );
    expect(await count(`SELECT count(*)::int AS n FROM hazards.overlay WHERE dataset = '${SIDE}'`)).toBe(before);

    const blank = structuredClone(collection);
    blank.features[0]!.properties.ZONE_DESCR = ' ';
    const blankPath = join(dir, 'blank_description.geojson');
    writeFileSync(blankPath, JSON.stringify(blank));
    const result = await ingest({ file: blankPath, dataset: SIDE, kind: 'flood' });
    expect(result.kinds).toEqual([{ kind: 'flood', read: 3, loaded: 3, refused: 1 }]);
    expect(result.refused).toEqual([
      { file: 'blank_description.geojson', feature: 1, key: 'PFI 4191774', reason: 'its ZONE_DESCR is blank' },
    ]);
  });

  it('loads the same overlays from a shapefile with its truncated column names', async () => {
    const { features } = JSON.parse(readFileSync(SAMPLE, 'utf8')) as {
      features: Array<{ properties: Record<string, unknown>; geometry: { type: string } }>;
    };
    expect(new Set(features.map((f) => f.geometry.type))).toEqual(new Set(['MultiPolygon']));
    const prj =
      'GEOGCS["GCS_GDA2020",DATUM["D_GDA2020",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';
    const fields = ['PFI', 'UFI', 'SCHEME_COD', 'LGA_CODE', 'LGA', 'ZONE_CODE', 'ZONE_DESCR'];
    const shp = writeShapefile(join(dir, 'PLAN_OVERLAY'), features, fields, prj);
    const result = await ingest({ file: shp, dataset: SIDE, kind: 'contamination' });
    expect(result.source.format).toBe('shapefile, GCS_GDA2020');
    expect(result.kinds).toEqual([{ kind: 'contamination', read: 5, loaded: 5, refused: 0 }]);
    const [row] = await db.query<{ code: string; severity: string }>(
      `SELECT code, severity FROM hazards.overlay WHERE dataset = $1 AND id = 'VIC:PFI:4238268'`,
      [SIDE],
    );
    expect(row).toEqual({ code: 'EAO', severity: 'medium' });
  });

  it('with --kind loads only that hazard and covers only it; --coverage takes the area from a file', async () => {
    const result = await ingest({ file: SAMPLE, dataset: SIDE, kind: 'bushfire', coverage: LGA });
    expect(result.kinds).toEqual([{ kind: 'bushfire', read: 4, loaded: 4, refused: 0 }]);
    expect(result.skipped).toBe(9);
    expect(result.coverage).toEqual({
      from: 'lga_greater_bendigo.geojson',
      kinds: ['bushfire'],
      names: ['GREATER BENDIGO'],
    });
    // Only bushfire gains an area (the other hazards' are earlier tests' in this dataset).
    expect(result.coverageAreas.bushfire).toBe(1);
  });

  it('without --coverage, an LGA takes the boundary a planning ingest of the dataset holds for it', async () => {
    const { ingestPlanning } = await import('../cli/ingest/planning.ts');
    await ingestPlanning(db, { file: DCPO, coverage: LGA, state: 'VIC', dataset: SIDE, progress: quiet() });
    const result = await ingest({ file: SAMPLE, dataset: SIDE, kind: 'contamination' });
    expect(result.coverage.from).toMatch(/^the planning coverage of each LGA/);
    const [same] = await db.query<{ same: boolean }>(
      `SELECT ST_Equals(h.geom, p.geom) AS same FROM hazards.coverage h JOIN planning.coverage p
         ON p.dataset = h.dataset AND p.state = h.state AND p.name = h.name
       WHERE h.dataset = $1 AND h.kind = 'contamination' AND h.name = 'GREATER BENDIGO'`,
      [SIDE],
    );
    expect(same?.same).toBe(true);
  });

  it('loads a register CSV as contamination sites, refusing rows it cannot place, beside the overlays credit', async () => {
    const result = await ingest({ file: REGISTER, snapshot: 'epa-fixture-2025-03-01' });
    expect(result.kinds).toEqual([{ kind: 'contamination', read: 4, loaded: 2, refused: 2 }]);
    expect(result.refused.map((r) => [r.feature, r.reason])).toEqual([
      [4, '(144.31, -36.76) is not in Australia (latitude and longitude look swapped)'],
      [5, 'its site name is blank'],
    ]);
    t.runtime.catalog.invalidate();
    const at = await hazardsAt(-36.77, 144.3);
    expect(at.data?.contamination).toMatchObject({
      severity: 'high',
      coverage: 'found',
      evidence: [
        {
          type: 'register',
          source: 'EPA Victoria Priority Sites Register',
          status: 'Clean up notice',
        },
      ],
    });
    expect(at.attribution).toContain('Vicmap Planning');
    expect(at.attribution).toContain('Environment Protection Authority Victoria');
    // A rerun replaces the sites by their ids.
    await ingest({ file: REGISTER, snapshot: 'epa-fixture-2025-03-01' });
    expect(
      await count(`SELECT count(*)::int AS n FROM hazards.contamination_site WHERE dataset = 'live' AND state = 'VIC'`),
    ).toBe(2);
    await expect(ingest({ file: REGISTER, kind: 'flood' })).rejects.toThrow(/its kind is contamination/);
  });

  it('reads quoted CSV fields with commas and doubled quotes, and names a register missing its coordinates', async () => {
    const table = readCsv(REGISTER);
    expect(table.rows[0]?.fields[2]).toBe('12 Example St, corner of Sample Rd');
    expect(table.rows[1]?.fields[1]).toBe('Service station "B" (fixture)');
    const path = join(dir, 'no-coordinates.csv');
    writeFileSync(path, 'Site Name,Address\nA,1 B St\n');
    await expect(ingest({ file: path, dataset: SIDE })).rejects.toThrow(
      /no-coordinates\.csv is not a contamination register with coordinates: it lacks a latitude column/,
    );
  });

  it('refuses a register whose quoting is broken or whose rows disagree with its header, naming the file', () => {
    const unclosed = join(dir, 'unclosed.csv');
    writeFileSync(unclosed, 'Site Name,Latitude,Longitude\n"Open quote,-36.7,144.3\n');
    expect(() => readCsv(unclosed)).toThrow(/unclosed\.csv: .*quote/i);
    const ragged = join(dir, 'ragged.csv');
    writeFileSync(ragged, 'Site Name,Latitude,Longitude\nA,-36.7,144.3\nB,-36.7\n');
    expect(() => readCsv(ragged)).toThrow(/ragged\.csv: line 3: .*record length/i);
  });

  it('exits 2 with the reason, before opening the database, for the sandbox or a missing --state', async () => {
    let stderr = '';
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    try {
      expect(await runIngestHazardsCommand([SAMPLE, '--state', 'VIC', '--dataset', 'sandbox'])).toBe(2);
      expect(stderr).toMatch(/^landgraph ingest hazards: the sandbox dataset is generated/);
      stderr = '';
      expect(await runIngestHazardsCommand([SAMPLE])).toBe(2);
      expect(stderr).toContain('name the state the data belongs to with --state (VIC, NSW or QLD)');
      expect(stderr).toContain('Usage: landgraph ingest hazards <file>');
    } finally {
      err.mockRestore();
    }
  });
  it('loads NSW bush fire prone land: each category its code and severity, 1 to 3 also as BAL vegetation', async () => {
    const result = await ingest({ file: BFPL, state: 'NSW', snapshot: 'bfpl-2025-05-29' });
    expect(result.source).toMatchObject({ layout: 'NSW RFS Bush Fire Prone Land', what: 'layer' });
    expect(result.source.format).toBe('GeoJSON, GDA94 (EPSG:4283)');
    expect(result.kinds).toEqual([{ kind: 'bushfire', read: 4, loaded: 4, refused: 0 }]);
    expect(result.vegetation).toBe(3);
    expect(result.coverage).toMatchObject({ kinds: ['bushfire'], names: ['BFPL20250529_FIXTURE'] });
    const rows = await db.query<{
      code: string;
      severity: string;
      source_name: string;
      vegetation_class: string | null;
    }>(
      `SELECT o.code, o.severity, o.source_name, v.vegetation_class FROM hazards.overlay o
       LEFT JOIN hazards.vegetation v ON v.dataset = o.dataset AND v.id = o.id || ':vegetation'
       WHERE o.dataset = 'live' AND o.state = 'NSW' ORDER BY o.code`,
    );
    expect(rows).toEqual([
      { code: 'BFPL_BUFFER', severity: 'low', source_name: 'NSW RFS Bush Fire Prone Land', vegetation_class: null },
      { code: 'BFPL_CAT1', severity: 'high', source_name: 'NSW RFS Bush Fire Prone Land', vegetation_class: 'forest' },
      {
        code: 'BFPL_CAT2',
        severity: 'medium',
        source_name: 'NSW RFS Bush Fire Prone Land',
        vegetation_class: 'rainforest',
      },
      {
        code: 'BFPL_CAT3',
        severity: 'medium',
        source_name: 'NSW RFS Bush Fire Prone Land',
        vegetation_class: 'grassland',
      },
    ]);
    expect(formatHazardsSummary(result)).toContain('classified vegetation for the BAL: 3 polygons');
    // A rerun replaces the rows (no id in the layer: keyed by category and outline).
    await ingest({ file: BFPL, state: 'NSW', snapshot: 'bfpl-2025-05-29' });
    expect(await count(`SELECT count(*)::int AS n FROM hazards.overlay WHERE dataset = 'live' AND state = 'NSW'`)).toBe(
      4,
    );
    expect(
      await count(`SELECT count(*)::int AS n FROM hazards.vegetation WHERE dataset = 'live' AND state = 'NSW'`),
    ).toBe(3);
  });

  it('answers NSW bushfire from the ingested rows: inside category 1, in its buffer with the forest beside, clear between', async () => {
    t.runtime.catalog.invalidate();
    const inside = await hazardsAt(-33.705, 151.105, 'NSW');
    expect(inside.status).toBe('ok');
    expect(inside.freshness).toBe('2025-05-29');
    expect(inside.attribution).toContain('NSW Rural Fire Service');
    expect(inside.data?.bushfire.evidence).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'overlay', code: 'BFPL_CAT1', severity: 'high' })]),
    );
    expect(inside.data?.bushfire.bal).toMatchObject({ rating: 'BAL-FZ', vegetation_class: 'forest', distance_m: 0 });
    // In the buffer, about 55 m north of the category 1 forest: the buffer's low and the BAL the forest gives.
    const buffer = await hazardsAt(-33.6995, 151.105, 'NSW');
    expect(buffer.data?.bushfire.evidence).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'BFPL_BUFFER', severity: 'low' })]),
    );
    expect(buffer.data?.bushfire.bal).toMatchObject({ rating: 'BAL-12.5', vegetation_class: 'forest' });
    // Between the areas, inside the data's extent: checked and clear; flood was not loaded, so not mapped.
    const between = await hazardsAt(-33.709, 151.116, 'NSW');
    expect(between.data?.bushfire).toMatchObject({ severity: 'none', coverage: 'clear', evidence: [] });
    expect(between.data?.flood.coverage).toBe('not_mapped');
    expect((await hazardsAt(-33.8, 151.2, 'NSW')).status).toBe('not_covered');
  });

  it('loads the NSW EPI flood planning layer as FPA per LGA; its shared EPI attributes need the name or --layout', async () => {
    const result = await ingest({ file: NSW_FLOOD, state: 'NSW', snapshot: 'fpa-2025-06-30' });
    expect(result.kinds).toEqual([{ kind: 'flood', read: 2, loaded: 2, refused: 0 }]);
    expect(result.coverage.names).toEqual(['HORNSBY']);
    t.runtime.catalog.invalidate();
    const inside = await hazardsAt(-33.71, 151.085, 'NSW');
    expect(inside.data?.flood).toMatchObject({
      severity: 'medium',
      coverage: 'found',
      freshness: '2025-06-30',
      evidence: [{ code: 'FPA', severity: 'medium', source: 'NSW Flood Planning Areas' }],
    });
    expect(inside.attribution).toContain('NSW Rural Fire Service');
    expect(inside.attribution).toContain('NSW EPI Flood Planning');
    expect((await hazardsAt(-33.71, 151.092, 'NSW')).data?.flood).toMatchObject({
      severity: 'low',
      evidence: [{ code: 'FPA', description: 'Probable Maximum Flood (Hornsby Local Environmental Plan 2013)' }],
    });
    const renamed = join(dir, 'epi_layer.geojson');
    writeFileSync(renamed, readFileSync(NSW_FLOOD));
    await expect(ingest({ file: renamed, state: 'NSW', dataset: SIDE })).rejects.toThrow(
      /epi_layer\.geojson has the attributes of a NSW EPI layer .* --layout nsw-flood-planning/,
    );
    const named = await ingest({ file: renamed, state: 'NSW', dataset: SIDE, layout: 'nsw-flood-planning' });
    expect(named.kinds).toEqual([{ kind: 'flood', read: 2, loaded: 2, refused: 0 }]);
    await expect(ingest({ file: renamed, state: 'NSW', dataset: SIDE, layout: 'qld-flood-hazard' })).rejects.toThrow(
      /--layout qld-flood-hazard is QLD's; give --state QLD/,
    );
    await expect(ingest({ file: REGISTER, state: 'NSW', dataset: SIDE })).rejects.toThrow(
      /--state NSW: no contamination register layout is read for NSW so far/,
    );
    await expect(ingest({ file: SAMPLE, state: 'NSW', dataset: SIDE })).rejects.toThrow(
      /is in no NSW hazard layout this reader knows .* the layouts for NSW: nsw-bfpl, nsw-flood-planning/,
    );
    await expect(ingest({ file: BFPL, state: 'NSW', dataset: SIDE, kind: 'flood' })).rejects.toThrow(
      /--kind flood: BFPL20250529_fixture\.geojson is the NSW RFS Bush Fire Prone Land, which maps bushfire/,
    );
  });

  it('loads QLD bushfire prone area by potential intensity and the floodplain assessment overlay, answering from them', async () => {
    const fire = await ingest({ file: QLD_BPA, state: 'QLD', snapshot: 'qld-bpa-2025-04-30' });
    expect(fire.kinds).toEqual([{ kind: 'bushfire', read: 4, loaded: 4, refused: 0 }]);
    expect(fire.source.format).toBe('GeoJSON, GDA2020 (EPSG:7844)');
    const flood = await ingest({ file: QFAO, state: 'QLD', snapshot: 'qfao-2025-05-31' });
    expect(flood.kinds).toEqual([{ kind: 'flood', read: 1, loaded: 1, refused: 0 }]);
    t.runtime.catalog.invalidate();
    const codes = async (lat: number, lng: number) =>
      (await hazardsAt(lat, lng, 'QLD')).data?.bushfire.evidence.map((e) => [e.code, e.severity]);
    expect(await codes(-27.2375, 153.0025)).toEqual([['BPA_VERY_HIGH', 'extreme']]);
    expect(await codes(-27.2375, 153.0125)).toEqual([['BPA_HIGH', 'high']]);
    expect(await codes(-27.2375, 153.0225)).toEqual([['BPA_MEDIUM', 'medium']]);
    expect(await codes(-27.2405, 153.0025)).toEqual([['BPA_BUFFER', 'low']]);
    const wet = await hazardsAt(-27.2375, 153.035, 'QLD');
    expect(wet.data?.flood).toMatchObject({
      severity: 'medium',
      freshness: '2025-05-31',
      evidence: [
        {
          code: 'FLOOD_HAZARD_MEDIUM',
          source: 'QLD SPP flood hazard area',
          description: 'Flood hazard area: Level 1 Queensland floodplain assessment overlay (Pine River)',
        },
      ],
    });
    // Between the intensity classes: bushfire checked and clear.
    expect((await hazardsAt(-27.2375, 153.0175, 'QLD')).data?.bushfire).toMatchObject({
      severity: 'none',
      coverage: 'clear',
    });
    expect(wet.attribution).toContain('Queensland Fire Department');
    expect(wet.attribution).toContain('Queensland floodplain assessment overlay');
  });

  it('loads the VIC designated bushfire prone area, told by its file name, as BPA medium', async () => {
    const result = await ingest({ file: VIC_BPA, snapshot: 'bpa-2025-07-15' });
    expect(result.source.layout).toBe('Designated Bushfire Prone Area (BUSHFIRE_PRONE_AREA)');
    expect(result.kinds).toEqual([{ kind: 'bushfire', read: 2, loaded: 2, refused: 0 }]);
    const [row] = await db.query<{ id: string }>(
      `SELECT id FROM hazards.overlay WHERE dataset = 'live' AND code = 'BPA' ORDER BY id LIMIT 1`,
    );
    expect(row?.id).toBe('VIC:vic-bpa:900001');
    t.runtime.catalog.invalidate();
    expect((await hazardsAt(-37.59, 143.81)).data?.bushfire).toMatchObject({
      severity: 'medium',
      coverage: 'found',
      evidence: [{ code: 'BPA', source: 'Vicmap Planning BPA' }],
    });
    const unnamed = join(dir, 'areas.geojson');
    writeFileSync(unnamed, readFileSync(VIC_BPA));
    await expect(ingest({ file: unnamed, dataset: SIDE })).rejects.toThrow(
      /areas\.geojson is in no VIC hazard layout .* --layout vic-bpa/,
    );
    expect((await ingest({ file: unnamed, dataset: SIDE, layout: 'vic-bpa' })).kinds).toEqual([
      { kind: 'bushfire', read: 2, loaded: 2, refused: 0 },
    ]);
  });

  it('refuses a feature whose category it cannot read, naming it, and loads the rest', async () => {
    const collection = JSON.parse(readFileSync(BFPL, 'utf8')) as {
      features: Array<{ properties: Record<string, unknown> }>;
    };
    collection.features[2]!.properties.d_Category = 'Excluded land';
    const path = join(dir, 'BFPL_bad.geojson');
    writeFileSync(path, JSON.stringify(collection));
    const result = await ingest({ file: path, state: 'NSW', dataset: SIDE });
    expect(result.kinds).toEqual([{ kind: 'bushfire', read: 3, loaded: 3, refused: 1 }]);
    expect(result.refused).toEqual([
      {
        file: 'BFPL_bad.geojson',
        feature: 3,
        key: null,
        reason: 'its d_Category "Excluded land" is not a vegetation category (1, 2, 3) or buffer',
      },
    ]);
  });

  it('loads the same layer from FlatGeobuf, and refuses a cut-short .fgb with the reason, exit 2', async () => {
    const fc = JSON.parse(readFileSync(BFPL, 'utf8')) as FeatureCollection;
    delete (fc as { crs?: unknown }).crs;
    const fgb = join(dir, 'BFPL20250529.fgb');
    const bytes = serializeFgb(fc, 4283);
    writeFileSync(fgb, bytes);
    const result = await ingest({ file: fgb, state: 'NSW', dataset: SIDE, snapshot: 'bfpl-fgb-2025-05-29' });
    expect(result.source.format).toBe('FlatGeobuf, GDA94 (EPSG:4283)');
    expect(result.kinds).toEqual([{ kind: 'bushfire', read: 4, loaded: 4, refused: 0 }]);
    expect(result.vegetation).toBe(3);
    const cut = join(dir, 'BFPL_cut.fgb');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 40));
    await expect(ingest({ file: cut, state: 'NSW', dataset: SIDE })).rejects.toThrow(
      /BFPL_cut\.fgb is not a readable FlatGeobuf file: .*feature 4/,
    );
    let stderr = '';
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    try {
      const junk = join(dir, 'junk.fgb');
      writeFileSync(junk, 'not a flatgeobuf at all');
      expect(await runIngestHazardsCommand([junk, '--state', 'NSW'])).toBe(2);
      expect(stderr).toBe(
        'landgraph ingest hazards: junk.fgb is not a FlatGeobuf file (it does not start with the "fgb" magic bytes)\n',
      );
    } finally {
      err.mockRestore();
    }
  });
});
