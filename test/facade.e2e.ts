import { afterAll } from 'vitest';
import type { RunningServer } from '../cli/serve.ts';
import { startDistributed } from '../cli/distributed.ts';
import { badInputSuite } from './facade/bad-input-suite.ts';
import { planningSuite } from './facade/planning-suite.ts';
import { facadeSuite } from './facade/suite.ts';
import { ALL_SCOPES } from '../core/scopes.ts';
import { createTestKey, testConfig } from './support/runtime.ts';

// The distributed mode for real: three subgraph processes on their own ports and this process
// as the gateway calling them over HTTP, run through the same suite as the embedded mode.
let running: Promise<{ server: RunningServer; key: string }> | undefined;
const distributed = () =>
  (running ??= (async () => {
    const server = await startDistributed(testConfig({ PORT: '0', LANDGRAPH_SUBGRAPH_BASE_PORT: '4611' }));
    return { server, key: await createTestKey(server.runtime) };
  })());

afterAll(async () => {
  await (await running)?.server.stop();
});

facadeSuite('distributed', async () => {
  const { server, key } = await distributed();
  return { app: server.url, db: server.runtime.db, key };
});

badInputSuite('distributed', async () => {
  const { server, key } = await distributed();
  return { app: server.url, key };
});

planningSuite('distributed', async () => {
  const { server, key } = await distributed();
  const keyWithout = (scopes: string[]) =>
    createTestKey(server.runtime, { scopes: ALL_SCOPES.filter((scope) => !scopes.includes(scope)) });
  return { app: server.url, db: server.runtime.db, key, keyWithout };
});
