/**
 * The token-bucket contract shared by every rate limiter (spec §8): what a policy is, what a
 * decision says, and the arithmetic that turns a bucket's level into a decision. The Redis
 * script repeats the refill step in Lua; everything else about a decision is computed here, so
 * both backends report limits, resets and retries the same way.
 */

export interface RatePolicy {
  /** The bucket size: the most requests a key can make in a burst. */
  capacity: number;
  /** Tokens added back per second, continuously (fractions accrue between requests). */
  refillPerSecond: number;
}

export interface RateDecision {
  allowed: boolean;
  /** The bucket size, as sent in X-RateLimit-Limit. */
  limit: number;
  /** Whole tokens left after this request (fractions of a token are not a request). */
  remaining: number;
  /** Unix epoch seconds when the bucket is full again. */
  resetAt: number;
  /** Whole seconds until `cost` tokens are available; 0 when allowed. */
  retryAfter: number;
}

export interface RateLimiter {
  take(key: string, policy: RatePolicy, cost?: number): Promise<RateDecision>;
  /** Where decisions currently come from, for health checks. */
  readonly backend: 'redis' | 'memory';
  close(): Promise<void>;
}

/** Spec §8: 60 requests per minute per key unless the key's tier says otherwise. */
export const DEFAULT_RATE_POLICY: RatePolicy = Object.freeze({ capacity: 60, refillPerSecond: 1 });

/**
 * Refills accumulate in floating point (0.1 + 0.2 and friends); without a tolerance a bucket
 * that is full in every practical sense could refuse its last request or report one token less.
 */
export const TOKEN_EPSILON = 1e-9;

/**
 * A policy or cost that can never be satisfied is a bug in the caller, not a rate-limit
 * decision, so it fails loudly (and before any backend is asked, so it never looks like an outage).
 */
export function assertTake(policy: RatePolicy, cost: number): void {
  const { capacity, refillPerSecond } = policy;
  if (!Number.isFinite(capacity) || capacity <= 0) throw new RangeError(`rate limit capacity must be > 0`);
  if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0) {
    throw new RangeError(`rate limit refillPerSecond must be > 0`);
  }
  if (!Number.isFinite(cost) || cost < 0) throw new RangeError(`rate limit cost must be >= 0`);
  if (cost > capacity) throw new RangeError(`rate limit cost ${cost} exceeds the bucket size ${capacity}`);
}

/** The bucket's level after `elapsedMs` of refill; a clock that stepped backwards adds nothing. */
export function refilled(tokens: number, elapsedMs: number, policy: RatePolicy): number {
  const added = (Math.max(0, elapsedMs) * policy.refillPerSecond) / 1000;
  return Math.min(policy.capacity, tokens + added);
}

/** Takes `cost` from a bucket holding `tokens`, if it can; never leaves the bucket negative. */
export function spend(tokens: number, cost: number): { allowed: boolean; tokens: number } {
  if (tokens + TOKEN_EPSILON < cost) return { allowed: false, tokens };
  return { allowed: true, tokens: Math.max(0, tokens - cost) };
}

/**
 * The decision for a bucket left holding `tokens` at `nowMs` (the clock of whichever backend
 * holds the bucket, so the reset time agrees with the store that decided).
 */
export function decide(
  policy: RatePolicy,
  cost: number,
  allowed: boolean,
  tokens: number,
  nowMs: number,
): RateDecision {
  const { capacity, refillPerSecond } = policy;
  const missing = Math.max(0, capacity - tokens);
  const fullInMs = missing <= TOKEN_EPSILON ? 0 : (missing / refillPerSecond) * 1000;
  return {
    allowed,
    limit: capacity,
    remaining: Math.max(0, Math.floor(tokens + TOKEN_EPSILON)),
    resetAt: Math.ceil((nowMs + fullInMs) / 1000),
    // A refusal always asks for at least a second: Retry-After: 0 would invite an instant retry.
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((cost - tokens) / refillPerSecond)),
  };
}

/** The spec §8 response headers for a decision; Retry-After only accompanies a refusal (429). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(Math.floor(decision.limit)),
    'X-RateLimit-Remaining': String(Math.max(0, Math.floor(decision.remaining))),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt)),
  };
  if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil(decision.retryAfter)));
  return headers;
}
