/**
 * `landgraph suburb-analytics rollup [--state VIC|NSW|QLD] [--dataset live|sandbox]`: recomputes
 * the suburb bundles (spec 2.10) of one state or all three from every registered layer
 * (subgraphs/suburb-metrics.ts). Run it after an ingest; the serving process also recomputes a
 * state whose layers were loaded since, or whose bundles are a day old. Idempotent: a state's
 * bundles are replaced whole in one transaction. Exit 2 for bad input.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { setLogLevel } from '../core/logger.ts';
import { licensedMetricsFeed } from '../core/suburb-analytics/licensed.ts';
import { rollupSuburbAnalytics, SUBURB_STATES } from '../core/suburb-analytics/rollup.ts';
import type { SuburbState } from '../core/suburb-metrics.ts';
import { SUBURB_METRICS_PROVIDERS } from '../subgraphs/suburb-metrics.ts';

export const SUBURB_ANALYTICS_USAGE = `Usage: landgraph suburb-analytics rollup [--state VIC|NSW|QLD] [--dataset live|sandbox]
  --state CODE     recompute one state's suburbs; default: VIC, NSW and QLD
  --dataset NAME   live (default) or sandbox
  Every locality of the state (G-NAF) gets a bundle merged from every data layer, with the
  livability score and licensed_metrics (LANDGRAPH_LICENSED_METRICS_FEED). A state's bundles are
  replaced whole: running it again over the same data gives the same bundles.
`;

/** `args` are those after `suburb-analytics`. */
export async function runSuburbAnalyticsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  let values: { state?: string; dataset?: string };
  try {
    if (sub !== 'rollup') {
      throw new Error(sub ? `unknown suburb-analytics command "${sub}"` : 'name a suburb-analytics command');
    }
    values = parseArgs({
      args: rest,
      options: { state: { type: 'string' }, dataset: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }).values;
    if (values.state !== undefined && !(SUBURB_STATES as readonly string[]).includes(values.state.toUpperCase())) {
      throw new Error(`--state must be one of ${SUBURB_STATES.join(', ')}, got "${values.state}"`);
    }
    if (values.dataset !== undefined && !['live', 'sandbox'].includes(values.dataset)) {
      throw new Error(`--dataset must be live or sandbox, got "${values.dataset}"`);
    }
  } catch (error) {
    process.stderr.write(`landgraph suburb-analytics: ${(error as Error).message}\n\n${SUBURB_ANALYTICS_USAGE}`);
    return 2;
  }
  setLogLevel('warn');
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    const { prepareDatabase } = await import('../app/runtime.ts');
    await prepareDatabase(db, config);
    const dataset = values.dataset ?? 'live';
    const results = await rollupSuburbAnalytics(db, {
      dataset,
      states: values.state ? [values.state.toUpperCase() as SuburbState] : SUBURB_STATES,
      providers: SUBURB_METRICS_PROVIDERS,
      feed: licensedMetricsFeed(config.licensedMetricsFeed),
    });
    for (const r of results) {
      process.stdout.write(
        `Suburb analytics of dataset '${dataset}', ${r.state}: ${r.suburbs} suburbs, ${r.metrics} metric values, ` +
          `${r.series} series points from ${r.sections.length ? r.sections.join(', ') : 'no layer'} (${r.ms} ms).\n`,
      );
    }
    return 0;
  } finally {
    await db.close();
  }
}
