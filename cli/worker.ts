import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Config } from '../core/config.ts';
import { loadConfig } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import { EMBEDDED_CLIENT_POOL, openDatabase } from '../core/db.ts';
import { AppError } from '../core/errors.ts';
import type { GraphExecutor } from '../platform/jobs/worker.ts';
import { distributedSubgraphUrls, openWorkerGraph } from '../app/runtime.ts';
import { logger } from '../core/logger.ts';
import { migrate } from '../core/migrate.ts';
import { buildJobRegistry } from '../platform/jobs/index.ts';
import { JobWorker } from '../platform/jobs/worker.ts';
import { closeDeliveryAgents } from '../platform/webhooks/deliver.ts';
import { waitForSubgraphServices } from './subgraph-readiness.ts';

export const WORKER_USAGE = `Usage: landgraph worker [--concurrency N]
  Runs durable jobs (webhook deliveries, and the batch products built on the engine) from the
  database: the embedded one over its socket while \`landgraph serve\` runs, or DATABASE_URL.
  Any number of workers may run; each job is held by one worker under a lease
  (LANDGRAPH_JOB_LEASE_MS, default 30000) renewed by its heartbeat, and a job whose worker died
  is taken over by another once the lease runs out, from its last committed row. In the distributed
  mode (LANDGRAPH_MODE=distributed) it claims nothing until every subgraph service answers.
  --concurrency N   jobs run at once (default LANDGRAPH_JOB_WORKERS, 2)
  LANDGRAPH_TEST_JOB_KINDS=1 also registers the test-only kind test.rows (the crash-recovery e2e).
`;

/** Starts a worker on `db` with every registered kind: the serving process's, or the worker command's. */
export function startJobWorker(
  db: Database,
  config: Config,
  options: { concurrency?: number; graph?: GraphExecutor } = {},
): Promise<JobWorker> {
  return new JobWorker(db, buildJobRegistry(config), config, {
    concurrency: options.concurrency,
    graph: options.graph,
    onStop: closeDeliveryAgents,
  }).start();
}

/** `landgraph worker`: runs until SIGTERM/SIGINT (or its parent's IPC channel closes). */
export async function runWorkerCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { concurrency: { type: 'string' } } });
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32))
    throw new AppError(
      'BAD_REQUEST',
      `--concurrency must be a whole number from 1 to 32, got '${values.concurrency}'.`,
    );
  // Listen for the end before the slow start (database, migrations, the graph): a parent that dies
  // while this worker is still starting must not leave it running on its own, claiming jobs.
  const stopping = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    // started by `serve --distributed`: go when the parent goes, however it goes
    if (process.send) {
      process.once('disconnect', () => resolve('parent gone'));
      if (!process.connected) resolve('parent gone');
    }
  });
  const early: { why: string | null } = { why: null };
  const stopped = new AbortController();
  void stopping.then((why) => {
    early.why = why;
    stopped.abort();
  });
  const config = loadConfig();
  const db = await openDatabase(config);
  await migrate(db);
  const graph = await openWorkerGraph(config, db);
  // Distributed: no job before every subgraph service answers (cli/subgraph-readiness.ts says why).
  if (config.mode === 'distributed') await waitForSubgraphServices(distributedSubgraphUrls(config), stopped.signal);
  if (early.why) {
    logger.info(`worker stopping before it started: ${early.why}`);
    await graph.stop();
    await db.close();
    return 0;
  }
  const worker = await startJobWorker(db, config, { concurrency, graph });
  process.stdout.write(`landgraph worker ${worker.name} running (${db.kind}, ${config.mode} graph)\n`);
  logger.info(`worker stopping: ${await stopping}`);
  await worker.stop();
  await graph.stop();
  await db.close();
  return 0;
}

/**
 * The worker process `serve --distributed` starts beside the subgraph services. It is told the
 * mode, where the services listen and the run's signing key (which `serve --distributed` makes
 * when none is configured), so its jobs read their layers from the same services the gateway
 * calls, signed as the gateway signs, rather than from a second, in-process copy of every subgraph.
 */
export function spawnWorker(db: Database, config: Config, secret: string): ChildProcess {
  // the compiled build (dist/) starts its own JavaScript; the sources need tsx
  const compiled = import.meta.url.endsWith('.js');
  const entry = fileURLToPath(new URL(`./worker-process.${compiled ? 'js' : 'ts'}`, import.meta.url));
  const child = spawn(process.execPath, [...(compiled ? [] : ['--import', 'tsx']), entry], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      DATABASE_POOL_MAX: db.kind === 'pglite' ? String(EMBEDDED_CLIENT_POOL) : String(config.databasePoolMax),
      LANDGRAPH_MODE: 'distributed',
      LANDGRAPH_SUBGRAPH_BASE_PORT: String(config.subgraphBasePort),
      LANDGRAPH_SUBGRAPH_HOST: config.subgraphHost,
      LANDGRAPH_INTERNAL_SECRET: secret,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  logger.info('spawned job worker', { pid: child.pid });
  return child;
}
