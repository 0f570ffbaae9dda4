import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openDatabase } from '../core/db.ts';
import { generateSandbox, planSandbox, SANDBOX_STATES, sandboxSnapshotId } from '../prisma/sandbox/generate.ts';
import { isSandboxLoaded, isSandboxLoadedAtAnySize, sandboxSamples, seedSandbox } from '../prisma/sandbox/load.ts';
import { layoutBlock } from '../prisma/sandbox/lots.ts';
import { DELETE_MARKET, seedMarketIn } from '../prisma/sandbox/market.ts';
import { creekCentreV, creekLines } from '../prisma/sandbox/planning.ts';
import { Rng } from '../prisma/sandbox/random.ts';
import type { SandboxTable, SandboxTables } from '../prisma/sandbox/rows.ts';
import { emptyTables } from '../prisma/sandbox/batcher.ts';
import { DEM_CELL_LAT, DEM_CELL_LNG } from '../prisma/sandbox/terrain.ts';
import { cloneTemplate } from './setup/global-setup.ts';
import { AUTHORITY_ROWS, STREET_SUFFIXES, STREET_TYPES } from '../subgraphs/address/matching/vocabulary.ts';

const SEED = 20261122;

const suffixWord = (code: string | null) => (code ? ` ${STREET_SUFFIXES[code as keyof typeof STREET_SUFFIXES]}` : '');
const TEST_DATABASE = 'landgraph_sandbox_test';

function digest(seed: number): string {
  const hash = createHash('sha256');
  for (const batch of generateSandbox({ seed })) hash.update(JSON.stringify(batch));
  return hash.digest('hex');
}

type Collected = { [T in SandboxTable]: SandboxTables[T][] };

function add<T extends SandboxTable>(all: Collected, table: T, rows: SandboxTables[T][]): void {
  all[table].push(...rows);
}

function collect(seed: number): Collected {
  const all: Collected = emptyTables();
  for (const batch of generateSandbox({ seed })) add(all, batch.table, batch.rows);
  return all;
}

// The published formats, written out here rather than taken from the generator.
const FORMATS = {
  VIC: { pfi: /^52\d{7}$/, plan: /^(PS\d{6}|LP\d{5,6})$/, spi: /^\d+\\(PS|LP)\d+$/, gnaf: /^GAVIC4\d{8}$/ },
  NSW: { pfi: /^\d{9}$/, plan: /^(DP\d{6,7}|SP\d{5,6})$/, spi: /^(\d+|CP)\/\/(DP|SP)\d+$/, gnaf: /^GANSW7\d{8}$/ },
  QLD: { pfi: /^\d{9}$/, plan: /^(RP|SP)\d{6}$/, spi: /^\d+(RP|SP)\d{6}$/, gnaf: /^GAQLD16\d{7}$/ },
} as const;

describe('sandbox generator', () => {
  let rows: Collected;
  beforeAll(() => {
    rows = collect(SEED);
  });

  it('produces byte-identical rows for the same seed and different rows for another', { timeout: 120_000 }, () => {
    const first = digest(SEED);
    expect(digest(SEED)).toBe(first);
    expect(digest(SEED + 1)).not.toBe(first);
  });

  it('builds about 2,500 parcels in each of six real suburbs', () => {
    const plan = planSandbox({ seed: SEED });
    expect(plan.suburbs.map((s) => s.spec.name)).toEqual([
      'HUNTLY',
      'KANGAROO FLAT',
      'PARRAMATTA',
      'CASTLE HILL',
      'CHERMSIDE',
      'NORTH LAKES',
    ]);
    for (const suburb of plan.suburbs) expect(suburb.parcels).toBeGreaterThan(2_200);
    expect(rows.parcel).toHaveLength(plan.parcels);
    expect(plan.parcels).toBeGreaterThan(14_000);
    expect(plan.parcels).toBeLessThan(16_000);
  });

  it('subdivides blocks into non-overlapping lots of realistic frontage and depth', () => {
    const [huntly] = planSandbox({ seed: SEED }).suburbs;
    if (!huntly) throw new Error('no suburbs planned');
    huntly.blocks.forEach((blocks, r) =>
      blocks.forEach((block, j) => {
        const col = huntly.grid.cols[j];
        const row = huntly.grid.rows[r];
        if (!col || !row) throw new Error(`block ${r},${j} is outside the grid`);
        const lots = layoutBlock(Rng.for(SEED, 'test', r, j), col, row, block);
        const blockArea = (col.u1 - col.u0) * (row.v1 - row.v0);
        expect(lots.reduce((sum, l) => sum + (l.u1 - l.u0) * (l.v1 - l.v0), 0)).toBeCloseTo(blockArea, 6);
        for (const [i, a] of lots.entries()) {
          if (a.kind === 'residential' && !block.largeLots) {
            expect(a.u1 - a.u0).toBeGreaterThanOrEqual(10);
            expect(a.u1 - a.u0).toBeLessThanOrEqual(25);
            expect(a.v1 - a.v0).toBeGreaterThanOrEqual(28);
            expect(a.v1 - a.v0).toBeLessThanOrEqual(45);
          }
          for (const b of lots.slice(i + 1)) {
            const overlap = Math.min(a.u1, b.u1) > Math.max(a.u0, b.u0) && Math.min(a.v1, b.v1) > Math.max(a.v0, b.v0);
            expect(overlap).toBe(false);
          }
        }
      }),
    );
  });

  it('writes closed WKT rings of longitude-latitude pairs rounded to 7 decimals', () => {
    for (const p of rows.parcel.slice(0, 500)) {
      const coords = /^MULTIPOLYGON\(\(\((.*)\)\)\)$/.exec(p.wkt)?.[1]?.split(',') ?? [];
      expect(coords.length).toBeGreaterThanOrEqual(5);
      expect(coords[0]).toBe(coords[coords.length - 1]);
      for (const c of coords) expect(c).toMatch(/^\d{3}(\.\d{1,7})? -\d{2}(\.\d{1,7})?$/);
    }
  });

  it("uses each state's identifier formats, all unique", () => {
    for (const state of SANDBOX_STATES) {
      const formats = FORMATS[state];
      const parcels = rows.parcel.filter((p) => p.state === state);
      expect(parcels.length).toBeGreaterThan(4_000);
      for (const p of parcels) {
        expect(p.parcel_pfi).toMatch(formats.pfi);
        expect(p.parcel_plan_number).toMatch(formats.plan);
        expect(p.parcel_spi).toMatch(formats.spi);
        expect(p.parcel_spi.endsWith(p.parcel_plan_number) && p.parcel_spi.startsWith(p.parcel_lot_number)).toBe(true);
      }
      for (const a of rows.address_detail.filter((x) => x.state === state)) expect(a.gnaf_pid).toMatch(formats.gnaf);
    }
    expect(rows.parcel.some((p) => p.parcel_spi.startsWith('CP//SP'))).toBe(true);
    expect(rows.locality.map((l) => l.locality_pid)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^VIC\d{4}$/)]),
    );
    for (const s of rows.street_locality) expect(s.street_locality_pid).toMatch(/^(VIC|NSW|QLD)\d{7}$/);
    expect(new Set(rows.address_detail.map((a) => a.gnaf_pid)).size).toBe(rows.address_detail.length);
    expect(new Set(rows.parcel.map((p) => `${p.state}:${p.parcel_pfi}`)).size).toBe(rows.parcel.length);
  });

  it('writes G-NAF single-line addresses: units, ranges, lot numbers and unplaced geocodes', () => {
    const addresses = rows.address_detail;
    for (const a of addresses) {
      expect(a.formatted_address).toMatch(/^(UNIT \d, )?(\d+(-\d+)?|LOT \d+) [A-Z' -]+, [A-Z ]+ (VIC|NSW|QLD) \d{4}$/);
    }
    expect(addresses.some((a) => /^UNIT 2, \d+ /.test(a.formatted_address))).toBe(true);
    expect(addresses.some((a) => a.number_last !== null && a.number_last > (a.number_first ?? 0))).toBe(true);
    expect(addresses.some((a) => a.lot_number !== null && a.number_first === null)).toBe(true);
    const unitParcels = new Set(addresses.filter((a) => a.flat_type_code === 'UNIT').map((a) => a.parcel_pfi));
    expect(unitParcels.size / rows.parcel.length).toBeGreaterThan(0.05);
    expect(unitParcels.size / rows.parcel.length).toBeLessThan(0.11);
    const unplaced = addresses.filter((a) => ['STL', 'LOC', 'GG'].includes(a.geocode_type));
    expect(unplaced.every((a) => a.parcel_pfi === null)).toBe(true);
    expect(new Set(unplaced.map((a) => a.geocode_type))).toEqual(new Set(['STL', 'LOC', 'GG']));
    expect(unplaced.length / addresses.length).toBeGreaterThan(0.005);
    expect(unplaced.length / addresses.length).toBeLessThan(0.02);
    expect(addresses.some((a) => a.geocode_type === 'FCS' && a.parcel_pfi !== null)).toBe(true);
    expect(rows.street_locality.some((s) => s.street_suffix_code !== null)).toBe(true);
  });

  it("abbreviates street types as G-NAF's STREET_TYPE_AUT does and spells them out in the search key", () => {
    const abbreviation = new Map(STREET_TYPES.map((t) => [t.code, t.name]));
    const streets = new Map(rows.street_locality.map((s) => [s.street_locality_pid, s]));
    const localities = new Map(rows.locality.map((l) => [l.locality_pid, l]));
    for (const a of rows.address_detail) {
      const s = streets.get(a.street_locality_pid);
      const l = localities.get(a.locality_pid);
      if (!s || !l) throw new Error(`${a.gnaf_pid} cites a street or locality the sandbox lacks`);
      const place = `${l.locality_name} ${l.state} ${l.postcode}`;
      const number =
        a.number_first === null
          ? `LOT ${a.lot_number}`
          : `${a.number_first}${a.number_last ? `-${a.number_last}` : ''}`;
      const flat = a.flat_number === null ? '' : `UNIT ${a.flat_number}, `;
      expect(a.formatted_address).toBe(
        `${flat}${number} ${s.street_name} ${abbreviation.get(s.street_type_code)}${suffixWord(s.street_suffix_code)}, ${place}`,
      );
      expect(a.search_key).toBe(
        `${number} ${s.street_name} ${s.street_type_code}${suffixWord(s.street_suffix_code)} ${place}`,
      );
    }
    expect(rows.address_detail.some((a) => / ST, /.test(a.formatted_address))).toBe(true);
    expect(rows.address_detail.some((a) => / AV, /.test(a.formatted_address))).toBe(true);
  });

  it("carries G-NAF's state, class, legal parcel and geocode level columns", () => {
    expect(rows.state).toEqual([
      { state_pid: '2', state_name: 'VICTORIA', state_abbreviation: 'VIC' },
      { state_pid: '1', state_name: 'NEW SOUTH WALES', state_abbreviation: 'NSW' },
      { state_pid: '3', state_name: 'QUEENSLAND', state_abbreviation: 'QLD' },
    ]);
    const pids = new Map(rows.state.map((s) => [s.state_abbreviation, s.state_pid]));
    for (const l of rows.locality) {
      expect(l.state_pid).toBe(pids.get(l.state));
      expect(l.locality_class_code).toBe('G');
    }
    expect(rows.street_locality.every((s) => s.street_class_code === 'C')).toBe(true);
    const parcels = new Map(rows.parcel.map((p) => [`${p.state}:${p.parcel_pfi}`, p]));
    for (const a of rows.address_detail) {
      expect(a.alias_principal).toBe('P');
      const parcel = parcels.get(`${a.state}:${a.parcel_pfi}`);
      if (a.parcel_pfi === null) {
        expect(a.legal_parcel_id).toBeNull();
        expect(a.confidence).toBe(0);
      } else {
        expect(a.legal_parcel_id).toBe(`${parcel?.parcel_lot_number}/${parcel?.parcel_plan_number}`);
        expect(a.legal_parcel_id).toMatch(/^(\d+|CP)\/(PS|LP|DP|SP|RP)\d+$/);
        expect(a.confidence).toBe(2);
      }
      expect(a.level_geocoded_code).toBe({ PC: 7, FCS: 7, GG: 7, STL: 3, LOC: 1 }[a.geocode_type]);
    }
  });

  it('numbers each side of a street with one parity, rising along it', () => {
    const sides = new Map<string, number[]>();
    for (const a of rows.address_detail) {
      if (a.number_first === null) continue;
      const key = `${a.street_locality_pid}:${a.number_first % 2}`;
      const list = sides.get(key) ?? [];
      if (list[list.length - 1] !== a.number_first) list.push(a.number_first);
      sides.set(key, list);
    }
    for (const numbers of sides.values()) {
      expect(new Set(numbers).size).toBe(numbers.length);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    }
  });

  it('draws a centreline for every block of every street, under the name its addresses use', () => {
    const plan = planSandbox({ seed: SEED });
    const localityKey = new Map(
      rows.locality.map((l) => [l.locality_pid, plan.suburbs.find((s) => s.spec.name === l.locality_name)?.spec.key]),
    );
    const label = (s: SandboxTables['street_locality']) =>
      `${s.street_name} ${s.street_type_code}${suffixWord(s.street_suffix_code)}`;
    expect(new Set(rows.road.map((r) => r.id)).size).toBe(rows.road.length);
    for (const suburb of plan.suburbs) {
      const { key, state, mainStreet } = suburb.spec;
      const roads = rows.road.filter((r) => r.id.startsWith(`${key}-road-`));
      const cols = suburb.grid.cols.length;
      const blockRows = suburb.grid.rows.length;
      expect(roads).toHaveLength((blockRows + 1) * cols + (cols + 1) * blockRows);
      expect(
        roads.every(
          (r) => r.state === state && /^LINESTRING\(\d{3}\.\d+ -\d{2}\.\d+(,\d{3}\.\d+ -\d{2}\.\d+)+\)$/.test(r.wkt),
        ),
      ).toBe(true);
      const streets = rows.street_locality.filter((s) => localityKey.get(s.locality_pid) === key).map(label);
      expect(new Set(roads.map((r) => r.road_name))).toEqual(new Set(streets));
      expect(new Set(roads.map((r) => r.road_class))).toEqual(new Set(['arterial', 'collector', 'local']));
      const main = roads.filter((r) => r.road_name === mainStreet);
      expect(main.length).toBeGreaterThanOrEqual(cols);
      expect(main.every((r) => r.road_class === 'arterial')).toBe(true);
    }
  });

  it('draws an urban growth boundary in Victoria only: Huntly without its rural fringe, Kangaroo Flat whole', () => {
    expect(rows.ugb.map(({ wkt: _, ...rest }) => rest)).toEqual([
      { id: 'huntly-ugb', state: 'VIC', lga_code: '325', lga_name: 'GREATER BENDIGO', gaic_applies: false },
      { id: 'kangaroo-flat-ugb', state: 'VIC', lga_code: '325', lga_name: 'GREATER BENDIGO', gaic_applies: false },
    ]);
    const wktOf = (rowsWithWkt: ReadonlyArray<{ wkt: string }>, index: number) => rowsWithWkt[index]?.wkt ?? '';
    const span = (wkt: string, axis: 1 | 2) => {
      const values = [...wkt.matchAll(/(\d+\.\d+) (-\d+\.\d+)/g)].map((m) => Number(m[axis]));
      return Math.max(...values) - Math.min(...values);
    };
    const huntlyCoverage = rows.cadastre_coverage.findIndex((c) => c.name === 'HUNTLY');
    // the rural fringe ring lies outside: Huntly's UGB spans less of the suburb each way
    for (const axis of [1, 2] as const) {
      expect(span(wktOf(rows.ugb, 0), axis)).toBeLessThan(
        span(wktOf(rows.cadastre_coverage, huntlyCoverage), axis) * 0.95,
      );
    }
    expect(wktOf(rows.ugb, 1)).toBe(rows.cadastre_coverage.find((c) => c.name === 'KANGAROO FLAT')?.wkt);
  });

  it("gives each suburb its council's NCC climate zone over exactly its generated area", () => {
    // From the ABCB climate zone map, written out here rather than taken from the generator.
    expect(Object.fromEntries(rows.climate_zone.map((c) => [c.id, c.climate_zone]))).toEqual({
      'huntly-climate': 4,
      'kangaroo-flat-climate': 4,
      'parramatta-climate': 6,
      'castle-hill-climate': 6,
      'chermside-climate': 2,
      'north-lakes-climate': 2,
    });
    for (const zone of rows.climate_zone) {
      const coverage = rows.cadastre_coverage.find(
        (c) => `${c.name.toLowerCase().replace(' ', '-')}-climate` === zone.id,
      );
      expect(zone.wkt).toBe(coverage?.wkt);
    }
  });

  it('lays DEM tiles for VIC and NSW on one 10 m grid per state, with heights of each place', () => {
    const plan = planSandbox({ seed: SEED });
    const tiles = rows.dem_tile;
    expect(new Set(tiles.map((t) => t.state))).toEqual(new Set(['VIC', 'NSW']));
    expect(new Set(tiles.map((t) => `${t.state}:${t.tile_id}`)).size).toBe(tiles.length);
    const onGrid = (value: number, step: number) => Math.abs(value / step - Math.round(value / step)) < 1e-6;
    for (const state of ['VIC', 'NSW'] as const) {
      const mine = tiles.filter((t) => t.state === state);
      const [first] = mine;
      if (!first) throw new Error(`no ${state} tiles`);
      const latitude = first.north;
      const metres = 111_195;
      expect(first.cell_lat * metres).toBeGreaterThan(9);
      expect(first.cell_lat * metres).toBeLessThan(11);
      expect(first.cell_lng * metres * Math.cos((latitude * Math.PI) / 180)).toBeGreaterThan(9);
      expect(first.cell_lng * metres * Math.cos((latitude * Math.PI) / 180)).toBeLessThan(11);
      for (const t of mine) {
        expect([t.cols, t.rows, t.cell_lng, t.cell_lat]).toEqual([64, 64, first.cell_lng, first.cell_lat]);
        expect(t.heights).toHaveLength(t.cols * t.rows);
        expect(onGrid(t.west - first.west, t.cols * t.cell_lng)).toBe(true);
        expect(onGrid(t.north - first.north, t.rows * t.cell_lat)).toBe(true);
      }
    }
    // metres AHD of the real places: mean, lowest and highest ground, and how steep
    const expected: Record<string, { mean: [number, number]; range: [number, number] }> = {
      HUNTLY: { mean: [190, 210], range: [175, 225] },
      'KANGAROO FLAT': { mean: [220, 260], range: [200, 280] },
      PARRAMATTA: { mean: [10, 40], range: [0, 60] },
      'CASTLE HILL': { mean: [90, 170], range: [60, 200] },
    };
    const slopes = new Map<string, number>();
    for (const suburb of plan.suburbs.filter((s) => s.spec.name in expected)) {
      const { name, centre } = suburb.spec;
      const mine = tiles.filter((t) => {
        const middle = [t.west + (t.cols * t.cell_lng) / 2, t.north - (t.rows * t.cell_lat) / 2];
        const nearest = plan.suburbs.reduce((a, b) =>
          Math.hypot(a.spec.centre.lng - (middle[0] ?? 0), a.spec.centre.lat - (middle[1] ?? 0)) <=
          Math.hypot(b.spec.centre.lng - (middle[0] ?? 0), b.spec.centre.lat - (middle[1] ?? 0))
            ? a
            : b,
        );
        return nearest.spec.name === name;
      });
      const heights = mine.flatMap((t) => t.heights);
      const mean = heights.reduce((a, b) => a + b, 0) / heights.length;
      const bounds = expected[name];
      if (!bounds) throw new Error(`no expectation for ${name}`);
      expect(mean).toBeGreaterThan(bounds.mean[0]);
      expect(mean).toBeLessThan(bounds.mean[1]);
      expect(Math.min(...heights)).toBeGreaterThanOrEqual(bounds.range[0]);
      expect(Math.max(...heights)).toBeLessThanOrEqual(bounds.range[1]);
      const cellMetres = DEM_CELL_LAT * 111_195;
      const cellEast = DEM_CELL_LNG * 111_195 * Math.cos((centre.lat * Math.PI) / 180);
      let sum = 0;
      let n = 0;
      for (const t of mine) {
        for (let r = 1; r < t.rows; r++) {
          for (let c = 1; c < t.cols; c++) {
            const h = t.heights[r * t.cols + c] ?? 0;
            const east = (h - (t.heights[r * t.cols + c - 1] ?? 0)) / cellEast;
            const north = (h - (t.heights[(r - 1) * t.cols + c] ?? 0)) / cellMetres;
            sum += Math.hypot(east, north);
            n += 1;
          }
        }
      }
      slopes.set(name, (100 * sum) / n);
    }
    for (const slope of slopes.values()) {
      expect(slope).toBeGreaterThan(0.3);
      expect(slope).toBeLessThan(6);
    }
    const castleHill = slopes.get('CASTLE HILL') ?? 0;
    for (const [name, slope] of slopes) if (name !== 'CASTLE HILL') expect(castleHill).toBeGreaterThan(slope);
  });

  it('cuts a valley along each creek line the flood overlays follow', () => {
    const plan = planSandbox({ seed: SEED });
    const demAt = ([lng, lat]: readonly [number, number]): number => {
      for (const t of rows.dem_tile) {
        const col = Math.floor((lng - t.west) / t.cell_lng);
        const row = Math.floor((t.north - lat) / t.cell_lat);
        if (col >= 0 && col < t.cols && row >= 0 && row < t.rows) return t.heights[row * t.cols + col] ?? NaN;
      }
      throw new Error(`no DEM at ${lng} ${lat}`);
    };
    const withValleys = plan.suburbs.filter((s) => s.spec.terrain && s.spec.planningCovered);
    expect(withValleys.map((s) => s.spec.name)).toEqual(['HUNTLY', 'KANGAROO FLAT', 'PARRAMATTA']);
    for (const suburb of withValleys) {
      const terrain = suburb.spec.terrain;
      if (!terrain) throw new Error('no terrain');
      const depths: number[] = [];
      for (const creek of creekLines(Rng.for(SEED, suburb.spec.key, 'overlays'), suburb.spec, suburb.grid)) {
        for (let u = creek.u0; u <= creek.u1; u += 50) {
          const v = creekCentreV(creek, u);
          const bank = 3 * terrain.valleyWidthM;
          const at = (y: number) => demAt(suburb.frame.project([u, y]));
          depths.push((at(v - bank) + at(v + bank)) / 2 - at(v));
        }
      }
      expect(depths.reduce((a, b) => a + b, 0) / depths.length).toBeGreaterThan(terrain.valleyDepthM / 2);
    }
  });
});

/**
 * A sandbox database of this file's own, cloned from the tier's template (test/setup/global-setup.ts),
 * which was migrated and seeded from empty with this seed: a PGlite copy in a temp folder, or a
 * database made from the template on the DATABASE_URL server. The tests below change it freely.
 */
async function sandboxCopy(): Promise<{ db: Database; dispose: () => Promise<void> }> {
  const template = inject('testTemplate');
  const serverUrl = process.env.DATABASE_URL;
  const admin = async (url: string, ...statements: string[]) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const sql of statements) await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'landgraph-sandbox-'));
  let databaseUrl: string | undefined;
  if (serverUrl && template.databaseName) {
    databaseUrl = await cloneTemplate(serverUrl, template.databaseName, TEST_DATABASE);
  } else if (template.dataDir) {
    cpSync(template.dataDir, dataDir, { recursive: true });
    rmSync(join(dataDir, 'ready'), { force: true });
  } else {
    throw new Error('the test setup provided no template database');
  }
  const db = await openDatabase({ databaseUrl, dataDir });
  return {
    db,
    async dispose() {
      await db.close();
      if (serverUrl) await admin(serverUrl, `DROP DATABASE IF EXISTS ${TEST_DATABASE} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('sandbox loaded into PostGIS', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  // What the generator makes for this seed: the template was seeded from empty with it.
  let seeded: { parcels: number; addresses: number; zones: number; roads: number; demTiles: number };
  const count = async (sql: string, params: unknown[] = []) => {
    const [row] = await db.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
    if (!row) throw new Error('a count returned no row');
    return row.n;
  };

  beforeAll(async () => {
    ({ db, dispose } = await sandboxCopy());
    const rows = collect(SEED);
    seeded = {
      parcels: rows.parcel.length,
      addresses: rows.address_detail.length,
      zones: rows.zone.length,
      roads: rows.road.length,
      demTiles: rows.dem_tile.length,
    };
  }, 120_000);

  afterAll(async () => {
    await dispose?.();
  }, 60_000);

  it('loads every generated row and marks the load complete', async () => {
    const plan = planSandbox({ seed: SEED });
    expect(seeded.parcels).toBe(plan.parcels);
    expect(await count('SELECT count(*) FROM cadastre.parcel WHERE dataset = $1', ['sandbox'])).toBe(plan.parcels);
    expect(await count('SELECT count(*) FROM address.address_detail')).toBe(seeded.addresses);
    expect(await count('SELECT count(*) FROM planning.zone')).toBe(seeded.zones);
    expect(await isSandboxLoaded(db, { seed: SEED })).toBe(true);
    expect(await isSandboxLoaded(db, { seed: SEED + 1 })).toBe(false);
    expect(await isSandboxLoaded(db, { seed: SEED, parcels: 20_000 })).toBe(false);
    // A server start accepts a complete sandbox of its seed at any size (a scaled benchmark one).
    expect(await isSandboxLoadedAtAnySize(db, SEED)).toBe(true);
    expect(await isSandboxLoadedAtAnySize(db, SEED + 1)).toBe(false);
  });

  it('reloads a sandbox an older generator wrote, whatever its size', async () => {
    const current = sandboxSnapshotId({ seed: SEED });
    expect(current).toBe(`sandbox-v11-${SEED}-15000`);
    try {
      // v1 (no version in the id), v2 (no roads, UGB, climate zones or terrain), v3 (no soil or land layers), v4 and
      // v5 (no hazards), v6 (no development applications), v7 (no SPEAR or land supply), v8 (one of the two) and
      // v9 (no Census demographics, market sales, rents or approvals) and v10 (rents not by bedrooms) all reload
      for (const older of [
        `sandbox-${SEED}-15000`,
        `sandbox-v2-${SEED}-15000`,
        `sandbox-v2-${SEED}-1000000`,
        `sandbox-v3-${SEED}-15000`,
        `sandbox-v4-${SEED}-15000`,
        `sandbox-v5-${SEED}-15000`,
        `sandbox-v6-${SEED}-15000`,
        `sandbox-v7-${SEED}-15000`,
        `sandbox-v8-${SEED}-15000`,
        `sandbox-v9-${SEED}-15000`,
        `sandbox-v10-${SEED}-15000`,
      ]) {
        await db.query(`UPDATE public.dataset_source SET snapshot_id = $1 WHERE dataset = 'sandbox'`, [older]);
        expect(await isSandboxLoadedAtAnySize(db, SEED)).toBe(false);
        expect(await isSandboxLoaded(db, { seed: SEED })).toBe(false);
      }
    } finally {
      await db.query(`UPDATE public.dataset_source SET snapshot_id = $1 WHERE dataset = 'sandbox'`, [current]);
    }
  });

  it('writes market rows on its own addresses and parcels, the same again from the same seed, in about a second', async () => {
    const digest = async () =>
      (
        await db.query<{ d: string }>(`SELECT md5(string_agg(x, ',' ORDER BY x)) AS d FROM (
          SELECT source_record_id || price || contract_date || property_type || coalesce(area_m2, 0) AS x FROM market.sale WHERE dataset = 'sandbox'
          UNION ALL SELECT area || dwelling_type || bedrooms || quarter || median_weekly_rent || new_bonds FROM market.rent_bond WHERE dataset = 'sandbox'
          UNION ALL SELECT sa2_code || period || building_type || value FROM market.building_approval WHERE dataset = 'sandbox') r`)
      )[0]!.d;
    for (const state of SANDBOX_STATES) {
      expect(
        await count(`SELECT count(*) FROM market.sale WHERE dataset = 'sandbox' AND state = $1`, [state]),
      ).toBeGreaterThan(1000);
    }
    // every sale is of a sandbox address on its parcel, at its point
    expect(
      await count(`SELECT count(*) FROM market.sale s LEFT JOIN address.address_detail a ON a.dataset = s.dataset
        AND a.gnaf_pid = s.gnaf_pid AND a.parcel_pfi = s.parcel_pfi AND ST_Equals(a.geom, s.geom)
        WHERE s.dataset = 'sandbox' AND a.gnaf_pid IS NULL`),
    ).toBe(0);
    // every suburb: 24 quarters of house and unit rents, each whole and by three bedroom counts;
    // 72 months of two building types
    const suburbs = await count(`SELECT count(*) FROM address.locality WHERE dataset = 'sandbox'`);
    expect(await count(`SELECT count(*) FROM market.rent_bond WHERE dataset = 'sandbox'`)).toBe(suburbs * 24 * 2 * 4);
    expect(
      (
        await db.query<{ dwelling_type: string; bedrooms: string }>(
          `SELECT DISTINCT dwelling_type, bedrooms FROM market.rent_bond WHERE dataset = 'sandbox' ORDER BY 1, 2`,
        )
      ).map((r) => `${r.dwelling_type}:${r.bedrooms}`),
    ).toEqual(['house:2', 'house:3', 'house:4', 'house:all', 'unit:1', 'unit:2', 'unit:3', 'unit:all']);
    // a four-bedroom house rents for more than a two-bedroom one in every suburb and quarter
    expect(
      await count(`SELECT count(*) FROM market.rent_bond two JOIN market.rent_bond four USING (dataset, state, area_kind, area, dwelling_type, quarter)
        WHERE two.dataset = 'sandbox' AND two.dwelling_type = 'house' AND two.bedrooms = '2' AND four.bedrooms = '4'
          AND four.median_weekly_rent <= two.median_weekly_rent`),
    ).toBe(0);
    expect(await count(`SELECT count(*) FROM market.building_approval WHERE dataset = 'sandbox'`)).toBe(
      suburbs * 72 * 2,
    );
    const before = await digest();
    const started = performance.now();
    await db.transaction(async (query) => {
      for (const sql of DELETE_MARKET) await query(sql, ['sandbox']);
      await seedMarketIn(query, 'sandbox', SEED);
    });
    const ms = performance.now() - started;
    expect(await digest()).toBe(before);
    expect(ms).toBeLessThan(15_000);
  });

  it("writes G-NAF's national authority codes and the sandbox states", async () => {
    expect(await count('SELECT count(*) FROM address.authority_code')).toBe(AUTHORITY_ROWS.length);
    expect(await count(`SELECT count(*) FROM address.authority_code WHERE authority = 'STREET_TYPE'`)).toBe(276);
    expect(
      await count(
        `SELECT count(*) FROM address.authority_code WHERE authority = 'STREET_TYPE' AND code = 'AVENUE' AND name = 'AV'`,
      ),
    ).toBe(1);
    expect(await count(`SELECT count(*) FROM address.state WHERE dataset = 'sandbox'`)).toBe(3);
  });

  it("keeps each address's default geocode in G-NAF's own table, identical to the copy beside it", async () => {
    expect(await count(`SELECT count(*) FROM address.address_default_geocode WHERE dataset = 'sandbox'`)).toBe(
      seeded.addresses,
    );
    expect(
      await count(`SELECT count(*) FROM address.address_detail a
      JOIN address.address_default_geocode g ON g.dataset = a.dataset AND g.address_detail_pid = a.gnaf_pid
      WHERE a.dataset = 'sandbox' AND ST_Equals(g.geom, a.geom) AND g.geocode_type_code = a.geocode_type
        AND g.address_default_geocode_pid = 'GADG' || substr(a.gnaf_pid, 3)`),
    ).toBe(seeded.addresses);
    expect(
      await count(`SELECT count(*) FROM address.address_default_geocode
      WHERE dataset = 'sandbox' AND address_default_geocode_pid !~ '^GADG(VIC4|NSW7|QLD16)\\d+$'`),
    ).toBe(0);
  });

  it('stores valid counter-clockwise geometry whose areas match PostGIS', async () => {
    for (const table of [
      'cadastre.parcel',
      'planning.zone',
      'planning.overlay',
      'cadastre.coverage',
      'planning.coverage',
      'planning.ugb',
      'planning.climate_zone',
    ]) {
      expect(await count(`SELECT count(*) FROM ${table} WHERE NOT ST_IsValid(geom) OR NOT ST_IsPolygonCCW(geom)`)).toBe(
        0,
      );
    }
    expect(
      await count(
        'SELECT count(*) FROM cadastre.parcel WHERE abs(area_m2 - ST_Area(geom::geography)) > 0.005 * area_m2',
      ),
    ).toBe(0);
  });

  it('never overlaps two parcels or two zones', { timeout: 60_000 }, async () => {
    const overlaps = (table: string, key: string) =>
      count(`SELECT count(*) FROM ${table} a JOIN ${table} b
        ON a.${key} < b.${key} AND a.geom && b.geom AND ST_Relate(a.geom, b.geom, '2********')`);
    expect(await overlaps('cadastre.parcel', 'parcel_pfi')).toBe(0);
    expect(await overlaps('planning.zone', 'id')).toBe(0);
  });

  it('puts every parcel-linked address point inside its own parcel and no other', { timeout: 60_000 }, async () => {
    expect(
      await count(`SELECT count(*) FROM address.address_detail a
      LEFT JOIN cadastre.parcel p USING (dataset, state, parcel_pfi)
      WHERE a.parcel_pfi IS NOT NULL AND (p.geom IS NULL OR NOT ST_Contains(p.geom, a.geom))`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) FROM address.address_detail a
      JOIN cadastre.parcel p ON p.dataset = a.dataset AND ST_Intersects(p.geom, a.geom)
      WHERE a.parcel_pfi IS NOT NULL AND p.parcel_pfi <> a.parcel_pfi`),
    ).toBe(0);
  });

  it('makes every layer status reachable', { timeout: 60_000 }, async () => {
    const onStreet = `SELECT a.geom FROM address.address_detail a WHERE a.geocode_type = 'STL'`;
    // a road reserve: inside cadastre coverage, on no parcel (no_data)
    expect(await count(`SELECT count(*) FROM (${onStreet}) s`)).toBeGreaterThan(0);
    expect(
      await count(`SELECT count(*) FROM (${onStreet}) s WHERE
      EXISTS (SELECT 1 FROM cadastre.parcel p WHERE ST_Intersects(p.geom, s.geom))
      OR NOT EXISTS (SELECT 1 FROM cadastre.coverage c WHERE ST_Intersects(c.geom, s.geom))`),
    ).toBe(0);
    // Alice Springs: outside every suburb (not_covered)
    const outside = 'ST_SetSRID(ST_MakePoint(133.88, -23.70), 4326)';
    expect(await count(`SELECT count(*) FROM cadastre.coverage WHERE ST_Intersects(geom, ${outside})`)).toBe(0);
    expect(await count(`SELECT count(*) FROM planning.coverage WHERE ST_Intersects(geom, ${outside})`)).toBe(0);
    // Castle Hill has parcels but no planning coverage (planning not_covered)
    expect(
      await count(`SELECT count(*) FROM address.address_detail a JOIN address.locality l USING (dataset, locality_pid)
      WHERE l.locality_name = 'CASTLE HILL' AND a.parcel_pfi IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM planning.coverage c WHERE ST_Intersects(c.geom, a.geom))`),
    ).toBeGreaterThan(2_000);
    expect(await count(`SELECT count(*) FROM planning.coverage WHERE name = 'CASTLE HILL'`)).toBe(0);
    for (const state of SANDBOX_STATES) {
      // a deferred block: inside planning coverage, under no zone (planning no_data)
      expect(
        await count(
          `SELECT count(*) FROM address.address_detail a WHERE a.state = $1 AND a.geocode_type = 'PC'
        AND EXISTS (SELECT 1 FROM planning.coverage c WHERE ST_Intersects(c.geom, a.geom))
        AND NOT EXISTS (SELECT 1 FROM planning.zone z WHERE ST_Intersects(z.geom, a.geom))`,
          [state],
        ),
      ).toBeGreaterThan(0);
      expect(await count('SELECT count(*) FROM planning.overlay WHERE state = $1', [state])).toBeGreaterThan(0);
    }
  });

  it('keeps every road centreline in its road reserve: clear of every parcel, inside the suburb', async () => {
    expect(await count(`SELECT count(*) FROM roads.centreline WHERE dataset = 'sandbox'`)).toBe(seeded.roads);
    expect(await count(`SELECT count(*) FROM roads.centreline WHERE NOT ST_IsValid(geom) OR ST_Length(geom) = 0`)).toBe(
      0,
    );
    // down the middle of the reserve: no parcel within 0.00007 degrees (6 to 8 m) of a centreline
    expect(
      await count(`SELECT count(*) FROM roads.centreline c JOIN cadastre.parcel p
        ON p.dataset = c.dataset AND p.state = c.state AND ST_DWithin(p.geom, c.geom, 0.00007)`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) FROM roads.centreline c WHERE NOT EXISTS (
        SELECT 1 FROM cadastre.coverage v WHERE v.dataset = c.dataset AND ST_CoveredBy(c.geom, v.geom))`),
    ).toBe(0);
    // every lot faces a centreline across its front boundary, a reserve's half-width (10-15 m) away:
    // 0.00018 degrees is at most 20 m here (geography distances are slow on the embedded database,
    // and a join keeps the planner on the spatial index where NOT EXISTS hashes the whole table)
    expect(
      await count(`SELECT count(*) FROM cadastre.parcel p LEFT JOIN (
        SELECT DISTINCT q.dataset, q.state, q.parcel_pfi FROM cadastre.parcel q
        JOIN roads.centreline c ON c.dataset = q.dataset AND ST_DWithin(c.geom, q.geom, 0.00018)) fronted
        USING (dataset, state, parcel_pfi) WHERE fronted.parcel_pfi IS NULL`),
    ).toBe(0);
  });

  it("runs a centreline of each placed address's own street past it", { timeout: 60_000 }, async () => {
    const label = `s.street_name || ' ' || s.street_type_code || CASE s.street_suffix_code
      WHEN 'N' THEN ' NORTH' WHEN 'S' THEN ' SOUTH' WHEN 'E' THEN ' EAST' WHEN 'W' THEN ' WEST' ELSE '' END`;
    expect(
      await count(`SELECT count(*) FROM address.address_detail a
      JOIN address.street_locality s USING (dataset, street_locality_pid)
      WHERE a.geocode_type = 'PC' AND a.parcel_pfi IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM roads.centreline c WHERE c.dataset = a.dataset AND c.road_name = ${label}
          AND c.geom && ST_Expand(a.geom, 0.002)
          AND ST_DWithin(c.geom::geography, a.geom::geography, 80))`),
    ).toBe(0);
  });

  it("leaves Huntly's rural fringe outside its UGB and takes in all of Kangaroo Flat", async () => {
    const parcels = (suburb: string, where: string) =>
      count(
        `SELECT count(*) FROM cadastre.parcel p JOIN cadastre.coverage v
          ON v.dataset = p.dataset AND v.name = $1 AND ST_CoveredBy(p.geom, v.geom)
        WHERE ${where}`,
        [suburb],
      );
    const inUgb = 'EXISTS (SELECT 1 FROM planning.ugb u WHERE u.dataset = p.dataset AND ST_CoveredBy(p.geom, u.geom))';
    const offUgb =
      'NOT EXISTS (SELECT 1 FROM planning.ugb u WHERE u.dataset = p.dataset AND ST_Intersects(p.geom, u.geom))';
    expect(await parcels('HUNTLY', inUgb)).toBeGreaterThan(1_000);
    expect(await parcels('HUNTLY', offUgb)).toBeGreaterThan(100);
    expect(await parcels('HUNTLY', `NOT ${inUgb} AND NOT ${offUgb}`)).toBe(0);
    expect(await parcels('KANGAROO FLAT', `NOT ${inUgb}`)).toBe(0);
    expect(await count(`SELECT count(*) FROM planning.ugb WHERE state <> 'VIC' OR gaic_applies`)).toBe(0);
  });

  it('covers every parcel with exactly one climate zone and nothing beyond the suburbs', async () => {
    expect(
      await count(`SELECT count(*) FROM cadastre.parcel p WHERE (SELECT count(*) FROM planning.climate_zone z
        WHERE z.dataset = p.dataset AND ST_Intersects(z.geom, ST_PointOnSurface(p.geom))) <> 1`),
    ).toBe(0);
    const at = (lng: number, lat: number) =>
      count(
        `SELECT climate_zone FROM planning.climate_zone WHERE ST_Intersects(geom, ST_SetSRID(ST_MakePoint($1, $2), 4326))`,
        [lng, lat],
      );
    expect(await at(153.031, -27.385)).toBe(2);
    // Alice Springs: no climate zone (not_covered)
    expect(
      await count(
        `SELECT count(*) FROM planning.climate_zone WHERE ST_Intersects(geom, ST_SetSRID(ST_MakePoint(133.88, -23.7), 4326))`,
      ),
    ).toBe(0);
  });

  it('covers every VIC and NSW parcel with DEM tiles that match their grid, and no QLD one', async () => {
    expect(await count(`SELECT count(*) FROM terrain.dem_tile WHERE dataset = 'sandbox'`)).toBe(seeded.demTiles);
    expect(await count(`SELECT count(*) FROM terrain.dem_tile WHERE state = 'QLD'`)).toBe(0);
    expect(
      await count(`SELECT count(*) FROM terrain.dem_tile WHERE NOT ST_IsValid(extent) OR NOT ST_IsPolygonCCW(extent)
        OR ST_HausdorffDistance(extent, ST_MakeEnvelope(west, north - rows * cell_lat, west + cols * cell_lng, north, 4326)) > 1e-9`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) FROM terrain.dem_tile a JOIN terrain.dem_tile b
        ON a.state = b.state AND a.tile_id < b.tile_id AND ST_Relate(a.extent, b.extent, '2********')`),
    ).toBe(0);
    expect(
      await count(`WITH dem AS (SELECT state, ST_Union(extent) AS geom FROM terrain.dem_tile GROUP BY state)
        SELECT count(*) FROM cadastre.parcel p LEFT JOIN dem d USING (state)
        WHERE p.state IN ('VIC', 'NSW') AND (d.geom IS NULL OR NOT ST_CoveredBy(p.geom, d.geom))`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) FROM address.address_detail a WHERE a.state = 'QLD' AND EXISTS (
        SELECT 1 FROM terrain.dem_tile t WHERE ST_Intersects(t.extent, a.geom))`),
    ).toBe(0);
  });

  it('offers deterministic samples covering each state and each status', async () => {
    const samples = await sandboxSamples(db);
    expect(samples).toHaveLength(8);
    expect(await sandboxSamples(db)).toEqual(samples);
    const notes = samples.map((s) => s.note);
    expect(notes).toEqual(
      expect.arrayContaining([
        'all layers present (VIC)',
        'all layers present (NSW)',
        'all layers present (QLD)',
        'unit in a multi-unit parcel',
        'planning not covered',
      ]),
    );
    expect(notes.some((n) => n.startsWith('planning no data'))).toBe(true);
    expect(samples.find((s) => s.note === 'planning not covered')?.address).toMatch(/CASTLE HILL NSW 2154$/);
    expect(samples.find((s) => s.note.startsWith('unit'))?.address).toMatch(/^UNIT \d, /);
    for (const s of samples.filter((x) => x.note.startsWith('all layers'))) {
      const point = [s.lng, s.lat];
      const at = 'ST_SetSRID(ST_MakePoint($1, $2), 4326)';
      expect(await count(`SELECT count(*) FROM cadastre.parcel WHERE ST_Contains(geom, ${at})`, point)).toBe(1);
      expect(await count(`SELECT count(*) FROM planning.zone WHERE ST_Intersects(geom, ${at})`, point)).toBe(1);
      expect(
        await count(`SELECT count(*) FROM planning.overlay WHERE ST_Intersects(geom, ${at})`, point),
      ).toBeGreaterThan(0);
    }
  });

  it('labels every source as synthetic demo data', async () => {
    const sources = await db.query<{
      layer: string;
      state: string;
      attribution: string;
      license: string;
      snapshot_id: string;
    }>(
      `SELECT layer, state, attribution, license, snapshot_id FROM public.dataset_source WHERE dataset = 'sandbox' ORDER BY layer, state`,
    );
    expect(sources.map((s) => `${s.layer}:${s.state}`)).toEqual([
      'address:NSW',
      'address:QLD',
      'address:VIC',
      'amenities:NSW',
      'amenities:QLD',
      'amenities:VIC',
      'buildings:NSW',
      'buildings:QLD',
      'buildings:VIC',
      'buildings-state:NSW',
      'buildings-state:VIC',
      'cadastre:NSW',
      'cadastre:QLD',
      'cadastre:VIC',
      'climate:NSW',
      'climate:QLD',
      'climate:VIC',
      'demographics:NSW',
      'demographics:QLD',
      'demographics:VIC',
      'development-applications:NSW',
      'development-applications:QLD',
      'development-applications:VIC',
      'easements:NSW',
      'easements:QLD',
      'easements:VIC',
      'hazards:NSW',
      'hazards:QLD',
      'hazards:VIC',
      'land-supply:NSW',
      'land-supply:QLD',
      'land-supply:VIC',
      'land-values:NSW',
      'land-values:QLD',
      'land-values:VIC',
      'market-approvals:NSW',
      'market-approvals:QLD',
      'market-approvals:VIC',
      'market-rents:NSW',
      'market-rents:QLD',
      'market-rents:VIC',
      'market-sales:NSW',
      'market-sales:QLD',
      'market-sales:VIC',
      'planning:NSW',
      'planning:QLD',
      'planning:VIC',
      'roads:NSW',
      'roads:QLD',
      'roads:VIC',
      'soil:NSW',
      'soil:QLD',
      'soil:VIC',
      'spear:VIC',
      'terrain:NSW',
      'terrain:VIC',
      'ugb:VIC',
    ]);
    for (const s of sources) {
      expect(s.attribution).toMatch(/^Landgraph sandbox: synthetic demo data, not real .*Do not rely on it\.$/);
      // building footprints and amenities are OpenStreetMap's (ODbL); footprints are supplemented by the
      // state's CC BY layer (spec 2.2)
      expect(s.license).toBe(s.layer === 'buildings' || s.layer === 'amenities' ? 'ODbL' : 'CC BY 4.0');
      expect(s.snapshot_id).toBe(sandboxSnapshotId({ seed: SEED }));
      expect(s.snapshot_id).toBe(`sandbox-v11-${SEED}-15000`);
    }
    const credit = (layer: string, state: string) =>
      sources.find((s) => s.layer === layer && s.state === state)?.attribution ?? '';
    expect(credit('roads', 'VIC')).toContain('modelled on Vicmap Transport');
    expect(credit('ugb', 'VIC')).toContain('modelled on Vicmap Planning UGB');
    expect(credit('climate', 'QLD')).toContain('modelled on ABCB NCC climate zone map');
    expect(credit('terrain', 'VIC')).toContain('modelled on Vicmap Elevation');
    expect(credit('terrain', 'NSW')).toContain('modelled on NSW Elevation DEM');
    expect(credit('soil', 'NSW')).toContain('modelled on CSIRO Soil and Landscape Grid of Australia');
    expect(credit('demographics', 'QLD')).toContain('modelled on the ABS General Community Profile DataPacks');
  });

  it('keeps the previous sandbox intact when a reload fails part-way', { timeout: 60_000 }, async () => {
    let parcelBatches = 0;
    const failing: Database = {
      kind: db.kind,
      prisma: db.prisma,
      sql: (query) => db.sql(query),
      url: db.url,
      exec: (sql) => db.exec(sql),
      query: (sql, params) => db.query(sql, params),
      close: () => db.close(),
      listen: (channel, onMessage) => db.listen(channel, onMessage),
      transaction: (work) =>
        db.transaction((query, script) =>
          work(async <R>(sql: string, params?: unknown[]) => {
            if (sql.startsWith('INSERT INTO cadastre.parcel') && ++parcelBatches === 2)
              throw new Error('connection lost');
            return query<R>(sql, params);
          }, script),
        ),
    };
    await expect(seedSandbox(failing, { seed: SEED + 1 })).rejects.toThrow('connection lost');
    expect(await isSandboxLoaded(db, { seed: SEED })).toBe(true);
    expect(await isSandboxLoaded(db, { seed: SEED + 1 })).toBe(false);
    expect(await count(`SELECT count(*) FROM cadastre.parcel WHERE dataset = 'sandbox'`)).toBe(seeded.parcels);

    // A rerun loads whole over what is there, reporting its progress; a small sandbox keeps it quick.
    const small = planSandbox({ seed: SEED, parcels: 600 });
    expect(small.parcels).toBeLessThan(seeded.parcels);
    const progress: number[] = [];
    const again = await seedSandbox(db, { seed: SEED, parcels: 600, onProgress: (done) => progress.push(done) });
    expect(again.parcels).toBe(small.parcels);
    expect(progress[0]).toBe(0);
    expect(progress[progress.length - 1]).toBe(small.parcels);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(await count(`SELECT count(*) FROM cadastre.parcel WHERE dataset = 'sandbox'`)).toBe(small.parcels);
    expect(await isSandboxLoaded(db, { seed: SEED, parcels: 600 })).toBe(true);
    expect(await isSandboxLoaded(db, { seed: SEED })).toBe(false);
  });
});
