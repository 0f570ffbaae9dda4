import type { RateDecision, RateLimiter, RatePolicy } from './bucket.ts';
import { assertTake, decide, refilled, spend } from './bucket.ts';

interface Bucket {
  tokens: number;
  updatedAt: number;
  /** Kept so a sweep can tell whether the bucket has refilled without knowing the caller's policy. */
  policy: RatePolicy;
}

export interface MemoryTokenBucketOptions {
  /** Buckets kept before a sweep; a full bucket is dropped since absent already means full. */
  maxBuckets?: number;
  /** Epoch milliseconds; injectable so tests can move time without waiting. */
  now?: () => number;
}

/**
 * Token buckets in this process: exact for one process, and the stand-in while Redis is away.
 * `take` never awaits between reading and writing a bucket, which is what makes it atomic here.
 */
export class MemoryTokenBucket implements RateLimiter {
  readonly backend = 'memory' as const;
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxBuckets: number;
  private readonly now: () => number;

  constructor(options: MemoryTokenBucketOptions = {}) {
    this.maxBuckets = Math.max(1, options.maxBuckets ?? 100_000);
    this.now = options.now ?? Date.now;
  }

  /** How many buckets are held (those not full), for tests and diagnostics. */
  get size(): number {
    return this.buckets.size;
  }

  async take(key: string, policy: RatePolicy, cost = 1): Promise<RateDecision> {
    assertTake(policy, cost);
    const now = this.now();
    const held = this.buckets.get(key);
    const level = held ? refilled(held.tokens, now - held.updatedAt, policy) : policy.capacity;
    const { allowed, tokens } = spend(level, cost);
    // Re-inserting moves the key to the end of the map's order, so the front is least recently used.
    this.buckets.delete(key);
    if (tokens < policy.capacity) {
      this.buckets.set(key, { tokens, updatedAt: now, policy: { ...policy } });
      if (this.buckets.size > this.maxBuckets) this.sweep(now);
    }
    return decide(policy, cost, allowed, tokens, now);
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }

  /**
   * Drops buckets that have refilled (idle keys), then, if every bucket is still in use, the
   * least recently used ones: forgetting an active bucket only hands that key a fresh one, which
   * errs on the side of serving. Shrinking below the limit keeps sweeps rare under steady load.
   */
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (refilled(bucket.tokens, now - bucket.updatedAt, bucket.policy) >= bucket.policy.capacity) {
        this.buckets.delete(key);
      }
    }
    const target = Math.floor(this.maxBuckets * 0.9);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= target) break;
      this.buckets.delete(key);
    }
  }
}
