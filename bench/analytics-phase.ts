/**
 * The suburb-analytics phase of `npm run bench` (`--only analytics`): GET of a suburb bundle, a
 * screen over every suburb of a state (no range, and one range on the livability score) and a
 * timeseries, through the facade at one connection, against the targets of issue P8 (bundle p50
 * under 10 ms, screen under 50 ms, timeseries under 10 ms). The suburbs are the bench database's
 * computed bundles (the sandbox's; a live database's when pointed at one).
 */
import type { LoadOptions, Measurement, Target } from './load.ts';
import { measure, warmUp } from './load.ts';
import { withDatabase } from './database.ts';

export const ANALYTICS_ROUTES = ['bundle', 'screen', 'timeseries'] as const;
export type AnalyticsRouteName = (typeof ANALYTICS_ROUTES)[number];

/** The p50 targets, in milliseconds. */
export const ANALYTICS_TARGET_MS: Record<AnalyticsRouteName, number> = { bundle: 10, screen: 50, timeseries: 10 };

export type AnalyticsQueries = { suburbs: number; states: string[]; routes: Record<AnalyticsRouteName, string[]> };

/** Request paths for every computed suburb of the bench database, in a fixed order. */
export function analyticsQueries(url: string): Promise<AnalyticsQueries> {
  return withDatabase(url, async (db) => {
    const rows = await db.query<{ state: string; suburb: string }>(
      `SELECT state, suburb FROM analytics.suburb_bundle WHERE dataset = 'sandbox' ORDER BY state, suburb`,
    );
    if (rows.length === 0)
      throw new Error(
        'the bench database has no suburb bundles: run `landgraph suburb-analytics rollup --dataset sandbox`',
      );
    const states = [...new Set(rows.map((r) => r.state))];
    const enc = encodeURIComponent;
    const metrics = ['prices', 'rents', 'approvals', 'bonds'];
    return {
      suburbs: rows.length,
      states,
      routes: {
        bundle: rows.map((r) => `/v1/suburb-analytics/bundle?state=${r.state}&suburb=${enc(r.suburb)}`),
        // every suburb of the state passes (no range), or those above a livability score: the page is the cost
        screen: states.flatMap((s) => [
          `/v1/suburb-analytics/screen?state=${s}&limit=100`,
          `/v1/suburb-analytics/screen?state=${s}&limit=100&livability_score_min=50`,
        ]),
        timeseries: rows.map(
          (r, i) => `/v1/suburb-analytics/timeseries?state=${r.state}&suburb=${enc(r.suburb)}&metric=${metrics[i % 4]}`,
        ),
      },
    };
  });
}

export type AnalyticsResult = { route: AnalyticsRouteName; m: Measurement; p50s: number[] };

/** Each route at one connection, `rounds` times; the round with the lowest p50 is kept. */
export async function measureAnalyticsRoutes(
  target: Target,
  queries: AnalyticsQueries,
  options: { load: LoadOptions; rounds: number; initialWarmupS: number },
  report: (route: AnalyticsRouteName, m: Measurement) => void,
): Promise<AnalyticsResult[]> {
  process.stdout.write(`warming the facade up on the suburb-analytics routes: ${options.initialWarmupS} s\n`);
  await warmUp(
    target,
    ANALYTICS_ROUTES.flatMap((r) => queries.routes[r]),
    1,
    options.initialWarmupS,
  );
  const out: AnalyticsResult[] = [];
  for (const route of ANALYTICS_ROUTES) {
    let kept: AnalyticsResult | undefined;
    for (let round = 0; round < options.rounds; round += 1) {
      process.stdout.write(`${route}, round ${round + 1}/${options.rounds}\n`);
      const m = await measure(target, queries.routes[route], { ...options.load, connections: 1 });
      report(route, m);
      const p50s = [...(kept?.p50s ?? []), m.p50];
      kept = !kept || m.p50 < kept.m.p50 ? { route, m, p50s } : { ...kept, p50s };
    }
    if (kept) out.push(kept);
  }
  return out;
}

/** One line per route: its p50 against its target. */
export function analyticsVerdict(results: readonly AnalyticsResult[], queries: AnalyticsQueries): string {
  return [
    `suburb analytics over ${queries.suburbs} computed suburbs (${queries.states.join(', ')}), one connection:`,
    ...results.map((r) => {
      const target = ANALYTICS_TARGET_MS[r.route];
      const verdict = r.m.p50 < target ? 'meets' : 'MISSES';
      return `  ${r.route.padEnd(10)} p50 ${r.m.p50.toFixed(2)} ms, p99 ${r.m.p99.toFixed(2)} ms (${r.m.non2xx} non-2xx): ${verdict} the ${target} ms target`;
    }),
  ].join('\n');
}
