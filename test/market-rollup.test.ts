import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime } from '../app/runtime.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { createApp } from '../rest-facade/app.ts';
import type { MarketKey } from './support/market-oracle.ts';
import { oracleMarkets, rolledUpMarkets } from './support/market-oracle.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

/*
 * The market trends read their sales figures from a rollup (migration 0027) that the writers of
 * market.sale keep in their own transactions (triggers): the rolled-up path answers exactly what
 * the old statement, aggregating every sale per call, answered (the oracle, test/support/market-oracle.ts),
 * for every sandbox suburb, and after every kind of write.
 */

const DATASET = 'rollup_test';

describe('the market sales rollup', () => {
  let db: Database;

  const cleanUp = () =>
    db.exec(`DELETE FROM market.sale WHERE dataset = '${DATASET}';
      DELETE FROM address.locality WHERE dataset = '${DATASET}';
      DELETE FROM market.building_approval WHERE dataset = '${DATASET}';
      DELETE FROM market.sa2_name WHERE dataset = '${DATASET}';`);

  beforeAll(async () => {
    db = (await testRuntime()).runtime.db;
    await cleanUp();
  });

  afterAll(async () => {
    await cleanUp();
  });

  /** Both paths over the same keys, and the answers compared whole (floats to the last bit). */
  async function expectSame(dataset: string, keys: MarketKey[]) {
    const [oracle, rolled] = await Promise.all([oracleMarkets(db, dataset, keys), rolledUpMarkets(db, dataset, keys)]);
    expect(rolled).toHaveLength(keys.length);
    expect(rolled).toEqual(oracle);
    expect(JSON.stringify(rolled)).toBe(JSON.stringify(oracle));
    return rolled;
  }

  it('answers every sandbox suburb as the old statement did: with its own postcode, with one given, and an unknown name', async () => {
    const suburbs = await db.query<{ state: string; suburb: string }>(
      `SELECT DISTINCT state, upper(locality_name) AS suburb FROM address.locality WHERE dataset = 'sandbox'
       UNION SELECT DISTINCT state, upper(locality) FROM market.sale WHERE dataset = 'sandbox' AND locality IS NOT NULL
       ORDER BY 1, 2`,
    );
    // the sandbox's six suburbs, in three states
    expect(suburbs.length).toBeGreaterThanOrEqual(6);
    expect(new Set(suburbs.map((s) => s.state)).size).toBe(3);
    const keys: MarketKey[] = [
      ...suburbs.map((s) => ({ ...s, postcode: null })),
      ...suburbs.map((s) => ({ ...s, postcode: '2000' })),
      { state: 'NSW', suburb: 'NOWHERESVILLE', postcode: null },
      { state: 'TAS', suburb: 'HOBART', postcode: null },
    ];
    const rows = await expectSame('sandbox', keys);
    // the comparison is of real figures: quarters, every window, rents and approvals
    const sold = rows.filter((r) => r.quarters.length > 0);
    expect(sold.length).toBe(suburbs.length * 2);
    expect(sold.every((r) => r.windows.some((w) => w.k === 5) && r.end !== null)).toBe(true);
    expect(sold.some((r) => r.quarters.some((q) => q.median_price === null))).toBe(true);
    expect(rows.at(-2)).toMatchObject({ known_locality: false, quarters: [], windows: [] });
    // nothing is left marked once the writers committed
    expect(await db.query('SELECT 1 FROM market.sale_rollup_pending')).toEqual([]);
  });

  it('follows every write to market.sale in the writer transaction: insert, update, move, delete, rollback', async () => {
    const sale = (id: string, locality: string | null, date: string | null, price: number, type = 'house') =>
      `('${DATASET}', 'test', '${id}', 'TAS', ${date ? `DATE '${date}'` : 'NULL'}, NULL, ${price}, '${type}',
        ${locality ? `'${locality}'` : 'NULL'}, '700${id.length % 3}', 't', 't')`;
    const insert = (rows: string[]) =>
      `INSERT INTO market.sale (dataset, source, source_record_id, state, contract_date, settlement_date, price,
        property_type, locality, postcode, attribution, license) VALUES ${rows.join(', ')}`;
    const keys: MarketKey[] = [
      { state: 'TAS', suburb: 'ROLLVILLE', postcode: null },
      { state: 'TAS', suburb: 'OTHERTON', postcode: null },
    ];
    await db.exec(`INSERT INTO address.locality (dataset, locality_pid, locality_name, state, postcode)
      VALUES ('${DATASET}', 'L2', 'OTHERTON', 'TAS', '7009'), ('${DATASET}', 'L1', 'OTHERTON', 'TAS', NULL)`);
    // two years of sales of three types, some quarters under the minimum, a median between two prices
    const rows: string[] = [];
    for (let n = 0; n < 60; n += 1) {
      const month = String((n % 12) + 1).padStart(2, '0');
      const year = 2023 + Math.floor(n / 24);
      rows.push(
        sale(`r${n}`, n % 7 === 0 ? 'rollville' : 'ROLLVILLE', `${year}-${month}-1${n % 9}`, 400_000 + n * 1_234.5),
      );
    }
    rows.push(sale('u1', 'ROLLVILLE', '2024-05-02', 333_333, 'unit'), sale('l1', 'ROLLVILLE', null, 99_000, 'land'));
    await db.exec(insert(rows));
    const first = await expectSame(DATASET, keys);
    expect(first[0]!.quarters.length).toBeGreaterThan(8);
    expect(first[0]!.end).toBe('2025-09-30');
    expect(first[1]).toMatchObject({ postcode: '7009', known_locality: true, quarters: [] });

    // a newer sale moves the state's end, and every window with it
    await db.exec(insert([sale('new', 'OTHERTON', '2025-12-31', 500_000)]));
    const moved = await expectSame(DATASET, keys);
    expect(moved[0]!.end).toBe('2025-12-31');
    expect(moved[1]!.quarters).toEqual([
      { property_type: 'house', quarter: '2025-10-01', sales: 1, median_price: null },
    ]);

    // an update of prices, a sale moved to the other suburb, a date cleared
    await db.exec(`UPDATE market.sale SET price = price * 2 WHERE dataset = '${DATASET}' AND source_record_id LIKE 'r1%';
      UPDATE market.sale SET locality = 'Otherton', postcode = '7010' WHERE dataset = '${DATASET}' AND source_record_id IN ('r3', 'r4', 'r5');
      UPDATE market.sale SET contract_date = NULL WHERE dataset = '${DATASET}' AND source_record_id = 'r20'`);
    await expectSame(DATASET, keys);

    // several statements in one transaction are rolled up at its commit; a rollback leaves the rollup as it was
    await db.transaction(async (query) => {
      await query(insert([sale('t1', 'ROLLVILLE', '2024-02-02', 1_000_000), sale('t2', 'ROLLVILLE', '2024-02-03', 1)]));
      await query(`DELETE FROM market.sale WHERE dataset = '${DATASET}' AND source_record_id = 't2'`);
      // marked, not yet refreshed
      expect(await query('SELECT suburb FROM market.sale_rollup_pending WHERE dataset = $1', [DATASET])).toEqual([
        { suburb: 'ROLLVILLE' },
      ]);
    });
    const committed = await expectSame(DATASET, keys);
    const before = JSON.stringify(committed);
    await expect(
      db.transaction(async (query) => {
        await query(insert([sale('gone', 'ROLLVILLE', '2024-02-04', 5)]));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(JSON.stringify(await rolledUpMarkets(db, DATASET, keys))).toBe(before);

    // every sale gone: no rows, no end
    await db.exec(`DELETE FROM market.sale WHERE dataset = '${DATASET}'`);
    const none = await expectSame(DATASET, keys);
    expect(none[0]).toMatchObject({ end: null, quarters: [], windows: [] });
    const left = await db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM market.sale_suburb_quarter WHERE dataset = $1)
        + (SELECT count(*) FROM market.sale_suburb WHERE dataset = $1)
        + (SELECT count(*) FROM market.sale_state WHERE dataset = $1)
        + (SELECT count(*) FROM market.sale_rollup_pending WHERE dataset = $1) AS n`,
      [DATASET],
    );
    expect(Number(left[0]!.n)).toBe(0);
  });

  it("finds a suburb's building approvals by its SA2's name as the old statement did, and only those", async () => {
    const approval = (code: string, name: string | null, period: string, value: number, measure = '1') =>
      `('${DATASET}', 'test', 'TAS', '${code}', ${name === null ? 'NULL' : `'${name}'`}, DATE '${period}', 'M', '${measure}',
        '9', 'TOT', '100', 'house', ${value}, 't', 't')`;
    const names: Array<[string, string]> = [
      ['601011001', 'Castle Hill'],
      ['601011002', 'Castle Hill - North'],
      ['601011003', 'Castle Hill (East)'],
      ['601011004', 'Castle Hillside'],
      ['601011005', 'Castle'],
      ['601011006', 'Castle Hill-South'],
    ];
    await db.exec(`INSERT INTO market.building_approval (dataset, source, state, sa2_code, sa2_name, period, freq,
        measure, sector, work_type, building_type, dwelling_type, value, attribution, license) VALUES
      ${names.map(([code, name], n) => approval(code, name, '2024-01-01', n + 1)).join(',\n')},
      ${approval('601011001', 'Castle Hill', '2024-02-01', 10)}, ${approval('601011001', 'Castle Hill', '2024-04-01', 20)},
      ${approval('601011001', 'Castle Hill', '2024-02-01', 99, '2')},
      ${approval('601011007', null, '2024-01-01', 7)}, ${approval('601011008', null, '2024-01-01', 8)},
      ${approval('601011009', 'Castle Hill - West', '2024-01-01', 9)};
      INSERT INTO market.sa2_name (dataset, sa2_code, sa2_name, state, asgs_edition, attribution, license) VALUES
        ('${DATASET}', '601011007', 'Castle Hill - Code Only', 'TAS', '2021', 't', 't'),
        ('${DATASET}', '601011008', 'Castle Hilltop', 'TAS', '2021', 't', 't'),
        ('${DATASET}', '601011009', 'Renamed By ASGS', 'TAS', '2021', 't', 't')`);
    try {
      const keys: MarketKey[] = ['CASTLE HILL', 'CASTLE', 'CASTLE HILL - NORTH', 'HILL'].map((suburb) => ({
        state: 'TAS',
        suburb,
        postcode: null,
      }));
      const rows = await expectSame(DATASET, keys);
      const codes = rows.map((r) => [...new Set(r.approvals.map((a) => a.sa2_code))]);
      // the name itself, " - " and " (" suffixes, the ASGS name of a code-only row; not "Hillside" nor "Hill-South";
      // an export's own name wins over the ASGS one
      expect(codes[0]).toEqual(['601011001', '601011002', '601011003', '601011007', '601011009']);
      expect(codes[1]).toEqual(['601011005']);
      expect(codes[2]).toEqual(['601011002']);
      expect(codes[3]).toEqual([]);
      // dwelling units only, summed by quarter
      expect(rows[0]!.approvals.filter((a) => a.sa2_code === '601011001')).toEqual([
        { sa2_code: '601011001', sa2_name: 'Castle Hill', quarter: '2024-01-01', dwelling_type: 'house', value: 11 },
        { sa2_code: '601011001', sa2_name: 'Castle Hill', quarter: '2024-04-01', dwelling_type: 'house', value: 20 },
      ]);
      // a name holding LIKE's wildcards is matched as written, where LIKE took "_" for any character
      await db.exec(`INSERT INTO market.building_approval (dataset, source, state, sa2_code, sa2_name, period, freq,
          measure, sector, work_type, building_type, dwelling_type, value, attribution, license) VALUES
        ${approval('601011010', 'Pt_A - Inner', '2024-01-01', 1)}, ${approval('601011011', 'PtXA - Inner', '2024-01-01', 2)}`);
      const [wild] = await rolledUpMarkets(db, DATASET, [{ state: 'TAS', suburb: 'PT_A', postcode: null }]);
      expect(wild!.approvals.map((a) => a.sa2_code)).toEqual(['601011010']);
    } finally {
      await db.exec(`DELETE FROM market.building_approval WHERE dataset = '${DATASET}';
        DELETE FROM market.sa2_name WHERE dataset = '${DATASET}'`);
    }
  });

  it('serves /api/suburb-trends from the rollup: no statement reads the sales, the G-NAF locality folded with the pipeline counts', async () => {
    const statements: string[] = [];
    const recorded = await openDatabase(testConfig(), { onQuery: (sql) => statements.push(sql.replace(/\s+/g, ' ')) });
    const runtime = await startRuntime(testConfig(), { db: recorded, prepare: false });
    try {
      const app = createApp(runtime);
      const key = await createTestKey(runtime, { scopes: ['locality.suburb'] });
      const [sold] = await db.query<{ state: string; suburb: string }>(
        `SELECT state, upper(locality) AS suburb FROM market.sale WHERE dataset = 'sandbox' AND locality IS NOT NULL
         ORDER BY source_record_id LIMIT 1`,
      );
      const data = async (path: string) => {
        await request(app).get(path).set('Authorization', `Bearer ${key}`); // the credits and the key cached
        statements.length = 0;
        const res = await request(app).get(path).set('Authorization', `Bearer ${key}`);
        const own = statements.filter((sql) => !/"platform"\./.test(sql));
        return { status: res.status, own };
      };
      const base = `/api/suburb-trends/${sold!.state}/${encodeURIComponent(sold!.suburb)}`;
      const full = await data(base);
      expect(full.status).toBe(200);
      // the address, development and supply statements folded into one, then the market's
      expect(full.own).toHaveLength(2);
      expect(full.own[0]).toMatch(/FROM address\.locality l/);
      expect(full.own[0]).toMatch(/FROM development\.application/);
      expect(full.own[1]).toMatch(/FROM market\.sale_suburb_quarter q/);
      for (const path of [base, `${base}/prices`, `${base}/rents`, '/api/suburb-trends/NSW/NOWHERESVILLE']) {
        const { own } = await data(path);
        expect(own.length, path).toBeLessThanOrEqual(2);
        expect(
          own.filter((sql) => /market\.sale s\b/.test(sql)),
          path,
        ).toEqual([]);
      }
    } finally {
      await runtime.close();
    }
  });
});
