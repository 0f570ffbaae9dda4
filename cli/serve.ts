import type { Server } from 'node:http';
import type { Config } from '../core/config.ts';
import { listen } from '../core/http-listen.ts';
import { logger } from '../core/logger.ts';
import { startRuntime } from '../app/runtime.ts';
import type { Runtime } from '../app/runtime.ts';
import { createApp } from '../rest-facade/app.ts';

export type RunningServer = { runtime: Runtime; server: Server; url: string; stop(): Promise<void> };

/** Starts the facade and /graphql on one port, on whatever graph mode the config names. */
export async function serve(config: Config): Promise<RunningServer> {
  const runtime = await startRuntime(config);
  const app = createApp(runtime);
  // A port already taken fails the start, and what the runtime opened is let go first.
  const server = await listen(app, config.port, config.host).catch(async (error: unknown) => {
    await runtime.close();
    throw error;
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
