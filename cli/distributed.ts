import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Config } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { logger } from '../core/logger.ts';
import { prepareDatabase, startRuntime } from '../gateway/runtime.ts';
import { createApp } from '../rest-facade/app.ts';
import { SUBGRAPH_NAMES, subgraphPort } from '../subgraphs/index.ts';
import type { RunningServer } from './serve.ts';

const READY_TIMEOUT_MS = 60_000;

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url} exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not become ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * The distributed mode on one machine: every subgraph in its own process on its own port,
 * and this process as the gateway (with the REST facade) calling them over HTTP. On the
 * embedded default this process owns the PGlite folder and the subgraphs reach it over its
 * Postgres wire-protocol socket.
 */
export async function startDistributed(config: Config): Promise<RunningServer> {
  const db = await openDatabase(config);
  await prepareDatabase(db, config);
  const children: ChildProcess[] = [];
  const stopChildren = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  };
  try {
    for (const name of SUBGRAPH_NAMES) {
      // the compiled build (dist/) starts its own JavaScript; the sources need tsx
      const compiled = import.meta.url.endsWith('.js');
      const entry = fileURLToPath(new URL(`../subgraphs/${name}/index.${compiled ? 'js' : 'ts'}`, import.meta.url));
      const child = spawn(process.execPath, [...(compiled ? [] : ['--import', 'tsx']), entry], {
        env: {
          ...process.env,
          DATABASE_URL: db.url,
          DATABASE_POOL_MAX: db.kind === 'pglite' ? '3' : String(config.databasePoolMax),
          LANDGRAPH_SUBGRAPH_BASE_PORT: String(config.subgraphBasePort),
          HOST: config.host,
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      children.push(child);
    }
    await Promise.all(
      SUBGRAPH_NAMES.map((name, i) =>
        waitUntilReady(`http://${config.host}:${subgraphPort(name, config.subgraphBasePort)}/health`, children[i]!),
      ),
    );
  } catch (error) {
    stopChildren();
    await db.close();
    throw error;
  }
  const runtime = await startRuntime({ ...config, mode: 'distributed' }, { db, prepare: false });
  const app = createApp(runtime);
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
    listening.once('error', reject);
  });
  const address = server.address();
  const url = `http://${config.host}:${typeof address === 'object' && address ? address.port : config.port}`;
  logger.info(`Landgraph gateway listening on ${url} over ${SUBGRAPH_NAMES.length} subgraph services`);
  return {
    runtime,
    server,
    url,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
      stopChildren();
      await db.close();
    },
  };
}
