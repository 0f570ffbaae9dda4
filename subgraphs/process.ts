import { ConfigError, loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { logger } from '../core/logger.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import { listenSubgraph } from '../core/subgraph-server.ts';
import type { SubgraphName } from './index.ts';
import { SUBGRAPHS, SUBGRAPH_BACKGROUND, subgraphPort } from './index.ts';

const STOP_DEADLINE_MS = 10_000;

/** The body of every subgraph's entry point: open the database, build the schema, listen. */
export async function runSubgraphProcess(name: SubgraphName): Promise<void> {
  // Until it listens there is nothing to drain; afterwards, the server and the database close first.
  let shutdown = (): Promise<void> => Promise.resolve();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Whatever holds the drain (a database that does not answer), the process still goes.
    setTimeout(() => {
      logger.warn(`subgraph ${name}: did not stop within ${STOP_DEADLINE_MS} ms, exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    void shutdown().finally(() => process.exit(0));
  };
  // Spawned by `serve --distributed`: the parent's IPC channel closes when it exits or is killed,
  // and a subgraph left without its gateway would only be an orphan holding a port.
  if (process.send) {
    process.once('disconnect', () => {
      logger.warn(`subgraph ${name}: the distributed parent is gone, stopping`);
      stop();
    });
  }
  const config = loadConfig();
  // A subgraph believes the scopes its caller states, so it never serves without the key that
  // proves the gateway stated them.
  const secret = config.internalSecret;
  if (!secret) {
    throw new ConfigError(
      `subgraph ${name} needs LANDGRAPH_INTERNAL_SECRET, the key the gateway signs its requests with ` +
        '(`landgraph serve --distributed` makes one per run when it is unset)',
    );
  }
  const db = await openDatabase(config);
  const subgraph = SUBGRAPHS[name]({ db, catalog: new ProvenanceCatalog(db), config });
  const running = await listenSubgraph(subgraph, subgraphPort(name, config.subgraphBasePort), {
    host: config.subgraphHost,
    secret,
    db,
  }).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  const stopBackground = SUBGRAPH_BACKGROUND[name]?.(db, config) ?? (() => undefined);
  shutdown = async () => {
    stopBackground();
    await running.stop();
    await db.close();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  logger.info(`subgraph ${name} ready`);
}
