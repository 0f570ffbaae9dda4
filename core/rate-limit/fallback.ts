import { createHash } from 'node:crypto';
import type { RateDecision, RateLimiter, RatePolicy } from './bucket.ts';
import { assertTake } from './bucket.ts';
import { withDeadline } from './deadline.ts';
import { RedisFailover } from './failover.ts';
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
  private readonly local: MemoryTokenBucket;
  private readonly callTimeoutMs: number;
  private readonly failover: RedisFailover;

  constructor(
    private readonly shared: SharedRateLimiter,
    options: FallbackRateLimiterOptions = {},
  ) {
    this.local = options.local ?? new MemoryTokenBucket();
    this.callTimeoutMs = options.callTimeoutMs ?? 200;
    this.failover = new RedisFailover(
      { store: 'rate limit', local: 'in-process buckets', shared: 'shared buckets' },
      () => withDeadline(this.shared.ping(), this.callTimeoutMs, 'redis ping'),
      options.probeIntervalMs ?? 1000,
      options.unavailableAtStart,
    );
  }

  /** Where decisions come from right now, for health checks. */
  get backend(): 'redis' | 'memory' {
    return this.failover.kind;
  }

  async take(key: string, policy: RatePolicy, cost = 1): Promise<RateDecision> {
    // A caller's mistake must surface as one, not be mistaken for Redis being down.
    assertTake(policy, cost);
    if (this.failover.kind === 'redis') {
      try {
        return await withDeadline(this.shared.take(key, policy, cost), this.callTimeoutMs, 'redis rate limit');
      } catch (error) {
        this.failover.lost(error, { key: keyId(key) });
      }
    }
    return this.local.take(key, policy, cost);
  }

  async close(): Promise<void> {
    this.failover.close();
    await Promise.all([this.shared.close(), this.local.close()]);
  }
}
