import { hostname } from 'node:os';
import type { GraphQLFormattedError } from 'graphql';
import type { Config } from '../../core/config.ts';
import type { RequestScope } from '../../core/context.ts';
import type { Database, QueryFn } from '../../core/db.ts';
import { logger } from '../../core/logger.ts';
import type { Claim, ClaimedRun, Completion, Job } from './engine.ts';
import { retryingGraph } from './graph-retry.ts';
import {
  JOBS_CHANNEL,
  LeaseLostError,
  claimJob,
  claimJobs,
  commitRows,
  completeJobs,
  failAttempt,
  heartbeat,
  releaseJobs,
  renewLeases,
  sweepExpiredJobs,
} from './engine.ts';

/**
 * The composed graph as a job sees it: the serving process's own graph, or the worker process's
 * (embedded, or signed HTTP to the subgraph services in the distributed mode). Typed here by shape,
 * because platform/ knows no gateway; `Graph` (gateway/graph.ts) satisfies it.
 */
export type GraphExecutor = {
  execute<TData>(
    query: string,
    variables: Record<string, unknown>,
    scope: RequestScope,
  ): Promise<{ data?: TData | null; errors?: readonly GraphQLFormattedError[] }>;
};

/** What a handler is given while it runs one job. */
export type JobContext = {
  db: Database;
  config: Config;
  /**
   * The graph the batch products read their layers through, reading again an operation that failed
   * for a moment (graph-retry.ts); throws when this worker was started without one.
   */
  graph(): GraphExecutor;
  /** Aborted when the claim is lost (lease lapsed, job cancelled) or the worker stops. */
  signal: AbortSignal;
  /** Commits the next batch of rows with the job's progress (numbered after `job.rowsDone`). */
  commitRows(rows: readonly unknown[], rowsTotal?: number | null): Promise<number>;
  /** Throws when the claim was lost: call between units of work that write nothing. */
  checkpoint(): Promise<void>;
  /** Writes to commit in the transaction that marks the job succeeded (after `run` resolves). */
  onComplete(write: (query: QueryFn) => Promise<void>): void;
  /**
   * `load`'s answer shared by the jobs of this claimed run (see JobHandler.batch) while it is at
   * most `maxAgeMs` old: a read every job of a run repeats (a webhook endpoint's row) is made once
   * a run, yet a change still reaches the run within `maxAgeMs`. A failed load is not kept.
   */
  perRun<T>(key: string, maxAgeMs: number, load: () => Promise<T>): Promise<T>;
};

/** The reads a claimed run's jobs share (JobContext.perRun), dropped with the run. */
type RunMemo = Map<string, { at: number; value: Promise<unknown> }>;

function perRunFrom(memo: RunMemo): JobContext['perRun'] {
  return <T>(key: string, maxAgeMs: number, load: () => Promise<T>): Promise<T> => {
    const kept = memo.get(key);
    if (kept && Date.now() - kept.at <= maxAgeMs) return kept.value as Promise<T>;
    const value = load();
    memo.set(key, { at: Date.now(), value });
    value.catch(() => {
      if (memo.get(key)?.value === value) memo.delete(key);
    });
    return value;
  };
}

export type JobHandler = {
  kind: string;
  /**
   * Most jobs of one queue a worker claims at once and runs one after another, in queue order
   * (default 1). Worth it for short jobs of a busy queue (webhook deliveries to one endpoint): the
   * claims and the completions in between are saved. A failure stops the run there; the jobs
   * behind it go back to the queue unrun.
   */
  batch?: number;
  /**
   * Runs (or resumes: `job.rowsDone` rows are already committed) the job. The resolved value
   * becomes the job's result; a throw is a failed attempt.
   */
  run(job: Job, ctx: JobContext): Promise<Record<string, unknown>>;
  /**
   * Writes for the jobs of a run just recorded as succeeded (each with the result `run` gave), in
   * the same transaction: one handler's bookkeeping for many jobs at once.
   */
  recordSucceeded?(done: readonly Completion[], query: QueryFn): Promise<void>;
  /** Wait before the next attempt after `attempts` failed ones; null: give up (the job fails). */
  retryDelayMs?(job: Job, config: Config): number | null;
  /** Called once when the job fails for good (its last attempt failed). */
  onGiveUp?(job: Job, error: string, ctx: { db: Database; config: Config }): Promise<void>;
};

/** Kind → handler; kinds are registered at start by the modules that own them. */
export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();

  register(handler: JobHandler): this {
    if (this.handlers.has(handler.kind)) throw new Error(`job kind ${handler.kind} is registered twice`);
    this.handlers.set(handler.kind, handler);
    return this;
  }

  get(kind: string): JobHandler | undefined {
    return this.handlers.get(kind);
  }

  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /** The kinds run in batches (JobHandler.batch), for claimJobs. */
  batches(): Record<string, number> {
    return Object.fromEntries(
      [...this.handlers.values()].flatMap((h) => (h.batch && h.batch > 1 ? [[h.kind, h.batch]] : [])),
    );
  }
}

/**
 * Successes of a claimed run are recorded together (one transaction, one commit) at the end of
 * the run, before a failure or a checkpoint is written, or once the oldest has waited this long,
 * so a worker that dies re-sends at most about this much of a run (at-least-once either way).
 */
export const RUN_RECORD_MS = 1_000;

type Attempt =
  { kind: 'done'; completion: Completion } | { kind: 'failed'; error: string } | { kind: 'lost'; reason: string };

/** Default retry: a few attempts, 2^n seconds apart. */
function defaultDelay(job: Job): number | null {
  return job.attempts >= job.maxAttempts ? null : Math.min(2 ** job.attempts * 1_000, 300_000);
}

export type WorkerOptions = {
  /** Jobs run at once; defaults to config.jobWorkers. */
  concurrency?: number;
  /** Runs the expiry sweep this often; null: never (the test of the sweep calls it itself). */
  sweepEveryMs?: number | null;
  /** Names the worker in the log. */
  name?: string;
  /** Called once the worker has stopped (the registry's kinds let go of pooled connections). */
  onStop?: () => void;
  /** The graph handed to handlers (export, enrich, earthworks); tests of graph-free kinds leave it out. */
  graph?: GraphExecutor;
};

/**
 * A worker: claims jobs of the registered kinds, runs each under a lease renewed by a
 * heartbeat, and records the outcome. Woken by NOTIFY when a job is submitted, and polls too
 * (a retry's due time, a lapsed lease of a dead worker's job, a missed notification).
 */
export class JobWorker {
  private stopped = false;
  private readonly running = new Set<Promise<void>>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly wakers = new Set<() => void>();
  private loops: Promise<void>[] = [];
  readonly name: string;

  constructor(
    private readonly db: Database,
    private readonly registry: JobRegistry,
    private readonly config: Config,
    private readonly options: WorkerOptions = {},
  ) {
    this.name = options.name ?? `${hostname()}:${process.pid}`;
  }

  async start(): Promise<this> {
    this.unlisten = await this.db
      .listen(JOBS_CHANNEL, () => this.wakeAll())
      .catch((error: unknown) => {
        logger.warn('job notifications unavailable; polling only', { error: (error as Error).message });
        return undefined;
      });
    const concurrency = this.options.concurrency ?? this.config.jobWorkers;
    for (let i = 0; i < concurrency; i++) this.loops.push(this.loop());
    const sweepEvery = this.options.sweepEveryMs === undefined ? 600_000 : this.options.sweepEveryMs;
    if (sweepEvery) {
      this.sweepTimer = setInterval(() => {
        sweepExpiredJobs(this.db, this.config.jobRetentionHours).catch((error: unknown) =>
          logger.warn('job expiry sweep failed', { error: (error as Error).message }),
        );
      }, sweepEvery);
      this.sweepTimer.unref();
    }
    logger.info('job worker started', { worker: this.name, kinds: this.registry.kinds(), concurrency });
    return this;
  }

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(), this.config.jobPollMs);
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      this.wakers.add(done);
    });
  }

  private async loop(): Promise<void> {
    const batches = this.registry.batches();
    while (!this.stopped) {
      let run: ClaimedRun | null = null;
      try {
        run = await claimJobs(this.db, this.registry.kinds(), this.config.jobLeaseMs, batches);
      } catch (error) {
        if (!this.stopped) logger.warn('job claim failed', { error: (error as Error).message });
      }
      if (!run) {
        if (!this.stopped) await this.idle();
        continue;
      }
      const running = this.runClaimed(run);
      this.running.add(running);
      await running;
      this.running.delete(running);
    }
  }

  /** Runs one claimed job to its outcome; exported for tests through `runOnce`. */
  async runJob(claim: Claim): Promise<void> {
    await this.runClaimed({ jobs: [claim.job], token: claim.token });
  }

  /**
   * Runs a claimed run's jobs one after another in queue order, under one lease renewed by a
   * heartbeat. Successes are recorded together (RUN_RECORD_MS); a failed attempt is recorded
   * after the successes before it and ends the run; the jobs not reached go back to the queue.
   */
  async runClaimed(run: ClaimedRun): Promise<void> {
    const { token } = run;
    const leaseMs = this.config.jobLeaseMs;
    const retention = this.config.jobRetentionHours;
    const abort = new AbortController();
    let current: Job | undefined;
    let next = 0;
    const pending: Completion[] = [];
    let pendingSince = 0;
    const perRun = perRunFrom(new Map());
    const held = () => [...pending.map((d) => d.job.id), ...run.jobs.slice(current ? next - 1 : next).map((j) => j.id)];
    const beat = setInterval(
      () => {
        renewLeases(this.db, token, held(), leaseMs)
          .then((renewed) => {
            if (current && !renewed.has(current.id)) abort.abort(new LeaseLostError(current.id));
          })
          .catch(() => undefined);
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    beat.unref();
    const record = async () => {
      if (pending.length === 0) return;
      const done = pending.splice(0);
      pendingSince = 0;
      const handler = this.registry.get(done[0]!.job.kind);
      const together = handler?.recordSucceeded
        ? (kept: readonly Completion[], query: QueryFn) => handler.recordSucceeded!(kept, query)
        : undefined;
      const recorded = await completeJobs(this.db, token, done, retention, together);
      for (const d of done) {
        if (!recorded.has(d.job.id)) logger.info('job left to its next claim', { job: d.job.id, reason: 'claim lost' });
      }
    };
    try {
      while (next < run.jobs.length && !this.stopped && !abort.signal.aborted) {
        const job = run.jobs[next++]!;
        current = job;
        const attempt = await this.attempt(job, token, abort, record, perRun);
        current = undefined;
        if (attempt.kind === 'done') {
          pending.push(attempt.completion);
          pendingSince ||= Date.now();
          if (Date.now() - pendingSince >= RUN_RECORD_MS) await record();
          continue;
        }
        // the successes before it first, so the queue's record stays in order
        await record();
        if (attempt.kind === 'lost') logger.info('job left to its next claim', { job: job.id, reason: attempt.reason });
        else await this.recordFailure(job, token, attempt.error);
        break;
      }
      await record();
    } catch (error) {
      logger.warn('recording a job run failed; its jobs are left to their lease', {
        jobs: run.jobs.length,
        error: (error as Error).message,
      });
    } finally {
      clearInterval(beat);
      await releaseJobs(
        this.db,
        token,
        run.jobs.slice(next).map((j) => j.id),
      ).catch((error: unknown) => logger.warn('releasing unrun jobs failed', { error: (error as Error).message }));
    }
  }

  /** One job of a run: the handler's outcome, nothing recorded yet (a failure is recorded by the caller). */
  private async attempt(
    job: Job,
    token: string,
    abort: AbortController,
    record: () => Promise<void>,
    perRun: JobContext['perRun'],
  ): Promise<Attempt> {
    const handler = this.registry.get(job.kind);
    const claim: Claim = { job, token };
    const leaseMs = this.config.jobLeaseMs;
    const alongside: ((query: QueryFn) => Promise<void>)[] = [];
    const startedAt = new Date();
    let graph: GraphExecutor | undefined;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const ctx: JobContext = {
        db: this.db,
        config: this.config,
        graph: () => {
          if (!this.options.graph) throw new Error(`worker ${this.name} has no graph for job kind ${job.kind}`);
          graph ??= retryingGraph(this.options.graph, abort.signal);
          return graph;
        },
        signal: abort.signal,
        commitRows: (rows, rowsTotal) => {
          if (this.stopped) throw new LeaseLostError(job.id);
          return commitRows(this.db, claim, rows, { rowsTotal, leaseMs });
        },
        checkpoint: async () => {
          if (abort.signal.aborted || this.stopped) throw new LeaseLostError(job.id);
          // the run's earlier successes go first: whatever the handler writes next comes after them
          await record();
          await heartbeat(this.db, claim, leaseMs);
        },
        onComplete: (write) => {
          alongside.push(write);
        },
        perRun,
      };
      const result = await handler.run(job, ctx);
      return { kind: 'done', completion: { job, result, startedAt, alongside } };
    } catch (error) {
      if (error instanceof LeaseLostError || abort.signal.aborted) {
        return { kind: 'lost', reason: (error as Error).message };
      }
      return { kind: 'failed', error: (error as Error).message ?? String(error) };
    }
  }

  /** A failed attempt: retried after the handler's back-off, or failed for good (and the handler's give-up hook). */
  private async recordFailure(job: Job, token: string, message: string): Promise<void> {
    const handler = this.registry.get(job.kind);
    const retention = this.config.jobRetentionHours;
    const delay = handler?.retryDelayMs ? handler.retryDelayMs(job, this.config) : defaultDelay(job);
    const after = await failAttempt(this.db, { job, token }, message, delay, retention).catch(() => null);
    if (after?.state === 'failed') {
      logger.warn('job failed', { job: job.id, kind: job.kind, error: message });
      await handler
        ?.onGiveUp?.(after, message, { db: this.db, config: this.config })
        .catch((e: unknown) => logger.warn('job give-up hook failed', { job: job.id, error: (e as Error).message }));
    }
  }

  /** Claims and runs at most one job; for tests and tools that drive the engine step by step. */
  async runOnce(): Promise<Job | null> {
    const claim = await claimJob(this.db, this.registry.kinds(), this.config.jobLeaseMs);
    if (!claim) return null;
    await this.runJob(claim);
    return claim.job;
  }

  /** Stops claiming; jobs in hand finish their current batch or are left to their lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweepTimer);
    this.wakeAll();
    await Promise.allSettled([...this.loops, ...this.running]);
    await this.unlisten?.().catch(() => undefined);
    this.options.onStop?.();
  }
}
