import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuburbAnalyticsCommand } from '../cli/suburb-analytics.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { FileLicensedMetricsFeed, licensedBlock, licensedMetricsFeed } from '../core/suburb-analytics/licensed.ts';
import { LIVABILITY_METHODOLOGY, livabilityScore } from '../core/suburb-analytics/livability.ts';
import {
  mergeContributions,
  rollupSuburbAnalytics,
  scheduleSuburbAnalyticsRollup,
  staleStates,
} from '../core/suburb-analytics/rollup.ts';
import type { SuburbContribution, SuburbMetricsProvider } from '../core/suburb-metrics.ts';
import { developmentSuburbMetrics } from '../subgraphs/development/suburb-metrics.ts';
import { hazardsSuburbMetrics } from '../subgraphs/hazards/suburb-metrics.ts';
import { SUBURB_METRICS_PROVIDERS } from '../subgraphs/suburb-metrics.ts';
import { supplySuburbMetrics } from '../subgraphs/supply/suburb-metrics.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

let t: TestRuntime;
let otherKey: string;

beforeAll(async () => {
  t = await testRuntime();
  otherKey = await createTestKey(t.runtime, { scopes: ['land-supply.read'] });
});

/** The suburb keys of a list or screen answer, in order. */
const keysOf = (res: request.Response): string[] =>
  (res.body.data as Array<{ suburb_key: string }>).map((r) => r.suburb_key);

// a value given as an array is sent as a repeated parameter (`a=1&a=2`)
const get = (path: string, query: Record<string, string | string[]> = {}, key = t.key) =>
  request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);

type Bundle = {
  suburb: string;
  suburb_key: string;
  lga_name: string | null;
  metrics: Record<string, number | null>;
  sections: Record<string, Record<string, unknown> | null>;
  livability: { score: number | null; methodology: string; components: Array<{ metric: string }> };
  licensed_metrics: Record<string, unknown>;
  credits: Array<{ section: string; attribution: string }>;
  attribution: string;
  license: string;
};

describe('the livability score (hand-made inputs)', () => {
  it('saturates amenity counts, penalises hazard land shares and renormalises missing inputs out', () => {
    const l = livabilityScore({ amenity_schools: 2, amenity_supermarkets: 1, flood_land_share_pct: 50 });
    // schools 1 - e^(-2/2), supermarkets 1 - e^(-1/1): 0.632121 each at weight 12; flood 1 - 0.5 at weight 12
    const expected = ((0.6321206 * 12 + 0.6321206 * 12 + 0.5 * 12) / 36) * 100;
    expect(l.score).toBe(Math.round(expected * 10) / 10);
    expect(l.score).toBe(58.8);
    expect(l.inputs_weight_pct).toBe(36);
    expect(l.methodology).toBe(LIVABILITY_METHODOLOGY);
    const flood = l.components.find((c) => c.metric === 'flood_land_share_pct')!;
    expect(flood).toMatchObject({ input: 50, score: 0.5, weight: 12, effective_weight_pct: 33.33 });
    expect(l.components.find((c) => c.metric === 'amenity_cafes')).toMatchObject({ input: null, score: null });
  });

  it('is null with no input, 100 for a suburb under no overlay, and never leaves 0-100', () => {
    expect(livabilityScore({}).score).toBeNull();
    expect(livabilityScore({ amenity_schools: null }).score).toBeNull();
    expect(
      livabilityScore({ flood_land_share_pct: 0, bushfire_land_share_pct: 0, contamination_land_share_pct: 0 }).score,
    ).toBe(100);
    expect(livabilityScore({ flood_land_share_pct: 100, bushfire_land_share_pct: 100 }).score).toBe(0);
    expect(livabilityScore({ flood_land_share_pct: 250, amenity_schools: -3 }).score).toBe(0);
    // more of an amenity never lowers the score
    const few = livabilityScore({ amenity_transport_stops: 3 }).score!;
    const many = livabilityScore({ amenity_transport_stops: 30 }).score!;
    expect(many).toBeGreaterThan(few);
    expect(many).toBeLessThanOrEqual(100);
  });
});

describe('licensed metrics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'licensed-'));
  const file = join(dir, 'feed.json');
  writeFileSync(
    file,
    JSON.stringify({
      source: 'Test feed',
      attribution: 'Test licensed feed credit',
      license: 'Licensed to the operator',
      suburbs: [{ state: 'VIC', suburb: 'Huntly', vacancy_rate: 1.9, days_on_market: 41, stock_on_market: 33 }],
    }),
  );

  it('without a feed, every metric is not_yet_available (the configuration default)', () => {
    expect(loadConfig({}).licensedMetricsFeed).toEqual({ kind: 'none' });
    expect(licensedMetricsFeed(loadConfig({}).licensedMetricsFeed)).toBeNull();
    const block = licensedBlock(null, undefined);
    expect(Object.keys(block).sort()).toEqual(
      ['buyer_demand', 'days_on_market', 'sales_volume', 'stock_on_market', 'vacancy_rate'].sort(),
    );
    for (const m of Object.values(block)) expect(m).toEqual({ value: null, status: 'not_yet_available' });
  });

  it('a configured file feed fills the values it has (ok) and says no_data for the rest', async () => {
    const setting = loadConfig({ LANDGRAPH_LICENSED_METRICS_FEED: `file:${file}` }).licensedMetricsFeed;
    expect(setting).toEqual({ kind: 'file', path: file });
    const feed = licensedMetricsFeed(setting)!;
    expect(feed).toBeInstanceOf(FileLicensedMetricsFeed);
    const values = await feed.metrics('VIC', ['HUNTLY', 'KANGAROO FLAT']);
    expect(values.get('HUNTLY')).toMatchObject({ vacancy_rate: 1.9, days_on_market: 41, sales_volume: null });
    expect(values.has('KANGAROO FLAT')).toBe(false);
    const block = licensedBlock(feed, values.get('HUNTLY'));
    expect(block.vacancy_rate).toEqual({ value: 1.9, status: 'ok' });
    expect(block.sales_volume).toEqual({ value: null, status: 'no_data' });
    expect(licensedBlock(feed, undefined).vacancy_rate).toEqual({ value: null, status: 'no_data' });
    expect((await feed.credit()).attribution).toBe('Test licensed feed credit');
    expect(() => loadConfig({ LANDGRAPH_LICENSED_METRICS_FEED: 'http://vendor' })).toThrow(ConfigError);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ suburbs: 'none' }));
    await expect(new FileLicensedMetricsFeed(join(dir, 'bad.json')).metrics('VIC', [])).rejects.toThrow(
      /expected shape/,
    );
  });
});

describe('merging contributions', () => {
  it('unions localities and every provider, keeps the first claim of a metric, concatenates series', () => {
    const a = new Map<string, SuburbContribution>([
      ['HUNTLY', { metrics: { x: 1 }, section: { a: true }, series: { prices: [{ period: '2024-Q1', value: 1 }] } }],
    ]);
    const b = new Map<string, SuburbContribution>([
      ['huntly ', { metrics: { x: 2, y: Number.NaN }, section: { b: true } }],
      ['ELSEWHERE', { metrics: { z: 3 }, section: {} }],
    ]);
    const merged = mergeContributions(
      [{ name: 'Huntly', lga_code: '325', lga_name: 'GREATER BENDIGO' }],
      [
        { section: 'a', byKey: a },
        { section: 'b', byKey: b },
      ],
    );
    expect([...merged.keys()].sort()).toEqual(['ELSEWHERE', 'HUNTLY']);
    const h = merged.get('HUNTLY')!;
    expect(h.metrics).toEqual({ x: 1, y: null });
    expect(h.sections).toEqual({ a: { a: true }, b: { b: true } });
    expect(h.lga_name).toBe('GREATER BENDIGO');
    expect(h.series.get('prices')).toEqual([{ period: '2024-Q1', value: 1, section: 'a' }]);
    expect(merged.get('ELSEWHERE')!.lga_name).toBeNull();
  });
});

/** A provider only tests have: a market-like section with prices and a metric, for two suburbs. */
// the layers whose metric names the test provider below shares
const withoutMarket = SUBURB_METRICS_PROVIDERS.filter(
  (provider) => provider.section !== 'market' && provider.section !== 'amenities',
);

const testMarket: SuburbMetricsProvider = {
  section: 'test_market',
  async credits() {
    return [{ source: 'test-market', attribution: 'Test market credit', license: 'CC BY 4.0' }];
  },
  async contribute(_db, _dataset, state) {
    if (state !== 'VIC') return new Map();
    return new Map([
      [
        'HUNTLY',
        {
          metrics: { median_price_house: 650_000, amenity_schools: 4 },
          section: { note: 'test' },
          series: {
            prices: [
              { period: '2024-Q4', property_type: 'house', value: 640_000, count: 12 },
              { period: '2025-Q1', property_type: 'house', value: 650_000, count: 9 },
              { period: '2025-Q1', property_type: 'unit', value: 420_000, count: 3 },
            ],
          },
        },
      ],
      ['KANGAROO FLAT', { metrics: { median_price_house: 540_000 }, section: { note: 'test' } }],
    ]);
  },
};

describe('the rollup on the sandbox', () => {
  afterAll(async () => {
    // leave the sandbox's bundles as the seed computes them
    await rollupSuburbAnalytics(t.runtime.db, {
      dataset: 'sandbox',
      providers: SUBURB_METRICS_PROVIDERS,
    });
  });

  it('computed a bundle for every sandbox locality at seed time, from hazards, development and supply', async () => {
    const rows = await t.runtime.db.query<{ state: string; n: number; localities: number }>(
      `SELECT l.state, count(DISTINCT b.suburb)::int AS n, count(DISTINCT upper(l.locality_name))::int AS localities
       FROM address.locality l LEFT JOIN analytics.suburb_bundle b
         ON b.dataset = l.dataset AND b.state = l.state AND b.suburb = upper(l.locality_name)
       WHERE l.dataset = 'sandbox' GROUP BY l.state ORDER BY l.state`,
    );
    expect(rows.length).toBe(3);
    for (const r of rows) expect(r.n).toBe(r.localities);
    const runs = await t.runtime.db.query<{ sections: string[] }>(
      `SELECT sections FROM analytics.rollup_run WHERE dataset = 'sandbox' AND state = 'VIC'`,
    );
    expect(runs[0]!.sections).toEqual(SUBURB_METRICS_PROVIDERS.map((provider) => provider.section));
    expect(runs[0]!.sections).toEqual(
      expect.arrayContaining(['market', 'demographics', 'hazards', 'development', 'supply']),
    );
  });

  it('hazard land shares of HUNTLY agree with a separate computation over the unioned land', async () => {
    const contributions = await hazardsSuburbMetrics.contribute(t.runtime.db, 'sandbox', 'VIC');
    const huntly = contributions.get('HUNTLY')!;
    // the whole suburb's land as one geometry, each kind's overlays as another: a different route to the same share
    const [check] = await t.runtime.db.query<{
      flood: number;
      bushfire: number;
      contamination: number;
      parcels: number;
    }>(
      `WITH land AS (
         SELECT ST_Union(p.geom) AS geom, count(DISTINCT p.parcel_pfi)::int AS parcels
         FROM cadastre.parcel p
         WHERE p.dataset = 'sandbox' AND p.state = 'VIC' AND p.parcel_pfi IN (
           SELECT a.parcel_pfi FROM address.address_detail a JOIN address.locality l
             ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
           WHERE a.dataset = 'sandbox' AND a.state = 'VIC' AND upper(l.locality_name) = 'HUNTLY')
       ), share AS (
         SELECT o.kind, ST_Area(ST_Intersection(land.geom, ST_Union(o.geom))::geography) / ST_Area(land.geom::geography) * 100 AS pct
         FROM land JOIN hazards.overlay o ON o.dataset = 'sandbox' AND o.state = 'VIC' AND ST_Intersects(o.geom, land.geom)
         GROUP BY o.kind, land.geom
       )
       SELECT (SELECT parcels FROM land) AS parcels,
         coalesce((SELECT pct FROM share WHERE kind = 'flood'), 0) AS flood,
         coalesce((SELECT pct FROM share WHERE kind = 'bushfire'), 0) AS bushfire,
         coalesce((SELECT pct FROM share WHERE kind = 'contamination'), 0) AS contamination`,
    );
    expect(huntly.section.parcels).toBe(check!.parcels);
    expect(huntly.metrics.flood_land_share_pct).toBeCloseTo(check!.flood, 1);
    expect(huntly.metrics.bushfire_land_share_pct).toBeCloseTo(check!.bushfire, 1);
    expect(huntly.metrics.contamination_land_share_pct).toBeCloseTo(check!.contamination, 1);
    // the sandbox puts some of HUNTLY under each kind
    expect(huntly.metrics.flood_land_share_pct).toBeGreaterThan(0);
    expect(huntly.metrics.flood_land_share_pct).toBeLessThan(100);
  });

  it('DA activity of HUNTLY agrees with the raw applications of its 12 calendar months', async () => {
    const huntly = (await developmentSuburbMetrics.contribute(t.runtime.db, 'sandbox', 'VIC')).get('HUNTLY')!;
    const apps = await t.runtime.db.query<{
      status: string;
      category: string;
      lodged: string;
      decided: string | null;
      dwellings: number | null;
    }>(
      `SELECT status, category, to_char(lodged_date, 'YYYY-MM-DD') AS lodged, to_char(decided_date, 'YYYY-MM-DD') AS decided,
         dwellings_proposed AS dwellings
       FROM development.application WHERE dataset = 'sandbox' AND state = 'VIC' AND upper(suburb) = 'HUNTLY'`,
    );
    const [anchor] = await t.runtime.db.query<{ day: string }>(
      `SELECT to_char(max(lodged_date), 'YYYY-MM-DD') AS day FROM development.application WHERE dataset = 'sandbox' AND state = 'VIC'`,
    );
    const [y, m] = anchor!.day.split('-').map(Number) as [number, number];
    const from = new Date(Date.UTC(y, m - 12, 1)).toISOString().slice(0, 10);
    const inWindow = apps.filter((a) => a.lodged >= from && a.lodged <= anchor!.day);
    expect(inWindow.length).toBeGreaterThan(0);
    expect(huntly.metrics.da_lodged_12m).toBe(inWindow.length);
    expect(huntly.metrics.da_approved_12m).toBe(inWindow.filter((a) => a.status === 'approved').length);
    expect(huntly.metrics.da_subdivisions_12m).toBe(inWindow.filter((a) => a.category === 'subdivision').length);
    expect(huntly.metrics.da_dwellings_proposed_12m).toBe(inWindow.reduce((s, a) => s + (a.dwellings ?? 0), 0));
    const days = inWindow
      .filter((a) => ['approved', 'refused', 'determined'].includes(a.status) && a.decided && a.decided >= a.lodged)
      .map((a) => (Date.parse(a.decided!) - Date.parse(a.lodged)) / 86_400_000)
      .sort((p, q) => p - q);
    const mid = days.length / 2;
    const median = days.length % 2 ? days[Math.floor(mid)]! : (days[mid - 1]! + days[mid]!) / 2;
    expect(huntly.metrics.da_median_decision_days).toBe(Math.round(median * 10) / 10);
    const monthly = huntly.section.monthly as Array<{ month: string; lodged: number }>;
    expect(monthly.length).toBe(12);
    expect(monthly.reduce((s, x) => s + x.lodged, 0)).toBe(inWindow.length);
    expect(monthly.at(-1)!.month).toBe(anchor!.day.slice(0, 7));
  });

  it('the supply pipeline of HUNTLY agrees with its estates and lots as last listed', async () => {
    const huntly = (await supplySuburbMetrics.contribute(t.runtime.db, 'sandbox', 'VIC')).get('HUNTLY')!;
    const [raw] = await t.runtime.db.query<{ selling: number; available: number }>(
      `SELECT (SELECT count(*)::int FROM supply.estate WHERE dataset = 'sandbox' AND state = 'VIC' AND upper(suburb) = 'HUNTLY'
                 AND status = 'selling') AS selling,
              (SELECT count(*)::int FROM supply.lot l JOIN supply.estate e ON e.dataset = l.dataset AND e.estate_id = l.estate_id
                 WHERE l.dataset = 'sandbox' AND e.state = 'VIC' AND upper(e.suburb) = 'HUNTLY' AND l.sales_status = 'available') AS available`,
    );
    expect(raw!.selling).toBeGreaterThan(0);
    expect(huntly.metrics.supply_estates_selling).toBe(raw!.selling);
    expect(huntly.metrics.supply_available_lots).toBe(raw!.available);
    expect(huntly.section.recent).toMatchObject({ weeks: 13 });
  });

  it('merges a further provider (passed in) into the bundles, metrics, series and credits, and replaces a state whole', async () => {
    const db = t.runtime.db;
    const dir = mkdtempSync(join(tmpdir(), 'licensed-'));
    const file = join(dir, 'feed.json');
    writeFileSync(
      file,
      JSON.stringify({
        source: 'feed',
        attribution: 'Feed credit',
        license: 'Licensed',
        suburbs: [{ state: 'VIC', suburb: 'huntly', vacancy_rate: 2.5 }],
      }),
    );
    const [result] = await rollupSuburbAnalytics(db, {
      dataset: 'sandbox',
      states: ['VIC'],
      // the test provider stands in for the real market and amenities layers
      providers: [...withoutMarket, testMarket],
      feed: new FileLicensedMetricsFeed(file),
    });
    expect(result!.sections).toEqual([...withoutMarket.map((provider) => provider.section), 'test_market']);
    const res = await get('/v1/suburb-analytics/VIC/Huntly');
    expect(res.status).toBe(200);
    const b = res.body.data as Bundle;
    expect(b.metrics.median_price_house).toBe(650_000);
    expect(b.sections.test_market).toEqual({ note: 'test' });
    expect(b.sections.hazards).not.toBeNull();
    // the test provider's school count now enters the livability score
    expect(b.livability.components.find((c) => c.metric === 'amenity_schools')).toMatchObject({ input: 4 });
    expect(b.licensed_metrics.vacancy_rate).toEqual({ value: 2.5, status: 'ok' });
    expect(b.licensed_metrics.days_on_market).toEqual({ value: null, status: 'no_data' });
    expect(b.metrics.vacancy_rate).toBe(2.5);
    expect(b.attribution).toContain('Test market credit');
    expect(b.attribution).toContain('Feed credit');
    expect(res.headers['x-service-attribution']).toBe(b.attribution);

    const series = await get('/v1/suburb-analytics/timeseries', { state: 'vic', suburb: 'huntly', metric: 'prices' });
    expect(series.status).toBe(200);
    expect(series.body.data).toEqual([
      { period: '2024-Q4', property_type: 'house', value: 640_000, count: 12 },
      { period: '2025-Q1', property_type: 'house', value: 650_000, count: 9 },
      { period: '2025-Q1', property_type: 'unit', value: 420_000, count: 3 },
    ]);
    // a series is credited with the section it came from, not the whole bundle
    expect(series.body.attribution).toBe('Test market credit');
    expect(series.headers['x-service-license']).toBe('CC BY 4.0');

    const screened = await get('/v1/suburb-analytics/screen', { state: 'VIC', median_price_house_min: '600000' });
    expect(keysOf(screened)).toEqual(['HUNTLY']);

    // again with the registry alone: the test provider's rows are gone, nothing is left over
    await rollupSuburbAnalytics(db, { dataset: 'sandbox', states: ['VIC'], providers: SUBURB_METRICS_PROVIDERS });
    const again = (await get('/v1/suburb-analytics/VIC/Huntly')).body.data as Bundle;
    expect(again.sections.test_market).toBeUndefined();
    expect(again.sections.market).not.toBeNull();
    expect(again.metrics.median_price_house).not.toBe(650_000);
    expect(again.licensed_metrics.vacancy_rate).toEqual({ value: null, status: 'not_yet_available' });
    const gone = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM analytics.suburb_series
       WHERE dataset = 'sandbox' AND state = 'VIC' AND section = 'test_market'`,
    );
    expect(gone[0]!.n).toBe(0);
    // the prices series is the real market layer's again, with its credit
    const prices = await get('/v1/suburb-analytics/timeseries', { state: 'VIC', suburb: 'Huntly', metric: 'prices' });
    expect(prices.status).toBe(200);
    expect(prices.body.attribution).not.toBe('Test market credit');
    expect(prices.body.data).not.toContainEqual({
      period: '2025-Q1',
      property_type: 'house',
      value: 650_000,
      count: 9,
    });
  });

  it('is idempotent: a rerun writes the same bundles (but for computed_at)', async () => {
    const db = t.runtime.db;
    const snapshot = async () =>
      (
        await db.query<{ suburb: string; bundle: Record<string, unknown> }>(
          `SELECT suburb, bundle FROM analytics.suburb_bundle WHERE dataset = 'sandbox' AND state = 'NSW' ORDER BY suburb`,
        )
      ).map((r) => ({ ...r, bundle: { ...r.bundle, computed_at: null } }));
    await rollupSuburbAnalytics(db, { dataset: 'sandbox', states: ['NSW'], providers: SUBURB_METRICS_PROVIDERS });
    const before = await snapshot();
    await rollupSuburbAnalytics(db, { dataset: 'sandbox', states: ['NSW'], providers: SUBURB_METRICS_PROVIDERS });
    expect(await snapshot()).toEqual(before);
    expect(before.length).toBeGreaterThan(0);
    // just rolled up: nothing in NSW is stale within a day
    expect(await staleStates(db, 'sandbox', 24)).not.toContain('NSW');
  });

  it('the serving schedule recomputes a state a layer of which was loaded since its rollup', async () => {
    const db = t.runtime.db;
    await rollupSuburbAnalytics(db, { dataset: 'sandbox', states: ['QLD'], providers: SUBURB_METRICS_PROVIDERS });
    expect(await staleStates(db, 'sandbox', 24)).not.toContain('QLD');
    const sources = await db.query<{ layer: string; loaded_at: Date }>(
      `SELECT layer, loaded_at FROM public.dataset_source WHERE dataset = 'sandbox' AND state = 'QLD'`,
    );
    const [{ computed_at: before }] = (await db.query<{ computed_at: Date }>(
      `SELECT computed_at FROM analytics.rollup_run WHERE dataset = 'sandbox' AND state = 'QLD'`,
    )) as [{ computed_at: Date }];
    try {
      // an ingest of QLD hazards, as far as the schedule can tell
      await db.query(
        `UPDATE public.dataset_source SET loaded_at = now() + interval '1 second'
         WHERE dataset = 'sandbox' AND layer = 'hazards' AND state = 'QLD'`,
      );
      expect(await staleStates(db, 'sandbox', 24)).toEqual(['QLD']);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const stop = scheduleSuburbAnalyticsRollup(db, ['sandbox'], {
        intervalMs: 60_000,
        maxAgeH: 24,
        providers: SUBURB_METRICS_PROVIDERS,
        feed: null,
      });
      try {
        let after = before;
        for (let i = 0; i < 100 && after.getTime() === before.getTime(); i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          [{ computed_at: after }] = (await db.query<{ computed_at: Date }>(
            `SELECT computed_at FROM analytics.rollup_run WHERE dataset = 'sandbox' AND state = 'QLD'`,
          )) as [{ computed_at: Date }];
        }
        expect(after.getTime()).toBeGreaterThan(before.getTime());
      } finally {
        stop();
      }
      expect(await staleStates(db, 'sandbox', 24)).toEqual([]);
      // and bundles older than the age limit are stale without any ingest
      await db.query(
        `UPDATE analytics.rollup_run SET computed_at = computed_at - interval '2 hours' WHERE dataset = 'sandbox' AND state = 'QLD'`,
      );
      await db.query(
        `UPDATE public.dataset_source d SET loaded_at = r.computed_at - interval '1 hour'
         FROM analytics.rollup_run r WHERE r.dataset = d.dataset AND r.state = d.state
           AND d.dataset = 'sandbox' AND d.state = 'QLD' AND d.loaded_at > r.computed_at`,
      );
      expect(await staleStates(db, 'sandbox', 1)).toEqual(['QLD']);
      expect(await staleStates(db, 'sandbox', 24)).toEqual([]);
    } finally {
      for (const source of sources) {
        await db.query(
          `UPDATE public.dataset_source SET loaded_at = $1 WHERE dataset = 'sandbox' AND layer = $2 AND state = 'QLD'`,
          [source.loaded_at, source.layer],
        );
      }
    }
  });

  it('the CLI refuses bad arguments with its usage (exit 2)', async () => {
    const errors: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string) => {
      errors.push(String(chunk));
      return true;
    };
    try {
      expect(await runSuburbAnalyticsCommand(['rollup', '--state', 'WA'])).toBe(2);
      expect(await runSuburbAnalyticsCommand(['rollup', '--dataset', 'other'])).toBe(2);
      expect(await runSuburbAnalyticsCommand(['rollup', '--nope'])).toBe(2);
      expect(await runSuburbAnalyticsCommand(['tally'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(errors.join('')).toContain('Usage: landgraph suburb-analytics rollup');
    expect(errors.join('')).toContain('--state must be one of VIC, NSW, QLD');
  });
});

describe('the suburb-analytics routes', () => {
  it('bundle by query and by path: case-insensitive, %20 for spaces, credited in body and headers', async () => {
    const byQuery = await get('/v1/suburb-analytics/bundle', { state: 'VIC', suburb: 'kangaroo flat' });
    expect(byQuery.status).toBe(200);
    const b = byQuery.body.data as Bundle;
    expect(b.suburb_key).toBe('KANGAROO FLAT');
    expect(b.sections.hazards).not.toBeNull();
    expect(b.sections.development).not.toBeNull();
    expect(Object.keys(b.licensed_metrics)).toEqual(
      expect.arrayContaining(['vacancy_rate', 'days_on_market', 'stock_on_market', 'sales_volume', 'buyer_demand']),
    );
    expect(b.livability.methodology).toBe(LIVABILITY_METHODOLOGY);
    expect(byQuery.body.attribution).toMatch(/VIC flood, bushfire and contamination mapping/);
    expect(byQuery.body.attribution).toMatch(/VIC development applications/);
    expect(byQuery.headers['x-service-attribution']).toBe(byQuery.body.attribution);
    expect(byQuery.headers['x-service-license']).toBe(byQuery.body.license);
    const byPath = await request(t.app)
      .get('/v1/suburb-analytics/vic/Kangaroo%20Flat')
      .set('Authorization', `Bearer ${t.key}`);
    expect(byPath.status).toBe(200);
    expect(byPath.body.data).toEqual(b);
  });

  it('lists the computed suburbs of a state, paged', async () => {
    const all = await get('/v1/suburb-analytics/VIC');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.data.length);
    const keys = keysOf(all);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toContain('HUNTLY');
    const second = await get('/v1/suburb-analytics/VIC', { limit: '1', offset: '1' });
    expect(keysOf(second)).toEqual([keys[1]]);
    expect(all.headers['x-service-attribution']).toBeDefined();
  });

  it('404 for an unknown suburb, 400 for bad input, each naming the parameter', async () => {
    const missing = await get('/v1/suburb-analytics/VIC/Nowhere%20Town');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/NOWHERE TOWN/);
    expect((await get('/v1/suburb-analytics/bundle', { state: 'VIC', suburb: 'Nowhere' })).status).toBe(404);
    expect(
      (await get('/v1/suburb-analytics/timeseries', { state: 'VIC', suburb: 'Nowhere', metric: 'rents' })).status,
    ).toBe(404);
    // a state of the API the rollup does not compute: a 404 saying so, and an empty not_covered list
    const wa = await get('/v1/suburb-analytics/WA/Perth');
    expect(wa.status).toBe(404);
    expect(wa.body.error).toMatch(/No suburb analytics have been computed for WA/);
    const waList = await get('/v1/suburb-analytics/WA');
    expect(waList.body).toMatchObject({ status: 'not_covered', total: 0, data: [], attribution: null });
    const cases: Array<[string, Record<string, string | string[]>, RegExp]> = [
      ['/v1/suburb-analytics/bundle', { state: 'XX', suburb: 'Huntly' }, /state/i],
      ['/v1/suburb-analytics/bundle', { state: 'VIC' }, /suburb/],
      ['/v1/suburb-analytics/timeseries', { state: 'VIC', suburb: 'Huntly', metric: 'vacancy' }, /metric/],
      ['/v1/suburb-analytics/screen', { state: 'VIC', bogus_metric_min: '1' }, /Unknown metric 'bogus_metric'/],
      ['/v1/suburb-analytics/screen', { state: 'VIC', Livability_Score_max: '1' }, /Unknown metric 'Livability_Score'/],
      ['/v1/suburb-analytics/screen', { state: 'VIC', [`${'x'.repeat(300)}_min`]: '1' }, /Unknown metric/],
      ['/v1/suburb-analytics/screen', { state: 'VIC', flood_land_share_pct_min: ['1', '2'] }, /single/],
      ['/v1/suburb-analytics/screen', { state: 'VIC', livability_score_min: 'high' }, /livability_score_min/],
      ['/v1/suburb-analytics/screen', { state: 'VIC', flood_land_share_pct_max: 'ten' }, /flood_land_share_pct_max/],
      [
        '/v1/suburb-analytics/screen',
        { state: 'VIC', livability_score_min: '80', livability_score_max: '10' },
        /above/,
      ],
      ['/v1/suburb-analytics/screen', { state: 'VIC', limit: '101' }, /limit/],
      ['/v1/suburb-analytics/screen', { state: 'VIC', offset: '-1' }, /offset/],
      ['/v1/suburb-analytics/VIC', { limit: '0' }, /limit/],
      ['/v1/suburb-analytics/ZZ', {}, /state/i],
    ];
    for (const [path, query, pattern] of cases) {
      const res = await get(path, query);
      expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(pattern);
      expect(res.body.data).toBeNull();
    }
  });

  it('screens on any bundle metric, in a stable order, paging without overlap or gap', async () => {
    const all = await get('/v1/suburb-analytics/screen', { state: 'QLD', limit: '100' });
    expect(all.status).toBe(200);
    expect(all.body.metrics_available).toEqual(expect.arrayContaining(['flood_land_share_pct', 'da_lodged_12m']));
    const keys: string[] = keysOf(all);
    expect(keys.length).toBe(all.body.total);
    expect(keys).toEqual([...keys].sort());
    const paged: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = await get('/v1/suburb-analytics/screen', { state: 'QLD', limit: '1', offset: String(offset) });
      paged.push(...keysOf(page));
      offset = page.body.next_offset;
    }
    expect(paged).toEqual(keys);
    // a range keeps exactly the suburbs whose value lies inside it
    const rows = all.body.data as Array<{ suburb_key: string; metrics: Record<string, number | null> }>;
    const values = rows.map((r): [string, number | null] => [r.suburb_key, r.metrics.da_lodged_12m ?? null]);
    const cut = values.map(([, v]) => v ?? 0).sort((p, q) => p - q)[0]!;
    const screened = await get('/v1/suburb-analytics/screen', { state: 'QLD', da_lodged_12m_min: String(cut + 1) });
    expect(keysOf(screened)).toEqual(values.filter(([, v]) => v !== null && v >= cut + 1).map(([k]) => k));
    // a range no suburb's value lies inside keeps none
    const none = await get('/v1/suburb-analytics/screen', { state: 'QLD', median_rent_house_weekly_max: '-1' });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ total: 0, data: [], status: 'no_data' });
  });

  it('refuses a key without suburb-analytics.read', async () => {
    for (const path of [
      '/v1/suburb-analytics/bundle?state=VIC&suburb=Huntly',
      '/v1/suburb-analytics/VIC',
      '/v1/suburb-analytics/VIC/Huntly',
      '/v1/suburb-analytics/timeseries?state=VIC&suburb=Huntly&metric=prices',
      '/v1/suburb-analytics/screen?state=VIC',
    ]) {
      const denied = await request(t.app).get(path).set('Authorization', `Bearer ${otherKey}`);
      expect(denied.status, path).toBe(403);
      expect(denied.body.error).toBe('Missing scope: suburb-analytics.read');
    }
  });

  it('answers the graph too, scoped', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.key}`)
      .send({ query: '{ suburbAnalyticsList(state: "NSW") { status total suburbs { suburb_key } } }' });
    expect(res.status).toBe(200);
    expect(res.body.data.suburbAnalyticsList.total).toBeGreaterThan(0);
    const denied = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${otherKey}`)
      .send({ query: '{ suburbAnalyticsList(state: "NSW") { total } }' });
    expect(JSON.stringify(denied.body)).toContain('suburb-analytics.read');
  });
});
