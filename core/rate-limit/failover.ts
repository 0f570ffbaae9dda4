import { logger } from '../logger.ts';

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** How a store names itself and its two sides in the log lines of a failover. */
export type FailoverNames = {
  /** e.g. 'cache', 'rate limit'. */
  store: string;
  /** What answers while Redis is away, e.g. 'the in-process cache'. */
  local: string;
  /** What answers when Redis is back, e.g. 'the shared cache'. */
  shared: string;
};

/**
 * The one state machine behind every store that survives Redis going away (the cache and the
 * rate limiter): on the first failure it logs once and serves locally, probes Redis in the
 * background with `ping`, and moves back when Redis answers. Housekeeping only: the probe never
 * keeps a finished process alive.
 */
export class RedisFailover {
  private mode: 'redis' | 'memory' = 'redis';
  private degradedAt = 0;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;

  constructor(
    private readonly names: FailoverNames,
    private readonly ping: () => Promise<void>,
    private readonly probeIntervalMs: number,
    unavailableAtStart?: unknown,
  ) {
    if (unavailableAtStart !== undefined) {
      logger.warn(`${names.store}: redis unreachable at start, using ${names.local}`, {
        reason: reason(unavailableAtStart),
      });
      this.degrade();
    }
  }

  /** Which side answers right now. */
  get kind(): 'redis' | 'memory' {
    return this.mode;
  }

  /**
   * A call to Redis failed. Calls in flight when Redis went away fail together; only the first
   * one reports it and moves the store onto its local side.
   */
  lost(error: unknown, detail: Record<string, unknown> = {}): void {
    if (this.mode !== 'redis' || this.closed) return;
    logger.warn(`${this.names.store}: redis unavailable, using ${this.names.local}`, {
      reason: reason(error),
      ...detail,
    });
    this.degrade();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.probeTimer);
  }

  private degrade(): void {
    this.mode = 'memory';
    this.degradedAt = Date.now();
    clearInterval(this.probeTimer);
    this.probeTimer = setInterval(() => void this.probe(), this.probeIntervalMs);
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    if (this.probing || this.closed || this.mode === 'redis') return;
    this.probing = true;
    try {
      await this.ping();
      if (this.closed) return;
      clearInterval(this.probeTimer);
      this.probeTimer = undefined;
      this.mode = 'redis';
      logger.info(`${this.names.store}: redis answering again, back on ${this.names.shared}`, {
        degradedForMs: Date.now() - this.degradedAt,
      });
    } catch {
      // Still away; the next tick asks again.
    } finally {
      this.probing = false;
    }
  }
}
