import { execute, parse } from 'graphql';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubgraphs } from '../app/runtime.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import { SUBURB_METRIC_NAMES } from '../core/suburb-metrics.ts';
import { COMPARABLES, SUBURB_MARKETS } from '../subgraphs/market/sql.ts';
import { marketSuburbMetrics } from '../subgraphs/market/suburb-metrics.ts';
import {
  MIN_SALES_PER_YEAR,
  growthPct,
  grossYieldPct,
  latestFullQuarterEnd,
  quarterLabel,
  suburbMarket,
} from '../subgraphs/market/trends.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

/*
 * The market layer (sales, comparables, suburb trends) on the sandbox and on hand-made rows: the
 * graph, the REST routes, the growth and yield math, the comparables' ranking, the scopes, the
 * property-graph layer and the suburb-analytics provider.
 */

type Place = { parcel_pfi: string; state: string; lat: number; lng: number; gnaf_pid: string; locality: string };
type Body = Record<string, unknown> & { data: Array<Record<string, unknown>> };

/** Hand-made sales of a made-up Tasmanian suburb in the live dataset (see the trends test). */
const TAS = 'MARKETVILLE';
const RANK = 'market_rank';

describe('market', () => {
  let t: TestRuntime;
  let live: string;
  const get = (path: string, query: Record<string, string | number> = {}, key = t.key) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);
  const graphql = (query: string, key = t.key) =>
    request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query });

  /** A sandbox house that sold, with its address. */
  async function soldHouse(state: string): Promise<Place> {
    const [row] = await t.runtime.db.query<Place>(
      `SELECT s.parcel_pfi, s.state, ST_Y(s.geom) AS lat, ST_X(s.geom) AS lng, s.gnaf_pid, s.locality
       FROM market.sale s WHERE s.dataset = 'sandbox' AND s.state = $1 AND s.property_type = 'house'
       ORDER BY s.source_record_id LIMIT 1`,
      [state],
    );
    if (!row) throw new Error(`no sandbox ${state} house sale`);
    return { ...row, lat: Number(row.lat), lng: Number(row.lng) };
  }

  async function cleanUp() {
    await t.runtime.db.exec(`
      DELETE FROM market.sale WHERE (dataset = 'live' AND state = 'TAS') OR dataset = '${RANK}';
      DELETE FROM market.rent_bond WHERE dataset = 'live' AND state = 'TAS';
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND state = 'TAS' AND layer LIKE 'market-%';`);
    t.runtime.catalog.invalidate();
  }

  /** A live TAS house sale of MARKETVILLE on a date at a price. */
  const sale = (id: string, date: string, price: number) =>
    `('live', 'test', '${id}', 'TAS', DATE '${date}', DATE '${date}' + 30, ${price}, 'house', '${TAS}', '7000',
      ST_SetSRID(ST_MakePoint(147.32, -42.88), 4326), 'test sales', 'CC BY 4.0')`;

  let nsw: Place;
  beforeAll(async () => {
    t = await testRuntime();
    live = await createTestKey(t.runtime, { kind: 'live', scopes: ['locality.suburb', 'dossier.read'] });
    nsw = await soldHouse('NSW');
    await cleanUp();
    // the latest full quarter ends 2025-06-30 (the newest sale); four trailing-year windows:
    // k=0 10 sales 500k..590k (median 545k), k=1 10 sales 400k..490k (445k), k=3 9 sales (too few), k=5 10 at 300k
    const rows: string[] = [];
    for (let i = 0; i < 10; i += 1)
      rows.push(sale(`k0-${i}`, i === 9 ? '2025-06-30' : `2025-04-${10 + i}`, 500_000 + i * 10_000));
    for (let i = 0; i < 10; i += 1) rows.push(sale(`k1-${i}`, `2024-04-${10 + i}`, 400_000 + i * 10_000));
    for (let i = 0; i < 9; i += 1) rows.push(sale(`k3-${i}`, `2022-04-${10 + i}`, 350_000));
    for (let i = 0; i < 10; i += 1) rows.push(sale(`k5-${i}`, `2020-04-${10 + i}`, 300_000));
    await t.runtime.db.exec(`
      INSERT INTO market.sale (dataset, source, source_record_id, state, contract_date, settlement_date, price,
        property_type, locality, postcode, geom, attribution, license) VALUES ${rows.join(',\n')};
      INSERT INTO market.rent_bond (dataset, source, state, area_kind, area, dwelling_type, bedrooms, quarter,
        median_weekly_rent, new_bonds, bonds_held, attribution, license)
      VALUES ('live', 'test', 'TAS', 'postcode', '7000', 'house', 'all', DATE '2025-04-01', 600, 31, 280, 'test rents', 'CC BY 4.0'),
        ('live', 'test', 'TAS', 'postcode', '7000', 'house', '3', DATE '2025-04-01', 640, 19, 180, 'test rents', 'CC BY 4.0'),
        ('live', 'test', 'TAS', 'postcode', '7000', 'house', '2', DATE '2025-04-01', 550, 12, 100, 'test rents', 'CC BY 4.0'),
        ('live', 'test', 'TAS', 'postcode', '7000', 'unit', '10', DATE '2025-01-01', 900, 5, 5, 'test rents', 'CC BY 4.0'),
        ('live', 'test', 'TAS', 'postcode', '7000', 'unit', '1', DATE '2025-01-01', 410, 8, 60, 'test rents', 'CC BY 4.0');
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id) VALUES
        ('live', 'market-sales', 'TAS', 'test sales', 'CC BY 4.0', 'market-test'),
        ('live', 'market-rents', 'TAS', 'test rents', 'CC BY 4.0', 'market-test');`);
    t.runtime.catalog.invalidate();
  });

  afterAll(async () => {
    await cleanUp();
  });

  describe('the trends math', () => {
    it('takes the latest full quarter from the newest sale', () => {
      expect(latestFullQuarterEnd('2025-09-30')).toBe('2025-09-30');
      expect(latestFullQuarterEnd('2025-09-29')).toBe('2025-06-30');
      expect(latestFullQuarterEnd('2025-01-01')).toBe('2024-12-31');
      expect(quarterLabel('2025-07-01')).toBe('2025-Q3');
    });

    it('growth is the change in per cent, yield a year of rent over the price', () => {
      expect(growthPct(545_000, 445_000)).toBe(22.5);
      expect(growthPct(90, 100)).toBe(-10);
      expect(growthPct(null, 100)).toBeNull();
      expect(grossYieldPct(600, 545_000)).toBe(5.72);
      expect(grossYieldPct(600, null)).toBeNull();
    });

    it('a median needs enough sales, and says why it is null', () => {
      const market = suburbMarket({
        state: 'TAS',
        suburb: 'X',
        postcode: null,
        end: '2025-06-30',
        quarters: [{ property_type: 'house', quarter: '2025-04-01', sales: 9, median_price: null }],
        windows: [{ property_type: 'house', k: 0, sales: MIN_SALES_PER_YEAR - 1, median_price: 500_000 }],
        rents: [],
        approvals: [],
      });
      expect(market.summary[0]).toMatchObject({ median_price_12m: null, growth_1y_pct: null, gross_yield_pct: null });
      expect(market.summary[0]!.notes.join(' ')).toMatch(/Fewer than 10 sales in the trailing year \(9\)/);
    });

    it('serves rents by dwelling type and bedrooms beside the totals, the yield still on the totals', async () => {
      const res = await get(`/api/suburb-trends/TAS/${TAS}`, {}, live);
      expect(res.status).toBe(200);
      const house = (res.body.summary as Array<Record<string, unknown>>).find((s) => s.property_type === 'house')!;
      expect(house).toMatchObject({ median_weekly_rent: 600, gross_yield_pct: 5.72 });
      expect(house.rents_by_bedrooms).toEqual([
        { bedrooms: '2', median_weekly_rent: 550, new_bonds: 12, bonds_held: 100 },
        { bedrooms: '3', median_weekly_rent: 640, new_bonds: 19, bonds_held: 180 },
      ]);
      // every published row, oldest first, bedrooms in counting order (10 after 2), the totals as 'all'
      expect(
        (res.body.rents as Array<Record<string, string>>).map((r) => `${r.period} ${r.dwelling_type} ${r.bedrooms}`),
      ).toEqual(['2025-Q1 unit 1', '2025-Q1 unit 10', '2025-Q2 house 2', '2025-Q2 house 3', '2025-Q2 house all']);
      const rents = await get(`/api/suburb-trends/TAS/${TAS}/rents`, { property_type: 'house' }, live);
      expect(rents.status).toBe(200);
      expect(rents.body.series).toEqual([
        { period: '2025-Q2', property_type: 'house', median_weekly_rent: 600, new_bonds: 31, bonds_held: 280 },
      ]);
      expect(rents.body.by_bedrooms).toEqual([
        {
          period: '2025-Q2',
          dwelling_type: 'house',
          bedrooms: '2',
          median_weekly_rent: 550,
          new_bonds: 12,
          bonds_held: 100,
        },
        {
          period: '2025-Q2',
          dwelling_type: 'house',
          bedrooms: '3',
          median_weekly_rent: 640,
          new_bonds: 19,
          bonds_held: 180,
        },
      ]);
      const graph = await graphql(
        `{ suburbByName(state: "TAS", name: "${TAS}") { market_trends(property_type: "unit") { data { rents { period dwelling_type bedrooms median_weekly_rent } } } } }`,
        live,
      );
      expect(graph.body.errors).toBeUndefined();
      expect(graph.body.data.suburbByName.market_trends.data.rents).toEqual([
        { period: '2025-Q1', dwelling_type: 'unit', bedrooms: '1', median_weekly_rent: 410 },
        { period: '2025-Q1', dwelling_type: 'unit', bedrooms: '10', median_weekly_rent: 900 },
      ]);
    });

    it('answers hand-made rows through /api/suburb-trends with the figures worked by hand', async () => {
      const res = await get(`/api/suburb-trends/TAS/${TAS.toLowerCase()}`, {}, live);
      expect(res.status).toBe(200);
      expect(res.body.latest_quarter).toBe('2025-Q2');
      const house = (res.body.summary as Array<Record<string, unknown>>).find((s) => s.property_type === 'house')!;
      expect(house).toMatchObject({
        median_price_12m: 545_000,
        sales_12m: 10,
        growth_1y_pct: 22.5,
        growth_3y_pct: null,
        growth_5y_pct: 81.7,
        median_weekly_rent: 600,
        gross_yield_pct: 5.72,
      });
      expect((house.notes as string[]).join(' ')).toMatch(/3 years earlier/);
      // the rents are read by the suburb's postcode (the publisher keys them so), credited with the sales
      expect(res.body.postcode).toBe('7000');
      expect(res.headers['x-service-attribution']).toBe('test sales | test rents');
      const q2 = (res.body.quarters as Array<Record<string, unknown>>).find((q) => q.period === '2025-Q2')!;
      expect(q2).toMatchObject({
        median_price: 545_000,
        sales: 10,
        median_weekly_rent: 600,
        new_bonds: 31,
        bonds_held: 280,
      });
    });
  });

  it('the graph answers a sandbox suburb market with series, growth and yields', async () => {
    const res = await graphql(`{ suburbByName(state: "NSW", name: "${nsw.locality.toLowerCase()}") {
      market_trends { status known attribution license
      data { suburb latest_quarter summary { property_type median_price_12m growth_5y_pct median_weekly_rent gross_yield_pct }
        quarters { period property_type median_price sales median_weekly_rent } sa2_code approvals { period value } } } } }`);
    expect(res.body.errors).toBeUndefined();
    const layer = res.body.data.suburbByName.market_trends;
    expect(layer).toMatchObject({ status: 'ok', known: true });
    expect(layer.data.suburb).toBe(nsw.locality);
    expect(layer.attribution).toMatch(/synthetic demo data/);
    type Summary = {
      property_type: string;
      median_price_12m: number;
      median_weekly_rent: number;
      gross_yield_pct: number;
    };
    const house = (layer.data.summary as Summary[]).find((s) => s.property_type === 'house')!;
    expect(house.median_price_12m).toBeGreaterThan(300_000);
    expect(house.gross_yield_pct).toBeCloseTo((house.median_weekly_rent * 52 * 100) / house.median_price_12m, 1);
    expect(layer.data.quarters.length).toBeGreaterThan(40);
    expect(layer.data.approvals.length).toBeGreaterThan(0);
  });

  describe('REST', () => {
    it('/api/suburb-trends and its prices and rents series; an unknown suburb is a 404', async () => {
      const full = await get(`/api/suburb-trends/nsw/${encodeURIComponent(nsw.locality.toLowerCase())}`);
      expect(full.status).toBe(200);
      expect(full.body.approvals.quarters.length).toBeGreaterThan(0);
      // the pipeline counts the suburb's development applications and land-supply lots
      const [das] = await t.runtime.db.query<{ pending: number; approved: number }>(
        `SELECT count(*) FILTER (WHERE status IN ('lodged', 'under_assessment'))::int AS pending,
           count(*) FILTER (WHERE status = 'approved')::int AS approved
         FROM development.application WHERE dataset = 'sandbox' AND state = 'NSW' AND upper(suburb) = $1`,
        [nsw.locality],
      );
      expect(full.body.pipeline).toMatchObject({
        status: 'ok',
        das_pending: das!.pending,
        das_approved: das!.approved,
      });
      expect(full.body.approvals.approvals_12m).toBeGreaterThan(0);
      // the DA source's credit joins the answer's, body and headers
      expect(full.headers['x-service-attribution']).toBe(full.body.attribution);
      expect(full.body.attribution).toContain(full.body.pipeline.attribution);
      expect(full.headers['x-service-license']).toBe('CC BY 4.0');
      const prices = await get(`/api/suburb-trends/NSW/${encodeURIComponent(nsw.locality)}/prices`, {
        property_type: 'house',
      });
      expect(prices.status).toBe(200);
      const series = prices.body.series as Array<{ period: string; property_type: string; sales: number }>;
      expect(series.every((p) => p.property_type === 'house' && p.sales > 0)).toBe(true);
      expect(series.map((p) => p.period)).toEqual([...series.map((p) => p.period)].sort());
      const rents = await get(`/api/suburb-trends/NSW/${encodeURIComponent(nsw.locality)}/rents`);
      expect(rents.status).toBe(200);
      expect((rents.body.series as Array<{ property_type: string }>).some((p) => p.property_type === 'unit')).toBe(
        true,
      );
      // the sandbox splits its rents by bedrooms too: every quarter of the series, fewest bedrooms first
      const houseRents = await get(`/api/suburb-trends/NSW/${encodeURIComponent(nsw.locality)}/rents`, {
        property_type: 'house',
      });
      const quarters = (houseRents.body.series as Array<{ period: string }>).map((p) => p.period);
      const byBedrooms = houseRents.body.by_bedrooms as Array<{
        period: string;
        bedrooms: string;
        median_weekly_rent: number;
      }>;
      expect(byBedrooms.map((r) => `${r.period} ${r.bedrooms}`)).toEqual(
        quarters.flatMap((q) => ['2', '3', '4'].map((b) => `${q} ${b}`)),
      );
      const latest = byBedrooms.filter((r) => r.period === quarters.at(-1));
      expect(latest[0]!.median_weekly_rent).toBeLessThan(latest[2]!.median_weekly_rent);
      const unknown = await get('/api/suburb-trends/NSW/NOWHERESVILLE');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatch(/Unknown suburb/);
      expect((await get('/api/suburb-trends/XX/PARRAMATTA')).status).toBe(400);
      const badType = await get('/api/suburb-trends/NSW/PARRAMATTA', { property_type: 'castle' });
      expect(badType.status).toBe(400);
      expect(JSON.stringify(badType.body)).toMatch(/property_type/);
    });

    it('/api/property-sales by point, parcel and address, newest first, credited', async () => {
      const near = await get('/api/property-sales', { lat: nsw.lat, lng: nsw.lng, radius_m: 300, limit: 20 });
      expect(near.status).toBe(200);
      const sales = (near.body as Body).data;
      expect(sales.length).toBeGreaterThan(0);
      expect(sales.every((s) => (s.distance_m as number) <= 300.5)).toBe(true);
      const dates = sales.map((s) => s.contract_date as string);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(near.headers['x-service-attribution']).toMatch(/synthetic demo data/);
      const parcel = await get('/api/property-sales', { pfi: nsw.parcel_pfi, state: 'NSW' });
      expect(parcel.status).toBe(200);
      expect((parcel.body as Body).data.every((s) => s.parcel_pfi === nsw.parcel_pfi)).toBe(true);
      expect((parcel.body as Body).data.length).toBeGreaterThan(0);
      const address = await get('/api/property-sales', { gnaf_pid: nsw.gnaf_pid });
      expect((address.body as Body).data.every((s) => s.gnaf_pid === nsw.gnaf_pid)).toBe(true);
      const since = await get('/api/property-sales', {
        lat: nsw.lat,
        lng: nsw.lng,
        radius_m: 1000,
        since: '2025-01-01',
      });
      expect((since.body as Body).data.every((s) => (s.contract_date as string) >= '2025-01-01')).toBe(true);
      const none = await get('/api/property-sales', { pfi: 'NO-SUCH-PARCEL', state: 'NSW' });
      expect(none.body).toMatchObject({ status: 'no_data', count: 0 });
    });

    it('refuses bad input naming the parameter', async () => {
      const cases: Array<[Record<string, string | number>, RegExp]> = [
        [{ lat: nsw.lat, lng: nsw.lng, radius_m: 99_999 }, /radius_m/],
        [{ lat: nsw.lat, lng: nsw.lng, property_type: 'mansion' }, /property_type/],
        [{ lat: nsw.lat, lng: nsw.lng, since: '2025-13-01' }, /since/],
        [{ lat: nsw.lat, lng: nsw.lng, since: '2025-02-01', until: '2025-01-01' }, /since must be on or before until/],
        [{ pfi: nsw.parcel_pfi }, /pfi needs state/],
        [{}, /Identify the place one way/],
        [{ lat: nsw.lat, lng: nsw.lng, limit: 0 }, /limit/],
      ];
      for (const [query, message] of cases) {
        const res = await get('/api/property-sales', query);
        expect(res.status, JSON.stringify(query)).toBe(400);
        expect(JSON.stringify(res.body), JSON.stringify(query)).toMatch(message);
      }
      const comparables = await get('/api/property-sales/comparables', { lat: nsw.lat, lng: nsw.lng, months: 999 });
      expect(comparables.status).toBe(400);
      expect(JSON.stringify(comparables.body)).toMatch(/months/);
    });

    it('/api/property-sales/comparables ranks by the documented score', async () => {
      const res = await get('/api/property-sales/comparables', { pfi: nsw.parcel_pfi, state: 'NSW', limit: 15 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        property_type: 'house',
        property_type_from: 'last_sale',
        radius_m: 1500,
        months: 24,
      });
      const rows = (res.body as Body).data as Array<Record<string, number | string>>;
      expect(rows.length).toBeGreaterThan(3);
      for (const row of rows) {
        expect(row.property_type).toBe('house');
        expect(row.parcel_pfi).not.toBe(nsw.parcel_pfi);
        expect(row.distance_score).toBeCloseTo(1 - (row.distance_m as number) / 1500, 6);
        expect(row.score).toBeCloseTo(
          0.5 * (row.distance_score as number) + 0.3 * (row.recency_score as number) + 0.2 * (row.size_score as number),
          9,
        );
      }
      const scores = rows.map((r) => r.score as number);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      const units = await get('/api/property-sales/comparables', { gnaf_pid: nsw.gnaf_pid, property_type: 'unit' });
      expect(units.status).toBe(200);
      expect(
        ((units.body as Body).data as Array<{ property_type: string }>).every((r) => r.property_type === 'unit'),
      ).toBe(true);
      expect((await get('/api/property-sales/comparables', { pfi: 'NO-SUCH-PARCEL', state: 'NSW' })).status).toBe(404);
    });

    it('the comparables statement puts the near, recent, same-size sale first (hand-made rows)', async () => {
      const row = (id: string, lngOffset: number, date: string, area: number) =>
        `('${RANK}', 'test', '${id}', 'TAS', DATE '${date}', ${500_000}, 'house', ${area}, 'm2', ${area},
          ST_SetSRID(ST_MakePoint(${147.32 + lngOffset}, -42.88), 4326), 'test', 'CC BY 4.0')`;
      await t.runtime.db.exec(`INSERT INTO market.sale (dataset, source, source_record_id, state, contract_date, price,
          property_type, area, area_unit, area_m2, geom, attribution, license) VALUES
        ${row('best', 0.001, '2025-06-01', 600)}, ${row('far', 0.012, '2025-06-01', 600)},
        ${row('old', 0.001, '2023-09-01', 600)}, ${row('big', 0.001, '2025-06-01', 2400)},
        ${row('unit-like', 0.0005, '2025-06-01', 600)}`);
      await t.runtime.db.exec(
        `UPDATE market.sale SET property_type = 'unit' WHERE dataset = '${RANK}' AND source_record_id = 'unit-like'`,
      );
      const ranked = await t.runtime.db.sql<{ id: string; score: number }>(
        COMPARABLES(RANK, 'TAS', 147.32, -42.88, 'house', 600, 1500, 24, '2025-06-30', null, 10),
      );
      // by hand (82 m per 0.001 degree here): best 0.473 + 0.288 + 0.2 = 0.961; big (a quarter the size) 0.811;
      // old (22 months back, recency 0.085) 0.698; far (979 m, distance 0.347) 0.662; the unit is another type
      expect(ranked.map((r) => r.id)).toEqual(['test:best', 'test:big', 'test:old', 'test:far']);
      expect(ranked.map((r) => Math.round(r.score * 100) / 100)).toEqual([0.96, 0.81, 0.7, 0.66]);
      expect(ranked[0]!.score).toBeGreaterThan(0.9);
    });
  });

  describe('scopes', () => {
    it('suburb trends need locality.suburb, sales dossier.read, the graph field locality.read', async () => {
      const dossierOnly = await createTestKey(t.runtime, { scopes: ['dossier.read'] });
      const suburbOnly = await createTestKey(t.runtime, { scopes: ['locality.suburb'] });
      const trends = await get('/api/suburb-trends/NSW/PARRAMATTA', {}, dossierOnly);
      expect(trends.status).toBe(403);
      expect(JSON.stringify(trends.body)).toMatch(/Missing scope: locality.suburb/);
      const sales = await get('/api/property-sales', { lat: nsw.lat, lng: nsw.lng }, suburbOnly);
      expect(sales.status).toBe(403);
      expect(JSON.stringify(sales.body)).toMatch(/Missing scope: dossier.read/);
      const field = await graphql(
        `{ propertyByParcel(parcel_pfi: "${nsw.parcel_pfi}", state: "NSW") { market_trends { status } } }`,
        dossierOnly,
      );
      expect(JSON.stringify(field.body.errors)).toMatch(/Missing scope: locality.read/);
    });
  });

  describe('the property graph', () => {
    it('carries market_trends for a key with locality.read: the suburb of the property address', async () => {
      const res = await get('/v1/property/graph', { pfi: nsw.parcel_pfi, state: 'NSW' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const layer = res.body.layers.market_trends;
      expect(layer.status).toBe('ok');
      expect(layer.data.suburb).toBe(nsw.locality);
      expect(layer.attribution).toMatch(/synthetic demo data/);
      expect((layer.data.summary as Array<{ property_type: string }>).some((s) => s.property_type === 'house')).toBe(
        true,
      );
      const graphOnly = await createTestKey(t.runtime, { scopes: ['property-graph.read'] });
      const without = await get('/v1/property/graph', { pfi: nsw.parcel_pfi, state: 'NSW' }, graphOnly);
      expect(without.status).toBe(200);
      expect(without.body.layers.market_trends).toBeUndefined();
    });

    it('lists the sales recorded of the property, matched by parcel or address, newest first, credited', async () => {
      // a sale matched to the address only (no parcel): it is the property's too
      await t.runtime.db.exec(`INSERT INTO market.sale (dataset, source, source_record_id, state, contract_date, price,
          property_type, gnaf_pid, attribution, license)
        VALUES ('sandbox', 'test', 'by-address', 'NSW', DATE '2025-09-29', 123000, 'house', '${nsw.gnaf_pid}',
          'test address sale', 'CC BY 4.0')`);
      try {
        const expected = await t.runtime.db.query<{ id: string }>(
          `SELECT s.source || ':' || s.source_record_id AS id FROM market.sale s
           WHERE s.dataset = 'sandbox' AND ((s.state = 'NSW' AND s.parcel_pfi = $1) OR s.gnaf_pid = $2)
           ORDER BY coalesce(s.contract_date, s.settlement_date) DESC NULLS LAST, s.source_record_id`,
          [nsw.parcel_pfi, nsw.gnaf_pid],
        );
        expect(expected.length).toBeGreaterThan(1);
        expect(expected[0]!.id).toBe('test:by-address');
        const res = await graphql(`{ propertyByParcel(parcel_pfi: "${nsw.parcel_pfi}", state: "NSW") {
          sales { status message attribution license sales { id contract_date price gnaf_pid parcel_pfi attribution } } } }`);
        expect(res.body.errors).toBeUndefined();
        const layer = res.body.data.propertyByParcel.sales as {
          status: string;
          attribution: string;
          sales: Array<Record<string, unknown> & { id: string }>;
        };
        expect(layer.status).toBe('ok');
        expect(layer.sales.map((x) => x.id)).toEqual(expected.map((r) => r.id));
        expect(layer.sales[0]).toMatchObject({ price: 123000, gnaf_pid: nsw.gnaf_pid, parcel_pfi: null });
        // every publisher of the listed sales is credited
        expect(layer.attribution).toContain('test address sale');
        expect(layer.attribution).toMatch(/synthetic demo data/);
        const one = await graphql(`{ propertyByParcel(parcel_pfi: "${nsw.parcel_pfi}", state: "NSW") {
          sales(limit: 1) { message sales { id } } } }`);
        expect(one.body.data.propertyByParcel.sales.sales).toEqual([{ id: 'test:by-address' }]);
        expect(one.body.data.propertyByParcel.sales.message).toMatch(/More than 1 sales/);
        const bad = await graphql(
          `{ propertyByParcel(parcel_pfi: "${nsw.parcel_pfi}", state: "NSW") { sales(limit: 0) { status } } }`,
        );
        expect(JSON.stringify(bad.body.errors)).toMatch(/limit must be a whole number from 1 to 200/);
        const localityOnly = await createTestKey(t.runtime, { scopes: ['locality.read'] });
        const refused = await graphql(
          `{ propertyByParcel(parcel_pfi: "${nsw.parcel_pfi}", state: "NSW") { sales { status } } }`,
          localityOnly,
        );
        expect(JSON.stringify(refused.body.errors)).toMatch(/Missing scope: dossier.read/);
      } finally {
        await t.runtime.db.exec(`DELETE FROM market.sale WHERE dataset = 'sandbox' AND source = 'test'`);
      }
    });

    it('answers comparable_sales on the Property entity', async () => {
      const res = await graphql(`{ propertyByParcel(parcel_pfi: "${nsw.parcel_pfi}", state: "NSW") {
        comparable_sales(limit: 3) { status data { property_type comparables { score sale { id price } } } } } }`);
      expect(res.body.errors).toBeUndefined();
      const layer = res.body.data.propertyByParcel.comparable_sales;
      expect(layer.status).toBe('ok');
      expect(layer.data.comparables).toHaveLength(3);
    });
  });

  describe('the suburb analytics provider', () => {
    it('contributes every sandbox suburb of a state with the contract metric names and series', async () => {
      const contributions = await marketSuburbMetrics.contribute(t.runtime.db, 'sandbox', 'NSW');
      const mine = contributions.get(nsw.locality)!;
      expect(mine).toBeDefined();
      const N = SUBURB_METRIC_NAMES;
      for (const name of [
        N.medianPriceHouse,
        N.growth1yHouse,
        N.medianRentHouse,
        N.grossYieldHouse,
        N.bondLodgements12m,
        N.buildingApprovals12m,
      ]) {
        expect(mine.metrics[name], name).toEqual(expect.any(Number));
      }
      // the same math as the trends route
      const res = await get(`/api/suburb-trends/NSW/${encodeURIComponent(nsw.locality)}`);
      const house = (res.body.summary as Array<Record<string, unknown>>).find((s) => s.property_type === 'house')!;
      expect(mine.metrics[N.medianPriceHouse]).toBe(house.median_price_12m);
      expect(mine.metrics[N.grossYieldHouse]).toBe(house.gross_yield_pct);
      expect(mine.series!.prices!.length).toBeGreaterThan(20);
      expect(mine.series!.bonds!.length).toBe(24);
      expect(mine.series!.approvals!.length).toBeGreaterThan(0);
      expect(mine.section.latest_quarter).toBe(res.body.latest_quarter);
      const credits = await marketSuburbMetrics.credits(t.runtime.db, 'sandbox', 'NSW');
      expect(credits.map((c) => c.source.split('@')[0])).toEqual([
        'mirror:nsw/market-approvals',
        'mirror:nsw/market-rents',
        'mirror:nsw/market-sales',
      ]);
    });
  });
});

describe('market trends of a batch of properties', () => {
  let db: Database;
  const statements: string[] = [];

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    db = await openDatabase(testConfig(), { onQuery: (sql) => statements.push(sql) });
  });

  afterAll(async () => {
    await db.close();
  });

  it('answers every Property of one operation with one statement, whatever the number of suburbs, as each alone', async () => {
    const catalog = new ProvenanceCatalog(db);
    await catalog.get('sandbox', 'market-sales', 'NSW'); // credits are cached per process
    const subgraph = buildSubgraphs(db, catalog).market;
    // one sold property of each of six suburbs, across states
    const places = await db.query<{ parcel_pfi: string; state: string; locality: string; postcode: string | null }>(
      `SELECT DISTINCT ON (s.state, upper(s.locality)) s.parcel_pfi, s.state, s.locality, s.postcode
       FROM market.sale s WHERE s.dataset = 'sandbox' AND s.parcel_pfi IS NOT NULL AND s.locality IS NOT NULL
       ORDER BY s.state, upper(s.locality), s.source_record_id`,
    );
    const picked = [...places.filter((p) => p.state === 'NSW').slice(0, 4), ...places.filter((p) => p.state !== 'NSW')]
      .slice(0, 6)
      .map((p, n) => ({ ...p, postcode: n === 1 ? null : p.postcode })); // one without a postcode: the data's
    expect(new Set(picked.map((p) => `${p.state}:${p.locality}`)).size).toBe(6);
    expect(new Set(picked.map((p) => p.state)).size).toBeGreaterThan(1);
    const FIELDS = `market_trends { status known message attribution license data { state suburb postcode latest_quarter
      summary { property_type median_price_12m sales_12m growth_1y_pct growth_3y_pct growth_5y_pct median_weekly_rent
        gross_yield_pct notes }
      quarters { period property_type median_price sales median_weekly_rent new_bonds bonds_held }
      sa2_code sa2_name approvals { period dwelling_type value } approvals_12m } }`;
    const run = async (batch: typeof picked) => {
      statements.length = 0;
      const result = await execute({
        schema: subgraph.schema,
        document: parse(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Property { ${FIELDS} } } }`),
        variableValues: {
          r: batch.map((p) => ({
            __typename: 'Property',
            parcel_pfi: p.parcel_pfi,
            state: p.state,
            address: { data: { locality: p.locality, postcode: p.postcode, locality_postcode: null } },
          })),
        },
        contextValue: subgraph.createContext({ dataset: 'sandbox', requestId: 'test', scopes: '*' }),
      });
      expect(result.errors).toBeUndefined();
      const market = statements.filter((s) => /market\./.test(s));
      return { entities: (result.data as { _entities: unknown[] })._entities, statements: market.length };
    };
    const one = await run(picked.slice(0, 1));
    const all = await run(picked);
    expect(one.statements).toBe(1);
    expect(all.statements).toBe(1);
    // the same answers as each property's alone (no row of one suburb leaks into another's)
    const alone = [];
    for (const p of picked) alone.push((await run([p])).entities[0]);
    expect(all.entities).toEqual(alone);
    type Trends = {
      status: string;
      data: { suburb: string; summary: Array<Record<string, unknown>>; quarters: unknown[] };
    };
    const trends = all.entities.map((e) => (e as { market_trends: Trends }).market_trends);
    expect(trends.map((t) => t.status)).toEqual(picked.map(() => 'ok'));
    expect(trends.map((t) => t.data.suburb)).toEqual(picked.map((p) => p.locality.toUpperCase()));
    // and the figures of the suburb-analytics provider (state-wide statements of its own)
    for (const [n, p] of picked.entries()) {
      const mine = (await marketSuburbMetrics.contribute(db, 'sandbox', p.state as 'NSW')).get(
        p.locality.toUpperCase(),
      )!;
      const house = trends[n]!.data.summary.find((s) => s.property_type === 'house');
      expect(mine.metrics[SUBURB_METRIC_NAMES.medianPriceHouse], p.locality).toBe(house?.median_price_12m ?? null);
      expect(mine.metrics[SUBURB_METRIC_NAMES.growth5yHouse], p.locality).toBe(house?.growth_5y_pct ?? null);
      expect(mine.metrics[SUBURB_METRIC_NAMES.grossYieldHouse], p.locality).toBe(house?.gross_yield_pct ?? null);
    }
  });

  it('answers Property.sales of every entity of one operation with one statement, as each alone', async () => {
    const subgraph = buildSubgraphs(db, new ProvenanceCatalog(db)).market;
    const places = await db.query<{ parcel_pfi: string; state: string; gnaf_pid: string | null }>(
      `SELECT DISTINCT ON (s.state) s.parcel_pfi, s.state, s.gnaf_pid FROM market.sale s
       WHERE s.dataset = 'sandbox' AND s.parcel_pfi IS NOT NULL ORDER BY s.state, s.source_record_id`,
    );
    // one by address only (no parcel), one with neither
    const batch = [
      ...places.map((p) => ({ ...p })),
      { parcel_pfi: null, state: places[0]!.state, gnaf_pid: places[0]!.gnaf_pid },
      { parcel_pfi: null, state: 'NSW', gnaf_pid: null },
    ];
    expect(batch.length).toBeGreaterThan(3);
    const run = async (entities: typeof batch) => {
      statements.length = 0;
      const result = await execute({
        schema: subgraph.schema,
        document: parse(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Property {
          sales(limit: 5) { status message attribution sales { id gnaf_pid parcel_pfi contract_date } } } } }`),
        variableValues: { r: entities.map((p) => ({ __typename: 'Property', ...p })) },
        contextValue: subgraph.createContext({ dataset: 'sandbox', requestId: 'test', scopes: '*' }),
      });
      expect(result.errors).toBeUndefined();
      return {
        entities: (result.data as { _entities: unknown[] })._entities,
        statements: statements.filter((s) => /market\.sale/.test(s)).length,
      };
    };
    const all = await run(batch);
    expect(all.statements).toBe(1);
    const alone = [];
    for (const p of batch) alone.push((await run([p])).entities[0]);
    expect(all.entities).toEqual(alone);
    type Sales = { status: string; sales: Array<{ gnaf_pid: string | null; parcel_pfi: string | null }> };
    const layers = all.entities.map((e) => (e as { sales: Sales }).sales);
    expect(layers.slice(0, places.length).every((l) => l.status === 'ok')).toBe(true);
    for (const [n, p] of places.entries()) {
      expect(layers[n]!.sales.every((x) => x.parcel_pfi === p.parcel_pfi || x.gnaf_pid === p.gnaf_pid)).toBe(true);
    }
    expect(layers.at(-2)!.sales.every((x) => x.gnaf_pid === places[0]!.gnaf_pid)).toBe(true);
    expect(layers.at(-1)).toMatchObject({ status: 'no_data', sales: [] });
  });

  it('works out the latest full quarter in SQL as latestFullQuarterEnd does', async () => {
    // a state whose newest sale is each of these days
    for (const newest of ['2025-09-30', '2025-09-29', '2025-01-01', '2024-12-31', '2024-02-29', '2024-03-31']) {
      await db.exec(`DELETE FROM market.sale WHERE dataset = '${RANK}';
        INSERT INTO market.sale (dataset, source, source_record_id, state, contract_date, price, property_type, locality,
          attribution, license) VALUES ('${RANK}', 'test', 'q', 'TAS', DATE '${newest}', 1, 'house', 'QVILLE', 't', 't')`);
      const [row] = await db.sql<{ end: string | null }>(SUBURB_MARKETS(RANK, ['TAS'], ['QVILLE'], [null], [null], 5));
      expect(row!.end, newest).toBe(latestFullQuarterEnd(newest));
    }
    await db.exec(`DELETE FROM market.sale WHERE dataset = '${RANK}'`);
  });
});
