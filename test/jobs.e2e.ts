import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import { getJob, submitJob } from '../platform/jobs/engine.ts';
import { TEST_ROWS_KIND } from '../platform/jobs/test-kinds.ts';
import { testConfig, testRuntime } from './support/runtime.ts';
import { startWorkerProcess, until } from './support/worker-process.ts';

const LEASE_MS = 1_500;

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
    const first = startWorkerProcess(config, { leaseMs: LEASE_MS, testJobKinds: true });
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

    const second = startWorkerProcess(config, { leaseMs: LEASE_MS, testJobKinds: true });
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
