import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import { EMBEDDED_CLIENT_POOL, openDatabase } from '../core/db.ts';
import { generateInternalSecret } from '../core/internal-auth.ts';
import { logger } from '../core/logger.ts';
import { closeServer, listen } from '../core/http-listen.ts';
import { licensedMetricsFeed } from '../core/suburb-analytics/licensed.ts';
import { scheduleSuburbAnalyticsRollup } from '../core/suburb-analytics/rollup.ts';
import type { Runtime } from '../app/runtime.ts';
import { distributedSubgraphUrls, prepareDatabase, startRuntime } from '../app/runtime.ts';
import { createApp } from '../rest-facade/app.ts';
import type { SubgraphName } from '../subgraphs/index.ts';
import { SUBGRAPH_NAMES } from '../subgraphs/index.ts';
import { SUBURB_METRICS_PROVIDERS } from '../subgraphs/suburb-metrics.ts';
import type { RunningServer, ServeOptions } from './serve.ts';
import { answersHealth } from './subgraph-readiness.ts';
import { spawnWorker } from './worker.ts';

// Every subgraph process starts at once; on two busy cores nine of them took over 60 s (bench notes).
const READY_TIMEOUT_MS = 120_000;
/** How long a child may take over its own SIGTERM shutdown before it is killed outright. */
const STOP_GRACE_MS = 5_000;

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${url} exited with ${child.exitCode ?? child.signalCode} before it was ready`);
    }
    if (await answersHealth(url)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not become ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/** Stops a child and resolves once it has exited, killing it if it ignores SIGTERM. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function spawnSubgraph(
  name: SubgraphName,
  db: Database,
  config: Config,
  secret: string,
  options: ServeOptions,
): ChildProcess {
  // the compiled build (dist/) starts its own JavaScript; the sources need tsx
  const compiled = import.meta.url.endsWith('.js');
  const entry = fileURLToPath(new URL(`../subgraphs/${name}/index.${compiled ? 'js' : 'ts'}`, import.meta.url));
  const child = spawn(process.execPath, [...(compiled ? [] : ['--import', 'tsx']), entry], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      DATABASE_POOL_MAX: db.kind === 'pglite' ? String(EMBEDDED_CLIENT_POOL) : String(config.databasePoolMax),
      LANDGRAPH_SUBGRAPH_BASE_PORT: String(config.subgraphBasePort),
      LANDGRAPH_SUBGRAPH_HOST: config.subgraphHost,
      LANDGRAPH_INTERNAL_SECRET: secret,
      // Only the supply process reads it (subgraphs/supply/schedule.ts): the land-supply rollup
      // runs there, in that one process, and never in this gateway process.
      LANDGRAPH_LAND_SUPPLY_ROLLUP_EVERY_MS: String(options.landSupplyRollupEveryMs ?? 0),
    },
    // The IPC channel carries nothing; it closes when this process goes, however it goes
    // (even SIGKILL), and the child stops on that (subgraphs/process.ts), so none is orphaned.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  logger.info(`spawned subgraph ${name}`, { subgraph: name, pid: child.pid });
  return child;
}

/** A running distributed mode, with the subgraph processes it owns (by name, in port order). */
export type DistributedServer = RunningServer & { subgraphs: Record<SubgraphName, ChildProcess> };

/**
 * The distributed mode on one machine: every subgraph in its own process on its own port,
 * and this process as the gateway (with the REST facade) calling them over HTTP. On the
 * embedded default this process owns the PGlite folder and the subgraphs reach it over its
 * Postgres wire-protocol socket. A start that fails at any step stops every child it spawned
 * (waiting for each to exit) before it throws, so nothing is left running behind an error.
 * The land-supply rollup schedule (`options.landSupplyRollupEveryMs`, off unless given) runs in
 * the supply subgraph's process, not in this one. The suburb analytics schedule
 * (`options.suburbAnalyticsEveryMs`) runs in this one: its rollup reads every layer's provider,
 * and only the composition root may import them all (subgraphs/suburb-metrics.ts).
 */
export async function startDistributed(config: Config, options: ServeOptions = {}): Promise<DistributedServer> {
  // One key per run when none is configured: only this process and its children ever hold it.
  const secret = config.internalSecret ?? generateInternalSecret();
  const distributedConfig: Config = { ...config, mode: 'distributed', internalSecret: secret };
  const db = await openDatabase(config);
  const children: ChildProcess[] = [];
  let runtime: Runtime | undefined;
  const stopChildren = () => Promise.all(children.map(stopChild));
  try {
    await prepareDatabase(db, config);
    for (const name of SUBGRAPH_NAMES) children.push(spawnSubgraph(name, db, config, secret, options));
    // The job worker runs as a process of its own too (`landgraph worker`); the CLI's start asks for it.
    if (options.jobWorker) children.push(spawnWorker(db, config, secret));
    const urls = distributedSubgraphUrls(config);
    await Promise.all(SUBGRAPH_NAMES.map((name, i) => waitUntilReady(urls[name], children[i]!)));
    runtime = await startRuntime(distributedConfig, { db, prepare: false });
    const server = await listen(createApp(runtime), config.port, config.host);
    const address = server.address();
    const url = `http://${config.host}:${typeof address === 'object' && address ? address.port : config.port}`;
    logger.info(`Landgraph gateway listening on ${url} over ${SUBGRAPH_NAMES.length} subgraph services`);
    const running = runtime;
    const stopAnalytics = options.suburbAnalyticsEveryMs
      ? scheduleSuburbAnalyticsRollup(db, ['sandbox', 'live'], {
          intervalMs: options.suburbAnalyticsEveryMs,
          maxAgeH: config.suburbAnalyticsEveryH,
          providers: SUBURB_METRICS_PROVIDERS,
          feed: licensedMetricsFeed(config.licensedMetricsFeed),
        })
      : () => undefined;
    return {
      runtime: running,
      server,
      url,
      subgraphs: Object.fromEntries(SUBGRAPH_NAMES.map((name, i) => [name, children[i]!])) as Record<
        SubgraphName,
        ChildProcess
      >,
      async stop() {
        stopAnalytics();
        await closeServer(server);
        await running.close();
        await stopChildren();
        await db.close();
      },
    };
  } catch (error) {
    logger.error('distributed start failed; stopping the subgraph services it spawned', {
      error: (error as Error).message,
    });
    await runtime?.close().catch(() => undefined);
    await stopChildren();
    await db.close();
    throw error;
  }
}
