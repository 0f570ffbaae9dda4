/**
 * State-scale suburb analytics for the bench (`npm run bench -- --only analytics --analytics-suburbs N`):
 * N synthetic computed suburbs per sandbox state, written into the bench database's own
 * analytics tables in the shape the rollup writes (core/suburb-analytics/rollup.ts), so the
 * analytics subgraph serves them with its own statements (subgraphs/analytics/sql.ts).
 *
 * Each synthetic suburb copies one of the state's real sandbox bundles (in turn) and varies it
 * deterministically (a seeded sfc32 stream per state and suburb, prisma/sandbox/random.ts):
 * every non-null flat metric is scaled by its own factor, the livability block is recomputed from
 * the varied metrics by the product's own livabilityScore, and every quarterly series of the
 * source is copied with its values scaled by one factor per series metric. The nested `sections`
 * of the bundle are copied unchanged (the bundle route returns them as they are: their size is the
 * cost, not their values). Synthetic suburbs are labelled: their name and key end in
 * ` SYNTHETIC nnnn` and their bundle carries `"synthetic": true`.
 *
 * Replacing: every run first deletes the synthetic suburbs the last one left (by their key), so a
 * rerun replaces them; `removeSyntheticSuburbs` deletes them again after the phase, leaving the
 * shared bench database as the sandbox made it. The rollup's own tallies (rollup_run.suburbs,
 * metric_catalog.suburbs) are recounted from the table both times, then the four tables are
 * vacuumed and analysed. Only the bench database is ever written.
 */
import type { Database, QueryFn } from '../core/db.ts';
import { loadConfig } from '../core/config.ts';
import { livabilityScore } from '../core/suburb-analytics/livability.ts';
import { insertBundles, rollupSuburbAnalytics, staleStates, SUBURB_STATES } from '../core/suburb-analytics/rollup.ts';
import { suburbKey } from '../core/suburb-metrics.ts';
import { Rng } from '../prisma/sandbox/random.ts';
import { SUBURB_METRICS_PROVIDERS } from '../subgraphs/suburb-metrics.ts';
import { withDatabase } from './database.ts';

const DATASET = 'sandbox';
/** A synthetic suburb's key: its source's key, then ` SYNTHETIC` and its number (PostgreSQL regex). */
const SYNTHETIC_KEY = ' SYNTHETIC [0-9]+$';
const SERIES = ['prices', 'rents', 'approvals', 'bonds'] as const;

type SourceRow = {
  state: string;
  suburb: string;
  name: string;
  lga_code: string | null;
  lga_name: string | null;
  bundle: Record<string, unknown>;
  metrics: Record<string, number | null>;
  computed_at: string;
};

type Synthetic = {
  key: string;
  name: string;
  source: string;
  lga_code: string | null;
  lga_name: string | null;
  score: number | null;
  bundle: Record<string, unknown>;
  metrics: Record<string, number | null>;
  computed_at: string;
  seriesFactors: number[];
};

export type ScaleSummary = {
  perState: number;
  states: Record<string, { real: number; synthetic: number }>;
  ms: number;
};

/** A metric value scaled by `factor`, kept whole when it was whole, and a percentage kept within 0..100. */
function vary(name: string, value: number, factor: number): number {
  let v = value * factor;
  if (name.endsWith('_pct') && value >= 0) v = Math.min(100, v);
  return Number.isInteger(value) ? Math.round(v) : Math.round(v * 100) / 100;
}

/** The `i`th synthetic suburb (1-based) of a state, from one of its real bundles. */
export function synthesise(source: SourceRow, i: number, seed: number): Synthetic {
  const rng = Rng.for('bench-analytics-scale', seed, source.state, i);
  const name = `${source.name} SYNTHETIC ${String(i).padStart(4, '0')}`;
  const key = suburbKey(name);
  const metrics: Record<string, number | null> = {};
  for (const [metric, value] of Object.entries(source.metrics)) {
    if (metric === 'livability_score') continue;
    metrics[metric] = value === null ? null : vary(metric, value, rng.range(0.3, 1.7));
  }
  const livability = livabilityScore(metrics);
  // the rollup's flat metrics carry the score after the providers' metrics: the same here
  const flat = { ...metrics, livability_score: livability.score };
  const bundle = {
    ...source.bundle,
    suburb: name,
    suburb_key: key,
    metrics: flat,
    livability,
    synthetic: true,
  };
  return {
    key,
    name,
    source: source.suburb,
    lga_code: source.lga_code,
    lga_name: source.lga_name,
    score: livability.score,
    bundle,
    metrics: flat,
    computed_at: source.computed_at,
    seriesFactors: SERIES.map(() => rng.range(0.6, 1.4)),
  };
}

async function deleteSynthetic(query: QueryFn): Promise<void> {
  for (const table of ['suburb_series', 'suburb_bundle']) {
    await query(`DELETE FROM analytics.${table} WHERE dataset = $1 AND suburb ~ $2`, [DATASET, SYNTHETIC_KEY]);
  }
}

/** The rollup's tallies, counted again from the bundles as the rollup counts them (a null or absent value does not count). */
async function recount(query: QueryFn): Promise<void> {
  await query(
    `UPDATE analytics.rollup_run r SET suburbs = (
       SELECT count(*)::int FROM analytics.suburb_bundle b WHERE b.dataset = r.dataset AND b.state = r.state)
     WHERE r.dataset = $1`,
    [DATASET],
  );
  await query(
    `UPDATE analytics.metric_catalog c SET suburbs = (
       SELECT count(*)::int FROM analytics.suburb_bundle b
       WHERE b.dataset = c.dataset AND b.state = c.state AND b.metrics->>c.metric IS NOT NULL)
     WHERE c.dataset = $1`,
    [DATASET],
  );
}

async function tidy(db: Database): Promise<void> {
  // this PostgreSQL runs without autovacuum: the replaced rows would stay in the heap and the statistics stale
  await db.exec(
    'VACUUM (ANALYZE) analytics.suburb_bundle, analytics.suburb_series, analytics.metric_catalog, analytics.rollup_run',
  );
}

async function counts(db: Database): Promise<Record<string, { real: number; synthetic: number }>> {
  const rows = await db.query<{ state: string; real: number; synthetic: number }>(
    `SELECT state, count(*) FILTER (WHERE suburb !~ $2)::int AS real, count(*) FILTER (WHERE suburb ~ $2)::int AS synthetic
     FROM analytics.suburb_bundle WHERE dataset = $1 GROUP BY state ORDER BY state`,
    [DATASET, SYNTHETIC_KEY],
  );
  return Object.fromEntries(rows.map((r) => [r.state, { real: r.real, synthetic: r.synthetic }]));
}

async function insertState(query: QueryFn, state: string, rows: readonly Synthetic[]): Promise<void> {
  // the product's own writer; a state's sources come from one rollup, so their rows share its time
  const byTime = new Map<string, Synthetic[]>();
  for (const row of rows) {
    const group = byTime.get(row.computed_at);
    if (group) group.push(row);
    else byTime.set(row.computed_at, [row]);
  }
  for (const [computedAt, group] of byTime) await insertBundles(query, DATASET, state, group, computedAt);
  // every series row of the source again under the synthetic key, its value scaled by the suburb's factor for that metric
  await query(
    `INSERT INTO analytics.suburb_series (dataset, state, suburb, metric, section, period, property_type, value, count)
     SELECT s.dataset, s.state, u.suburb, s.metric, s.section, s.period, s.property_type,
       CASE WHEN s.value = trunc(s.value) THEN round(s.value * f.factor) ELSE round((s.value * f.factor)::numeric, 2)::float8 END,
       s.count
     FROM unnest($3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $8::float8[])
       AS u(suburb, source, prices, rents, approvals, bonds)
     JOIN analytics.suburb_series s ON s.dataset = $1 AND s.state = $2 AND s.suburb = u.source
     CROSS JOIN LATERAL (SELECT CASE s.metric WHEN 'prices' THEN u.prices WHEN 'rents' THEN u.rents
       WHEN 'approvals' THEN u.approvals ELSE u.bonds END AS factor) f`,
    [
      DATASET,
      state,
      rows.map((r) => r.key),
      rows.map((r) => r.source),
      ...SERIES.map((_, m) => rows.map((r) => r.seriesFactors[m] ?? 1)),
    ],
  );
}

/**
 * Makes the bench database hold `perState` synthetic suburbs in every sandbox state (0: none),
 * replacing whatever synthetic suburbs it held. The sandbox's own bundles are first recomputed
 * by the product's rollup if the serving process would find them stale (it would then replace
 * each state whole, synthetic suburbs included, in the middle of the run).
 */
export function scaleSuburbAnalytics(url: string, perState: number, seed: number): Promise<ScaleSummary> {
  return withDatabase(url, async (db) => {
    const started = performance.now();
    const before = await counts(db);
    if (perState === 0 && Object.values(before).every((c) => c.synthetic === 0)) {
      return { perState, states: before, ms: 0 };
    }
    if (perState > 0) {
      const stale = await staleStates(db, DATASET, loadConfig().suburbAnalyticsEveryH);
      if (stale.length > 0) {
        process.stdout.write(
          `the sandbox's suburb analytics of ${stale.join(', ')} are stale: rolling them up first\n`,
        );
        await rollupSuburbAnalytics(db, { dataset: DATASET, states: stale, providers: SUBURB_METRICS_PROVIDERS });
      }
    }
    await db.transaction(async (query) => {
      await deleteSynthetic(query);
      if (perState > 0) {
        const sources = await query<SourceRow>(
          `SELECT state, suburb, name, lga_code, lga_name, bundle, metrics,
             to_char(computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS computed_at
           FROM analytics.suburb_bundle WHERE dataset = $1 AND state = ANY($2::text[]) ORDER BY state, suburb`,
          [DATASET, SUBURB_STATES],
        );
        for (const state of SUBURB_STATES) {
          const own = sources.filter((s) => s.state === state);
          if (own.length === 0) continue;
          const rows = Array.from({ length: perState }, (_, i) => synthesise(own[i % own.length]!, i + 1, seed));
          await insertState(query, state, rows);
          process.stdout.write(`  ${state}: ${perState.toLocaleString('en-AU')} synthetic suburbs written\n`);
        }
      }
      await recount(query);
    });
    await tidy(db);
    return { perState, states: await counts(db), ms: performance.now() - started };
  });
}

/** The synthetic suburbs per state now in the bench database. */
export function syntheticCounts(url: string): Promise<Record<string, { real: number; synthetic: number }>> {
  return withDatabase(url, counts);
}

/** Deletes the synthetic suburbs again (after the phase). */
export function removeSyntheticSuburbs(url: string, seed: number): Promise<ScaleSummary> {
  return scaleSuburbAnalytics(url, 0, seed);
}
