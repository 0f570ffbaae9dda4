import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestError } from '../cli/ingest/gnaf-release.ts';
import {
  codeAndLabel,
  dwellingOfBuilding,
  loadAbsApprovals,
  loadRentalBonds,
  periodStart,
  prepareAbsApprovalsIngest,
  prepareRentalBondsIngest,
  sheetDate,
} from '../cli/ingest/market-stats.ts';
import { ingestNswSales, parsePsi, propertyTypeOf, psiDate, salesTexts } from '../cli/ingest/nsw-sales.ts';
import { Progress } from '../cli/ingest/progress.ts';
import { readZip } from '../cli/ingest/zip.ts';
import type { Database } from '../core/db.ts';
import { decodeSuburbMarket, SUBURB_MARKETS, type SuburbMarketWire } from '../subgraphs/market/sql.ts';
import { ingestSa2Names } from '../cli/ingest/abs-sa2-names.ts';
import { suburbMarket } from '../subgraphs/market/trends.ts';
import { oracleMarkets, rolledUpMarkets } from './support/market-oracle.ts';
import { type TestRuntime, testRuntime } from './support/runtime.ts';

/*
 * The market ingests: `ingest nsw-sales` on a real sample of the NSW Valuer General's bulk
 * Property Sales Information (two districts of the 2 January 2017 weekly release), matched to
 * test parcels; `ingest nsw-rental-bonds` on a real NSW Fair Trading lodgements workbook (two
 * postcodes of March 2024, read as published) and on labelled fixtures (the holdings, and the CSV
 * export); `ingest abs-building-approvals` on labelled fixtures in the published layouts (no real
 * sample was found). Reruns change nothing; bad headers and records are refused naming what is
 * missing.
 */

const SAMPLE = fileURLToPath(new URL('../data/samples/nsw-vg-property-sales-2017/', import.meta.url));
const BONDS_SAMPLE = fileURLToPath(
  new URL('../data/samples/nsw-rental-bond-lodgements-2024-03/rental-bond_lodgements_march_2024.xlsx', import.meta.url),
);
const FIXTURES = fileURLToPath(new URL('./fixtures/market/', import.meta.url));
const DATASET = 'market_test';
/** The real lodgements overlap the fixture's postcodes and quarter: loaded apart so neither moves the other's medians. */
const REAL_DATASET = 'market_test_real';
const quiet = () => new Progress({ write: () => true, isTTY: false });

/** Two test parcels the sample names: lot 7 DP1037379 (91 ADAMS ST) and strata lot 1 SP92934. */
const PARCELS = [
  { pfi: 'MKT-1', spi: '7//DP1037379', west: 151.35, south: -32.79 },
  { pfi: 'MKT-2', spi: '1//SP92934', west: 151.36, south: -32.83 },
];

/** A zip of the given entries (deflated), for the zip reader. */
function zipOf(entries: Array<{ name: string; data: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const data = deflateRawSync(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('market ingests', () => {
  let t: TestRuntime;
  let db: Database;
  let dir: string;
  const rows = <T>(sql: string) => db.query<T>(sql);

  async function cleanUp() {
    await db.exec(`
      DELETE FROM market.sale WHERE dataset = '${DATASET}';
      DELETE FROM market.bond_lodgement WHERE dataset IN ('${DATASET}', '${REAL_DATASET}');
      DELETE FROM market.rent_bond WHERE dataset IN ('${DATASET}', '${REAL_DATASET}');
      DELETE FROM market.building_approval WHERE dataset = '${DATASET}';
      DELETE FROM market.sa2_name WHERE dataset = '${DATASET}';
      DELETE FROM cadastre.parcel WHERE dataset = '${DATASET}';
      DELETE FROM address.address_detail WHERE dataset = '${DATASET}';
      DELETE FROM address.street_locality WHERE dataset = '${DATASET}';
      DELETE FROM address.locality WHERE dataset = '${DATASET}';
      DELETE FROM public.dataset_source WHERE dataset IN ('${DATASET}', '${REAL_DATASET}');`);
  }

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    dir = mkdtempSync(join(tmpdir(), 'landgraph-market-'));
    await cleanUp();
    const box = (w: number, s: number) => `ST_Multi(ST_MakeEnvelope(${w}, ${s}, ${w + 0.0003}, ${s + 0.0003}, 4326))`;
    for (const p of PARCELS) {
      await db.exec(`INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, area_m2, geom)
        VALUES ('${DATASET}', 'NSW', '${p.pfi}', '${p.spi}', 900, ${box(p.west, p.south)})`);
    }
    // the address on lot 7: 91 ADAMS ST, HEDDON GRETA
    await db.exec(`INSERT INTO address.address_detail (dataset, gnaf_pid, street_locality_pid, locality_pid, state,
        postcode, number_first, formatted_address, geocode_type, geom, parcel_pfi)
      VALUES ('${DATASET}', 'GANSW-MKT-91', 'SL1', 'L1', 'NSW', '2321', 91, '91 ADAMS ST, HEDDON GRETA NSW 2321',
        'PC', ST_SetSRID(ST_MakePoint(151.35015, -32.78985), 4326), 'MKT-1')`);
  });

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the PSI layout: B joined to C, types, areas, dates', () => {
    const { sales, refused } = parsePsi(salesTexts(SAMPLE));
    expect(refused).toEqual([]);
    expect(sales).toHaveLength(19);
    const adams = sales.find((s) => s.address.startsWith('91 ADAMS ST'))!;
    expect(adams).toMatchObject({
      source_record_id: '001/2885891/-/AK963278',
      contract_date: '2016-10-24',
      settlement_date: '2016-11-21',
      price: 750000,
      property_type: 'house',
      area: 1150,
      area_unit: 'm2',
      area_m2: 1150,
      locality: 'HEDDON GRETA',
      postcode: '2321',
      zoning: 'R2',
      legal_description: '7/1037379',
      dealing_number: 'AK963278',
    });
    const units = sales.filter((s) => s.property_id === '3907212');
    expect(units.map((u) => [u.property_type, u.strata_lot_number, u.legal_description, u.address])).toEqual([
      ['unit', '1', '1/SP92934', '1/3 B QUARRYBYLONG ST, CESSNOCK NSW 2325'],
      ['unit', '2', '2/SP92934', '2/3 B QUARRYBYLONG ST, CESSNOCK NSW 2325'],
    ]);
    expect(sales.find((s) => s.address.startsWith('144 FRAME DR'))).toMatchObject({
      area: 2.639,
      area_unit: 'ha',
      area_m2: 26390,
    });
    expect(sales.filter((s) => s.property_type === 'land')).toHaveLength(4);
    expect(sales.find((s) => s.primary_purpose === 'SHOP AND FLAT')!.property_type).toBe('other');
    expect(propertyTypeOf('R', null)).toBe('house');
    expect(psiDate('20161024')).toBe('2016-10-24');
    expect(() => psiDate('20161332')).toThrow(/not a date/);
  });

  it('loads the real sample, matches parcels and addresses, and a rerun changes nothing', async () => {
    const first = await ingestNswSales(db, {
      file: SAMPLE,
      dataset: DATASET,
      snapshot: 'psi-20170102',
      progress: quiet(),
    });
    expect(first).toMatchObject({ loaded: 19, matchedParcel: 2, matchedAddress: 1 });
    const before = await rows<{ id: string; gnaf_pid: string | null; parcel_pfi: string | null; price: number }>(
      `SELECT source_record_id AS id, gnaf_pid, parcel_pfi, price FROM market.sale WHERE dataset = '${DATASET}' ORDER BY 1`,
    );
    expect(before.find((r) => r.parcel_pfi === 'MKT-1')).toMatchObject({ gnaf_pid: 'GANSW-MKT-91', price: 750000 });
    expect(before.find((r) => r.parcel_pfi === 'MKT-2')).toMatchObject({ gnaf_pid: null, price: 265000 });
    // the farm of five lots is loaded but not tied to a parcel, and said so
    expect(first.unmatched.find((u) => u.key === '002/3232402/-/AK965622')?.reason).toMatch(/more than one lot/);
    const again = await ingestNswSales(db, {
      file: SAMPLE,
      dataset: DATASET,
      snapshot: 'psi-20170102',
      progress: quiet(),
    });
    expect(again.loaded).toBe(19);
    const after = await rows<{ id: string }>(
      `SELECT source_record_id AS id, gnaf_pid, parcel_pfi, price FROM market.sale WHERE dataset = '${DATASET}' ORDER BY 1`,
    );
    expect(after).toEqual(before);
    const [source] = await rows<{ attribution: string }>(
      `SELECT attribution FROM public.dataset_source WHERE dataset = '${DATASET}' AND layer = 'market-sales' AND state = 'NSW'`,
    );
    expect(source!.attribution).toMatch(/Valuer General, CC BY 4.0/);
  });

  it('matches a sale its lot/plan does not tie to an address by its address text, through the address matcher', async () => {
    // G-NAF of the sample's 63 TRENCHARD ST, HEDDON GRETA: its lot/plan names no parcel held here
    await db.exec(`
      INSERT INTO address.locality (dataset, locality_pid, locality_name, state, postcode)
        VALUES ('${DATASET}', 'L1', 'HEDDON GRETA', 'NSW', '2321');
      INSERT INTO address.street_locality (dataset, street_locality_pid, locality_pid, street_name, street_type_code)
        VALUES ('${DATASET}', 'SL1', 'L1', 'ADAMS', 'STREET'), ('${DATASET}', 'SL2', 'L1', 'TRENCHARD', 'STREET');
      INSERT INTO address.address_detail (dataset, gnaf_pid, street_locality_pid, locality_pid, state, postcode,
          number_first, formatted_address, geocode_type, geom, parcel_pfi)
        VALUES ('${DATASET}', 'GANSW-MKT-63', 'SL2', 'L1', 'NSW', '2321', 63, '63 TRENCHARD ST, HEDDON GRETA NSW 2321',
          'PC', ST_SetSRID(ST_MakePoint(151.3512, -32.7921), 4326), 'MKT-63'),
        ('${DATASET}', 'GANSW-MKT-65', 'SL2', 'L1', 'NSW', '2321', 65, '65 TRENCHARD ST, HEDDON GRETA NSW 2321',
          'PC', ST_SetSRID(ST_MakePoint(151.3513, -32.7921), 4326), 'MKT-65');`);
    const load = () =>
      ingestNswSales(db, { file: SAMPLE, dataset: DATASET, snapshot: 'psi-20170102', progress: quiet() });
    const result = await load();
    expect(result).toMatchObject({ loaded: 19, matchedParcel: 2, matchedAddress: 2, matchedByText: 1 });
    const read = () =>
      rows<{ id: string; gnaf_pid: string; parcel_pfi: string; lng: number; lat: number }>(
        `SELECT source_record_id AS id, gnaf_pid, parcel_pfi, ST_X(geom) AS lng, ST_Y(geom) AS lat FROM market.sale
         WHERE dataset = '${DATASET}' AND gnaf_pid IS NOT NULL ORDER BY 1`,
      );
    const matched = await read();
    const byText = matched.find((r) => r.gnaf_pid === 'GANSW-MKT-63')!;
    // the address, its parcel and its point, not 65 next door
    expect(byText).toMatchObject({ parcel_pfi: 'MKT-63' });
    expect(byText.id).toMatch(/^001\/9968\//);
    expect([Number(byText.lng), Number(byText.lat)]).toEqual([151.3512, -32.7921]);
    // the lot/plan match stands as it was
    expect(matched.find((r) => r.gnaf_pid === 'GANSW-MKT-91')).toMatchObject({ parcel_pfi: 'MKT-1' });
    // the others were tried and are listed with why (no such street here)
    expect(result.textUnmatched.length).toBeGreaterThan(10);
    expect(result.textUnmatched.every((n) => /address text not matched/.test(n.reason))).toBe(true);
    // a rerun gives the same rows
    expect((await load()).matchedByText).toBe(1);
    expect(await read()).toEqual(matched);
  });

  it('moves the market trends with the ingest: its sales are in the rollup the moment its transaction commits', async () => {
    const keys = [{ state: 'NSW', suburb: 'CESSNOCK', postcode: null }];
    const before = await rolledUpMarkets(db, DATASET, keys);
    expect(before).toEqual(await oracleMarkets(db, DATASET, keys));
    // the sample's newest sale is 2016-11-25: its latest full quarter ends 2016-09-30
    expect(before[0]!.end).toBe('2016-09-30');
    // the next week's file: one more Cessnock house, sold on the last day of the year
    const week = join(dir, 'psi-20170109');
    mkdirSync(week);
    writeFileSync(
      join(week, '20170109-B.txt'),
      'B;001;9999001;1;20170109 01:00;;;1;VIEW ST;CESSNOCK;2325;600;M;20161231;20170120;480000;R3;R;RESIDENCE;;MAA;;0;AM99999;\n',
    );
    writeFileSync(join(week, '20170109-C.txt'), 'C;001;9999001;1;20170109 01:00;1/1/999999;\n');
    await ingestNswSales(db, { file: week, dataset: DATASET, snapshot: 'psi-20170109', progress: quiet() });
    const after = await rolledUpMarkets(db, DATASET, keys);
    expect(after).toEqual(await oracleMarkets(db, DATASET, keys));
    expect(after[0]!.end).toBe('2016-12-31');
    const q4 = (row: (typeof after)[number]) =>
      row.quarters.find((q) => q.property_type === 'house' && q.quarter === '2016-10-01')?.sales ?? 0;
    expect(q4(after[0]!)).toBe(q4(before[0]!) + 1);
    // the trailing year now ends with that quarter (the sample's sales are all of it), the new sale in it
    const year = (row: (typeof after)[number]) => row.windows.find((w) => w.property_type === 'house' && w.k === 0);
    expect(year(before[0]!)).toBeUndefined();
    expect(year(after[0]!)!.sales).toBe(q4(after[0]!));
    const market = suburbMarket({ ...after[0]!, state: 'NSW', suburb: 'CESSNOCK' });
    expect(market.latest_quarter).toBe('2016-Q4');
  });

  it('reads a weekly zip and a zip inside a zip, with A and Z records', () => {
    const week = [
      'A;RTSALEDATA;001;20170102 01:00;VALNET;',
      'B;001;4171;2;20170102 01:00;;;20;BOWEN ST;BRANXTON;2335;850.8;M;20161021;20161118;335000;R3;R;RESIDENCE;;MAB;;0;AK963668;',
      'C;001;4171;2;20170102 01:00;33/603311;',
      'D;001;4171;2;20170102 01:00;P;;;;;;',
      'Z;4;1;1;1;',
    ].join('\r\n');
    const inner = zipOf([{ name: '001_SALES_DATA_NNME_02012017.DAT', data: Buffer.from(week) }]);
    writeFileSync(join(dir, 'year.zip'), zipOf([{ name: '20170102.zip', data: inner }]));
    expect(readZip(join(dir, 'year.zip')).map((e) => e.name)).toEqual(
      ['year.zip/20170102.zip/001_SALES_DATA_NNME_02012017.DAT'].map((n) => join(dir, n)),
    );
    const { sales } = parsePsi(salesTexts(join(dir, 'year.zip')));
    expect(sales).toHaveLength(1);
    expect(sales[0]).toMatchObject({ legal_description: '33/603311', price: 335000 });
  });

  it('refuses a corrupt or truncated zip with an IngestError naming the file, the inner zip too', () => {
    const week = Buffer.from('A;RTSALEDATA;001;20170102 01:00;VALNET;\r\nZ;1;0;0;0;\r\n'.repeat(50));
    const whole = zipOf([{ name: 'week.DAT', data: week }]);
    const cases: Array<[string, Buffer]> = [
      ['not-a-zip.zip', Buffer.from('this is no zip archive at all')],
      ['truncated.zip', whole.subarray(0, whole.length - 30)],
      ['empty.zip', Buffer.alloc(0)],
    ];
    for (const [file, bytes] of cases) {
      writeFileSync(join(dir, file), bytes);
      expect(() => readZip(join(dir, file)), file).toThrow(IngestError);
      expect(() => readZip(join(dir, file)), file).toThrow(file);
    }
    // a weekly zip whose deflated data is cut short, inside a whole yearly zip
    const inner = zipOf([{ name: 'week.DAT', data: week }]);
    const cut = Buffer.from(inner);
    cut.fill(0xff, 40, 60); // the deflated stream of week.DAT, damaged
    writeFileSync(join(dir, 'year-bad.zip'), zipOf([{ name: '20170102.zip', data: cut }]));
    expect(() => salesTexts(join(dir, 'year-bad.zip'))).toThrow(IngestError);
    expect(() => salesTexts(join(dir, 'year-bad.zip'))).toThrow('year-bad.zip/20170102.zip');
    // what the reader does read: the whole archive
    writeFileSync(join(dir, 'whole.zip'), whole);
    expect(readZip(join(dir, 'whole.zip')).map((e) => e.data.equals(week))).toEqual([true]);
  });

  it('refuses records that are not the current layout, naming what is missing', () => {
    expect(() => parsePsi(salesTexts(join(FIXTURES, 'nsw-sales-archive-layout.DAT')))).toThrow(IngestError);
    expect(() =>
      parsePsi([
        {
          name: 'short.DAT',
          text: 'B;001;4171;2;20170102 01:00;;;20;BOWEN ST;BRANXTON;2335;850.8;M;20161021;20161118;335000;R3;R;RESIDENCE;\n',
        },
      ]),
    ).toThrow(/missing component code, sale code, % interest of sale, dealing number/);
    expect(() => parsePsi([{ name: 'x.DAT', text: 'A;LVDATA;001;20170102 01:00;VALNET;\n' }])).toThrow(
      /not RTSALEDATA/,
    );
    expect(() => parsePsi([{ name: 'x.DAT', text: 'C;001;1;1;20170102 01:00;1/1;\n' }])).toThrow(
      /no B \(sale\) record/,
    );
  });

  it('loads rental bond lodgements and holdings into quarterly medians, idempotently', async () => {
    const lodgements = join(FIXTURES, 'nsw-rental-bond-lodgements-2024-03.csv');
    const holdings = join(FIXTURES, 'nsw-rental-bond-holdings-2024-03.csv');
    const run = async () =>
      loadRentalBonds(
        db,
        await prepareRentalBondsIngest({ lodgements, holdings, dataset: DATASET, snapshot: 'rb-2024-03' }),
      );
    const first = await run();
    expect(first.lodgements!.quarters).toEqual(['2024-01-01']);
    const read = () =>
      rows<{
        area: string;
        dwelling_type: string;
        bedrooms: string;
        median_weekly_rent: number | null;
        new_bonds: number;
        bonds_held: number | null;
      }>(
        `SELECT area, dwelling_type, bedrooms, median_weekly_rent, new_bonds, bonds_held FROM market.rent_bond
         WHERE dataset = '${DATASET}' ORDER BY 1, 2, 3`,
      );
    const before = await read();
    // the median by hand from the fixture's rows
    const [hand] = await rows<{ median: number; n: number }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY weekly_rent) AS median, count(*)::int AS n FROM market.bond_lodgement
       WHERE dataset = '${DATASET}' AND postcode = '2325' AND dwelling_type = 'house'`,
    );
    const house2325 = before.find((r) => r.area === '2325' && r.dwelling_type === 'house' && r.bedrooms === 'all')!;
    expect(house2325.median_weekly_rent).toBe(hand!.median);
    expect(house2325.new_bonds).toBe(hand!.n);
    expect(house2325.bonds_held).toBeGreaterThan(0);
    const all2325 = before.find((r) => r.area === '2325' && r.dwelling_type === 'all')!;
    expect(all2325.new_bonds).toBeGreaterThan(house2325.new_bonds);
    await run();
    expect(await read()).toEqual(before);
    // served by bedrooms: the suburb market of postcode 2325 carries the file's own medians per count
    const byHand = await rows<{ bedrooms: string; median: number | null; n: number }>(
      `SELECT bedrooms, CASE WHEN count(weekly_rent) >= 5 THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY weekly_rent) END AS median,
         count(*)::int AS n
       FROM market.bond_lodgement WHERE dataset = '${DATASET}' AND postcode = '2325' AND dwelling_type = 'house'
       GROUP BY bedrooms ORDER BY bedrooms`,
    );
    expect(byHand.map((r) => r.bedrooms)).toEqual(['2', '3', '4']);
    const [row] = (
      await db.sql<SuburbMarketWire>(SUBURB_MARKETS(DATASET, ['NSW'], ['CESSNOCK'], ['2325'], [null], 5))
    ).map(decodeSuburbMarket);
    const market = suburbMarket({ ...row!, state: 'NSW', suburb: 'CESSNOCK', end: '2024-03-31' });
    const house = market.summary.find((s) => s.property_type === 'house')!;
    expect(house.median_weekly_rent).toBe(hand!.median);
    expect(house.rents_by_bedrooms).toEqual(
      byHand.map((r) => ({
        bedrooms: r.bedrooms,
        median_weekly_rent: r.median,
        new_bonds: r.n,
        bonds_held: before.find((b) => b.area === '2325' && b.dwelling_type === 'house' && b.bedrooms === r.bedrooms)!
          .bonds_held,
      })),
    );
    expect(market.rents.filter((r) => r.dwelling_type === 'unit' && r.bedrooms === '1')).toHaveLength(1);
  });

  it('loads the real lodgements workbook as published: title rows, day serials, a rent of U', async () => {
    const run = async () =>
      loadRentalBonds(
        db,
        await prepareRentalBondsIngest({ lodgements: BONDS_SAMPLE, dataset: REAL_DATASET, snapshot: 'rb-2024-03' }),
      );
    const first = await run();
    // 143 data rows below the title rows and the header (row 3): 67 of postcode 2321, 76 of 2325
    expect(first.lodgements).toEqual({
      file: 'rental-bond_lodgements_march_2024.xlsx',
      read: 143,
      loaded: 143,
      quarters: ['2024-01-01'],
    });
    expect(first.refused).toEqual([]);
    // sheet row 17595, the first kept: 45352 (1 March 2024), 2321, F, 2 bedrooms, $390
    const [row] = await rows<{
      lodgement_date: string;
      postcode: string;
      dwelling_type: string;
      bedrooms: string;
      weekly_rent: number;
    }>(
      `SELECT to_char(lodgement_date, 'YYYY-MM-DD') AS lodgement_date, postcode, dwelling_type, bedrooms, weekly_rent
       FROM market.bond_lodgement WHERE dataset = '${REAL_DATASET}' AND line = 17595`,
    );
    expect(row).toEqual({
      lodgement_date: '2024-03-01',
      postcode: '2321',
      dwelling_type: 'unit',
      bedrooms: '2',
      weekly_rent: 390,
    });
    // row 17910: a 2325 house whose Weekly Rent is "U" (unknown) is a lodgement without a rent
    const [unknown] = await rows<{ postcode: string; dwelling_type: string; weekly_rent: number | null }>(
      `SELECT postcode, dwelling_type, weekly_rent FROM market.bond_lodgement WHERE dataset = '${REAL_DATASET}' AND line = 17910`,
    );
    expect(unknown).toEqual({ postcode: '2325', dwelling_type: 'house', weekly_rent: null });
    const read = () =>
      rows<{
        area: string;
        dwelling_type: string;
        bedrooms: string;
        median_weekly_rent: number | null;
        new_bonds: number;
      }>(
        `SELECT area, dwelling_type, bedrooms, median_weekly_rent, new_bonds FROM market.rent_bond
         WHERE dataset = '${REAL_DATASET}' AND bedrooms = 'all' AND dwelling_type IN ('house', 'unit', 'all') ORDER BY 1, 2`,
      );
    const before = await read();
    // counted and read off the workbook's rows: 2321 all 67 (median $595), houses 57 (median $610), units 3 (too few for a
    // median); 2325 houses 64 of which 63 with a rent (median $500), units 11 (median $400)
    expect(before).toEqual([
      { area: '2321', dwelling_type: 'all', bedrooms: 'all', median_weekly_rent: 595, new_bonds: 67 },
      { area: '2321', dwelling_type: 'house', bedrooms: 'all', median_weekly_rent: 610, new_bonds: 57 },
      { area: '2321', dwelling_type: 'unit', bedrooms: 'all', median_weekly_rent: null, new_bonds: 3 },
      { area: '2325', dwelling_type: 'all', bedrooms: 'all', median_weekly_rent: 500, new_bonds: 76 },
      { area: '2325', dwelling_type: 'house', bedrooms: 'all', median_weekly_rent: 500, new_bonds: 64 },
      { area: '2325', dwelling_type: 'unit', bedrooms: 'all', median_weekly_rent: 400, new_bonds: 11 },
    ]);
    const [credit] = await rows<{ attribution: string; license: string }>(
      `SELECT attribution, license FROM public.dataset_source WHERE dataset = '${REAL_DATASET}' AND layer = 'market-rents'`,
    );
    expect(credit).toEqual({
      attribution: 'Rental bond data © State of New South Wales (NSW Fair Trading), CC BY 4.0',
      license: 'CC BY 4.0',
    });
    await run();
    expect(await read()).toEqual(before);
  });

  it('refuses a workbook without the lodgement columns, and a file that is no workbook, naming them', async () => {
    const sheet = (cells: string) =>
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${cells}</sheetData></worksheet>`;
    const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const book = join(dir, 'no-columns.xlsx');
    writeFileSync(
      book,
      zipOf([
        {
          name: 'xl/worksheets/sheet1.xml',
          data: Buffer.from(
            sheet(`<row r="1">${cell('A1', 'Lodgement Date')}${cell('B1', 'Postcode')}${cell('C1', 'Bedrooms')}</row>`),
          ),
        },
      ]),
    );
    await expect(prepareRentalBondsIngest({ lodgements: book, dataset: DATASET })).rejects.toThrow(
      /no-columns\.xlsx is missing columns Dwelling Type, Weekly Rent/,
    );
    const notBook = join(dir, 'not-a-book.xlsx');
    writeFileSync(notBook, 'Lodgement Date,Postcode\n');
    await expect(prepareRentalBondsIngest({ lodgements: notBook, dataset: DATASET })).rejects.toThrow(
      /not-a-book\.xlsx is not a readable \.xlsx workbook/,
    );
  });

  it('refuses a lodgements file without its columns, naming them', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'Lodgement Date,Postcode,Bedrooms\n01/03/2024,2325,2\n');
    await expect(prepareRentalBondsIngest({ lodgements: bad, dataset: DATASET })).rejects.toThrow(
      /missing columns Dwelling Type, Weekly Rent/,
    );
    expect(sheetDate('45352')).toBe('2024-03-01');
    expect(sheetDate('1/3/2024')).toBe('2024-03-01');
  });

  it('loads ABS building approvals by SA2 (labelled export), idempotently; other region types are skipped', async () => {
    const file = join(FIXTURES, 'abs-ba-sa2-labelled.csv');
    const run = async () =>
      loadAbsApprovals(db, await prepareAbsApprovalsIngest({ file, dataset: DATASET, snapshot: 'ba-2024' }));
    const first = await run();
    expect(first).toMatchObject({ loaded: 12, otherRegions: 1, sa2s: 1, states: ['NSW'] });
    const read = () =>
      rows<{ n: number; total: number; name: string }>(
        `SELECT count(*)::int AS n, sum(value)::float8 AS total, min(sa2_name) AS name FROM market.building_approval WHERE dataset = '${DATASET}'`,
      );
    const before = await read();
    expect(before[0]).toMatchObject({ n: 12, name: 'Cessnock' });
    await run();
    expect(await read()).toEqual(before);
    expect(codeAndLabel('110: Houses')).toEqual({ code: '110', label: 'Houses' });
    expect(dwellingOfBuilding('120', 'Other residential')).toBe('unit');
    expect(periodStart('2024-Q2')).toEqual({ period: '2024-04-01', freq: 'Q' });
  });

  it('names the SA2s of a code-only approvals export from the ASGS names file, tying them to the suburb', async () => {
    const codeOnly = join(dir, 'ba-codes.csv');
    writeFileSync(
      codeOnly,
      [
        'DATAFLOW,MEASURE,SECTOR,WORK_TYPE,BUILDING_TYPE,REGION_TYPE,REGION,FREQ,TIME_PERIOD,OBS_VALUE,UNIT_MEASURE',
        ...['2024-01', '2024-02', '2024-03', '2024-04'].map(
          (month, n) => `ABS:BA_SA2(2.0.0),1,9,TOT,110,SA2,106011190,M,${month},${n + 2},NUM`,
        ),
      ].join('\n'),
    );
    await loadAbsApprovals(
      db,
      await prepareAbsApprovalsIngest({ file: codeOnly, dataset: DATASET, snapshot: 'ba-codes' }),
    );
    const market = async () => {
      const [row] = (
        await db.sql<SuburbMarketWire>(SUBURB_MARKETS(DATASET, ['NSW'], ['HEDDON GRETA'], ['2321'], [null], 5))
      ).map(decodeSuburbMarket);
      return suburbMarket({ ...row!, state: 'NSW', suburb: 'HEDDON GRETA', end: '2024-06-30' });
    };
    // a code alone names no suburb
    expect((await market()).approvals).toEqual([]);
    const names = await ingestSa2Names(db, { file: join(FIXTURES, 'asgs-sa2-names-2021.csv'), dataset: DATASET });
    expect(names).toMatchObject({ edition: '2021', read: 4, loaded: 3 });
    expect(names.refused).toEqual([
      expect.objectContaining({ feature: 5, reason: expect.stringMatching(/nine-digit/) }),
    ]);
    const named = await market();
    expect(named).toMatchObject({ sa2_code: '106011190', sa2_name: 'Heddon Greta - Fixture', approvals_12m: 14 });
    expect(named.approvals.map((a) => [a.period, a.value])).toEqual([
      ['2024-Q1', 9],
      ['2024-Q2', 5],
    ]);
    // a labelled export keeps its own label
    await loadAbsApprovals(
      db,
      await prepareAbsApprovalsIngest({ file: join(FIXTURES, 'abs-ba-sa2-labelled.csv'), dataset: DATASET }),
    );
    const [cessnock] = (
      await db.sql<SuburbMarketWire>(SUBURB_MARKETS(DATASET, ['NSW'], ['CESSNOCK'], [null], [null], 5))
    ).map(decodeSuburbMarket);
    expect(new Set(cessnock!.approvals.map((a) => a.sa2_name))).toEqual(new Set(['Cessnock']));
    // a rerun replaces names, and a file without the columns is refused naming them
    expect(
      (await ingestSa2Names(db, { file: join(FIXTURES, 'asgs-sa2-names-2021.csv'), dataset: DATASET })).loaded,
    ).toBe(3);
    await expect(
      ingestSa2Names(db, { file: join(FIXTURES, 'abs-ba-sa2-labelled.csv'), dataset: DATASET }),
    ).rejects.toThrow(/lacks SA2_CODE_<year> and SA2_NAME_<year>/);
  });

  it('loads real ASGS 2021 SA2 names (data/samples/asgs-2021-sa2-names), the repo-trimmed columns included', async () => {
    const real = fileURLToPath(new URL('../data/samples/asgs-2021-sa2-names/SA2_2021_AUST.csv', import.meta.url));
    const names = await ingestSa2Names(db, { file: real, dataset: DATASET });
    expect(names).toMatchObject({ edition: '2021', read: 4, loaded: 4, refused: [] });
    // as the sample's rows give them: 106011109 is "Cessnock Surrounds" (renamed in 2021, change flag 3),
    // not the "Cessnock" the labelled approvals fixture gives it; Cessnock itself is 106011108
    const rows = await db.query<{ sa2_code: string; sa2_name: string; state: string; asgs_edition: string }>(
      `SELECT sa2_code, sa2_name, state, asgs_edition FROM market.sa2_name
        WHERE dataset = '${DATASET}' AND sa2_code IN ('106011108', '106011109', '106011113', '206071142') ORDER BY sa2_code`,
    );
    expect(rows).toEqual([
      { sa2_code: '106011108', sa2_name: 'Cessnock', state: 'NSW', asgs_edition: '2021' },
      { sa2_code: '106011109', sa2_name: 'Cessnock Surrounds', state: 'NSW', asgs_edition: '2021' },
      { sa2_code: '106011113', sa2_name: 'Singleton Surrounds', state: 'NSW', asgs_edition: '2021' },
      { sa2_code: '206071142', sa2_name: 'Fitzroy', state: 'VIC', asgs_edition: '2021' },
    ]);
  });

  it('refuses an approvals file without its columns, naming them', async () => {
    const bad = join(dir, 'ba.csv');
    copyFileSync(join(FIXTURES, 'abs-ba-sa2-labelled.csv'), join(dir, 'ok.csv'));
    writeFileSync(bad, 'DATAFLOW,MEASURE,REGION,TIME_PERIOD\nABS:BA_SA2(2.0.0),1,106011109,2024-01\n');
    await expect(prepareAbsApprovalsIngest({ file: bad, dataset: DATASET })).rejects.toThrow(
      /missing columns OBS_VALUE, BUILDING_TYPE/,
    );
  });
});
