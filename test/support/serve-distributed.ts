import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Config } from '../../core/config.ts';

const BIN = fileURLToPath(new URL('../../bin/landgraph.js', import.meta.url));

/** A `landgraph serve --distributed` process tree started as a user starts it. */
export type ServedDistributed = {
  /** The gateway's (and REST facade's) base URL. */
  url: string;
  /** Everything the parent and its children wrote so far, to name the cause when an assertion fails. */
  log(): string;
  /** SIGTERM to the parent, which stops its subgraph services and worker; resolves once it exited. */
  stop(): Promise<void>;
};

/**
 * Starts the real `landgraph serve --distributed` on this tier's database: the gateway, a process
 * per subgraph on ports from `basePort` (each e2e file keeps a range of its own) and the job worker
 * it spawns. No signing key is given unless `env` sets one, so the run makes its own and must hand
 * it to its children.
 */
export async function serveDistributed(
  config: Config,
  basePort: number,
  env: Record<string, string> = {},
): Promise<ServedDistributed> {
  const parent: ChildProcessWithoutNullStreams = spawn(process.execPath, [BIN, 'serve', '--distributed'], {
    env: {
      ...process.env,
      DATABASE_URL: config.databaseUrl ?? '',
      LANDGRAPH_DATA_DIR: config.dataDir,
      LANDGRAPH_LOG_LEVEL: 'info',
      LANDGRAPH_INTERNAL_SECRET: '',
      LANDGRAPH_MODE: 'embedded',
      PORT: '0',
      LANDGRAPH_SUBGRAPH_BASE_PORT: String(basePort),
      LANDGRAPH_JOB_POLL_MS: '200',
      ...env,
    },
  });
  const exited = new Promise<void>((resolve) => parent.once('exit', () => resolve()));
  let log = '';
  const collect = (chunk: Buffer) => {
    log += chunk.toString('utf8');
  };
  parent.stdout.on('data', collect);
  parent.stderr.on('data', collect);
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /Landgraph gateway listening on (http:\/\/[^\s"]+)/.exec(log);
      if (match?.[1]) resolve(match[1]);
    };
    parent.stdout.on('data', check);
    parent.stderr.on('data', check);
    parent.once('exit', (code) =>
      reject(new Error(`serve --distributed exited with ${code} before it was up:\n${log}`)),
    );
  });
  return {
    url,
    log: () => log,
    async stop() {
      if (parent.exitCode === null && parent.signalCode === null) {
        parent.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/**
 * Asserts serve --distributed spawned its job worker and that the worker reads the graph over the
 * subgraph services (its start line names the distributed graph).
 */
export function expectSpawnedDistributedWorker(log: string): void {
  const spawned = /"message":"spawned job worker".*?"pid":(\d+)/.exec(log);
  expect(spawned, log.slice(-3000)).not.toBeNull();
  expect(log).toMatch(new RegExp(`landgraph worker [^\\s]+:${spawned![1]} running \\(\\w+, distributed graph\\)`));
}
