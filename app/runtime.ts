// The composition root: the one place that opens the database, migrates it, loads the sandbox and
// wires the key store, meter, cache and rate limiter around the graph. It lives outside gateway/ so
// the gateway stays composition and execution only and never depends on the platform or the data
// loaders (test/layering.test.ts holds that line).
import type { Cache } from '../core/cache.ts';
import { openCache } from '../core/cache.ts';
import type { Config } from '../core/config.ts';
import { ConfigError } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { logger } from '../core/logger.ts';
import { migrate } from '../core/migrate.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import type { RateLimiter } from '../core/rate-limit.ts';
import { openRateLimiter } from '../core/rate-limit.ts';
import { KeyStore } from '../platform/keys.ts';
import { UsageMeter } from '../platform/usage.ts';
import type { Subgraph } from '../core/subgraph.ts';
import { isSandboxLoadedAtAnySize, seedSandbox } from '../prisma/sandbox/load.ts';
import { SANDBOX_DATASET } from '../prisma/sandbox/generate.ts';
import { rollupSuburbAnalytics, suburbAnalyticsComputed } from '../core/suburb-analytics/rollup.ts';
import { SUBURB_METRICS_PROVIDERS } from '../subgraphs/suburb-metrics.ts';
import type { SubgraphName } from '../subgraphs/index.ts';
import { SUBGRAPHS, SUBGRAPH_NAMES, subgraphPort } from '../subgraphs/index.ts';
import type { Graph } from '../gateway/graph.ts';
import { createGraph } from '../gateway/graph.ts';

/** Everything one serving process holds: its database, the credits catalogue and the graph. */
export type Runtime = {
  config: Config;
  db: Database;
  catalog: ProvenanceCatalog;
  cache: Cache;
  graph: Graph;
  keys: KeyStore;
  meter: UsageMeter;
  limiter: RateLimiter;
  /** The subgraph services the gateway calls, in distributed mode. */
  subgraphUrls: Record<SubgraphName, string> | null;
  close(): Promise<void>;
};

/** Migrates and, on first start, loads the sandbox so a fresh machine serves data at once. */
export async function prepareDatabase(db: Database, config: Pick<Config, 'sandboxSeed'>): Promise<void> {
  await migrate(db);
  if (!(await isSandboxLoadedAtAnySize(db, config.sandboxSeed))) {
    logger.info('loading the sandbox dataset (first start only)');
    const summary = await seedSandbox(db, { seed: config.sandboxSeed });
    logger.info('sandbox dataset loaded', { ...summary });
  } else if (!(await suburbAnalyticsComputed(db, SANDBOX_DATASET))) {
    // a sandbox loaded before the suburb analytics existed: its bundles, once
    await rollupSuburbAnalytics(db, { dataset: SANDBOX_DATASET, providers: SUBURB_METRICS_PROVIDERS });
  }
}

/** `config` carries the settings subgraphs read beyond the database (the cadastre's fallback sources). */
export function buildSubgraphs(
  db: Database,
  catalog: ProvenanceCatalog,
  config?: Config,
): Record<SubgraphName, Subgraph> {
  const deps = { db, catalog, config };
  const built: Partial<Record<SubgraphName, Subgraph>> = {};
  for (const name of SUBGRAPH_NAMES) built[name] = SUBGRAPHS[name](deps);
  return built as Record<SubgraphName, Subgraph>;
}

/** Where the gateway reaches each subgraph service: a wildcard bind is reached over loopback. */
export function distributedSubgraphUrls(
  config: Pick<Config, 'subgraphHost' | 'subgraphBasePort'>,
): Record<SubgraphName, string> {
  const bound = { '0.0.0.0': '127.0.0.1', '::': '::1' }[config.subgraphHost] ?? config.subgraphHost;
  const host = bound.includes(':') ? `[${bound}]` : bound;
  return Object.fromEntries(
    SUBGRAPH_NAMES.map((name) => [name, `http://${host}:${subgraphPort(name, config.subgraphBasePort)}/graphql`]),
  ) as Record<SubgraphName, string>;
}

/** No silent fallback: a gateway that cannot sign would be refused by every subgraph. */
function requireInternalSecret(config: Config): string {
  if (config.internalSecret) return config.internalSecret;
  throw new ConfigError(
    'The distributed gateway needs LANDGRAPH_INTERNAL_SECRET, the key its subgraph requests are signed with.',
  );
}

async function graphForMode(
  config: Config,
  db: Database,
  catalog: ProvenanceCatalog,
  secret: string | undefined,
): Promise<Graph> {
  return config.mode === 'distributed' && secret
    ? createGraph({
        kind: 'distributed',
        urls: distributedSubgraphUrls(config),
        secret,
        timeoutMs: config.subgraphTimeoutMs,
      })
    : createGraph({ kind: 'embedded', subgraphs: buildSubgraphs(db, catalog, config) });
}

/**
 * The graph of a `landgraph worker` process, in the configured mode: in-process subgraphs over the
 * worker's own database (embedded), or the subgraph services over HTTP, signed like the gateway's
 * calls (distributed), so a job reads its layers exactly as a request does.
 */
export function openWorkerGraph(config: Config, db: Database): Promise<Graph> {
  const secret = config.mode === 'distributed' ? requireInternalSecret(config) : undefined;
  return graphForMode(config, db, new ProvenanceCatalog(db), secret);
}

export async function startRuntime(
  config: Config,
  options: { db?: Database; prepare?: boolean } = {},
): Promise<Runtime> {
  // Before anything is opened: a start that cannot sign fails with nothing to undo.
  const secret = config.mode === 'distributed' ? requireInternalSecret(config) : undefined;
  const db = options.db ?? (await openDatabase(config));
  if (options.prepare !== false) await prepareDatabase(db, config);
  const catalog = new ProvenanceCatalog(db);
  const subgraphUrls = config.mode === 'embedded' ? null : distributedSubgraphUrls(config);
  const graph = await graphForMode(config, db, catalog, secret);
  const cache = await openCache(config.redisUrl);
  const limiter = await openRateLimiter(config.redisUrl);
  const meter = new UsageMeter(db);
  const keys = await KeyStore.cachedFor(db);
  return {
    config,
    db,
    catalog,
    cache,
    graph,
    keys,
    meter,
    limiter,
    subgraphUrls,
    async close() {
      await graph.stop();
      await meter.close();
      await keys.close();
      await limiter.close();
      await cache.close();
      if (!options.db) await db.close();
    },
  };
}
