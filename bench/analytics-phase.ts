/**
 * The suburb-analytics phase of `npm run bench` (`--only analytics`): GET of a suburb bundle, a
 * screen over every suburb of a state (no range, and one range on the livability score) and a
 * timeseries, through the facade at one connection, against the targets of issue P8 (bundle p50
 * under 10 ms, screen under 50 ms, timeseries under 10 ms). The suburbs are the bench database's
 * computed bundles (the sandbox's; a live database's when pointed at one).
 *
 * At state scale (`--analytics-suburbs N`, bench/analytics-scale.ts: N synthetic suburbs per state
 * besides the sandbox's) the screen is also asked with two ranges, and for a deep page (the last
 * page of the whole state; 90% of the way through the two ranges' hits), each checked once first.
 */
import type { LoadOptions, Measurement, Target } from './load.ts';
import { measure, warmUp } from './load.ts';
import { withDatabase } from './database.ts';

export const ANALYTICS_ROUTES = ['bundle', 'screen', 'timeseries'] as const;
export type AnalyticsRouteName = (typeof ANALYTICS_ROUTES)[number];

/** The p50 targets, in milliseconds. */
export const ANALYTICS_TARGET_MS: Record<AnalyticsRouteName, number> = { bundle: 10, screen: 50, timeseries: 10 };

/** One measured row: a label, the route whose target it answers to, the paths it cycles. */
export type AnalyticsRow = {
  label: string;
  route: AnalyticsRouteName;
  paths: string[];
  /** For a screen row: each path's expected total and row count, checked once before measuring. */
  expect?: Array<{ total: number; count: number }>;
};

export type AnalyticsQueries = {
  suburbs: number;
  /** Of which synthetic (bench/analytics-scale.ts). */
  synthetic: number;
  states: string[];
  rows: AnalyticsRow[];
};

const PAGE = 100;
const SYNTHETIC_KEY = ' SYNTHETIC [0-9]+$';

/** Request paths for every computed suburb of the bench database, in a fixed order. */
export function analyticsQueries(url: string): Promise<AnalyticsQueries> {
  return withDatabase(url, async (db) => {
    const suburbs = await db.query<{ state: string; suburb: string }>(
      `SELECT state, suburb FROM analytics.suburb_bundle WHERE dataset = 'sandbox' ORDER BY state, suburb`,
    );
    if (suburbs.length === 0)
      throw new Error(
        'the bench database has no suburb bundles: run `landgraph suburb-analytics rollup --dataset sandbox`',
      );
    const synthetic = suburbs.filter((r) => new RegExp(SYNTHETIC_KEY).test(r.suburb)).length;
    const states = [...new Set(suburbs.map((r) => r.state))];
    const enc = encodeURIComponent;
    const metrics = ['prices', 'rents', 'approvals', 'bonds'];
    const rows: AnalyticsRow[] = [
      {
        label: 'bundle',
        route: 'bundle',
        paths: suburbs.map((r) => `/v1/suburb-analytics/bundle?state=${r.state}&suburb=${enc(r.suburb)}`),
      },
      {
        label: 'screen',
        route: 'screen',
        // every suburb of the state passes (no range), or those above a livability score: the page is the cost
        paths: states.flatMap((s) => [
          `/v1/suburb-analytics/screen?state=${s}&limit=${PAGE}`,
          `/v1/suburb-analytics/screen?state=${s}&limit=${PAGE}&livability_score_min=50`,
        ]),
      },
      {
        label: 'timeseries',
        route: 'timeseries',
        paths: suburbs.map(
          (r, i) => `/v1/suburb-analytics/timeseries?state=${r.state}&suburb=${enc(r.suburb)}&metric=${metrics[i % 4]}`,
        ),
      },
    ];
    if (synthetic > 0) rows.splice(2, 0, ...(await scaledScreens(db, states)));
    return { suburbs: suburbs.length, synthetic, states, rows };
  });
}

type Db = Parameters<Parameters<typeof withDatabase>[1]>[0];

/**
 * The state-scale screen rows. The two ranges are a livability floor and a house-price ceiling at
 * the state's own 40th and 70th percentiles (rounded), so about half the state passes one and a
 * fraction both; the expected totals are counted in SQL with the subgraph's own filter
 * expression, `(metrics->>name)::float8`.
 */
async function scaledScreens(db: Db, states: readonly string[]): Promise<AnalyticsRow[]> {
  const facts = await db.query<{ state: string; total: number; score: number; price: number }>(
    `SELECT state, count(*)::int AS total,
       round(percentile_cont(0.4) WITHIN GROUP (ORDER BY (metrics->>'livability_score')::float8))::float8 AS score,
       (round(percentile_cont(0.7) WITHIN GROUP (ORDER BY (metrics->>'median_price_house')::float8) / 1000) * 1000)::float8 AS price
     FROM analytics.suburb_bundle WHERE dataset = 'sandbox' AND state = ANY($1::text[]) GROUP BY state ORDER BY state`,
    [states],
  );
  const both = await Promise.all(
    facts.map(async (f) => {
      const [row] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM analytics.suburb_bundle
         WHERE dataset = 'sandbox' AND state = $1
           AND (metrics->>'livability_score')::float8 >= $2 AND (metrics->>'median_price_house')::float8 <= $3`,
        [f.state, f.score, f.price],
      );
      return { ...f, hits: row?.n ?? 0 };
    }),
  );
  const base = (s: string) => `/v1/suburb-analytics/screen?state=${s}&limit=${PAGE}`;
  const ranges = (f: { score: number; price: number }) =>
    `&livability_score_min=${f.score}&median_price_house_max=${f.price}`;
  const lastPage = (total: number) => Math.max(0, total - PAGE);
  const deep = (hits: number) => Math.floor(hits * 0.9);
  const page = (total: number, offset: number) => ({ total, count: Math.max(0, Math.min(PAGE, total - offset)) });
  return [
    {
      label: 'screen, 2 ranges',
      route: 'screen',
      paths: both.map((f) => `${base(f.state)}${ranges(f)}`),
      expect: both.map((f) => page(f.hits, 0)),
    },
    {
      label: 'screen, last page',
      route: 'screen',
      paths: both.map((f) => `${base(f.state)}&offset=${lastPage(f.total)}`),
      expect: both.map((f) => page(f.total, lastPage(f.total))),
    },
    {
      label: 'screen, 2 ranges, 90% deep',
      route: 'screen',
      paths: both.map((f) => `${base(f.state)}${ranges(f)}&offset=${deep(f.hits)}`),
      expect: both.map((f) => page(f.hits, deep(f.hits))),
    },
  ];
}

/** Asks every screen row's paths once: each must answer 200 with the total and row count SQL expects. */
export async function checkAnalyticsScreens(target: Target, queries: AnalyticsQueries): Promise<string[]> {
  const lines: string[] = [];
  for (const row of queries.rows) {
    if (!row.expect) continue;
    for (const [i, path] of row.paths.entries()) {
      const res = await fetch(`${target.url}${path}`, { headers: target.headers });
      const body = (await res.json()) as { total?: number; count?: number };
      const want = row.expect[i];
      if (res.status !== 200 || !want || body.total !== want.total || body.count !== want.count) {
        throw new Error(
          `${path}: ${res.status}, total ${body.total} count ${body.count}; expected 200, total ${want?.total} count ${want?.count}`,
        );
      }
      lines.push(`${row.label}: ${path} -> total ${body.total}, ${body.count} rows`);
    }
  }
  return lines;
}

export type AnalyticsResult = { row: AnalyticsRow; m: Measurement; p50s: number[] };

/** Each row at one connection, `rounds` times; the round with the lowest p50 is kept. */
export async function measureAnalyticsRoutes(
  target: Target,
  queries: AnalyticsQueries,
  options: { load: LoadOptions; rounds: number; initialWarmupS: number },
  report: (label: string, m: Measurement) => void,
): Promise<AnalyticsResult[]> {
  process.stdout.write(`warming the facade up on the suburb-analytics routes: ${options.initialWarmupS} s\n`);
  await warmUp(
    target,
    queries.rows.flatMap((r) => r.paths),
    1,
    options.initialWarmupS,
  );
  const out: AnalyticsResult[] = [];
  for (const row of queries.rows) {
    let kept: AnalyticsResult | undefined;
    for (let round = 0; round < options.rounds; round += 1) {
      process.stdout.write(`${row.label}, round ${round + 1}/${options.rounds}\n`);
      const m = await measure(target, row.paths, { ...options.load, connections: 1 });
      report(row.label, m);
      const p50s = [...(kept?.p50s ?? []), m.p50];
      kept = !kept || m.p50 < kept.m.p50 ? { row, m, p50s } : { ...kept, p50s };
    }
    if (kept) out.push(kept);
  }
  return out;
}

/** One line per row: its p50 against its route's target. */
export function analyticsVerdict(results: readonly AnalyticsResult[], queries: AnalyticsQueries): string {
  const of = queries.synthetic > 0 ? `, ${queries.synthetic} of them synthetic` : '';
  return [
    `suburb analytics over ${queries.suburbs} computed suburbs${of} (${queries.states.join(', ')}), one connection:`,
    ...results.map((r) => {
      const target = ANALYTICS_TARGET_MS[r.row.route];
      const verdict = r.m.p50 < target ? 'meets' : 'MISSES';
      return `  ${r.row.label.padEnd(27)} p50 ${r.m.p50.toFixed(2)} ms, p95 ${r.m.p95.toFixed(2)} ms, p99 ${r.m.p99.toFixed(2)} ms (${r.m.requests} requests, ${r.m.non2xx} non-2xx; round p50s ${r.p50s.map((p) => p.toFixed(2)).join(' / ')}): ${verdict} the ${target} ms target`;
    }),
  ].join('\n');
}
