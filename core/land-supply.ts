/**
 * The land-supply weekly rollup: per estate, suburb and state, per week (named by its Monday),
 * how many lots were on the market, available, newly listed and sold or delisted, and the
 * median asking price of the available ones. Read by the supply subgraph, written by
 * `landgraph land-supply rollup`, the serving process's schedule and the sandbox load.
 */
import type { Database, QueryFn } from './db.ts';
import { logger } from './logger.ts';

/** The Monday (UTC) of the ISO week holding `day` (YYYY-MM-DD or a Date), as YYYY-MM-DD. */
export function weekOf(day: string | Date): string {
  const ms = typeof day === 'string' ? Date.parse(`${day}T00:00:00Z`) : day.getTime();
  const d = new Date(ms);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - back)).toISOString().slice(0, 10);
}

const CLEAR_WEEKS = `DELETE FROM supply.weekly_rollup
WHERE dataset = $1 AND week BETWEEN $2::date AND $3::date`;

/**
 * One lot's part in one week: on the market (available or under offer), available, first listed
 * that week, or gone that week (on the market the week before and now sold, withdrawn or no
 * longer listed). The three levels are one GROUPING SETS pass.
 */
const ROLL_UP_WEEKS = `
WITH weeks AS (
  SELECT w::date AS week FROM generate_series($2::date, $3::date, interval '7 days') AS w
), facts AS (
  SELECT wk.week, e.state, e.suburb, e.estate_id,
    s.sales_status IN ('available', 'under_offer') AS active,
    s.sales_status = 'available' AS available,
    CASE WHEN s.sales_status = 'available' THEN s.asking_price END AS price,
    NOT EXISTS (SELECT 1 FROM supply.lot_snapshot o
      WHERE o.dataset = s.dataset AND o.lot_id = s.lot_id AND o.week < wk.week) AS fresh,
    false AS gone
  FROM weeks wk
  JOIN supply.lot_snapshot s ON s.dataset = $1 AND s.week = wk.week
  JOIN supply.lot l ON l.dataset = s.dataset AND l.lot_id = s.lot_id
  JOIN supply.estate e ON e.dataset = l.dataset AND e.estate_id = l.estate_id
  UNION ALL
  SELECT wk.week, e.state, e.suburb, e.estate_id, false, false, NULL, false, true
  FROM weeks wk
  JOIN supply.lot_snapshot p ON p.dataset = $1 AND p.week = wk.week - 7 AND p.sales_status IN ('available', 'under_offer')
  LEFT JOIN supply.lot_snapshot s ON s.dataset = p.dataset AND s.lot_id = p.lot_id AND s.week = wk.week
  JOIN supply.lot l ON l.dataset = p.dataset AND l.lot_id = p.lot_id
  JOIN supply.estate e ON e.dataset = l.dataset AND e.estate_id = l.estate_id
  WHERE s.lot_id IS NULL OR s.sales_status IN ('sold', 'withdrawn')
), grouped AS (
  SELECT week, state, suburb, estate_id, GROUPING(suburb) AS all_suburbs, GROUPING(estate_id) AS all_estates,
    count(*) FILTER (WHERE active)::int AS active_lots,
    count(*) FILTER (WHERE available)::int AS available_lots,
    count(*) FILTER (WHERE fresh)::int AS new_lots,
    count(*) FILTER (WHERE gone)::int AS sold_or_delisted_lots,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS median_asking_price
  FROM facts
  GROUP BY GROUPING SETS ((week, state, suburb, estate_id), (week, state, suburb), (week, state))
)
INSERT INTO supply.weekly_rollup (dataset, level, place, state, suburb, estate_id, week, active_lots,
  available_lots, new_lots, sold_or_delisted_lots, median_asking_price, rolled_at)
SELECT $1, lv.level,
  CASE lv.level WHEN 'estate' THEN g.estate_id WHEN 'suburb' THEN g.state || '/' || upper(g.suburb) ELSE g.state END,
  g.state, CASE WHEN lv.level = 'state' THEN NULL ELSE g.suburb END,
  CASE WHEN lv.level = 'estate' THEN g.estate_id END,
  g.week, g.active_lots, g.available_lots, g.new_lots, g.sold_or_delisted_lots, g.median_asking_price, now()
FROM grouped g
CROSS JOIN LATERAL (SELECT CASE WHEN g.all_suburbs = 1 THEN 'state' WHEN g.all_estates = 1 THEN 'suburb'
  ELSE 'estate' END AS level) lv
WHERE lv.level <> 'suburb' OR g.suburb IS NOT NULL
RETURNING level`;

const LATEST_SNAPSHOT_WEEK = `SELECT max(week)::text AS week FROM supply.lot_snapshot WHERE dataset = $1`;

export type RollupResult = { dataset: string; from: string; to: string; rows: number };

/**
 * Every writer of `supply.weekly_rollup` (the command, the schedule of any process, the sandbox
 * load) holds this transaction-scoped lock while it replaces weeks, so two processes or
 * instances never roll up at the same time: the second waits, then replaces the week again
 * from the same snapshots (or, on the schedule, finds it fresh and leaves it).
 */
export const LOCK_LAND_SUPPLY_ROLLUP = 'SELECT pg_advisory_xact_lock(727277)';

/** Rolls up the weeks from `from` to `to` (Mondays) inside an open transaction: each week is replaced whole. */
export async function rollupWeeksIn(query: QueryFn, dataset: string, from: string, to: string): Promise<number> {
  await query(LOCK_LAND_SUPPLY_ROLLUP);
  await query(CLEAR_WEEKS, [dataset, from, to]);
  const rows = await query<{ level: string }>(ROLL_UP_WEEKS, [dataset, from, to]);
  return rows.length;
}

/**
 * Rolls up one week (the week holding `week`, or the latest week any lot was snapshotted in);
 * running it again for the same week gives the same rows.
 */
export async function rollupLandSupply(db: Database, dataset: string, week?: string): Promise<RollupResult | null> {
  const target = week
    ? weekOf(week)
    : ((await db.query<{ week: string | null }>(LATEST_SNAPSHOT_WEEK, [dataset]))[0]?.week ?? null);
  if (!target) return null;
  const rows = await db.transaction((query) => rollupWeeksIn(query, dataset, target, target));
  return { dataset, from: target, to: target, rows };
}

const LATEST_ROLLED = `SELECT (SELECT max(week)::text FROM supply.lot_snapshot WHERE dataset = $1) AS latest,
  (SELECT max(rolled_at) FROM supply.weekly_rollup WHERE dataset = $1 AND week = (SELECT max(week) FROM supply.lot_snapshot WHERE dataset = $1)) AS rolled_at,
  (SELECT max(l.updated_at) FROM supply.lot l WHERE l.dataset = $1) AS changed_at`;

/**
 * Rolls up the latest snapshotted week of `dataset` when it was never rolled up or its lots
 * changed since; null when it was fresh (or there is nothing). The check is made again under
 * the rollup lock, in the rollup's own transaction, so of several processes or instances
 * checking at once exactly one rolls the week up and the others find it fresh.
 */
export async function rollupLatestIfStale(db: Database, dataset: string): Promise<RollupResult | null> {
  const isStale = async (query: QueryFn) => {
    const [state] = await query<{ latest: string | null; rolled_at: Date | null; changed_at: Date | null }>(
      LATEST_ROLLED,
      [dataset],
    );
    if (!state?.latest) return null;
    const stale = !state.rolled_at || (state.changed_at !== null && state.changed_at > state.rolled_at);
    return stale ? state.latest : null;
  };
  // the cheap check outside any transaction or lock: nearly every hourly tick ends here
  if (!(await isStale((sql, params) => db.query(sql, params)))) return null;
  return db.transaction(async (query) => {
    await query(LOCK_LAND_SUPPLY_ROLLUP);
    const week = await isStale(query);
    if (!week) return null;
    const rows = await rollupWeeksIn(query, dataset, week, week);
    return { dataset, from: week, to: week, rows };
  });
}

/** The datasets the schedule keeps rolled up. */
export const ROLLUP_DATASETS = ['sandbox', 'live'] as const;

/**
 * The serving process's schedule: every `intervalMs` (and once at start), rolls up the latest
 * snapshotted week of each dataset when it was never rolled up or its lots changed since.
 * Embedded mode runs it in the serving process, distributed mode in the supply subgraph's
 * process. Returns the stop function.
 */
export function scheduleLandSupplyRollup(db: Database, datasets: readonly string[], intervalMs: number): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const dataset of datasets) {
        const result = await rollupLatestIfStale(db, dataset);
        if (result) logger.info(`land-supply rollup of ${dataset} week ${result.from}: ${result.rows} rows`);
      }
    } catch (error) {
      logger.warn(`land-supply rollup failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
