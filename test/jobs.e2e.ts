import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import { getJob, submitJob } from '../platform/jobs/engine.ts';
import { TEST_ROWS_KIND } from '../platform/jobs/test-kinds.ts';
import { testConfig, testRuntime } from './support/runtime.ts';

const BIN = fileURLToPath(new URL('../bin/landgraph.js', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LEASE_MS = 1_500;

/**
 * A real `landgraph worker` on this tier's database: the embedded one over this process's
 * socket, or DATABASE_URL. The test-only kind test.rows is registered by LANDGRAPH_TEST_JOB_KINDS.
 */
function startWorker(config: Config): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(process.execPath, [BIN, 'worker', '--concurrency', '1'], {
    env: {
      ...process.env,
      DATABASE_URL: config.databaseUrl ?? '',
      LANDGRAPH_DATA_DIR: config.dataDir,
      LANDGRAPH_LOG_LEVEL: 'warn',
      LANDGRAPH_TEST_JOB_KINDS: '1',
      LANDGRAPH_JOB_LEASE_MS: String(LEASE_MS),
      LANDGRAPH_JOB_POLL_MS: '100',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited };
}

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('a worker killed mid-job', () => {
  let db: Database;
  let config: Config;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    db = (await testRuntime()).runtime.db;
    config = testConfig();
  });

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  });

  it('is resumed by another worker after its lease lapses, every row exactly once', async () => {
    const total = 40;
    const job = await submitJob(db, {
      kind: TEST_ROWS_KIND,
      accountId: 'acct-e2e',
      input: { rows: total, batch: 1, delayMs: 60 },
    });
    const first = startWorker(config);
    workers.push(first.child);
    const midway = await until(
      'the first worker to commit some rows',
      async () => (await getJob(db, job.id))!,
      (j) => j.rowsDone >= 8,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    const atKill = (await getJob(db, job.id))!;
    expect(midway.state).toBe('running');
    expect(atKill.state).toBe('running');
    expect(atKill.rowsDone).toBeLessThan(total);

    const second = startWorker(config);
    workers.push(second.child);
    const done = await until(
      'the second worker to finish the job',
      async () => (await getJob(db, job.id))!,
      (j) => j.state === 'succeeded' || j.state === 'failed',
    );
    // it could only take over once the dead worker's lease ran out
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LEASE_MS - 500);
    second.child.kill('SIGTERM');
    await second.exited;

    expect(done.state).toBe('succeeded');
    expect(done.attempts).toBe(2);
    expect(done.rowsDone).toBe(total);
    const rows = await db.query<{ row_no: number; n: number; by: number }>(
      `SELECT row_no, (data->>'n')::int AS n, (data->>'by')::int AS by FROM platform.job_row WHERE job_id = $1 ORDER BY row_no`,
      [job.id],
    );
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.row_no)).size).toBe(total);
    expect(rows.map((r) => r.row_no)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(rows.every((r) => r.n === r.row_no)).toBe(true);
    // both processes wrote: the first up to where it died, the second the rest
    expect(new Set(rows.map((r) => r.by))).toEqual(new Set([first.child.pid, second.child.pid]));
  });
});
