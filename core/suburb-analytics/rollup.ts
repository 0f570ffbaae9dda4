/**
 * The suburb analytics rollup (spec 2.10): per dataset and state, one bundle per suburb merged
 * from what every data layer's `SuburbMetricsProvider` knows (core/suburb-metrics.ts), with the
 * derived livability score and the licensed_metrics block. A state's bundles, metrics, series
 * and catalog are replaced whole in one transaction, so a reader sees the old set or the new,
 * and a rerun over the same data writes the same rows.
 *
 * The providers are a parameter: core/ knows no subgraph, so the composition root passes the
 * registry (subgraphs/suburb-metrics.ts); tests pass their own.
 */
import type { Database, QueryFn } from '../db.ts';
import { logger } from '../logger.ts';
import type {
  SuburbContribution,
  SuburbCredit,
  SuburbMetricsProvider,
  SuburbSeriesMetric,
  SuburbSeriesPoint,
  SuburbState,
} from '../suburb-metrics.ts';
import { suburbKey } from '../suburb-metrics.ts';
import type { LicensedMetricsFeed, LicensedValues } from './licensed.ts';
import { LICENSED_METRICS, licensedBlock } from './licensed.ts';
import { livabilityScore } from './livability.ts';

export const SUBURB_STATES: readonly SuburbState[] = ['VIC', 'NSW', 'QLD'];
export const SERIES_METRICS: readonly SuburbSeriesMetric[] = ['prices', 'rents', 'approvals', 'bonds'];
export const BUNDLE_VERSION = 1;

export type RollupOptions = {
  dataset: string;
  states?: readonly SuburbState[];
  providers: readonly SuburbMetricsProvider[];
  feed?: LicensedMetricsFeed | null;
  /** The clock of computed_at; a parameter so a test can pin it. */
  now?: () => Date;
};

export type StateRollup = {
  state: SuburbState;
  suburbs: number;
  metrics: number;
  series: number;
  sections: string[];
  ms: number;
};

const LOCALITIES = `SELECT locality_name AS name, lga_code, lga_name FROM address.locality
  WHERE dataset = $1 AND state = $2 ORDER BY locality_pid`;

type Locality = { name: string; lga_code: string | null; lga_name: string | null };

type Merged = {
  key: string;
  name: string;
  lga_code: string | null;
  lga_name: string | null;
  metrics: Record<string, number | null>;
  metricSection: Map<string, string>;
  sections: Record<string, unknown>;
  series: Map<SuburbSeriesMetric, Array<SuburbSeriesPoint & { section: string }>>;
};

const join = (values: string[]) => [...new Set(values)].join(' | ');

/**
 * Merges the localities and the providers' contributions: a suburb any of them names gets a
 * bundle. A metric two sections both claim keeps the first provider's (registry order) and the
 * clash is logged: names are unique by contract, so this is a provider's bug, not the caller's.
 */
export function mergeContributions(
  localities: readonly Locality[],
  contributions: ReadonlyArray<{ section: string; byKey: Map<string, SuburbContribution> }>,
): Map<string, Merged> {
  const merged = new Map<string, Merged>();
  const entry = (key: string, name: string) => {
    let m = merged.get(key);
    if (!m) {
      m = {
        key,
        name,
        lga_code: null,
        lga_name: null,
        metrics: {},
        metricSection: new Map(),
        sections: {},
        series: new Map(),
      };
      merged.set(key, m);
    }
    return m;
  };
  for (const l of localities) {
    const m = entry(suburbKey(l.name), l.name.trim());
    m.lga_code ??= l.lga_code;
    m.lga_name ??= l.lga_name;
  }
  for (const { section, byKey } of contributions) {
    for (const [rawKey, c] of byKey) {
      const key = suburbKey(rawKey);
      const m = entry(key, key);
      for (const [metric, value] of Object.entries(c.metrics)) {
        const owner = m.metricSection.get(metric);
        if (owner !== undefined && owner !== section) {
          logger.warn(
            `suburb analytics: metric ${metric} of ${key} is claimed by ${owner} and ${section}; kept ${owner}'s`,
          );
          continue;
        }
        m.metricSection.set(metric, section);
        m.metrics[metric] = typeof value === 'number' && Number.isFinite(value) ? value : null;
      }
      m.sections[section] = c.section;
      for (const metric of SERIES_METRICS) {
        const points = c.series?.[metric];
        if (points?.length) {
          m.series.set(metric, [...(m.series.get(metric) ?? []), ...points.map((p) => ({ ...p, section }))]);
        }
      }
    }
  }
  return merged;
}

/** A suburb's row of `analytics.suburb_bundle`, as the rollup writes it. */
export type BundleRow = {
  key: string;
  name: string;
  lga_code: string | null;
  lga_name: string | null;
  score: number | null;
  bundle: unknown;
  metrics: Record<string, number | null>;
};

/** A credit as a bundle carries it: with the section it credits. */
export type BundleCredit = SuburbCredit & { section: string };

/** Builds every bundle of one state (no writes). */
export async function buildStateBundles(
  db: Database,
  options: RollupOptions & { state: SuburbState },
): Promise<{
  bundles: BundleRow[];
  metrics: Array<{ key: string; metric: string; value: number }>;
  series: Array<{ key: string; metric: string; point: SuburbSeriesPoint & { section: string } }>;
  credits: BundleCredit[];
  catalog: Array<{ metric: string; section: string; suburbs: number }>;
  sections: string[];
}> {
  const { dataset, state, providers } = options;
  const computedAt = (options.now ?? (() => new Date()))().toISOString();
  const [localities, results] = await Promise.all([
    db.query<Locality>(LOCALITIES, [dataset, state]),
    Promise.all(
      providers.map(async (p) => {
        const [byKey, credits] = await Promise.all([p.contribute(db, dataset, state), p.credits(db, dataset, state)]);
        return { section: p.section, byKey, credits };
      }),
    ),
  ]);
  const merged = mergeContributions(localities, results);
  const keys = [...merged.keys()].sort();
  const feed = options.feed ?? null;
  let feedValues = new Map<string, LicensedValues>();
  let feedCredit: SuburbCredit | null = null;
  if (feed) [feedValues, feedCredit] = await Promise.all([feed.metrics(state, keys), feed.credit()]);
  const creditsBySection = new Map(results.map((r) => [r.section, r.credits]));
  const sectionNames = providers.map((p) => p.section);
  const contributing = sectionNames.filter((s) => results.find((r) => r.section === s)!.byKey.size > 0);

  const bundles: BundleRow[] = [];
  const metrics: Array<{ key: string; metric: string; value: number }> = [];
  const series: Array<{ key: string; metric: string; point: SuburbSeriesPoint & { section: string } }> = [];
  const stateCredits = new Map<string, BundleCredit>();
  const catalog = new Map<string, { section: string; suburbs: number }>();
  const note = (metric: string, section: string, has: boolean) => {
    const c = catalog.get(metric) ?? { section, suburbs: 0 };
    if (has) c.suburbs += 1;
    catalog.set(metric, c);
  };
  for (const key of keys) {
    const m = merged.get(key)!;
    const livability = livabilityScore(m.metrics);
    const values = feedValues.get(key);
    const licensed = licensedBlock(feed, values);
    const flat: Record<string, number | null> = { ...m.metrics, livability_score: livability.score };
    for (const name of LICENSED_METRICS) flat[name] = licensed[name].value;
    const usedFeed = LICENSED_METRICS.some((n) => licensed[n].status === 'ok');
    const sectionsHere = sectionNames.filter((s) => s in m.sections);
    const credits: BundleCredit[] = [
      ...sectionsHere.flatMap((s) => (creditsBySection.get(s) ?? []).map((c) => ({ section: s, ...c }))),
      ...(usedFeed && feedCredit ? [{ section: 'licensed_metrics', ...feedCredit }] : []),
    ];
    for (const c of credits) stateCredits.set(`${c.section}\u0000${c.attribution}\u0000${c.license}`, c);
    const bundle = {
      bundle_version: BUNDLE_VERSION,
      state,
      suburb: m.name,
      suburb_key: key,
      lga_code: m.lga_code,
      lga_name: m.lga_name,
      computed_at: computedAt,
      metrics: flat,
      livability,
      licensed_metrics: { feed: feed?.name ?? null, ...licensed },
      sections: Object.fromEntries(sectionNames.map((s) => [s, m.sections[s] ?? null])),
      sections_missing: sectionNames.filter((s) => !(s in m.sections)),
      series_available: SERIES_METRICS.filter((s) => m.series.has(s)),
      credits,
      attribution: credits.length ? join(credits.map((c) => c.attribution)) : null,
      license: credits.length ? join(credits.map((c) => c.license)) : null,
    };
    bundles.push({
      key,
      name: m.name,
      lga_code: m.lga_code,
      lga_name: m.lga_name,
      score: livability.score,
      bundle,
      metrics: flat,
    });
    for (const [metric, value] of Object.entries(flat)) {
      const section =
        metric === 'livability_score'
          ? 'livability'
          : (LICENSED_METRICS as readonly string[]).includes(metric)
            ? 'licensed_metrics'
            : (m.metricSection.get(metric) ?? 'unknown');
      note(metric, section, value !== null);
      if (value !== null) metrics.push({ key, metric, value });
    }
    for (const [metric, points] of m.series) for (const point of points) series.push({ key, metric, point });
  }
  return {
    bundles,
    metrics,
    series,
    credits: [...stateCredits.values()],
    catalog: [...catalog].map(([metric, c]) => ({ metric, ...c })),
    sections: contributing,
  };
}

const BATCH = 5_000;

async function inBatches<T>(rows: readonly T[], write: (batch: readonly T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

/** Inserts one state's bundle rows, in batches, inside the caller's transaction. */
export async function insertBundles(
  query: QueryFn,
  dataset: string,
  state: string,
  rows: readonly BundleRow[],
  computedAt: string,
): Promise<void> {
  await inBatches(rows, (b) =>
    query(
      `INSERT INTO analytics.suburb_bundle (dataset, state, suburb, name, lga_code, lga_name, livability_score, bundle,
         metrics, computed_at)
       SELECT $1, $2, u.suburb, u.name, u.lga_code, u.lga_name, u.score, u.bundle::jsonb, u.metrics::jsonb, $3::timestamptz
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::text[], $10::text[])
         AS u(suburb, name, lga_code, lga_name, score, bundle, metrics)`,
      [
        dataset,
        state,
        computedAt,
        b.map((r) => r.key),
        b.map((r) => r.name),
        b.map((r) => r.lga_code),
        b.map((r) => r.lga_name),
        b.map((r) => r.score),
        b.map((r) => JSON.stringify(r.bundle)),
        b.map((r) => JSON.stringify(r.metrics)),
      ],
    ),
  );
}

/** Replaces one state's rows inside an open transaction. */
async function writeState(
  query: QueryFn,
  dataset: string,
  state: SuburbState,
  built: Awaited<ReturnType<typeof buildStateBundles>>,
  computedAt: string,
  tookMs: number,
): Promise<void> {
  for (const table of ['suburb_bundle', 'suburb_series', 'metric_catalog', 'rollup_run']) {
    await query(`DELETE FROM analytics.${table} WHERE dataset = $1 AND state = $2`, [dataset, state]);
  }
  await insertBundles(query, dataset, state, built.bundles, computedAt);
  await inBatches(built.series, (b) =>
    query(
      `INSERT INTO analytics.suburb_series (dataset, state, suburb, metric, section, period, property_type, value, count)
       SELECT $1, $2, u.suburb, u.metric, u.section, u.period, u.property_type, u.value, u.count
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::int[], $9::text[])
         AS u(suburb, metric, period, property_type, value, count, section)`,
      [
        dataset,
        state,
        b.map((r) => r.key),
        b.map((r) => r.metric),
        b.map((r) => r.point.period),
        b.map((r) => r.point.property_type ?? ''),
        b.map((r) => r.point.value),
        b.map((r) => (r.point.count === undefined || r.point.count === null ? null : Math.round(r.point.count))),
        b.map((r) => r.point.section),
      ],
    ),
  );
  if (built.catalog.length) {
    await query(
      `INSERT INTO analytics.metric_catalog (dataset, state, metric, section, suburbs)
       SELECT $1, $2, u.metric, u.section, u.suburbs FROM unnest($3::text[], $4::text[], $5::int[]) AS u(metric, section, suburbs)`,
      [
        dataset,
        state,
        built.catalog.map((c) => c.metric),
        built.catalog.map((c) => c.section),
        built.catalog.map((c) => c.suburbs),
      ],
    );
  }
  await query(
    `INSERT INTO analytics.rollup_run (dataset, state, suburbs, sections, credits, computed_at, took_ms)
     VALUES ($1, $2, $3, $4::text[], $5::jsonb, $6::timestamptz, $7)`,
    [dataset, state, built.bundles.length, built.sections, JSON.stringify(built.credits), computedAt, tookMs],
  );
}

/** Recomputes the bundles of each state asked (default: all three) of one dataset. */
export async function rollupSuburbAnalytics(db: Database, options: RollupOptions): Promise<StateRollup[]> {
  const out: StateRollup[] = [];
  for (const state of options.states ?? SUBURB_STATES) {
    const started = performance.now();
    const now = (options.now ?? (() => new Date()))();
    const built = await buildStateBundles(db, { ...options, state, now: () => now });
    const ms = Math.round(performance.now() - started);
    await db.transaction((query) => writeState(query, options.dataset, state, built, now.toISOString(), ms));
    out.push({
      state,
      suburbs: built.bundles.length,
      metrics: built.metrics.length,
      series: built.series.length,
      sections: built.sections,
      ms: Math.round(performance.now() - started),
    });
  }
  return out;
}

/** Whether any state of the dataset was ever rolled up. */
export async function suburbAnalyticsComputed(db: Database, dataset: string): Promise<boolean> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM analytics.rollup_run WHERE dataset = $1', [
    dataset,
  ]);
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * A state is stale when it was never rolled up, when a layer of it was loaded since (an ingest
 * or a sandbox reload writes public.dataset_source), or when its bundles are older than `maxAgeH`.
 */
const STALE_STATES = `
SELECT s.state FROM (SELECT DISTINCT state FROM public.dataset_source WHERE dataset = $1 AND state = ANY($2::text[])) s
LEFT JOIN analytics.rollup_run r ON r.dataset = $1 AND r.state = s.state
WHERE r.computed_at IS NULL
   OR r.computed_at < (SELECT max(loaded_at) FROM public.dataset_source d WHERE d.dataset = $1 AND d.state = s.state)
   OR r.computed_at < now() - make_interval(hours => $3::int)
ORDER BY s.state`;

export async function staleStates(db: Database, dataset: string, maxAgeH: number): Promise<SuburbState[]> {
  const rows = await db.query<{ state: SuburbState }>(STALE_STATES, [dataset, SUBURB_STATES, maxAgeH]);
  return rows.map((r) => r.state);
}

/**
 * The serving process's schedule: every `intervalMs`, recomputes the states of each dataset
 * that are stale (never rolled up, ingested since, or older than `maxAgeH`). Returns the stop function.
 */
export function scheduleSuburbAnalyticsRollup(
  db: Database,
  datasets: readonly string[],
  options: {
    intervalMs: number;
    maxAgeH: number;
    providers: readonly SuburbMetricsProvider[];
    feed: LicensedMetricsFeed | null;
  },
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const dataset of datasets) {
        const states = await staleStates(db, dataset, options.maxAgeH);
        if (states.length === 0) continue;
        const result = await rollupSuburbAnalytics(db, {
          dataset,
          states,
          providers: options.providers,
          feed: options.feed,
        });
        logger.info(
          `suburb analytics rollup of ${dataset}: ${result.map((r) => `${r.state} ${r.suburbs} suburbs`).join(', ')}`,
        );
      }
    } catch (error) {
      logger.warn(`suburb analytics rollup failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
