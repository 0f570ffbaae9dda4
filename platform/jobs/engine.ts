import { randomBytes } from 'node:crypto';
import type { Database, QueryFn } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../secrets.ts';

/**
 * The durable job engine: a `FOR UPDATE SKIP LOCKED` queue in `platform.job` with leases and
 * heartbeats, on PostgreSQL and on the embedded PGlite alike (docs/p9-notes-jobs.md says why not
 * pg-boss or graphile-worker). A job's result rows go to `platform.job_row` in batches committed
 * together with its progress, so a worker that dies mid-job is resumed by another from the last
 * committed row, and every row is written exactly once.
 */
export const JOB_STATES = [
  'awaiting_approval',
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'expired',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Every allowed move; anything else is refused (a running job's lapsed lease is claimed again, running → running). */
export const TRANSITIONS: Record<JobState, readonly JobState[]> = {
  awaiting_approval: ['queued', 'cancelled', 'expired'],
  queued: ['running', 'cancelled'],
  running: ['running', 'succeeded', 'failed', 'cancelled', 'queued'],
  succeeded: ['expired'],
  failed: ['expired'],
  cancelled: ['expired'],
  expired: [],
};

export const FINAL_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled', 'expired'];

export function canMove(from: JobState, to: JobState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The states `to` may be reached from, for the guarded UPDATE of each move. */
function fromStates(to: JobState): JobState[] {
  return JOB_STATES.filter((from) => canMove(from, to));
}

/** NOTIFY channel a new or requeued job is announced on, so idle workers wake at once. */
export const JOBS_CHANNEL = 'landgraph_jobs';

export type Job = {
  id: string;
  kind: string;
  accountId: string;
  keyId: string | null;
  input: Record<string, unknown>;
  state: JobState;
  queueKey: string | null;
  rowsDone: number;
  rowsTotal: number | null;
  attempts: number;
  maxAttempts: number;
  runAfter: Date;
  leaseUntil: Date | null;
  heartbeatAt: Date | null;
  result: Record<string, unknown> | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
};

type JobRow = {
  id: string;
  kind: string;
  account_id: string;
  key_id: string | null;
  input: Record<string, unknown>;
  state: JobState;
  queue_key: string | null;
  rows_done: number;
  rows_total: number | null;
  attempts: number;
  max_attempts: number;
  run_after: Date | string;
  lease_until: Date | string | null;
  heartbeat_at: Date | string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  expires_at: Date | string | null;
};

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const maybeDate = (value: Date | string | null): Date | null => (value === null ? null : date(value));

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    accountId: row.account_id,
    keyId: row.key_id,
    input: row.input,
    state: row.state,
    queueKey: row.queue_key,
    rowsDone: row.rows_done,
    rowsTotal: row.rows_total,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: date(row.run_after),
    leaseUntil: maybeDate(row.lease_until),
    heartbeatAt: maybeDate(row.heartbeat_at),
    result: row.result,
    error: row.error,
    createdAt: date(row.created_at),
    startedAt: maybeDate(row.started_at),
    finishedAt: maybeDate(row.finished_at),
    expiresAt: maybeDate(row.expires_at),
  };
}

const COLUMNS = `id, kind, account_id, key_id, input, state, queue_key, rows_done, rows_total, attempts,
  max_attempts, run_after, lease_until, heartbeat_at, result, error, created_at, started_at, finished_at, expires_at`;

export type SubmitJob = {
  kind: string;
  accountId: string;
  keyId?: string | null;
  input?: Record<string, unknown>;
  /** Starts in awaiting_approval (enrich): nothing runs until approve. */
  awaitApproval?: boolean;
  /** Jobs sharing a queue key run one at a time, in submission order. */
  queueKey?: string | null;
  maxAttempts?: number;
  rowsTotal?: number | null;
  /** Not before this time. */
  runAfter?: Date;
};

/** The public view of a job (GET /v1/jobs/{id}): its state and progress, never its lease. */
export function jobView(job: Job): Record<string, unknown> {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    progress: { rows_done: job.rowsDone, rows_total: job.rowsTotal },
    attempts: job.attempts,
    result: job.result,
    error: job.error,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
    expires_at: job.expiresAt?.toISOString() ?? null,
  };
}

/** Submits a job; inside `query` when given (so it commits with the caller's own writes). */
export async function submitJob(db: Database, spec: SubmitJob, query?: QueryFn): Promise<Job> {
  const run: QueryFn = query ?? ((sql, params) => db.query(sql, params));
  const [row] = await run<JobRow>(
    `INSERT INTO platform.job (id, kind, account_id, key_id, input, state, queue_key, max_attempts, rows_total, run_after)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, COALESCE($10::timestamptz, now()))
     RETURNING ${COLUMNS}`,
    [
      newId('job'),
      spec.kind,
      spec.accountId,
      spec.keyId ?? null,
      JSON.stringify(spec.input ?? {}),
      spec.awaitApproval ? 'awaiting_approval' : 'queued',
      spec.queueKey ?? null,
      spec.maxAttempts ?? 3,
      spec.rowsTotal ?? null,
      spec.runAfter?.toISOString() ?? null,
    ],
  );
  await run(`SELECT pg_notify($1, $2)`, [JOBS_CHANNEL, spec.kind]);
  return toJob(row!);
}

/** Any job by id, for the engine and administrators; callers on behalf of a key use `jobOfAccount`. */
export async function getJob(db: Pick<Database, 'query'>, id: string): Promise<Job | null> {
  const [row] = await db.query<JobRow>(`SELECT ${COLUMNS} FROM platform.job WHERE id = $1`, [id]);
  return row ? toJob(row) : null;
}

/** A job of the account, or 404: another account's job is never shown, nor its existence. */
export async function jobOfAccount(db: Pick<Database, 'query'>, accountId: string, id: string): Promise<Job> {
  const [row] = await db.query<JobRow>(`SELECT ${COLUMNS} FROM platform.job WHERE id = $1 AND account_id = $2`, [
    id,
    accountId,
  ]);
  if (!row) throw new AppError('NOT_FOUND', `No job ${id}.`, 'A job is readable only by the account that created it.');
  return toJob(row);
}

async function move(
  db: Pick<Database, 'query'>,
  id: string,
  to: JobState,
  set: string,
  params: unknown[],
  accountId?: string,
): Promise<Job> {
  const from = fromStates(to);
  const owner = accountId === undefined ? '' : ` AND account_id = $${params.length + 3}`;
  const rows = await db.query<JobRow>(
    `UPDATE platform.job SET state = '${to}'${set ? `, ${set}` : ''}
     WHERE id = $1 AND state = ANY($2::text[])${owner} RETURNING ${COLUMNS}`,
    [id, from, ...params, ...(accountId === undefined ? [] : [accountId])],
  );
  if (rows[0]) return toJob(rows[0]);
  const current = accountId === undefined ? await getJob(db, id) : await jobOfAccount(db, accountId, id);
  if (!current) throw new AppError('NOT_FOUND', `No job ${id}.`);
  throw new AppError('CONFLICT', `Job ${id} is ${current.state}; it cannot become ${to}.`);
}

/** Most jobs one page of `listJobs` holds. */
export const MAX_JOB_PAGE = 100;

/**
 * The account's jobs, newest first, optionally of one state; `before` (a job id of the account)
 * pages on from that job. Keyset on the job's sequence number, so a page never repeats or skips a
 * job however many are submitted meanwhile.
 */
export async function listJobs(
  db: Database,
  accountId: string,
  options: { state?: JobState; limit: number; before?: string },
): Promise<Job[]> {
  const params: unknown[] = [accountId, Math.min(Math.max(options.limit, 1), MAX_JOB_PAGE)];
  let where = 'account_id = $1';
  if (options.state) {
    params.push(options.state);
    where += ` AND state = $${params.length}`;
  }
  if (options.before) {
    params.push(options.before);
    where += ` AND seq < (SELECT b.seq FROM platform.job b WHERE b.id = $${params.length} AND b.account_id = $1)`;
  }
  const rows = await db.query<JobRow>(
    `SELECT ${COLUMNS} FROM platform.job WHERE ${where} ORDER BY seq DESC LIMIT $2`,
    params,
  );
  return rows.map(toJob);
}

/** awaiting_approval → queued (enrich's approve step); `input` patches the job's input. */
export async function approveJob(
  db: Database,
  id: string,
  accountId?: string,
  patch: Record<string, unknown> = {},
): Promise<Job> {
  const job = await move(
    db,
    id,
    'queued',
    `input = input || $3::jsonb, run_after = now()`,
    [JSON.stringify(patch)],
    accountId,
  );
  await db.query(`SELECT pg_notify($1, $2)`, [JOBS_CHANNEL, job.kind]);
  return job;
}

/**
 * Tables holding what a job was given to work on, kept only while it may still run: an enrich
 * job's upload (the customer's CSV) and an export's targets (an address list's texts). A
 * cancelled job never reads them again and an expired one is past the retention promised, so
 * they go with either move, in its transaction. Named here, not by the kinds, because the engine
 * makes those moves (the cancel route, the sweeper) whichever kinds the process registered.
 */
const JOB_INPUT_TABLES = ['platform.enrich_upload', 'platform.export_target'] as const;

async function dropJobInputs(query: QueryFn, ids: readonly string[]): Promise<void> {
  for (const table of JOB_INPUT_TABLES) await query(`DELETE FROM ${table} WHERE job_id = ANY($1::text[])`, [ids]);
}

/**
 * Cancels a job not yet finished, and drops its inputs; a running job's worker notices at its
 * next batch and stops.
 */
export async function cancelJob(db: Database, id: string, accountId?: string, retentionHours = 168): Promise<Job> {
  return db.transaction(async (query) => {
    const job = await move(
      { query },
      id,
      'cancelled',
      `lease_token = NULL, finished_at = now(), expires_at = now() + $3 * interval '1 hour'`,
      [retentionHours],
      accountId,
    );
    await dropJobInputs(query, [job.id]);
    return job;
  });
}

/** A worker's claim: the job as claimed and the token every write under the claim must show. */
export type Claim = { job: Job; token: string };

/**
 * A claim of consecutive jobs of one queue (or of one unkeyed job), in queue order, under one
 * token: the queue's head, then the jobs right behind it while they are claimable.
 */
export type ClaimedRun = { jobs: Job[]; token: string };

/** How many unkeyed candidates a claim looks at: enough that workers passing over each other's locks still find one. */
const UNKEYED_CANDIDATES = 16;

/**
 * Claims the next runnable job of `kinds`: queued and due, or running with a lapsed lease (its
 * worker died). A job with a queue key is a candidate only when it is the oldest unfinished job
 * of its queue (its head); the heads are found by walking the partial index of unfinished queued
 * jobs one queue at a time, so a claim costs one index probe per queue however long the backlog
 * behind a failing endpoint grows. One statement, so it is atomic on PGlite's single backend as
 * well as under PostgreSQL's concurrency, where SKIP LOCKED lets workers pass over each other
 * (run in a transaction of its own only to set a planner option for it).
 */
export async function claimJob(db: Database, kinds: readonly string[], leaseMs: number): Promise<Claim | null> {
  const run = await claimJobs(db, kinds, leaseMs);
  return run ? { job: run.jobs[0]!, token: run.token } : null;
}

/**
 * claimJob, and with the head of a queue also the jobs queued right behind it, up to `batch[kind]`
 * jobs in all (1 when the kind is not named): the run stops at the first job of the queue that is
 * not claimable now (another kind, not yet due, awaiting approval, held by a live lease, locked by
 * another transaction), so the claimed jobs are always a gapless prefix of the queue and the
 * queue's order holds. Only the head counts an attempt here; the jobs behind it count theirs when
 * they are recorded (`Job.attempts` is already the attempt they will be), so a job released
 * unrun, or claimed by a worker that died before reaching it, has spent no attempt. Still one
 * statement. A worker that reaches the job behind the head has finished the head, so the queue
 * is still run one job at a time in order; the run only saves the claims in between.
 */
export async function claimJobs(
  db: Database,
  kinds: readonly string[],
  leaseMs: number,
  batch: Readonly<Record<string, number>> = {},
): Promise<ClaimedRun | null> {
  if (kinds.length === 0) return null;
  const token = randomBytes(12).toString('hex');
  const sizes = Object.entries(batch).filter(([kind, n]) => kinds.includes(kind) && n > 1);
  const claimable = (t: string) => `(${t}.state = 'queued' OR (${t}.state = 'running' AND ${t}.lease_until < now()))`;
  // A burst of deliveries fills the table faster than autovacuum analyses it; with statistics that
  // still say "nearly empty" PostgreSQL walked each queue step by a bitmap scan and a sort of the whole
  // queue (90 ms a claim over 10,000 fresh jobs, against 10 ms by the ordered index). Every scan of
  // this statement is an index probe by key or in index order, so bitmap scans are never wanted here.
  const rows = await db.transaction(async (query) => {
    await query(`SET LOCAL enable_bitmapscan = off`);
    return query<JobRow & { seq: string | number; head: boolean }>(
      `WITH RECURSIVE heads AS (
       (SELECT q.id, q.queue_key, q.kind, q.state, q.run_after, q.lease_until FROM platform.job q
        WHERE q.queue_key IS NOT NULL AND q.state IN ('queued', 'running', 'awaiting_approval')
        ORDER BY q.queue_key, q.seq LIMIT 1)
       UNION ALL
       SELECT n.* FROM heads h CROSS JOIN LATERAL (
         SELECT q.id, q.queue_key, q.kind, q.state, q.run_after, q.lease_until FROM platform.job q
         WHERE q.queue_key > h.queue_key AND q.state IN ('queued', 'running', 'awaiting_approval')
         ORDER BY q.queue_key, q.seq LIMIT 1) n
     ), candidates AS (
       SELECT heads.id FROM heads
       WHERE heads.kind = ANY($3::text[]) AND heads.run_after <= now() AND ${claimable('heads')}
       UNION ALL
       (SELECT u.id FROM platform.job u
        WHERE u.queue_key IS NULL AND u.kind = ANY($3::text[]) AND u.run_after <= now()
          AND u.state IN ('queued', 'running') AND ${claimable('u')}
        ORDER BY u.run_after, u.seq LIMIT ${UNKEYED_CANDIDATES})
     ), head AS MATERIALIZED (
       -- by primary key: the candidates are few, however long the backlog behind them
       SELECT c.id, c.kind, c.queue_key, c.seq FROM platform.job c
       WHERE c.id = ANY (ARRAY(SELECT candidates.id FROM candidates))
         AND c.kind = ANY($3::text[]) AND c.run_after <= now() AND ${claimable('c')}
       ORDER BY c.run_after, c.seq
       LIMIT 1
       FOR UPDATE OF c SKIP LOCKED
     ), behind AS MATERIALIZED (
       SELECT f.id, f.seq, (f.kind = h.kind AND f.run_after <= now() AND ${claimable('f')}) AS ok
       FROM head h CROSS JOIN LATERAL (
         SELECT f.id, f.seq, f.kind, f.run_after, f.state, f.lease_until FROM platform.job f
         WHERE f.queue_key = h.queue_key AND f.seq > h.seq AND f.state IN ('queued', 'running', 'awaiting_approval')
         ORDER BY f.seq
         LIMIT COALESCE((SELECT b.n FROM unnest($4::text[], $5::int[]) AS b(kind, n) WHERE b.kind = h.kind), 1) - 1
       ) f
     ), locked AS MATERIALIZED (
       SELECT l.id FROM platform.job l WHERE l.id IN (SELECT behind.id FROM behind) FOR UPDATE SKIP LOCKED
     ), followers AS (
       SELECT b.id FROM behind b
       WHERE NOT EXISTS (
         SELECT 1 FROM behind g
         WHERE g.seq <= b.seq AND (NOT g.ok OR NOT EXISTS (SELECT 1 FROM locked WHERE locked.id = g.id)))
     )
     UPDATE platform.job j
     SET state = 'running', lease_token = $1, lease_until = now() + $2 * interval '1 millisecond', heartbeat_at = now(),
         attempts = CASE WHEN j.id = (SELECT head.id FROM head) THEN j.attempts + 1 ELSE j.attempts END,
         started_at = CASE WHEN j.id = (SELECT head.id FROM head) THEN COALESCE(j.started_at, now()) ELSE j.started_at END
     WHERE j.id IN (SELECT head.id FROM head UNION ALL SELECT followers.id FROM followers)
       AND ${claimable('j')}
     RETURNING ${COLUMNS.split(',')
       .map((c) => `j.${c.trim()}`)
       .join(', ')}, j.seq, j.id = (SELECT head.id FROM head) AS head`,
      [token, leaseMs, kinds, sizes.map(([kind]) => kind), sizes.map(([, n]) => n)],
    );
  });
  // the head and the gapless run behind it; a follower whose head was not taken is never run
  const ordered = rows.sort((a, b) => Number(a.seq) - Number(b.seq));
  if (!ordered[0]?.head) {
    // cannot happen while the head stays locked; if it did, the run behind it must not wait for its lease
    await releaseJobs(
      db,
      token,
      ordered.map((r) => r.id),
    );
    return null;
  }
  const jobs = ordered.map((row) => {
    const job = toJob(row);
    if (!row.head) job.attempts += 1;
    return job;
  });
  return { jobs, token };
}

/**
 * Gives claimed jobs not yet run back to the queue as they were (no attempt spent); the jobs
 * before them in the queue decide when they run again.
 */
export async function releaseJobs(db: Database, token: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE platform.job SET state = 'queued', lease_token = NULL, lease_until = NULL
     WHERE id = ANY($1::text[]) AND lease_token = $2 AND state = 'running'`,
    [ids, token],
  );
}

/** Renews the lease of every job of a claimed run still running under it; returns the ids renewed. */
export async function renewLeases(
  db: Database,
  token: string,
  ids: readonly string[],
  leaseMs: number,
): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>(
    `UPDATE platform.job SET heartbeat_at = now(), lease_until = now() + $3 * interval '1 millisecond'
     WHERE id = ANY($1::text[]) AND lease_token = $2 AND state = 'running' RETURNING id`,
    [ids, token, leaseMs],
  );
  return new Set(rows.map((r) => r.id));
}

/** A job of a claimed run that succeeded, waiting to be recorded with the others (completeJobs). */
export type Completion = {
  job: Job;
  result: Record<string, unknown>;
  startedAt: Date;
  alongside: ((query: QueryFn) => Promise<void>)[];
};

/**
 * Records several jobs of one claimed run as succeeded in one transaction, each with its own
 * `alongside` writes, then `together` once with all of them (a handler's bookkeeping in one
 * statement rather than one per job). A job no longer held under `token` (cancelled meanwhile, or its lease lapsed
 * and another worker took it) is left as it is, and so are its writes. Returns the ids recorded.
 */
export async function completeJobs(
  db: Database,
  token: string,
  done: readonly Completion[],
  retentionHours: number,
  together?: (recorded: readonly Completion[], query: QueryFn) => Promise<void>,
): Promise<Set<string>> {
  if (done.length === 0) return new Set();
  return db.transaction(async (query) => {
    const rows = await query<{ id: string }>(
      `UPDATE platform.job j SET state = 'succeeded', result = t.result, error = NULL, lease_token = NULL,
         lease_until = NULL, attempts = t.attempts, started_at = COALESCE(j.started_at, t.started_at),
         finished_at = now(), expires_at = now() + $3 * interval '1 hour'
       FROM unnest($1::text[], $4::jsonb[], $5::int[], $6::timestamptz[]) AS t(id, result, attempts, started_at)
       WHERE j.id = t.id AND j.lease_token = $2 AND j.state = 'running'
       RETURNING j.id`,
      [
        done.map((d) => d.job.id),
        token,
        retentionHours,
        done.map((d) => JSON.stringify(d.result)),
        done.map((d) => d.job.attempts),
        done.map((d) => d.startedAt.toISOString()),
      ],
    );
    const recorded = new Set(rows.map((r) => r.id));
    const kept = done.filter((d) => recorded.has(d.job.id));
    for (const d of kept) for (const write of d.alongside) await write(query);
    if (together && kept.length > 0) await together(kept, query);
    return recorded;
  });
}

/** The claim was lost: the lease lapsed and another worker took the job, or it was cancelled. */
export class LeaseLostError extends Error {
  constructor(id: string) {
    super(`lost the claim on job ${id} (lease lapsed, or the job was cancelled)`);
  }
}

/** Renews the lease; throws LeaseLostError when the claim is no longer this worker's. */
export async function heartbeat(db: Database, claim: Claim, leaseMs: number): Promise<void> {
  const rows = await db.query(
    `UPDATE platform.job SET heartbeat_at = now(), lease_until = now() + $3 * interval '1 millisecond'
     WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING id`,
    [claim.job.id, claim.token, leaseMs],
  );
  if (rows.length === 0) throw new LeaseLostError(claim.job.id);
}

/**
 * Writes the next batch of result rows and the job's progress in one transaction, under the
 * claim: numbered from the last committed row, so a resumed job continues where it stopped and
 * (job_id, row_no) stays unique. Returns the rows done after the batch.
 */
export async function commitRows(
  db: Database,
  claim: Claim,
  rows: readonly unknown[],
  options: { rowsTotal?: number | null; leaseMs: number },
): Promise<number> {
  return db.transaction(async (query) => {
    const [locked] = await query<{ rows_done: number }>(
      `UPDATE platform.job SET heartbeat_at = now(), lease_until = now() + $3 * interval '1 millisecond',
         rows_total = COALESCE($4, rows_total)
       WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING rows_done`,
      [claim.job.id, claim.token, options.leaseMs, options.rowsTotal ?? null],
    );
    if (!locked) throw new LeaseLostError(claim.job.id);
    const start = locked.rows_done;
    if (rows.length > 0) {
      await query(
        `INSERT INTO platform.job_row (job_id, row_no, data)
         SELECT $1, $2 + n, d FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS t(d, n)`,
        [claim.job.id, start, JSON.stringify(rows)],
      );
    }
    const done = start + rows.length;
    await query(`UPDATE platform.job SET rows_done = $2 WHERE id = $1`, [claim.job.id, done]);
    claim.job.rowsDone = done;
    return done;
  });
}

/**
 * running → succeeded, under the claim; `alongside` writes (a handler's own bookkeeping) commit in
 * the same transaction, so they happen exactly when the job completes.
 */
export async function completeJob(
  db: Database,
  claim: Claim,
  result: Record<string, unknown>,
  retentionHours: number,
  alongside: ((query: QueryFn) => Promise<void>)[] = [],
): Promise<Job> {
  const sql = `UPDATE platform.job SET state = 'succeeded', result = $3::jsonb, error = NULL, lease_token = NULL,
       lease_until = NULL, finished_at = now(), expires_at = now() + $4 * interval '1 hour'
     WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING ${COLUMNS}`;
  const params = [claim.job.id, claim.token, JSON.stringify(result), retentionHours];
  const row =
    alongside.length === 0
      ? (await db.query<JobRow>(sql, params))[0]
      : await db.transaction(async (query) => {
          const [updated] = await query<JobRow>(sql, params);
          if (!updated) throw new LeaseLostError(claim.job.id);
          for (const write of alongside) await write(query);
          return updated;
        });
  if (!row) throw new LeaseLostError(claim.job.id);
  return toJob(row);
}

/** running → queued again after `delayMs` (a retry), or → failed when `delayMs` is null. */
export async function failAttempt(
  db: Database,
  claim: Claim,
  error: string,
  delayMs: number | null,
  retentionHours: number,
): Promise<Job | null> {
  const rows =
    delayMs === null
      ? await db.query<JobRow>(
          `UPDATE platform.job SET state = 'failed', error = $3, lease_token = NULL, lease_until = NULL,
             attempts = GREATEST(attempts, $5), started_at = COALESCE(started_at, now()),
             finished_at = now(), expires_at = now() + $4 * interval '1 hour'
           WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING ${COLUMNS}`,
          [claim.job.id, claim.token, error, retentionHours, claim.job.attempts],
        )
      : await db.query<JobRow>(
          `UPDATE platform.job SET state = 'queued', error = $3, lease_token = NULL, lease_until = NULL,
             attempts = GREATEST(attempts, $5), started_at = COALESCE(started_at, now()),
             run_after = now() + $4 * interval '1 millisecond'
           WHERE id = $1 AND lease_token = $2 AND state = 'running' RETURNING ${COLUMNS}`,
          [claim.job.id, claim.token, error, delayMs, claim.job.attempts],
        );
  return rows[0] ? toJob(rows[0]) : null;
}

/** A job's committed result rows, in order. */
export async function jobRows<T = unknown>(
  db: Database,
  jobId: string,
  options: { after?: number; limit?: number } = {},
): Promise<{ rowNo: number; data: T }[]> {
  const rows = await db.query<{ row_no: number; data: T }>(
    `SELECT row_no, data FROM platform.job_row WHERE job_id = $1 AND row_no > $2 ORDER BY row_no LIMIT $3`,
    [jobId, options.after ?? 0, options.limit ?? 10_000],
  );
  return rows.map((r) => ({ rowNo: r.row_no, data: r.data }));
}

/**
 * The sweeper: finished jobs past their expiry become `expired` and lose their result rows and
 * any inputs still kept; jobs left awaiting approval past the retention expire too (an enrich
 * upload never approved goes here). The job's row stays (its state tells a poller what
 * happened). Returns the jobs expired.
 */
export async function sweepExpiredJobs(db: Database, retentionHours: number): Promise<number> {
  return db.transaction(async (query) => {
    const expired = await query<{ id: string }>(
      `UPDATE platform.job SET state = 'expired', result = NULL, lease_token = NULL
       WHERE (state IN ('succeeded', 'failed', 'cancelled') AND expires_at <= now())
          OR (state = 'awaiting_approval' AND created_at <= now() - $1 * interval '1 hour')
       RETURNING id`,
      [retentionHours],
    );
    if (expired.length > 0) {
      const ids = expired.map((r) => r.id);
      await query(`DELETE FROM platform.job_row WHERE job_id = ANY($1::text[])`, [ids]);
      await dropJobInputs(query, ids);
    }
    return expired.length;
  });
}
