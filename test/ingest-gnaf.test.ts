import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../core/db.ts';
import { formatIngestSummary } from '../cli/ingest/cli.ts';
import { type GnafIngestOptions, type GnafIngestResult, IngestError, ingestGnaf } from '../cli/ingest/gnaf.ts';
import { Progress } from '../cli/ingest/progress.ts';
import { openPsv, PsvError } from '../cli/ingest/psv.ts';
import { testRuntime } from './support/runtime.ts';

const sample = (path: string) => fileURLToPath(new URL(`../data/samples/${path}`, import.meta.url));
const ORACLE = JSON.parse(
  readFileSync(sample('gnaf-mapping-oracle-addressr/gnaf_record_applethorpe_qld.json'), 'utf8'),
) as {
  ADDRESS_DETAIL: Record<string, string>;
  STREET_LOCALITY: Record<string, string>;
  LOCALITY: Record<string, string>;
  ADDRESS_DEFAULT_GEOCODE_partial: Array<Record<string, string>>;
  authority_codes_used: Record<string, Array<Record<string, string>>>;
  expected_mapped_address: { sla: string };
};
const CHRISTMAS_ISLAND = JSON.parse(
  readFileSync(sample('gnaf-mapping-oracle-addressr/ot_christmas_island_expected.json'), 'utf8'),
) as { search_results_sla_pid: Array<{ pid: string; sla: string }> };

type Rows = Array<Record<string, string>>;

/** A PSV file as G-NAF publishes it: header row, pipes, CRLF, blank for null. */
function psv(columns: readonly string[], rows: Rows): string {
  return (
    [columns, ...rows.map((row) => columns.map((c) => row[c] ?? ''))].map((r) => r.join('|')).join('\r\n') + '\r\n'
  );
}

const DETAIL_COLUMNS = Object.keys(ORACLE.ADDRESS_DETAIL);
const STREET_COLUMNS = Object.keys(ORACLE.STREET_LOCALITY);
const LOCALITY_COLUMNS = Object.keys(ORACLE.LOCALITY);
const COLUMNS = {
  STATE: ['STATE_PID', 'DATE_CREATED', 'DATE_RETIRED', 'STATE_NAME', 'STATE_ABBREVIATION'],
  LOCALITY: LOCALITY_COLUMNS,
  LOCALITY_ALIAS: [
    'LOCALITY_ALIAS_PID',
    'DATE_CREATED',
    'DATE_RETIRED',
    'LOCALITY_PID',
    'NAME',
    'POSTCODE',
    'ALIAS_TYPE_CODE',
    'STATE_PID',
  ],
  STREET_LOCALITY: STREET_COLUMNS,
  STREET_LOCALITY_ALIAS: [
    'STREET_LOCALITY_ALIAS_PID',
    'DATE_CREATED',
    'DATE_RETIRED',
    'STREET_LOCALITY_PID',
    'STREET_NAME',
    'STREET_TYPE_CODE',
    'STREET_SUFFIX_CODE',
    'ALIAS_TYPE_CODE',
  ],
  ADDRESS_DETAIL: DETAIL_COLUMNS,
  ADDRESS_DEFAULT_GEOCODE: [
    'ADDRESS_DEFAULT_GEOCODE_PID',
    'DATE_CREATED',
    'DATE_RETIRED',
    'ADDRESS_DETAIL_PID',
    'GEOCODE_TYPE_CODE',
    'LONGITUDE',
    'LATITUDE',
  ],
  ADDRESS_ALIAS: [
    'ADDRESS_ALIAS_PID',
    'DATE_CREATED',
    'DATE_RETIRED',
    'PRINCIPAL_PID',
    'ALIAS_PID',
    'ALIAS_TYPE_CODE',
    'ALIAS_COMMENT',
  ],
} as const;
type Table = keyof typeof COLUMNS;

// An ADDRESS_DETAIL row with every column blank but those given.
const detail = (values: Record<string, string>): Record<string, string> => ({
  ...Object.fromEntries(DETAIL_COLUMNS.map((c) => [c, ''])),
  ALIAS_PRINCIPAL: 'P',
  DATE_CREATED: '2012-03-01',
  ...values,
});

/** The oracle's real Applethorpe record, a retired address, and one geocoded only to its street. */
const QLD: Record<Table, Rows> = {
  STATE: [{ STATE_PID: '3', DATE_CREATED: '2011-08-31', STATE_NAME: 'QUEENSLAND', STATE_ABBREVIATION: 'QLD' }],
  LOCALITY: [
    ORACLE.LOCALITY,
    { ...ORACLE.LOCALITY, LOCALITY_PID: 'QLD9999', LOCALITY_NAME: 'GONE', DATE_RETIRED: '2019-01-01' },
  ],
  LOCALITY_ALIAS: [{ LOCALITY_ALIAS_PID: 'QLD69A', LOCALITY_PID: 'QLD69', NAME: 'APPLETHORP', ALIAS_TYPE_CODE: 'SR' }],
  STREET_LOCALITY: [ORACLE.STREET_LOCALITY],
  STREET_LOCALITY_ALIAS: [
    {
      STREET_LOCALITY_ALIAS_PID: '900',
      STREET_LOCALITY_PID: 'QLD180101',
      STREET_NAME: 'AIRPORT',
      STREET_TYPE_CODE: 'ROAD',
      ALIAS_TYPE_CODE: 'ALT',
    },
  ],
  ADDRESS_DETAIL: [
    ORACLE.ADDRESS_DETAIL,
    detail({
      ADDRESS_DETAIL_PID: 'GAQLD900000001',
      NUMBER_FIRST: '5',
      STREET_LOCALITY_PID: 'QLD180101',
      LOCALITY_PID: 'QLD69',
      POSTCODE: '4378',
      DATE_RETIRED: '2020-02-02',
    }),
    detail({
      ADDRESS_DETAIL_PID: 'GAQLD900000002',
      NUMBER_FIRST: '7',
      STREET_LOCALITY_PID: 'QLD180101',
      LOCALITY_PID: 'QLD69',
      POSTCODE: '4378',
    }),
  ],
  ADDRESS_DEFAULT_GEOCODE: [
    ...ORACLE.ADDRESS_DEFAULT_GEOCODE_partial.map((g) => ({
      ...g,
      ADDRESS_DEFAULT_GEOCODE_PID: '14000001',
      DATE_CREATED: '2018-08-03',
    })),
    {
      ADDRESS_DEFAULT_GEOCODE_PID: '14000002',
      ADDRESS_DETAIL_PID: 'GAQLD900000002',
      GEOCODE_TYPE_CODE: 'STL',
      LONGITUDE: '151.9816',
      LATITUDE: '-28.6221',
    },
  ],
  ADDRESS_ALIAS: [
    {
      ADDRESS_ALIAS_PID: 'QLDAA1',
      PRINCIPAL_PID: 'GAQLD163157353',
      ALIAS_PID: 'GAQLD900000002',
      ALIAS_TYPE_CODE: 'SYN',
    },
  ],
};

/** The oracle's Christmas Island addresses, rebuilt as rows of their parts. */
const OT_NUMBERS: Record<string, Record<string, string>> = {
  GAOT_717321170: { STREET_LOCALITY_PID: 'OT_GAZE', NUMBER_FIRST: '101' },
  GAOT_717321171: { STREET_LOCALITY_PID: 'OT_GAZE', NUMBER_FIRST: '103', NUMBER_LAST: '107' },
  GAOT_717321172: { STREET_LOCALITY_PID: 'OT_GAZE', NUMBER_FIRST: '109' },
  GAOT_717321355: { STREET_LOCALITY_PID: 'OT_MURRAY', NUMBER_FIRST: '19' },
  GAOT_717321356: { STREET_LOCALITY_PID: 'OT_MURRAY', NUMBER_FIRST: '1' },
  GAOT_717882967: { STREET_LOCALITY_PID: 'OT_MURRAY', NUMBER_FIRST: '19', FLAT_TYPE_CODE: 'UNIT', FLAT_NUMBER: '1' },
  GAOT_718446688: { STREET_LOCALITY_PID: 'OT_GAZE', NUMBER_FIRST: '106' },
  GAOT_718447105: { STREET_LOCALITY_PID: 'OT_GAZE', NUMBER_FIRST: '16' },
};
const OT: Record<Table, Rows> = {
  STATE: [{ STATE_PID: '9', DATE_CREATED: '2011-08-31', STATE_NAME: 'OTHER TERRITORIES', STATE_ABBREVIATION: 'OT' }],
  LOCALITY: [
    {
      LOCALITY_PID: 'OT_CI',
      LOCALITY_NAME: 'CHRISTMAS ISLAND',
      PRIMARY_POSTCODE: '6798',
      LOCALITY_CLASS_CODE: 'U',
      STATE_PID: '9',
    },
  ],
  LOCALITY_ALIAS: [],
  STREET_LOCALITY: [
    {
      STREET_LOCALITY_PID: 'OT_MURRAY',
      STREET_CLASS_CODE: 'C',
      STREET_NAME: 'MURRAY',
      STREET_TYPE_CODE: 'ROAD',
      LOCALITY_PID: 'OT_CI',
    },
    {
      STREET_LOCALITY_PID: 'OT_GAZE',
      STREET_CLASS_CODE: 'C',
      STREET_NAME: 'GAZE',
      STREET_TYPE_CODE: 'ROAD',
      LOCALITY_PID: 'OT_CI',
    },
  ],
  STREET_LOCALITY_ALIAS: [],
  ADDRESS_DETAIL: Object.entries(OT_NUMBERS).map(([pid, parts]) =>
    detail({ ADDRESS_DETAIL_PID: pid, LOCALITY_PID: 'OT_CI', POSTCODE: '6798', CONFIDENCE: '2', ...parts }),
  ),
  ADDRESS_DEFAULT_GEOCODE: Object.keys(OT_NUMBERS).map((pid, i) => ({
    ADDRESS_DEFAULT_GEOCODE_PID: `15${String(i).padStart(6, '0')}`,
    ADDRESS_DETAIL_PID: pid,
    GEOCODE_TYPE_CODE: 'PC',
    LONGITUDE: pid === 'GAOT_717882967' ? '105.67950505' : String(105.67 + i / 1000),
    LATITUDE: pid === 'GAOT_717882967' ? '-10.42554715' : String(-10.42 - i / 1000),
  })),
  ADDRESS_ALIAS: [],
};

/** Writes a release in the published layout below `root`; `edit` may change a table's columns or rows. */
function writeRelease(
  root: string,
  edit: (table: Table, columns: string[], rows: Rows) => [string[], Rows] = (_t, c, r) => [c, r],
) {
  const release = join(root, 'G-NAF', 'G-NAF TEST 2026');
  mkdirSync(join(release, 'Standard'), { recursive: true });
  mkdirSync(join(release, 'Authority Code'), { recursive: true });
  for (const [state, tables] of [
    ['QLD', QLD],
    ['OT', OT],
  ] as const) {
    for (const table of Object.keys(COLUMNS) as Table[]) {
      const [columns, rows] = edit(table, [...COLUMNS[table]], tables[table]);
      writeFileSync(join(release, 'Standard', `${state}_${table}_psv.psv`), psv(columns, rows));
    }
  }
  copyFileSync(
    sample('gnaf-authority-street-type/Authority_Code_STREET_TYPE_AUT_psv.psv'),
    join(release, 'Authority Code', 'Authority_Code_STREET_TYPE_AUT_psv.psv'),
  );
  const used = { ...ORACLE.authority_codes_used };
  delete used.Authority_Code_STREET_TYPE_AUT_psv;
  used.Authority_Code_FLAT_TYPE_AUT_psv = [{ CODE: 'UNIT', NAME: 'UNIT', DESCRIPTION: 'UNIT' }];
  for (const [name, rows] of Object.entries(used)) {
    writeFileSync(join(release, 'Authority Code', `${name}.psv`), psv(['CODE', 'NAME', 'DESCRIPTION'], rows));
  }
  return release;
}

const DATASET = 'gnaf_test';
const DATASETS = [DATASET, 'gnaf_test_cli', 'gnaf_test_bad'];
const ADDRESS_TABLES = [
  'state',
  'locality',
  'locality_alias',
  'street_locality',
  'street_locality_alias',
  'address_detail',
  'address_default_geocode',
  'address_alias',
  'ingest_progress',
];

describe('G-NAF ingest', () => {
  let db: Database;
  let root: string;
  let folder: string;
  let first: GnafIngestResult;
  const log: string[] = [];
  const progress = new Progress({ write: (text: string) => log.push(text) }, { everyMs: 0 });
  const ingest = (options: Partial<GnafIngestOptions> = {}) =>
    ingestGnaf(db, { folder: root, dataset: DATASET, progress, batchRows: 2, ...options });
  let authoritySnapshot: Array<Record<string, string | null>>;

  const count = async (table: string, dataset = DATASET) => {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE dataset = $1`, [
      dataset,
    ]);
    return row?.n ?? -1;
  };
  const counts = async (dataset = DATASET): Promise<Record<string, number>> =>
    Object.fromEntries(
      await Promise.all(
        ADDRESS_TABLES.map(async (t): Promise<[string, number]> => [t, await count(`address.${t}`, dataset)]),
      ),
    );
  const address = async (pid: string, dataset = DATASET) => {
    const [row] = await db.query<{
      formatted_address: string;
      search_key: string;
      geocode_type: string;
      lat: number;
      lng: number;
      parcel_pfi: string | null;
      state: string;
      legal_parcel_id: string;
      level_geocoded_code: number;
    }>(
      `SELECT formatted_address, search_key, geocode_type, ST_Y(geom) AS lat, ST_X(geom) AS lng, parcel_pfi, state,
        legal_parcel_id, level_geocoded_code
       FROM address.address_detail WHERE dataset = $1 AND gnaf_pid = $2`,
      [dataset, pid],
    );
    return row;
  };
  const cleanUp = async () => {
    for (const dataset of DATASETS) {
      for (const table of ADDRESS_TABLES) await db.query(`DELETE FROM address.${table} WHERE dataset = $1`, [dataset]);
      await db.query('DELETE FROM public.dataset_source WHERE dataset = $1', [dataset]);
      await db.query('DELETE FROM cadastre.parcel WHERE dataset = $1', [dataset]);
    }
  };

  beforeAll(async () => {
    ({ db } = (await testRuntime()).runtime);
    // Authority codes are national: put back whatever the shared database held before.
    authoritySnapshot = await db.query('SELECT authority, code, name, description FROM address.authority_code');
    await cleanUp();
    root = mkdtempSync(join(tmpdir(), 'landgraph-gnaf-'));
    folder = writeRelease(root);
    // The parcel the Applethorpe lot stands on (its geocode is 151.98157112, -28.62207489).
    await db.query(
      `INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, area_m2, geom)
       VALUES ($1, 'QLD', 'QLDPARCEL16', '16SP210455', 1000,
         ST_Multi(ST_MakeEnvelope(151.9810, -28.6230, 151.9820, -28.6210, 4326)))`,
      [DATASET],
    );
    first = await ingest();
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    await db.query('DELETE FROM address.authority_code');
    for (const row of authoritySnapshot) {
      await db.query(
        'INSERT INTO address.authority_code (authority, code, name, description) VALUES ($1, $2, $3, $4)',
        [row.authority, row.code, row.name, row.description],
      );
    }
    rmSync(root, { recursive: true, force: true });
  });

  it("writes the oracle record's single-line address and search key", async () => {
    const row = await address('GAQLD163157353');
    expect(row?.formatted_address).toBe('LOT 16 AERODROME RD, APPLETHORPE QLD 4378');
    expect(row?.formatted_address).toBe(ORACLE.expected_mapped_address.sla);
    expect(row?.search_key).toBe('LOT 16 AERODROME ROAD APPLETHORPE QLD 4378');
    expect(row?.legal_parcel_id).toBe('16/SP210455');
    expect(row?.level_geocoded_code).toBe(7);
    expect(row?.state).toBe('QLD');
  });

  it("writes every Christmas Island address as the oracle's single line", async () => {
    for (const { pid, sla } of CHRISTMAS_ISLAND.search_results_sla_pid) {
      expect((await address(pid))?.formatted_address).toBe(sla);
    }
    expect((await address('GAOT_717882967'))?.formatted_address).toBe('UNIT 1, 19 MURRAY RD, CHRISTMAS ISLAND OT 6798');
  });

  it('copies the default geocode beside the address', async () => {
    const row = await address('GAQLD163157353');
    expect(row?.geocode_type).toBe('PC');
    expect(Number(row?.lat)).toBeCloseTo(-28.62207489, 8);
    expect(Number(row?.lng)).toBeCloseTo(151.98157112, 8);
    expect(Number((await address('GAOT_717882967'))?.lat)).toBeCloseTo(-10.42554715, 8);
  });

  it('links property geocodes to the parcel holding them, never street geocodes', async () => {
    expect((await address('GAQLD163157353'))?.parcel_pfi).toBe('QLDPARCEL16');
    const street = await address('GAQLD900000002');
    expect(street?.geocode_type).toBe('STL');
    expect(street?.parcel_pfi).toBeNull();
    expect(first.states.find((s) => s.state === 'QLD')).toMatchObject({ addresses: 2, linked: 1 });
  });

  it('loads the 276 real street types and the other authority codes', async () => {
    const rows = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM address.authority_code WHERE authority = 'STREET_TYPE'`,
    );
    expect(rows[0]?.n).toBe(276);
    const [road] = await db.query<{ name: string }>(
      `SELECT name FROM address.authority_code WHERE authority = 'STREET_TYPE' AND code = 'ROAD'`,
    );
    expect(road?.name).toBe('RD');
    expect(first.files.find((f) => f.table === 'STREET_TYPE')?.loaded).toBe(276);
  });

  it('skips retired rows and counts them', async () => {
    expect(await address('GAQLD900000001')).toBeUndefined();
    const qldDetail = first.files.find((f) => f.state === 'QLD' && f.table === 'ADDRESS_DETAIL');
    expect(qldDetail).toMatchObject({ read: 3, loaded: 2, retired: 1, unresolved: 0, skipped: false });
    expect(first.files.find((f) => f.state === 'QLD' && f.table === 'LOCALITY')).toMatchObject({ read: 2, retired: 1 });
    expect(await count('address.locality')).toBe(2);
  });

  it('fills a blank locality postcode from its addresses and keeps a primary one', async () => {
    const rows = await db.query<{ locality_pid: string; postcode: string; state: string; locality_class_code: string }>(
      'SELECT locality_pid, postcode, state, locality_class_code FROM address.locality WHERE dataset = $1 ORDER BY 1',
      [DATASET],
    );
    expect(rows).toEqual([
      { locality_pid: 'OT_CI', postcode: '6798', state: 'OT', locality_class_code: 'U' },
      { locality_pid: 'QLD69', postcode: '4378', state: 'QLD', locality_class_code: 'G' },
    ]);
  });

  it('loads states, aliases and default geocodes of each state', async () => {
    expect(await counts()).toMatchObject({
      state: 2,
      locality_alias: 1,
      street_locality: 3,
      street_locality_alias: 1,
      address_detail: 10,
      address_default_geocode: 10,
      address_alias: 1,
    });
  });

  it('credits G-NAF in dataset_source for each state loaded', async () => {
    const sources = await db.query<{ state: string; attribution: string; license: string; snapshot_id: string }>(
      `SELECT state, attribution, license, snapshot_id FROM public.dataset_source
       WHERE dataset = $1 AND layer = 'address' ORDER BY state`,
      [DATASET],
    );
    expect(sources.map((s) => s.state)).toEqual(['OT', 'QLD']);
    for (const s of sources) {
      expect(s.attribution).toBe(
        'Incorporates or developed using G-NAF © Geoscape Australia licensed by the Commonwealth of Australia under the Open Geo-coded National Address File (G-NAF) End User Licence Agreement.',
      );
      expect(s.license).toBe('Open G-NAF EULA (CC BY 4.0 based)');
      expect(s.snapshot_id).toBe('g-naf-test-2026');
    }
  });

  it('reports progress and a summary of rows read, loaded and retired per state and table', () => {
    const text = log.join('');
    expect(text).toMatch(/^QLD ADDRESS_DETAIL {2}3 rows {2}[\d,]+ rows\/s {2}[\d.]+ s {2}2 loaded, 1 retired$/m);
    expect(text).toMatch(/^OT addresses linked to parcels {2}[\d.]+ s$/m);
    const summary = formatIngestSummary(first);
    expect(summary).toMatch(/^G-NAF release g-naf-test-2026 into dataset 'gnaf_test' in [\d.]+ s$/m);
    expect(summary).toMatch(/^QLD +ADDRESS_DETAIL +3 +2 +1 +0 +[\d.]+ s$/m);
    expect(summary).toMatch(/^QLD: 1 of 2 addresses linked to parcels \(50\.0%\)$/m);
  });

  it('passes over completed files on a rerun and changes nothing', async () => {
    const before = await counts();
    const again = await ingest();
    expect(again.files.every((f) => f.skipped)).toBe(true);
    expect(again.states.every((s) => s.postStepsMs === null)).toBe(true);
    expect(await counts()).toEqual(before);
    expect(formatIngestSummary(again)).toMatch(/^QLD +ADDRESS_DETAIL +done earlier$/m);
  });

  it('reloads everything with force, idempotently', async () => {
    const before = await counts();
    await db.query(`UPDATE address.address_detail SET formatted_address = 'stale' WHERE dataset = $1`, [DATASET]);
    const forced = await ingest({ force: true });
    expect(forced.files.some((f) => f.skipped)).toBe(false);
    expect(await counts()).toEqual(before);
    expect((await address('GAQLD163157353'))?.formatted_address).toBe('LOT 16 AERODROME RD, APPLETHORPE QLD 4378');
    expect((await address('GAQLD163157353'))?.parcel_pfi).toBe('QLDPARCEL16');
  });

  it('fails on a missing column before writing anything', async () => {
    const badRoot = mkdtempSync(join(tmpdir(), 'landgraph-gnaf-bad-'));
    try {
      writeRelease(badRoot, (table, columns, rows) =>
        table === 'ADDRESS_DETAIL' ? [columns.filter((c) => c !== 'FLAT_NUMBER'), rows] : [columns, rows],
      );
      const failed = ingestGnaf(db, { folder: badRoot, dataset: 'gnaf_test_bad', progress });
      await expect(failed).rejects.toThrow(PsvError);
      await expect(failed).rejects.toThrow(
        /^QLD_ADDRESS_DETAIL_psv\.psv is missing column FLAT_NUMBER \(its header is "/,
      );
      expect(Object.values(await counts('gnaf_test_bad')).every((n) => n === 0)).toBe(true);
    } finally {
      rmSync(badRoot, { recursive: true, force: true });
    }
  });

  it('refuses a default geocode without a longitude or latitude in range, naming its file, line and address; a corrected rerun completes', async () => {
    const located = async () =>
      Number(
        (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM address.address_detail WHERE dataset = 'gnaf_test_bad' AND geom IS NOT NULL`,
          )
        )[0]!.n,
      );
    const badRoot = mkdtempSync(join(tmpdir(), 'landgraph-gnaf-range-'));
    try {
      for (const [column, value] of [
        ['LONGITUDE', '251.9816'],
        ['LATITUDE', 'NaN'],
        ['LATITUDE', ''],
      ] as const) {
        writeRelease(badRoot, (table, columns, rows) =>
          table === 'ADDRESS_DEFAULT_GEOCODE'
            ? [columns, rows.map((row, n) => (n === 1 ? { ...row, [column]: value } : row))]
            : [columns, rows],
        );
        const failed = ingestGnaf(db, { folder: badRoot, dataset: 'gnaf_test_bad', progress, force: true });
        await expect(failed, `${column} ${value}`).rejects.toThrow(IngestError);
        await expect(failed, `${column} ${value}`).rejects.toThrow(
          new RegExp(
            `^QLD_ADDRESS_DEFAULT_GEOCODE_psv\\.psv line 3: ${column} "${value}" of GAQLD900000002 is not a number from`,
          ),
        );
        // the state's geocodes never reached its addresses
        expect(await located()).toBe(0);
      }
      writeRelease(badRoot);
      await ingestGnaf(db, { folder: badRoot, dataset: 'gnaf_test_bad', progress });
      expect(await located()).toBeGreaterThan(0);
    } finally {
      rmSync(badRoot, { recursive: true, force: true });
    }
  });

  it('refuses a folder without G-NAF files, an unknown or absent state, and the sandbox dataset', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'landgraph-gnaf-empty-'));
    try {
      await expect(ingestGnaf(db, { folder: empty, dataset: 'gnaf_test_bad', progress })).rejects.toThrow(
        /^no G-NAF files below .*: expected Standard\/<STATE>_ADDRESS_DETAIL_psv\.psv/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    await expect(ingest({ states: ['VIC'] })).rejects.toThrow(/^no G-NAF files for VIC below /);
    await expect(ingest({ dataset: 'sandbox' })).rejects.toThrow(IngestError);
  });

  it(
    'runs as `landgraph ingest gnaf` and exits non-zero with a message on bad input',
    { timeout: 120_000 },
    async () => {
      const run = promisify(execFile);
      const bin = fileURLToPath(new URL('../bin/landgraph.js', import.meta.url));
      const env = { ...process.env, DATABASE_URL: db.url, LANDGRAPH_LOG_LEVEL: 'warn' };
      const { stdout, stderr } = await run(
        process.execPath,
        [bin, 'ingest', 'gnaf', folder, '--states', 'OT', '--dataset', 'gnaf_test_cli'],
        { env },
      );
      expect(stdout).toMatch(/^OT: 0 of 8 addresses linked to parcels \(0\.0%\)$/m);
      expect(stderr).toMatch(/^OT ADDRESS_DETAIL {2}8 rows/m);
      expect((await address('GAOT_717882967', 'gnaf_test_cli'))?.formatted_address).toBe(
        'UNIT 1, 19 MURRAY RD, CHRISTMAS ISLAND OT 6798',
      );
      const bad = run(process.execPath, [bin, 'ingest', 'gnaf', folder, '--states', 'XX'], { env });
      await expect(bad).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/unknown state "XX": G-NAF's are NSW, VIC, QLD, SA, WA, TAS, NT, ACT, OT/),
      });
    },
  );
});

describe('PSV reader', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'landgraph-psv-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const read = async <C extends string>(path: string, columns: readonly C[], optional: readonly string[] = []) => {
    const records = [];
    for await (const record of await openPsv(path, columns, optional)) records.push(record);
    return records;
  };

  it('reads CRLF and LF lines by header name, a blank field as null, whatever the column order', async () => {
    const crlf = file('crlf.psv', '\uFEFFB|A|C\r\n2||x\r\n|1|\r\n');
    const lf = file('lf.psv', 'A|C|B\n1|x|2\n\n3||');
    expect(await read(crlf, ['A', 'B'])).toEqual([
      { A: null, B: '2' },
      { A: '1', B: null },
    ]);
    expect(await read(lf, ['A', 'B'], ['D'])).toEqual([
      { A: '1', B: '2', D: null },
      { A: '3', B: null, D: null },
    ]);
  });

  it('names the missing columns and the line with the wrong number of fields', async () => {
    const path = file('short.psv', 'A|B\r\n1|2\r\n3\r\n');
    await expect(openPsv(path, ['A', 'C', 'D'])).rejects.toThrow(
      'short.psv is missing columns C, D (its header is "A|B")',
    );
    await expect(read(path, ['A'])).rejects.toThrow('short.psv line 3 has 1 fields where its header has 2');
    await expect(openPsv(file('empty.psv', ''), ['A'])).rejects.toThrow(PsvError);
  });

  it('streams: the first record arrives with a fraction of a large file read', async () => {
    const path = file('large.psv', `A|B\r\nx|y\r\n${`${'a'.repeat(58)}|b\r\n`.repeat(200_000)}`);
    const psvFile = await openPsv(path, ['A']);
    for await (const record of psvFile) {
      expect(record.A).toBe('x');
      break;
    }
    expect(psvFile.size).toBeGreaterThan(10_000_000);
    expect(psvFile.bytesRead()).toBeLessThan(psvFile.size / 4);
  });
});

describe('ingest progress', () => {
  it('redraws one line in place on a terminal and writes plain lines to a log', () => {
    let clock = 0;
    const tty: string[] = [];
    const onTerminal = new Progress({ write: (t: string) => tty.push(t), isTTY: true }, { now: () => clock }).task(
      'VIC ADDRESS_DETAIL',
    );
    const plain: string[] = [];
    const inLog = new Progress({ write: (t: string) => plain.push(t) }, { now: () => clock, everyMs: 5_000 }).task(
      'VIC ADDRESS_DETAIL',
    );
    for (let second = 1; second <= 10; second++) {
      clock = second * 1000;
      onTerminal.update(second * 1000, second / 10);
      inLog.update(second * 1000, second / 10);
    }
    onTerminal.done(10_000);
    inLog.done(10_000);
    expect(tty).toHaveLength(11);
    expect(tty[0]).toBe('\r\x1b[KVIC ADDRESS_DETAIL  1,000 rows  1,000 rows/s   10%  1.0 s');
    expect(tty.at(-1)).toBe('\r\x1b[KVIC ADDRESS_DETAIL  10,000 rows  1,000 rows/s  10.0 s\n');
    expect(plain).toEqual([
      'VIC ADDRESS_DETAIL  5,000 rows  1,000 rows/s   50%  5.0 s\n',
      'VIC ADDRESS_DETAIL  10,000 rows  1,000 rows/s  100%  10.0 s\n',
      'VIC ADDRESS_DETAIL  10,000 rows  1,000 rows/s  10.0 s\n',
    ]);
  });
});
