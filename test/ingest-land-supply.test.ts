/**
 * `landgraph ingest land-supply` against the database: the labelled fixtures of the operator
 * layout (test/fixtures/land-supply/README.txt) loaded into the live dataset for two weeks and
 * read back through the REST routes with a live key.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAND_SUPPLY_INGEST_USAGE, formatLandSupplySummary } from '../cli/ingest/land-supply-cli.ts';
import { loadLandSupply, prepareLandSupplyIngest } from '../cli/ingest/land-supply.ts';
import { main } from '../cli/main.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

const fixture = (name: string) => new URL(`./fixtures/land-supply/${name}`, import.meta.url).pathname;
const ESTATES = fixture('estates.csv');
const LOTS = fixture('lots.csv');
const DRAWN = fixture('lots.geojson');
const W1 = '2025-11-03';
const W2 = '2025-11-10';

describe('ingest land-supply', () => {
  let t: TestRuntime;
  let liveKey: string;
  let dir: string;
  const get = (path: string, query: Record<string, string> = {}) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${liveKey}`);
  const lots = () =>
    t.runtime.db.query<Record<string, unknown>>(
      `SELECT lot_id, estate_id, lot_number, state, suburb, asking_price, area_m2, frontage_m, depth_m, title_status,
         sales_status, aspect, aspect_source, listed_week::text, updated_at::text, boundary IS NOT NULL AS drawn
       FROM supply.lot WHERE dataset = 'live' AND estate_id LIKE 'FIX-%' ORDER BY lot_id`,
    );
  const cleanUp = () =>
    t.runtime.db.exec(`
      DELETE FROM supply.lot_snapshot WHERE dataset = 'live' AND lot_id LIKE 'FIX-%';
      DELETE FROM supply.lot WHERE dataset = 'live' AND estate_id LIKE 'FIX-%';
      DELETE FROM supply.estate WHERE dataset = 'live' AND estate_id LIKE 'FIX-%';
      DELETE FROM supply.weekly_rollup WHERE dataset = 'live' AND week IN ('${W1}', '${W2}');
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'land-supply' AND snapshot_id LIKE 'ls-fixture%';`);

  beforeAll(async () => {
    t = await testRuntime();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['land-supply.read'] });
    dir = mkdtempSync(join(tmpdir(), 'landgraph-land-supply-'));
    await cleanUp();
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    t.runtime.catalog.invalidate();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a file lacking a required column, naming the column, before any database work', async () => {
    const noStatus = join(dir, 'no-status.csv');
    writeFileSync(noStatus, 'Estate ID,Lot,Title,Price,Latitude,Longitude\nFIX-VIC-1,1,Titled,1,-37.6,145\n');
    await expect(prepareLandSupplyIngest({ lots: noStatus })).rejects.toThrow(
      /no-status\.csv is not a land-supply lots file: it lacks a sales_status column \(salesstatus, status, availability\)/,
    );
    const noPlace = join(dir, 'no-place.csv');
    writeFileSync(noPlace, 'estate_id,name,state,status\nFIX-VIC-1,A,VIC,selling\n');
    await expect(prepareLandSupplyIngest({ estates: noPlace })).rejects.toThrow(/lacks a lat column .*; a lng column/);
    await expect(prepareLandSupplyIngest({ estates: ESTATES, dataset: 'sandbox' })).rejects.toThrow(/sandbox/);
    await expect(prepareLandSupplyIngest({ lots: LOTS, week: '2025-02-30' })).rejects.toThrow(/--week/);
    await expect(prepareLandSupplyIngest({})).rejects.toThrow(/--estates FILE, --lots FILE/);
    const notGeo = join(dir, 'not.geojson');
    writeFileSync(notGeo, '{"type": "Feature"}');
    await expect(prepareLandSupplyIngest({ lots: notGeo })).rejects.toThrow(/not a GeoJSON FeatureCollection/);
    // the command line: exit 2 with the reason and the usage, nothing loaded
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string) => errors.push(chunk) > 0;
    try {
      expect(await main(['ingest', 'land-supply', '--lots', noStatus])).toBe(2);
      expect(await main(['ingest', 'land-supply'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(errors.join('')).toContain('lacks a sales_status column');
    expect(errors.join('')).toContain(LAND_SUPPLY_INGEST_USAGE.split('\n')[0]!);
  });

  it('loads estates and a week of lots: upserts, refusals listed, snapshots, credit and the rolled-up week; a rerun changes nothing', async () => {
    const run = await prepareLandSupplyIngest({
      estates: ESTATES,
      lots: LOTS,
      week: '2025-11-05',
      snapshot: 'ls-fixture-1',
    });
    expect(run.week).toBe(W1);
    const first = await loadLandSupply(t.runtime.db, run);
    expect(first.estates).toMatchObject({ read: 5, inserted: 3, updated: 0, unchanged: 0 });
    expect(first.estates.refused.map((n) => [n.feature, n.reason])).toEqual([
      [4, 'no name'],
      [6, 'unknown state "ZZ"'],
    ]);
    expect(first.lots).toMatchObject({ read: 9, inserted: 6, updated: 0, unchanged: 0, snapshotted: 6 });
    expect(first.lots.refused.map((n) => [n.feature, n.reason])).toEqual([
      [7, 'unknown sales status "Eaten by the dog"'],
      [8, "no estate FIX-VIC-9 in the estates file or dataset 'live'"],
      [9, 'no location (lat and lng, or a geometry)'],
    ]);
    expect(first.states).toEqual(['NSW', 'VIC']);
    expect(first.rollup_rows).toBeGreaterThan(0);
    const summary = formatLandSupplySummary(first);
    expect(summary).toContain('lots lots.csv: read 9, inserted 6, updated 0, unchanged 0, refused 3, snapshotted 6');
    expect(summary).toContain('lots.csv line 8 (FIX-VIC-9 lot 1): no estate FIX-VIC-9');

    const before = await lots();
    expect(before.map((l) => [l.lot_id, l.sales_status, l.title_status, l.asking_price])).toEqual([
      ['FIX-NSW-1-1', 'sold', 'titled', 650000],
      ['FIX-VIC-1-101', 'available', 'titled', 385000],
      ['FIX-VIC-1-102', 'under_offer', 'titled', 392000],
      ['FIX-VIC-1-103', 'sold', 'untitled', 401500],
      ['FIX-VIC-1-104', 'available', 'untitled', 355000],
      ['FIX-VIC-1-105', 'available', 'titled', null],
    ]);
    expect(before[1]).toMatchObject({
      state: 'VIC',
      suburb: 'FIXTUREVILLE',
      area_m2: 448,
      frontage_m: 14,
      depth_m: 32,
      aspect: 'N',
      aspect_source: 'text-flip',
      listed_week: W1,
    });
    const [source] = await t.runtime.db.query<{ snapshot_id: string; license: string }>(
      `SELECT snapshot_id, license FROM public.dataset_source WHERE dataset = 'live' AND layer = 'land-supply' AND state = 'VIC'`,
    );
    expect(source).toMatchObject({
      snapshot_id: 'ls-fixture-1',
      license: expect.stringMatching(/Not openly licensed/),
    });

    const again = await loadLandSupply(t.runtime.db, run);
    expect(again.estates).toMatchObject({ inserted: 0, updated: 0, unchanged: 3 });
    expect(again.lots).toMatchObject({ inserted: 0, updated: 0, unchanged: 6, snapshotted: 6 });
    expect(await lots()).toEqual(before);

    // read back with a live key: the estate, its live rollups and its week
    t.runtime.catalog.invalidate();
    const estate = await get('/v1/land-supply/estate/FIX-VIC-1', { weeks: '1' });
    expect(estate.status).toBe(200);
    expect(estate.body.estate).toMatchObject({
      estate_id: 'FIX-VIC-1',
      name: 'Fixture Rise (test)',
      status: 'selling',
      rollup: { available_lots: 3 },
    });
    expect(estate.body.weeks).toEqual([
      expect.objectContaining({
        week: W1,
        active_lots: 4,
        available_lots: 3,
        new_lots: 5,
        median_asking_price: 370000,
      }),
    ]);
    expect(estate.headers['x-service-license']).toMatch(/Not openly licensed/);
  });

  it('reads GeoJSON lots: a drawn lot fronting its road on edge 0 faces north by geometry, a plan north point gives plan-compass', async () => {
    const run = await prepareLandSupplyIngest({ lots: DRAWN, week: W1, snapshot: 'ls-fixture-geo' });
    expect(run.lots.refused.map((n) => [n.feature, n.reason])).toEqual([
      [3, 'frontage_edge "7" is not an edge of the lot\'s drawn boundary'],
    ]);
    const result = await loadLandSupply(t.runtime.db, run);
    expect(result.lots).toMatchObject({ inserted: 2, snapshotted: 2 });
    const drawn = (await lots()).filter((l) => String(l.lot_number).startsWith('20'));
    expect(drawn.map((l) => [l.lot_id, l.aspect, l.aspect_source, l.drawn])).toEqual([
      ['FIX-VIC-1-201', 'N', 'geometry', true],
      ['FIX-VIC-1-202', 'E', 'plan-compass', false],
    ]);
    const near = await get('/v1/land-supply/lots/nearby', { lat: '-37.6008', lng: '145.0011', radius_km: '1' });
    expect(near.status).toBe(200);
    expect((near.body.data as Array<{ lot_id: string }>)[0]!.lot_id).toBe('FIX-VIC-1-201');
  });

  it('takes the next week: a changed lot is updated, a lot left off the list counts as delisted in the rollup', async () => {
    const body = readFileSync(LOTS, 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('FIX-VIC-1,104,'))
      .map((line) => (line.startsWith('FIX-VIC-1,101,') ? line.replace('Available', 'Sold') : line))
      .join('\n');
    const next = join(dir, 'lots-w2.csv');
    writeFileSync(next, body);
    const before = new Map((await lots()).map((l) => [l.lot_id, l]));
    const result = await loadLandSupply(
      t.runtime.db,
      await prepareLandSupplyIngest({ lots: next, week: W2, snapshot: 'ls-fixture-2' }),
    );
    expect(result.lots).toMatchObject({ inserted: 0, updated: 1, unchanged: 4, snapshotted: 5 });
    const after = new Map((await lots()).map((l) => [l.lot_id, l]));
    expect(after.get('FIX-VIC-1-101')).toMatchObject({ sales_status: 'sold', listed_week: W1 });
    expect(after.get('FIX-VIC-1-101')!.updated_at).not.toBe(before.get('FIX-VIC-1-101')!.updated_at);
    expect(after.get('FIX-VIC-1-102')).toEqual(before.get('FIX-VIC-1-102'));
    const [week] = await t.runtime.db.query<Record<string, number>>(
      `SELECT active_lots, available_lots, new_lots, sold_or_delisted_lots FROM supply.weekly_rollup
       WHERE dataset = 'live' AND level = 'estate' AND place = 'FIX-VIC-1' AND week = $1`,
      [W2],
    );
    // W1 on the market: 101, 102, 104, 105, 201, 202; W2: 101 sold, 104 and 201/202 not listed
    expect(week).toEqual({ active_lots: 2, available_lots: 1, new_lots: 0, sold_or_delisted_lots: 4 });
  });
});
