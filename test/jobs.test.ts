import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import {
  JOB_STATES,
  LeaseLostError,
  TRANSITIONS,
  approveJob,
  canMove,
  cancelJob,
  claimJob,
  claimJobs,
  commitRows,
  completeJob,
  completeJobs,
  getJob,
  jobOfAccount,
  jobRows,
  releaseJobs,
  submitJob,
  sweepExpiredJobs,
} from '../platform/jobs/engine.ts';
import type { JobHandler } from '../platform/jobs/worker.ts';
import { JobRegistry, JobWorker } from '../platform/jobs/worker.ts';
import { testRowsHandler } from '../platform/jobs/test-kinds.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';
import type { TestRuntime } from './support/runtime.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A kind of its own per test: the tier's database is shared, and workers claim only their kinds. */
const uniqueKind = (name: string) => `test.${name}.${randomUUID().slice(0, 8)}`;

let t: TestRuntime;
let db: Database;
let config: Config;

beforeAll(async () => {
  t = await testRuntime();
  db = t.runtime.db;
  config = testConfig({ LANDGRAPH_JOB_LEASE_MS: '400', LANDGRAPH_JOB_POLL_MS: '30', LANDGRAPH_TEST_JOB_KINDS: '1' });
});

/** The test.rows handler under another kind name. */
const rowsHandler = (kind: string): JobHandler => ({ ...testRowsHandler, kind });

describe('job lifecycle', () => {
  it('allows only the documented transitions', () => {
    expect(canMove('queued', 'running')).toBe(true);
    expect(canMove('awaiting_approval', 'running')).toBe(false);
    expect(canMove('succeeded', 'running')).toBe(false);
    expect(canMove('expired', 'queued')).toBe(false);
    expect(canMove('running', 'queued')).toBe(true);
    for (const state of JOB_STATES) for (const to of TRANSITIONS[state]) expect(JOB_STATES).toContain(to);
  });

  it('keeps an awaiting_approval job from running until approved, then runs it to succeeded', async () => {
    const kind = uniqueKind('approve');
    const job = await submitJob(db, {
      kind,
      accountId: 'acct-a',
      awaitApproval: true,
      input: { rows: 3, batch: 2 },
    });
    expect(job.state).toBe('awaiting_approval');
    expect(await claimJob(db, [kind], 1_000)).toBeNull();
    await approveJob(db, job.id, 'acct-a', { approved: true });
    const worker = new JobWorker(db, new JobRegistry().register(rowsHandler(kind)), config, { sweepEveryMs: null });
    expect((await worker.runOnce())?.id).toBe(job.id);
    const done = (await getJob(db, job.id))!;
    expect(done.state).toBe('succeeded');
    expect(done.input.approved).toBe(true);
    expect(done.rowsDone).toBe(3);
    expect(done.rowsTotal).toBe(3);
    expect(done.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect((await jobRows<{ n: number }>(db, job.id)).map((r) => [r.rowNo, r.data.n])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    // a finished job cannot be cancelled or approved again
    await expect(cancelJob(db, job.id, 'acct-a')).rejects.toMatchObject({ status: 409 });
    await expect(approveJob(db, job.id, 'acct-a')).rejects.toMatchObject({ status: 409 });
  });

  it('cancels a queued job, and a running job stops at its next batch', async () => {
    const kind = uniqueKind('cancel');
    const queued = await submitJob(db, { kind, accountId: 'acct-a', input: { rows: 2 } });
    expect((await cancelJob(db, queued.id, 'acct-a')).state).toBe('cancelled');
    expect(await claimJob(db, [kind], 1_000)).toBeNull();

    const running = await submitJob(db, { kind, accountId: 'acct-a', input: { rows: 10 } });
    const claim = (await claimJob(db, [kind], 5_000))!;
    await commitRows(db, claim, [{ n: 1 }], { leaseMs: 5_000 });
    await cancelJob(db, running.id, 'acct-a');
    await expect(commitRows(db, claim, [{ n: 2 }], { leaseMs: 5_000 })).rejects.toBeInstanceOf(LeaseLostError);
    await expect(completeJob(db, claim, {}, 1)).rejects.toBeInstanceOf(LeaseLostError);
    expect((await getJob(db, running.id))!.state).toBe('cancelled');
    expect(await jobRows(db, running.id)).toHaveLength(1);
  });

  it('fails a job after its attempts, retrying in between', async () => {
    const kind = uniqueKind('fail');
    const job = await submitJob(db, { kind, accountId: 'acct-a', input: { fail: true }, maxAttempts: 2 });
    const registry = new JobRegistry().register({
      ...rowsHandler(kind),
      retryDelayMs: (j) => (j.attempts < 2 ? 0 : null),
    });
    const worker = new JobWorker(db, registry, config, { sweepEveryMs: null });
    await worker.runOnce();
    expect((await getJob(db, job.id))!.state).toBe('queued');
    await worker.runOnce();
    const failed = (await getJob(db, job.id))!;
    expect(failed.state).toBe('failed');
    expect(failed.attempts).toBe(2);
    expect(failed.error).toBe('asked to fail');
  });
});

describe('leases', () => {
  it('hands a job whose lease lapsed to another worker, which resumes after the last committed row', async () => {
    const kind = uniqueKind('lease');
    const job = await submitJob(db, { kind, accountId: 'acct-a', input: { rows: 5, batch: 2 } });
    const first = (await claimJob(db, [kind], 200))!;
    await commitRows(db, first, [{ n: 1 }, { n: 2 }], { leaseMs: 200 });
    // the lease holds: nobody else may take it
    expect(await claimJob(db, [kind], 200)).toBeNull();
    await sleep(350);
    const worker = new JobWorker(db, new JobRegistry().register(rowsHandler(kind)), config, { sweepEveryMs: null });
    expect((await worker.runOnce())?.id).toBe(job.id);
    // the first worker wakes up too late: its writes are refused
    await expect(commitRows(db, first, [{ n: 3 }], { leaseMs: 200 })).rejects.toBeInstanceOf(LeaseLostError);
    const done = (await getJob(db, job.id))!;
    expect(done.state).toBe('succeeded');
    expect(done.attempts).toBe(2);
    const rows = await jobRows<{ n: number }>(db, job.id);
    expect(rows.map((r) => r.rowNo)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.map((r) => r.data.n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('never lets two workers run one job', async () => {
    const kind = uniqueKind('race');
    const runs = new Map<string, number>();
    const handler: JobHandler = {
      kind,
      async run(job, ctx) {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        await sleep(20);
        await ctx.commitRows([{ job: job.id }]);
        return {};
      },
    };
    const ids = await Promise.all(
      Array.from({ length: 12 }, () => submitJob(db, { kind, accountId: 'acct-a' }).then((j) => j.id)),
    );
    const workers = await Promise.all(
      [1, 2].map((n) =>
        // a lease far longer than the run: a second run could only come from a double claim
        new JobWorker(
          db,
          new JobRegistry().register(handler),
          { ...config, jobLeaseMs: 30_000 },
          {
            concurrency: 3,
            sweepEveryMs: null,
            name: `w${n}`,
          },
        ).start(),
      ),
    );
    for (let i = 0; i < 200; i++) {
      const states = await Promise.all(ids.map(async (id) => (await getJob(db, id))!.state));
      if (states.every((s) => s === 'succeeded')) break;
      await sleep(50);
    }
    await Promise.all(workers.map((w) => w.stop()));
    for (const id of ids) {
      expect(runs.get(id), id).toBe(1);
      expect((await getJob(db, id))!.state).toBe('succeeded');
      expect(await jobRows(db, id)).toHaveLength(1);
    }
  });

  it('runs jobs of one queue key one at a time, in order', async () => {
    const kind = uniqueKind('queue');
    const queueKey = `q-${randomUUID()}`;
    const a = await submitJob(db, { kind, accountId: 'acct-a', queueKey });
    const b = await submitJob(db, { kind, accountId: 'acct-a', queueKey });
    const claimA = (await claimJob(db, [kind], 5_000))!;
    expect(claimA.job.id).toBe(a.id);
    expect(await claimJob(db, [kind], 5_000)).toBeNull();
    await completeJob(db, claimA, {}, 1);
    expect((await claimJob(db, [kind], 5_000))?.job.id).toBe(b.id);
  });
});

describe('runs of one queue (consecutive jobs claimed together)', () => {
  const submitQueue = async (
    kind: string,
    inputs: Record<string, unknown>[],
    runAfter?: (i: number) => Date | undefined,
  ) => {
    const queueKey = `q-${randomUUID()}`;
    const ids: string[] = [];
    for (const [i, input] of inputs.entries()) {
      ids.push((await submitJob(db, { kind, accountId: 'acct-a', queueKey, input, runAfter: runAfter?.(i) })).id);
    }
    return ids;
  };
  const state = async (id: string) => {
    const job = (await getJob(db, id))!;
    return { state: job.state, attempts: job.attempts };
  };

  it('claims the head with the jobs right behind it, in order, up to the batch, stopping at one not yet due', async () => {
    const kind = uniqueKind('run');
    const hour = new Date(Date.now() + 3_600_000);
    const ids = await submitQueue(kind, [{}, {}, {}, {}, {}], (i) => (i === 3 ? hour : undefined));
    const first = (await claimJobs(db, [kind], 5_000, { [kind]: 2 }))!;
    expect(first.jobs.map((j) => j.id)).toEqual(ids.slice(0, 2));
    // the job behind the head will be attempt 1 when it runs, but has spent nothing yet
    expect(first.jobs.map((j) => j.attempts)).toEqual([1, 1]);
    expect(await state(ids[1]!)).toEqual({ state: 'running', attempts: 0 });
    // the queue is held: nothing of it for another claim
    expect(await claimJobs(db, [kind], 5_000, { [kind]: 10 })).toBeNull();
    await releaseJobs(db, first.token, [ids[1]!]);
    expect(await state(ids[1]!)).toEqual({ state: 'queued', attempts: 0 });
    // still behind its unfinished head
    expect(await claimJobs(db, [kind], 5_000, { [kind]: 10 })).toBeNull();
    const done = await completeJobs(
      db,
      first.token,
      [{ job: first.jobs[0]!, result: {}, startedAt: new Date(), alongside: [] }],
      1,
    );
    expect([...done]).toEqual([ids[0]]);
    const second = (await claimJobs(db, [kind], 5_000, { [kind]: 10 }))!;
    // the fourth is not due: the run stops before it, and the fifth is not taken past it
    expect(second.jobs.map((j) => j.id)).toEqual(ids.slice(1, 3));
    expect(await state(ids[4]!)).toEqual({ state: 'queued', attempts: 0 });
    // a kind without a batch is claimed one job at a time, as before
    await releaseJobs(db, second.token, [ids[2]!]);
    await completeJobs(
      db,
      second.token,
      [{ job: second.jobs[0]!, result: {}, startedAt: new Date(), alongside: [] }],
      1,
    );
    expect((await claimJobs(db, [kind], 5_000))!.jobs.map((j) => j.id)).toEqual([ids[2]]);
  });

  it('a failure mid-run records the successes before it, retries the failed job, and leaves the rest queued behind it in order', async () => {
    const kind = uniqueKind('runfail');
    const ran: string[] = [];
    const logged: string[] = [];
    const handler: JobHandler = {
      kind,
      batch: 10,
      async run(job, ctx) {
        ran.push(`${String(job.input.n)}#${job.attempts}`);
        if (Number(job.input.failOn ?? 0) === job.attempts) {
          await ctx.checkpoint();
          throw new Error(`job ${String(job.input.n)} failed`);
        }
        ctx.onComplete(async () => {
          logged.push(String(job.input.n));
        });
        return { n: job.input.n };
      },
      retryDelayMs: () => 0,
      async recordSucceeded(done) {
        logged.push(`together:${done.map((d) => String(d.result.n)).join(',')}`);
      },
    };
    const ids = await submitQueue(kind, [{ n: 1 }, { n: 2 }, { n: 3, failOn: 1 }, { n: 4 }, { n: 5 }]);
    const worker = new JobWorker(db, new JobRegistry().register(handler), config, { sweepEveryMs: null });
    const run = (await claimJobs(db, [kind], 5_000, { [kind]: 10 }))!;
    expect(run.jobs.map((j) => j.id)).toEqual(ids);
    await worker.runClaimed(run);
    expect(ran).toEqual(['1#1', '2#1', '3#1']);
    // the two successes were recorded (with their writes) before the failure was
    expect(logged).toEqual(['1', '2', 'together:1,2']);
    expect(await Promise.all(ids.map(state))).toEqual([
      { state: 'succeeded', attempts: 1 },
      { state: 'succeeded', attempts: 1 },
      { state: 'queued', attempts: 1 },
      { state: 'queued', attempts: 0 },
      { state: 'queued', attempts: 0 },
    ]);
    expect((await getJob(db, ids[2]!))!.error).toBe('job 3 failed');
    // the retry comes first, then the rest, in order, each attempted once
    const again = (await claimJobs(db, [kind], 5_000, { [kind]: 10 }))!;
    expect(again.jobs.map((j) => j.id)).toEqual(ids.slice(2));
    await worker.runClaimed(again);
    expect(ran).toEqual(['1#1', '2#1', '3#1', '3#2', '4#1', '5#1']);
    expect(await Promise.all(ids.map(state))).toEqual([
      { state: 'succeeded', attempts: 1 },
      { state: 'succeeded', attempts: 1 },
      { state: 'succeeded', attempts: 2 },
      { state: 'succeeded', attempts: 1 },
      { state: 'succeeded', attempts: 1 },
    ]);
    const finished = await Promise.all(ids.map(async (id) => (await getJob(db, id))!.finishedAt!.getTime()));
    expect([...finished].sort((a, b) => a - b)).toEqual(finished);
  });

  it('shares a perRun read among the jobs of one run, never across runs, reads again once it is too old, and keeps no failed read', async () => {
    const kind = uniqueKind('perrun');
    const loads: string[] = [];
    const seen: string[] = [];
    const handler: JobHandler = {
      kind,
      batch: 10,
      async run(job, ctx) {
        const n = Number(job.input.n);
        if (n === 3) await sleep(60); // older than the next read allows
        const value = await ctx
          .perRun('shared', 50, async () => {
            loads.push(`load for ${n}`);
            if (n === 1) throw new Error('read failed');
            return `read for ${n}`;
          })
          .catch((error: Error) => error.message);
        seen.push(`${n}:${value}`);
        return {};
      },
    };
    const ids = await submitQueue(kind, [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    const worker = new JobWorker(db, new JobRegistry().register(handler), config, { sweepEveryMs: null });
    const run = (await claimJobs(db, [kind], 5_000, { [kind]: 10 }))!;
    expect(run.jobs.map((j) => j.id)).toEqual(ids);
    await worker.runClaimed(run);
    expect(seen).toEqual(['1:read failed', '2:read for 2', '3:read for 3', '4:read for 3']);
    expect(loads).toEqual(['load for 1', 'load for 2', 'load for 3']);
    // a new run reads afresh
    await submitQueue(kind, [{ n: 5 }]);
    await worker.runClaimed((await claimJobs(db, [kind], 5_000, { [kind]: 10 }))!);
    expect(seen.at(-1)).toBe('5:read for 5');
  });

  it('records nothing for a job of the run that was cancelled meanwhile, and the rest as usual', async () => {
    const kind = uniqueKind('runcancel');
    const ids = await submitQueue(kind, [{}, {}, {}]);
    const run = (await claimJobs(db, [kind], 5_000, { [kind]: 10 }))!;
    expect(run.jobs).toHaveLength(3);
    await cancelJob(db, ids[1]!, 'acct-a');
    const wrote: string[] = [];
    const recorded = await completeJobs(
      db,
      run.token,
      run.jobs.map((job) => ({
        job,
        result: {},
        startedAt: new Date(),
        alongside: [
          async () => {
            wrote.push(job.id);
          },
        ],
      })),
      1,
    );
    expect([...recorded].sort()).toEqual([ids[0], ids[2]].sort());
    expect(wrote).toEqual([ids[0], ids[2]]);
    expect((await getJob(db, ids[1]!))!.state).toBe('cancelled');
  });
});

describe('ownership and expiry', () => {
  it('shows a job only to its account: another key gets 404', async () => {
    const ownerKey = await createTestKey(t.runtime, { account: 'acct-owner' });
    const otherKey = await createTestKey(t.runtime, { account: 'acct-other' });
    const job = await submitJob(db, { kind: uniqueKind('owned'), accountId: 'acct-owner', input: { rows: 1 } });
    await expect(jobOfAccount(db, 'acct-other', job.id)).rejects.toMatchObject({ status: 404 });
    const mine = await request(t.app).get(`/v1/jobs/${job.id}`).set('Authorization', `Bearer ${ownerKey}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ success: true, job: { id: job.id, state: 'queued' } });
    const theirs = await request(t.app).get(`/v1/jobs/${job.id}`).set('Authorization', `Bearer ${otherKey}`);
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain('queued');
    const missing = await request(t.app).get('/v1/jobs/job_nope').set('Authorization', `Bearer ${ownerKey}`);
    expect(missing.status).toBe(404);
  });

  it("lists the account's jobs newest first, in pages that never repeat, and cancels only its own unfinished ones", async () => {
    const account = `acct-list-${randomUUID().slice(0, 8)}`;
    const key = await createTestKey(t.runtime, { account });
    const otherKey = await createTestKey(t.runtime, { account: `${account}-other` });
    const kind = uniqueKind('listed');
    const jobs = [];
    for (let i = 0; i < 5; i++) jobs.push(await submitJob(db, { kind, accountId: account, input: { rows: 1 } }));
    await submitJob(db, { kind, accountId: `${account}-other`, input: { rows: 1 } });
    const as = (k: string) => (path: string) => request(t.app).get(path).set('Authorization', `Bearer ${k}`);
    const ids = (res: request.Response) => (res.body.jobs as Array<{ id: string }>).map((j) => j.id);
    const first = await as(key)('/v1/jobs?limit=2');
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual([jobs[4]!.id, jobs[3]!.id]);
    // a job submitted between pages comes first next time, and moves nothing on the pages after
    const later = await submitJob(db, { kind, accountId: account, input: { rows: 1 } });
    const second = await as(key)(`/v1/jobs?limit=2&before=${first.body.next_before}`);
    expect(ids(second)).toEqual([jobs[2]!.id, jobs[1]!.id]);
    const all = await as(key)('/v1/jobs?limit=100');
    expect(ids(all)).toEqual([later, ...[...jobs].reverse()].map((j) => j.id));
    expect(all.body.next_before).toBeNull();

    const cancel = (k: string, id: string) =>
      request(t.app).post(`/v1/jobs/${id}/cancel`).set('Authorization', `Bearer ${k}`);
    expect((await cancel(otherKey, jobs[0]!.id)).status).toBe(404);
    const cancelled = await cancel(key, jobs[0]!.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.job).toMatchObject({ id: jobs[0]!.id, state: 'cancelled' });
    const again = await cancel(key, jobs[0]!.id);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/is cancelled; it cannot become cancelled/);
    const onlyCancelled = await as(key)('/v1/jobs?state=cancelled');
    expect(ids(onlyCancelled)).toEqual([jobs[0]!.id]);
    for (const bad of ['/v1/jobs?limit=0', '/v1/jobs?limit=101', '/v1/jobs?state=done']) {
      const res = await as(key)(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toMatch(/limit|state/);
    }
  });

  it('expires finished jobs after the retention and removes their rows', async () => {
    const kind = uniqueKind('expiry');
    const job = await submitJob(db, { kind, accountId: 'acct-a', input: { rows: 2, batch: 2 } });
    const worker = new JobWorker(db, new JobRegistry().register(rowsHandler(kind)), config, { sweepEveryMs: null });
    await worker.runOnce();
    expect(await jobRows(db, job.id)).toHaveLength(2);
    await sweepExpiredJobs(db, 168);
    expect((await getJob(db, job.id))!.state).toBe('succeeded');
    await db.query(`UPDATE platform.job SET expires_at = now() - interval '1 second' WHERE id = $1`, [job.id]);
    expect(await sweepExpiredJobs(db, 168)).toBeGreaterThanOrEqual(1);
    const expired = (await getJob(db, job.id))!;
    expect(expired.state).toBe('expired');
    expect(expired.result).toBeNull();
    expect(await jobRows(db, job.id)).toHaveLength(0);
  });
});
