import type { Server } from 'node:http';
import type { Config } from '../core/config.ts';
import { closeServer, listen } from '../core/http-listen.ts';
import { logger } from '../core/logger.ts';
import { startRuntime } from '../app/runtime.ts';
import type { Runtime } from '../app/runtime.ts';
import { createApp } from '../rest-facade/app.ts';
import { ROLLUP_DATASETS, scheduleLandSupplyRollup } from '../core/land-supply.ts';
import { licensedMetricsFeed } from '../core/suburb-analytics/licensed.ts';
import { scheduleSuburbAnalyticsRollup } from '../core/suburb-analytics/rollup.ts';
import { SUBURB_METRICS_PROVIDERS } from '../subgraphs/suburb-metrics.ts';
import { startJobWorker } from './worker.ts';

/** How often the serving process checks that the latest land-supply week is rolled up (the CLI's serve). */
export const LAND_SUPPLY_ROLLUP_EVERY_MS = 3_600_000;

/**
 * How often the serving process checks for stale suburb bundles (a state ingested since its
 * rollup, or older than LANDGRAPH_SUBURB_ANALYTICS_EVERY_H, a day by default).
 */
export const SUBURB_ANALYTICS_CHECK_EVERY_MS = 3_600_000;

export type ServeOptions = {
  /** Checks the suburb analytics bundles this often; off (null) unless asked, so tests start no timer. */
  suburbAnalyticsEveryMs?: number | null;
  /**
   * Checks the land-supply rollup this often; off (null or 0) unless asked, so tests start no
   * timer. In distributed mode the supply subgraph's process runs it (cli/distributed.ts).
   */
  landSupplyRollupEveryMs?: number | null;
  /** Runs the job worker in this process (the embedded default's); off unless asked, so tests start none. */
  jobWorker?: boolean;
};

export type RunningServer = { runtime: Runtime; server: Server; url: string; stop(): Promise<void> };

/** Starts the facade and /graphql on one port, on whatever graph mode the config names. */
export async function serve(config: Config, options: ServeOptions = {}): Promise<RunningServer> {
  const runtime = await startRuntime(config);
  const app = createApp(runtime);
  // A port already taken fails the start, and what the runtime opened is let go first.
  const server = await listen(app, config.port, config.host).catch(async (error: unknown) => {
    await runtime.close();
    throw error;
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  logger.info(`Landgraph listening on ${url} (REST /api and /v1, GraphQL ${url}/graphql)`, {
    mode: config.mode,
    database: runtime.db.kind,
  });
  const every = options.landSupplyRollupEveryMs ?? null;
  const stopRollup = every ? scheduleLandSupplyRollup(runtime.db, ROLLUP_DATASETS, every) : () => undefined;
  const analyticsEvery = options.suburbAnalyticsEveryMs ?? null;
  const stopAnalytics = analyticsEvery
    ? scheduleSuburbAnalyticsRollup(runtime.db, ['sandbox', 'live'], {
        intervalMs: analyticsEvery,
        maxAgeH: config.suburbAnalyticsEveryH,
        providers: SUBURB_METRICS_PROVIDERS,
        feed: licensedMetricsFeed(config.licensedMetricsFeed),
      })
    : () => undefined;
  const worker = options.jobWorker ? await startJobWorker(runtime.db, config, { graph: runtime.graph }) : null;
  return {
    runtime,
    server,
    url,
    async stop() {
      stopRollup();
      stopAnalytics();
      await worker?.stop();
      await closeServer(server);
      await runtime.close();
    },
  };
}

export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received, shutting down`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error: (error as Error).message });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => handler('SIGINT'));
  process.once('SIGTERM', () => handler('SIGTERM'));
}
