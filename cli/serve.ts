import type { Server } from 'node:http';
import type { Config } from '../core/config.ts';
import { logger } from '../core/logger.ts';
import { startRuntime } from '../gateway/runtime.ts';
import type { Runtime } from '../gateway/runtime.ts';
import { createApp } from '../rest-facade/app.ts';

export type RunningServer = { runtime: Runtime; server: Server; url: string; stop(): Promise<void> };

/** Starts the facade and /graphql on one port, on whatever graph mode the config names. */
export async function serve(config: Config): Promise<RunningServer> {
  const runtime = await startRuntime(config);
  const app = createApp(runtime);
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
    listening.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  logger.info(`Landgraph listening on ${url} (REST /api and /v1, GraphQL ${url}/graphql)`, {
    mode: config.mode,
    database: runtime.db.kind,
  });
  return {
    runtime,
    server,
    url,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
    },
  };
}

export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received, shutting down`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error: (error as Error).message });
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => handler('SIGINT'));
  process.once('SIGTERM', () => handler('SIGTERM'));
}
