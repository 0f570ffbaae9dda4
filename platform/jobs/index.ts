import type { Config } from '../../core/config.ts';
import { enrichHandler } from '../enrich/handler.ts';
import { webhookDeliveryHandler } from '../webhooks/deliver.ts';
import { earthworksHandler } from './earthworks.ts';
import { exportJobHandler } from '../exports/job.ts';
import { testRowsHandler } from './test-kinds.ts';
import { JobRegistry } from './worker.ts';

export * from './engine.ts';
export { JobRegistry, JobWorker } from './worker.ts';
export type { GraphExecutor, JobContext, JobHandler, WorkerOptions } from './worker.ts';

/**
 * Every job kind this build runs: webhook deliveries now, and the products built on the engine
 * later (export, enrich, earthworks). Test kinds only when the configuration asks for them.
 */
export function buildJobRegistry(config: Pick<Config, 'testJobKinds'>): JobRegistry {
  const registry = new JobRegistry();
  registry.register(webhookDeliveryHandler);
  registry.register(earthworksHandler);
  registry.register(exportJobHandler);
  registry.register(enrichHandler);
  if (config.testJobKinds) registry.register(testRowsHandler);
  return registry;
}
