import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
const SIDE = 'hazards_test';

type Hazard = {
  severity: string | null;
  coverage: string;
  freshness: string | null;
  evidence: Array<{ type: string; code: string | null; severity: string; source: string; status: string | null }>;
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
      DELETE FROM hazards.overlay WHERE dataset = '${SIDE}' OR (dataset = 'live' AND state = 'VIC');
      DELETE FROM hazards.contamination_site WHERE dataset = '${SIDE}' OR (dataset = 'live' AND state = 'VIC');
      DELETE FROM hazards.coverage WHERE dataset = '${SIDE}' OR (dataset = 'live' AND state = 'VIC');
      DELETE FROM planning.overlay WHERE dataset = '${SIDE}';
      DELETE FROM planning.coverage WHERE dataset = '${SIDE}';
      DELETE FROM public.dataset_source WHERE dataset = '${SIDE}' OR (dataset = 'live' AND state = 'VIC' AND layer = 'hazards');`);
    t.runtime.catalog.invalidate();
  };
  const hazardsAt = async (lat: number, lng: number): Promise<HazardsBody> => {
    const res = await request(t.app)
      .get('/api/hazards')
      .query({ lat, lng, state: 'VIC' })
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
});
