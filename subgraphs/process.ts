import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { logger } from '../core/logger.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import { listenSubgraph } from '../core/subgraph-server.ts';
import type { SubgraphName } from './index.ts';
import { SUBGRAPHS, subgraphPort } from './index.ts';

/** The body of every subgraph's entry point: open the database, build the schema, listen. */
export async function runSubgraphProcess(name: SubgraphName): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config);
  const subgraph = SUBGRAPHS[name]({ db, catalog: new ProvenanceCatalog(db), config });
  const running = await listenSubgraph(subgraph, subgraphPort(name, config.subgraphBasePort), config.host);
  const stop = async () => {
    await running.stop();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  logger.info(`subgraph ${name} ready`);
}
