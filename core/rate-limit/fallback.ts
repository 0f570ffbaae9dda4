import { createHash } from 'node:crypto';
import { logger } from '../logger.ts';
import type { RateDecision, RateLimiter, RatePolicy } from './bucket.ts';
import { assertTake } from './bucket.ts';
import { withDeadline } from './deadline.ts';
import { MemoryTokenBucket } from './memory.ts';

/** A limiter shared between processes (Redis) that can say whether it is reachable. */
export interface SharedRateLimiter extends RateLimiter {
  ping(): Promise<void>;
}

export interface FallbackRateLimiterOptions {
  /** The most a request waits on the shared store before it is answered locally. */
  callTimeoutMs?: number;
  /** How often a degraded limiter asks whether the shared store is back. */
  probeIntervalMs?: number;
  /** Answers while the shared store is away. */
  local?: MemoryTokenBucket;
  /** Set when the shared store was already unreachable at start: begin degraded. */
  unavailableAtStart?: unknown;
}

/** Logs must not carry API keys or account ids, yet a line should still tie to a key when debugging. */
function keyId(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Rate limiting that survives a Redis outage. Decisions come from Redis while it answers within
 * `callTimeoutMs`; on the first failure the limiter logs once and answers from in-process
 * buckets, then probes Redis in the background and moves back when it answers. Requests never
 * wait on a dead Redis longer than one call timeout, and never fail because of it.
 *
 * While degraded each process keeps its own buckets, starting full, so a key can briefly get
 * up to (processes × capacity): serving a little too much beats refusing everyone.
 */
export class FallbackRateLimiter implements RateLimiter {
  private mode: 'redis' | 'memory' = 'redis';
  private degradedAt = 0;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;
  private readonly local: MemoryTokenBucket;
  private readonly callTimeoutMs: number;
  private readonly probeIntervalMs: number;

  constructor(
    private readonly shared: SharedRateLimiter,
    options: FallbackRateLimiterOptions = {},
  ) {
    this.local = options.local ?? new MemoryTokenBucket();
    this.callTimeoutMs = options.callTimeoutMs ?? 200;
    this.probeIntervalMs = options.probeIntervalMs ?? 1000;
    if (options.unavailableAtStart !== undefined) {
      logger.warn('rate limit: redis unreachable at start, using in-process buckets', {
        reason: reason(options.unavailableAtStart),
      });
      this.degrade();
    }
  }

  /** Where decisions come from right now, for health checks. */
  get backend(): 'redis' | 'memory' {
    return this.mode;
  }

  async take(key: string, policy: RatePolicy, cost = 1): Promise<RateDecision> {
    // A caller's mistake must surface as one, not be mistaken for Redis being down.
    assertTake(policy, cost);
    if (this.mode === 'redis') {
      try {
        return await withDeadline(this.shared.take(key, policy, cost), this.callTimeoutMs, 'redis rate limit');
      } catch (error) {
        // Requests in flight when Redis went away fail together; only the first one reports it.
        if (this.mode === 'redis' && !this.closed) {
          logger.warn('rate limit: redis unavailable, using in-process buckets', {
            reason: reason(error),
            key: keyId(key),
          });
          this.degrade();
        }
      }
    }
    return this.local.take(key, policy, cost);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probeTimer);
    await Promise.all([this.shared.close(), this.local.close()]);
  }

  private degrade(): void {
    this.mode = 'memory';
    this.degradedAt = Date.now();
    clearInterval(this.probeTimer);
    this.probeTimer = setInterval(() => void this.probe(), this.probeIntervalMs);
    // Probing is housekeeping: it must not keep a finished process (or test run) alive.
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    if (this.probing || this.closed || this.mode === 'redis') return;
    this.probing = true;
    try {
      await withDeadline(this.shared.ping(), this.callTimeoutMs, 'redis ping');
      if (this.closed) return;
      clearInterval(this.probeTimer);
      this.probeTimer = undefined;
      this.mode = 'redis';
      logger.info('rate limit: redis answering again, back on shared buckets', {
        degradedForMs: Date.now() - this.degradedAt,
      });
    } catch {
      // Still away; the next tick asks again.
    } finally {
      this.probing = false;
    }
  }
}
