import { afterAll } from 'vitest';
import type { RunningServer } from '../cli/serve.ts';
import { startDistributed } from '../cli/distributed.ts';
import { badInputSuite } from './facade/bad-input-suite.ts';
import { facadeSuite } from './facade/suite.ts';
import { testConfig } from './support/runtime.ts';

// The distributed mode for real: three subgraph processes on their own ports and this process
// as the gateway calling them over HTTP, run through the same suite as the embedded mode.
let running: Promise<RunningServer> | undefined;
const distributed = () =>
  (running ??= startDistributed(testConfig({ PORT: '0', LANDGRAPH_SUBGRAPH_BASE_PORT: '4611' })));

afterAll(async () => {
  await (await running)?.stop();
});

facadeSuite('distributed', async () => {
  const server = await distributed();
  return { app: server.url, db: server.runtime.db };
});

badInputSuite('distributed', async () => (await distributed()).url);
