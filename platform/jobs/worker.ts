import { hostname } from 'node:os';
import type { Config } from '../../core/config.ts';
import type { Database, QueryFn } from '../../core/db.ts';
import { logger } from '../../core/logger.ts';
import type { Claim, Job } from './engine.ts';
import {
  JOBS_CHANNEL,
  LeaseLostError,
  claimJob,
  commitRows,
  completeJob,
  failAttempt,
  heartbeat,
  sweepExpiredJobs,
} from './engine.ts';

/** What a handler is given while it runs one job. */
export type JobContext = {
  db: Database;
  config: Config;
  /** Aborted when the claim is lost (lease lapsed, job cancelled) or the worker stops. */
  signal: AbortSignal;
  /** Commits the next batch of rows with the job's progress (numbered after `job.rowsDone`). */
  commitRows(rows: readonly unknown[], rowsTotal?: number | null): Promise<number>;
  /** Throws when the claim was lost: call between units of work that write nothing. */
  checkpoint(): Promise<void>;
  /** Writes to commit in the transaction that marks the job succeeded (after `run` resolves). */
  onComplete(write: (query: QueryFn) => Promise<void>): void;
};

export type JobHandler = {
  kind: string;
  /**
   * Runs (or resumes: `job.rowsDone` rows are already committed) the job. The resolved value
   * becomes the job's result; a throw is a failed attempt.
   */
  run(job: Job, ctx: JobContext): Promise<Record<string, unknown>>;
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
}

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
    while (!this.stopped) {
      let claim: Claim | null = null;
      try {
        claim = await claimJob(this.db, this.registry.kinds(), this.config.jobLeaseMs);
      } catch (error) {
        if (!this.stopped) logger.warn('job claim failed', { error: (error as Error).message });
      }
      if (!claim) {
        if (!this.stopped) await this.idle();
        continue;
      }
      const run = this.runJob(claim);
      this.running.add(run);
      await run;
      this.running.delete(run);
    }
  }

  /** Runs one claimed job to its outcome; exported for tests through `runOnce`. */
  async runJob(claim: Claim): Promise<void> {
    const { job } = claim;
    const handler = this.registry.get(job.kind);
    const abort = new AbortController();
    const leaseMs = this.config.jobLeaseMs;
    const beat = setInterval(
      () => {
        heartbeat(this.db, claim, leaseMs).catch((error: unknown) => {
          if (error instanceof LeaseLostError) abort.abort(error);
        });
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    beat.unref();
    const retention = this.config.jobRetentionHours;
    const alongside: ((query: QueryFn) => Promise<void>)[] = [];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const ctx: JobContext = {
        db: this.db,
        config: this.config,
        signal: abort.signal,
        commitRows: (rows, rowsTotal) => {
          if (this.stopped) throw new LeaseLostError(job.id);
          return commitRows(this.db, claim, rows, { rowsTotal, leaseMs });
        },
        checkpoint: async () => {
          if (abort.signal.aborted || this.stopped) throw new LeaseLostError(job.id);
          await heartbeat(this.db, claim, leaseMs);
        },
        onComplete: (write) => {
          alongside.push(write);
        },
      };
      const result = await handler.run(job, ctx);
      await completeJob(this.db, claim, result, retention, alongside);
    } catch (error) {
      if (error instanceof LeaseLostError || abort.signal.aborted) {
        logger.info('job left to its next claim', { job: job.id, reason: (error as Error).message });
        return;
      }
      const message = (error as Error).message ?? String(error);
      const delay = handler?.retryDelayMs ? handler.retryDelayMs(job, this.config) : defaultDelay(job);
      const after = await failAttempt(this.db, claim, message, delay, retention).catch(() => null);
      if (after?.state === 'failed') {
        logger.warn('job failed', { job: job.id, kind: job.kind, error: message });
        await handler
          ?.onGiveUp?.(after, message, { db: this.db, config: this.config })
          .catch((e: unknown) => logger.warn('job give-up hook failed', { job: job.id, error: (e as Error).message }));
      }
    } finally {
      clearInterval(beat);
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
