import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../core/config.ts';

const BIN = fileURLToPath(new URL('../../bin/landgraph.js', import.meta.url));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A real `landgraph worker` process on this tier's database (the embedded one over this
 * process's socket, or DATABASE_URL), for the crash-recovery tests that SIGKILL it mid-job.
 * A short lease lets a second worker take the job over soon after the kill. `env` adds to its
 * environment (the distributed mode's settings); `log()` is what it wrote (stderr is shown too).
 */
export function startWorkerProcess(
  config: Config,
  options: { leaseMs: number; testJobKinds?: boolean; env?: Record<string, string> },
): { child: ChildProcess; exited: Promise<void>; log(): string } {
  const child = spawn(process.execPath, [BIN, 'worker', '--concurrency', '1'], {
    env: {
      ...process.env,
      DATABASE_URL: config.databaseUrl ?? '',
      LANDGRAPH_DATA_DIR: config.dataDir,
      LANDGRAPH_LOG_LEVEL: 'warn',
      ...(options.testJobKinds ? { LANDGRAPH_TEST_JOB_KINDS: '1' } : {}),
      LANDGRAPH_JOB_LEASE_MS: String(options.leaseMs),
      LANDGRAPH_JOB_POLL_MS: '100',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
    process.stderr.write(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, log: () => log };
}

/** Reads until `ok` holds, or fails naming what it waited for (a deadline, not a speed claim). */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  options: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const end = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(options.everyMs ?? 100);
  }
}
