import type { Config } from '../../core/config.ts';
import { webhookDeliveryHandler } from '../webhooks/deliver.ts';
import { testRowsHandler } from './test-kinds.ts';
import { JobRegistry } from './worker.ts';

export * from './engine.ts';
export { JobRegistry, JobWorker } from './worker.ts';
export type { JobContext, JobHandler, WorkerOptions } from './worker.ts';

/**
 * Every job kind this build runs: webhook deliveries now, and the products built on the engine
 * later (export, enrich, earthworks). Test kinds only when the configuration asks for them.
 */
export function buildJobRegistry(config: Pick<Config, 'testJobKinds'>): JobRegistry {
  const registry = new JobRegistry();
  registry.register(webhookDeliveryHandler);
  if (config.testJobKinds) registry.register(testRowsHandler);
  return registry;
}
