import { ConfigError, loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { logger } from '../core/logger.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import { listenSubgraph } from '../core/subgraph-server.ts';
import type { SubgraphName } from './index.ts';
import { SUBGRAPHS, subgraphPort } from './index.ts';

/** The body of every subgraph's entry point: open the database, build the schema, listen. */
export async function runSubgraphProcess(name: SubgraphName): Promise<void> {
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
  }).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  const stop = async () => {
    await running.stop();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  logger.info(`subgraph ${name} ready`);
}
