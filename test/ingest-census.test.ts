import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ABS_CREDIT,
  type BoundaryIngestResult,
  type CensusIngestResult,
  areaCode,
  ingestCensus,
  ingestCensusBoundaries,
  prepareCensusIngest,
} from '../cli/ingest/census.ts';
import { formatCensusSummary, runIngestCensusCommand } from '../cli/ingest/census-cli.ts';
import type { Database } from '../core/db.ts';
import { createTestKey, type TestRuntime, testRuntime } from './support/runtime.ts';

/*
 * `ingest census` and `ingest census-boundaries` on the real DataPack rows in
 * data/samples/census-2021-gcp-sal and -sa1 (G02, G29, G35, G36, G37 as published), the real G01
 * rows of the NSW SALs in -nsw-sal, and a whole real ACT SA1 pack in -act-sa1, with the labelled
 * G01 (VIC and QLD SALs, VIC SA1s) and boundary fixtures beside them (see their READMEs), then
 * read back through GET /api/locality/demographics and /suburb with a live key.
 */

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SAL_SAMPLE = here('../data/samples/census-2021-gcp-sal/');
const SA1_SAMPLE = here('../data/samples/census-2021-gcp-sa1/');
const NSW_SAL_G01 = here('../data/samples/census-2021-gcp-nsw-sal/2021Census_G01_NSW_SAL.csv');
const ACT_SA1_SAMPLE = here('../data/samples/census-2021-gcp-act-sa1/');
const G01 = here('./fixtures/census-2021-g01/');
const BOUNDARIES = here('./fixtures/census-2021-boundaries/');
const REAL_SAL_BOUNDARIES = here(
  '../data/samples/asgs-2021-sal-boundaries-melbourne/selected_sal_2021_aust_gda2020.geojson',
);
/** The real polygons load beside the fixture squares, in a dataset of their own. */
const REAL = 'real_sample';
const NESTED = '2021 Census GCP All Geographies for AUS';

/** The sample's rows of one table, by SAL or SA1 code as the CSV writes it. */
function sampleRows(path: string): Map<string, Record<string, string>> {
  const [header, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  const columns = header!.split(',');
  return new Map(
    lines.map((line) => {
      const cells = line.split(',');
      return [cells[0]!, Object.fromEntries(columns.map((c, i) => [c, cells[i]!]))];
    }),
  );
}

describe('landgraph ingest census and census-boundaries', () => {
  let t: TestRuntime;
  let db: Database;
  let dir: string;
  let salPack: string;
  let sa1Pack: string;
  let liveKey: string;
  let sal: CensusIngestResult;
  let sa1: CensusIngestResult;
  let actSa1: CensusIngestResult;
  let salBoundaries: BoundaryIngestResult;
  const get = (path: string, query: Record<string, string>) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${liveKey}`);
  const SAL_CODES = ['10001', '13167', '13375', '20924', '21219', '22170', '30593'];
  const SA1_CODES = ['20601110601', '20601110605', '20601110606'];
  const ACT_SA1_CODES = ['80101100101', '80101100102', '80101100103', '80101100221'];

  async function cleanUp() {
    const codes = [...SAL_CODES, '29494', ...SA1_CODES, ...ACT_SA1_CODES].map((c) => `'${c}'`).join(',');
    await db.exec(`
      DELETE FROM census.profile WHERE dataset = 'live' AND code IN (${codes});
      DELETE FROM census.boundary WHERE dataset = 'live' AND code IN (${codes});
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'demographics';
      DELETE FROM census.boundary WHERE dataset = '${REAL}';
      DELETE FROM public.dataset_source WHERE dataset = '${REAL}';`);
    t.runtime.catalog.invalidate();
  }

  /** A DataPack directory laid out as the national pack nests its files. */
  function pack(
    name: string,
    geography: 'SAL' | 'SA1',
    files: string[],
    nested = join(NESTED, geography, 'AUS'),
  ): string {
    const at = join(dir, name, nested);
    mkdirSync(at, { recursive: true });
    for (const file of files) copyFileSync(file, join(at, file.split('/').pop()!));
    return join(dir, name);
  }

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    dir = mkdtempSync(join(tmpdir(), 'landgraph-census-'));
    await cleanUp();
    const salTables = ['G02', 'G29', 'G35', 'G36', 'G37'].map((g) => join(SAL_SAMPLE, `2021Census_${g}_AUST_SAL.csv`));
    // G01: the NSW SALs' real rows (a state pack's file), the VIC and QLD ones from the fixture
    salPack = pack('sal', 'SAL', [...salTables, NSW_SAL_G01, join(G01, '2021Census_G01_AUST_SAL.csv')]);
    sa1Pack = pack('sa1', 'SA1', [
      join(SA1_SAMPLE, '2021Census_G02_AUST_SA1.csv'),
      join(G01, '2021Census_G01_AUST_SA1.csv'),
    ]);
    // the ACT SA1 pack as the state pack's zip unpacks it
    const actPack = pack(
      'act-sa1',
      'SA1',
      ['G01', 'G02', 'G29', 'G35', 'G36', 'G37'].map((g) => join(ACT_SA1_SAMPLE, `2021Census_${g}_ACT_SA1.csv`)),
      join('2021_GCP_SA1_for_ACT_short-header', '2021 Census GCP Statistical Area 1 for ACT'),
    );
    sal = await ingestCensus(db, { datapack: salPack, geography: 'SAL' });
    sa1 = await ingestCensus(db, { datapack: sa1Pack, geography: 'SA1' });
    actSa1 = await ingestCensus(db, { datapack: actPack, geography: 'SA1' });
    salBoundaries = await ingestCensusBoundaries(db, {
      file: join(BOUNDARIES, 'SAL_2021_AUST_fixture.geojson'),
      geography: 'SAL',
      snapshot: 'sal-2021-fixture',
    });
    await ingestCensusBoundaries(db, { file: join(BOUNDARIES, 'SA1_2021_AUST_fixture.geojson'), geography: 'SA1' });
    t.runtime.catalog.invalidate();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['locality.read'] });
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads every table of the pack and loads each SAL once, with the credit per state', () => {
    expect(sal).toMatchObject({
      dataset: 'live',
      geography: 'SAL',
      tables: ['G01', 'G02', 'G29', 'G35', 'G36', 'G37'],
      missingTables: [],
      read: 7 * 6,
      loaded: 7,
      states: ['NSW', 'QLD', 'VIC'],
      refused: [],
      credit: ABS_CREDIT,
    });
    expect(sa1).toMatchObject({
      geography: 'SA1',
      loaded: 3,
      tables: ['G01', 'G02'],
      missingTables: ['G29', 'G35', 'G36', 'G37'],
    });
    const summary = formatCensusSummary(sal);
    expect(summary).toContain('loaded 7 areas (NSW, QLD, VIC)');
    expect(summary).toContain('Australian Bureau of Statistics');
  });

  it('keeps the published figures: medians, tenure and dwellings as the sample rows give them', async () => {
    const g02 = sampleRows(join(SAL_SAMPLE, '2021Census_G02_AUST_SAL.csv')).get('SAL13167')!;
    const g37 = sampleRows(join(SAL_SAMPLE, '2021Census_G37_AUST_SAL.csv')).get('SAL13167')!;
    const g36 = sampleRows(join(SAL_SAMPLE, '2021Census_G36_AUST_SAL.csv')).get('SAL13167')!;
    const g35 = sampleRows(join(SAL_SAMPLE, '2021Census_G35_AUST_SAL.csv')).get('SAL13167')!;
    const [row] = await db.query<Record<string, unknown>>(
      `SELECT * FROM census.profile WHERE dataset = 'live' AND geography = 'SAL' AND code = '13167'`,
    );
    expect(row).toMatchObject({
      state: 'NSW',
      median_age: Number(g02.Median_age_persons),
      median_household_income_weekly: Number(g02.Median_tot_hhd_inc_weekly),
      median_rent_weekly: Number(g02.Median_rent_weekly),
      average_household_size: Number(g02.Average_household_size),
      tables: ['G01', 'G02', 'G29', 'G35', 'G36', 'G37'],
    });
    expect(row!.tenure).toEqual({
      owned_outright: Number(g37.O_OR_Total),
      owned_with_mortgage: Number(g37.O_MTG_Total),
      rented: Number(g37.R_Tot_Total),
      other: Number(g37.Oth_ten_type_Total),
      not_stated: Number(g37.Ten_type_NS_Total),
      total: Number(g37.Total_Total),
    });
    expect((row!.dwellings as Record<string, number>).flat_apartment).toBe(Number(g36.OPDs_Flt_apart_Tot_Dwgs));
    expect(row!.households).toMatchObject({
      lone_person: Number(g35.Num_Psns_UR_1_NonFamHhold),
      group: Number(g35.Total_NonFamHhold) - Number(g35.Num_Psns_UR_1_NonFamHhold),
    });
    // Aarons Pass has no renters: the DataPack's median rent of 0 is no figure
    const [aarons] = await db.query<{ median_rent_weekly: number | null; median_age: number }>(
      `SELECT median_rent_weekly, median_age FROM census.profile WHERE dataset = 'live' AND code = '10001'`,
    );
    expect(aarons).toEqual({ median_rent_weekly: null, median_age: 59 });
  });

  it('loads the real G01 rows of a state pack as published, perturbed totals and all', async () => {
    // the figures are read off the rows of data/samples/census-2021-gcp-nsw-sal
    const rows = await db.query<{
      code: string;
      population: number;
      males: number;
      females: number;
      age_groups: unknown;
    }>(
      `SELECT code, population, males, females, age_groups FROM census.profile
        WHERE dataset = 'live' AND geography = 'SAL' AND code IN ('10001', '13167', '13375') ORDER BY code`,
    );
    expect(rows.map((r) => [r.code, r.population, r.males, r.females])).toEqual([
      // Aarons Pass: 18 males and 12 females make 33 persons, as the ABS perturbs small cells
      ['10001', 33, 18, 12],
      ['13167', 30211, 15664, 14545],
      ['13375', 5418, 2588, 2833],
    ]);
    expect(rows[1]!.age_groups).toEqual({
      '0_4': 2198,
      '5_14': 2716,
      '15_19': 735,
      '20_24': 2625,
      '25_34': 9454,
      '35_44': 6468,
      '45_54': 2218,
      '55_64': 1805,
      '65_74': 1235,
      '75_84': 566,
      '85_over': 195,
    });
    expect(rows[0]!.age_groups).toMatchObject({
      '0_4': 4,
      '5_14': 0,
      '55_64': 8,
      '65_74': 5,
      '75_84': 5,
      '85_over': 0,
    });
  });

  it('loads a whole real ACT SA1 pack, each of its six tables as published', async () => {
    expect(actSa1).toMatchObject({
      geography: 'SA1',
      tables: ['G01', 'G02', 'G29', 'G35', 'G36', 'G37'],
      missingTables: [],
      read: 4 * 6,
      loaded: 4,
      states: ['ACT'],
      refused: [],
    });
    // the figures are read off the rows of data/samples/census-2021-gcp-act-sa1
    const [row] = await db.query<Record<string, unknown>>(
      `SELECT * FROM census.profile WHERE dataset = 'live' AND geography = 'SA1' AND code = '80101100103'`,
    );
    expect(row).toMatchObject({
      state: 'ACT',
      population: 418,
      males: 189,
      females: 230,
      median_age: 35,
      median_mortgage_monthly: 2442,
      median_personal_income_weekly: 1164,
      median_rent_weekly: 485,
      median_family_income_weekly: 2963,
      average_persons_per_bedroom: 0.9,
      median_household_income_weekly: 2937,
      average_household_size: 3.1,
      tables: ['G01', 'G02', 'G29', 'G35', 'G36', 'G37'],
    });
    expect(row!.age_groups).toEqual({
      '0_4': 27,
      '5_14': 69,
      '15_19': 16,
      '20_24': 34,
      '25_34': 61,
      '35_44': 67,
      '45_54': 48,
      '55_64': 40,
      '65_74': 27,
      '75_84': 22,
      '85_over': 6,
    });
    // G29: 51 couple families, 39 of them without children
    expect(row!.families).toEqual({
      couple_no_children: 39,
      couple_with_children: 12,
      one_parent: 22,
      other: 0,
      total: 106,
    });
    // G35: 26 non-family households, 16 of them one person
    expect(row!.households).toEqual({ family: 107, lone_person: 16, group: 10, total: 133 });
    expect(row!.dwellings).toEqual({
      separate_house: 73,
      semi_detached: 43,
      flat_apartment: 16,
      other: 0,
      not_stated: 0,
      occupied: 133,
      unoccupied: 17,
      total: 147,
    });
    expect(row!.tenure).toEqual({
      owned_outright: 35,
      owned_with_mortgage: 46,
      rented: 42,
      other: 0,
      not_stated: 3,
      total: 133,
    });
    // eight persons and no occupied private dwelling: the ABS publishes the medians it could not
    // compute as 0, and they load as no figure; the counts of 0 stay 0
    const [empty] = await db.query<Record<string, unknown>>(
      `SELECT population, median_age, median_personal_income_weekly, median_rent_weekly,
              median_household_income_weekly, average_household_size, tenure
         FROM census.profile WHERE dataset = 'live' AND geography = 'SA1' AND code = '80101100221'`,
    );
    expect(empty).toEqual({
      population: 8,
      median_age: 76,
      median_personal_income_weekly: 1149,
      median_rent_weekly: null,
      median_household_income_weekly: null,
      average_household_size: null,
      tenure: { owned_outright: 0, owned_with_mortgage: 0, rented: 0, other: 0, not_stated: 0, total: 0 },
    });
  });

  it('is idempotent: a rerun replaces the rows it loaded', async () => {
    const count = async () =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM census.profile WHERE dataset = 'live'`))[0]!.n;
    const before = await count();
    await ingestCensus(db, { datapack: salPack, geography: 'SAL' });
    expect(await count()).toBe(before);
  });

  it('refuses a pack whose table lacks a column, naming the file and the column, before writing', async () => {
    const broken = pack('broken', 'SAL', [join(G01, '2021Census_G01_AUST_SAL.csv')]);
    const g02 = readFileSync(join(SAL_SAMPLE, '2021Census_G02_AUST_SAL.csv'), 'utf8').replace(
      'Median_rent_weekly',
      'Median_rent',
    );
    writeFileSync(join(broken, NESTED, 'SAL', 'AUS', '2021Census_G02_AUST_SAL.csv'), g02);
    await expect(prepareCensusIngest({ datapack: broken, geography: 'SAL' })).rejects.toThrow(
      /2021Census_G02_AUST_SAL\.csv is missing column MEDIAN_RENT_WEEKLY/,
    );
    const noG01 = pack('no-g01', 'SAL', [join(SAL_SAMPLE, '2021Census_G02_AUST_SAL.csv')]);
    await expect(prepareCensusIngest({ datapack: noG01, geography: 'SAL' })).rejects.toThrow(
      /no 2021Census_G01_AUST_SAL\.csv: the G01 table is required/,
    );
    await expect(prepareCensusIngest({ datapack: salPack, geography: 'SA2' })).rejects.toThrow(/--geography SA2/);
  });

  it('reads the codes as the boundary files write them', () => {
    expect(areaCode('SAL', 'SAL20924')).toBe('20924');
    expect(areaCode('SAL', '20924')).toBe('20924');
    expect(areaCode('SAL', 'SAL2092')).toBeNull();
    expect(areaCode('SA1', '20601110601')).toBe('20601110601');
    expect(areaCode('SA1', 'SAL20924')).toBeNull();
  });

  it('loads the boundaries, leaving out the areas without geometry', () => {
    expect(salBoundaries).toMatchObject({
      geography: 'SAL',
      read: 8,
      loaded: 7,
      states: ['NSW', 'QLD', 'VIC'],
      snapshot: 'sal-2021-fixture',
    });
    expect(salBoundaries.refused.map((r) => [r.key, r.reason])).toEqual([['29494', 'it has no geometry']]);
  });

  it('loads real ABS SAL polygons: two Melbourne suburbs as the boundary file has them', async () => {
    const real = await ingestCensusBoundaries(db, { file: REAL_SAL_BOUNDARIES, geography: 'SAL', dataset: REAL });
    expect(real).toMatchObject({
      dataset: REAL,
      geography: 'SAL',
      read: 2,
      loaded: 2,
      states: ['VIC'],
      refused: [],
      repaired: [],
      file: { format: expect.stringMatching(/geojson/i) },
      credit: ABS_CREDIT,
    });
    // names and AREASQKM21 as the file's properties give them; where a point falls, worked out
    // by hand from the file's coordinates (Fitzroy spans 144.973-144.985 E, Richmond 144.989-145.017 E)
    const rows = await db.query<{
      code: string;
      name: string;
      area_km2: number;
      fitzroy: boolean;
      richmond: boolean;
      km2: number;
    }>(
      `SELECT code, name, area_km2,
              ST_Contains(geom, ST_SetSRID(ST_MakePoint(144.98, -37.80), 4326)) AS fitzroy,
              ST_Contains(geom, ST_SetSRID(ST_MakePoint(145.0, -37.82), 4326)) AS richmond,
              ST_Area(geom::geography) / 1e6 AS km2
         FROM census.boundary WHERE dataset = '${REAL}' AND geography = 'SAL' ORDER BY code`,
    );
    expect(
      rows.map(({ code, name, area_km2, fitzroy, richmond }) => ({ code, name, area_km2, fitzroy, richmond })),
    ).toEqual([
      { code: '20924', name: 'Fitzroy (Vic.)', area_km2: 1.4071, fitzroy: true, richmond: false },
      { code: '22170', name: 'Richmond (Vic.)', area_km2: 4.4307, fitzroy: false, richmond: true },
    ]);
    // the outlines are the suburbs' own, not squares: their area is the ABS's figure to within 1%
    for (const row of rows) expect(Math.abs(row.km2 / row.area_km2 - 1)).toBeLessThan(0.01);
  });

  it('answers a live key with the loaded SA1 and SAL at a point in Fitzroy', async () => {
    const res = await get('/api/locality/demographics', { lat: '-37.799', lng: '144.973', state: 'VIC' });
    expect(res.status).toBe(200);
    const g02 = sampleRows(join(SA1_SAMPLE, '2021Census_G02_AUST_SA1.csv')).get('20601110601')!;
    expect(res.body).toMatchObject({
      status: 'ok',
      attribution: ABS_CREDIT.attribution,
      license: 'CC BY 4.0',
      data: {
        sal: { code: '20924', name: 'Fitzroy (Vic.)', tables: ['G01', 'G02', 'G29', 'G35', 'G36', 'G37'] },
        sa1: {
          code: '20601110601',
          median_age: Number(g02.Median_age_persons),
          median_household_income_weekly: Number(g02.Median_tot_hhd_inc_weekly),
          tenure: null,
        },
      },
    });
    expect(res.headers['x-service-attribution']).toBe(ABS_CREDIT.attribution);
  });

  it('tells the two Richmonds apart by state, the ABS suffix optional', async () => {
    const vic = await get('/api/locality/demographics/suburb', { state: 'VIC', suburb: 'Richmond' });
    expect(vic.status).toBe(200);
    expect(vic.body.data).toMatchObject({ code: '22170', name: 'Richmond (Vic.)' });
    const nsw = await get('/api/locality/demographics/suburb', { state: 'NSW', suburb: 'Richmond (NSW)' });
    expect(nsw.body.data).toMatchObject({ code: '13375', name: 'Richmond (NSW)' });
    expect(nsw.body.data.tenure.owner_occupied_pct).toBeGreaterThan(0);
    expect((await get('/api/locality/demographics/suburb', { state: 'QLD', suburb: 'Richmond' })).status).toBe(404);
  });

  it('exits 2 with the usage for a command line without --datapack', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runIngestCensusCommand([])).toBe(2);
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/--datapack/);
    } finally {
      stderr.mockRestore();
    }
  });
});
