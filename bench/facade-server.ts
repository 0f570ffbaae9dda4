/**
 * The facade exactly as `landgraph serve` builds it (runtime, Express app, same config), but
 * without prepareDatabase: on a scaled sandbox (`npm run bench -- --parcels N`) the serve
 * command would see no default-size load and reseed, replacing the scaled data. The benchmark
 * prepares the database itself and starts this entry point only for scaled runs.
 */
import type { Server } from 'node:http';
import { stopOnSignals } from '../cli/serve.ts';
import { loadConfig } from '../core/config.ts';
import { startRuntime } from '../app/runtime.ts';
import { createApp } from '../rest-facade/app.ts';

const config = loadConfig();
const runtime = await startRuntime(config, { prepare: false });
const server = await new Promise<Server>((resolve, reject) => {
  const listening = createApp(runtime).listen(config.port, config.host, () => resolve(listening));
  listening.once('error', reject);
});
process.stdout.write(`facade listening on http://${config.host}:${config.port}\n`);
stopOnSignals(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await runtime.close();
});
