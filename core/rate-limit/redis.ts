import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateDecision, RateLimiter, RatePolicy } from './bucket.ts';
import { assertTake, decide } from './bucket.ts';
import { withDeadline } from './deadline.ts';

/**
 * One round trip that refills, spends and stores a bucket, so concurrent requests on every app
 * server see one sequence of takes. The time is Redis's own: app servers with skewed clocks
 * would otherwise refill the same bucket at different rates. A bucket that is full again is
 * indistinguishable from no bucket, so the hash expires once it would have refilled.
 */
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
-- Before Redis 5 a script that read TIME could not write unless it replicated its effects.
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
elseif now > at then
  tokens = math.min(capacity, tokens + (now - at) * rate / 1000)
else
  tokens = math.min(capacity, tokens)
end
local allowed = 0
if tokens + 1e-9 >= cost then
  tokens = math.max(0, tokens - cost)
  allowed = 1
end
if tokens >= capacity then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'tokens', string.format('%.9f', tokens), 'at', string.format('%.3f', now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate * 1000) + 1000)
end
-- Lua numbers would come back truncated to integers, so the fractional values travel as strings.
return { allowed, string.format('%.9f', tokens), string.format('%.3f', now) }
`;

const TAKE_SHA = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

export const RATE_LIMIT_KEY_PREFIX = 'landgraph:rl:';

// Array.isArray narrows to any[]; the reply's elements are unknown until checked.
function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

function parseReply(reply: unknown): { allowed: boolean; tokens: number; nowMs: number } {
  if (isList(reply) && reply.length === 3) {
    const [allowed, tokens, nowMs] = reply;
    if (typeof allowed === 'number' && typeof tokens === 'string' && typeof nowMs === 'string') {
      const parsed = { allowed: allowed === 1, tokens: Number(tokens), nowMs: Number(nowMs) };
      if (Number.isFinite(parsed.tokens) && Number.isFinite(parsed.nowMs)) return parsed;
    }
  }
  throw new Error('rate limit script returned an unexpected reply');
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/**
 * Token buckets in Redis, shared by every process that points at the same server. Errors
 * (Redis down, timed out) reach the caller: FallbackRateLimiter is what turns them into service.
 */
export class RedisTokenBucket implements RateLimiter {
  readonly backend = 'redis' as const;
  private closing = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix = RATE_LIMIT_KEY_PREFIX,
  ) {}

  /** The Redis key a rate-limit key is stored under. */
  keyFor(key: string): string {
    return `${this.prefix}${key}`;
  }

  async take(key: string, policy: RatePolicy, cost = 1): Promise<RateDecision> {
    assertTake(policy, cost);
    const args = [this.keyFor(key), policy.capacity, policy.refillPerSecond, cost] as const;
    let reply: unknown;
    try {
      reply = await this.redis.evalsha(TAKE_SHA, 1, ...args);
    } catch (error) {
      // A restarted or flushed Redis has forgotten the script; EVAL both runs and re-caches it.
      if (!isNoScript(error)) throw error;
      reply = await this.redis.eval(TAKE_SCRIPT, 1, ...args);
    }
    const { allowed, tokens, nowMs } = parseReply(reply);
    return decide(policy, cost, allowed, tokens, nowMs);
  }

  /** Resolves when Redis answers; the fallback uses it to notice Redis is back. */
  async ping(): Promise<void> {
    // ioredis reconnects by itself after a drop, but a connection that ended (its first connect
    // failed before a socket existed) stays down until someone connects it again.
    if (this.redis.status === 'end' && !this.closing) this.redis.connect().catch(() => undefined);
    await this.redis.ping();
  }

  /** Quits politely, but a Redis that never answers must not hold up shutdown. */
  async close(): Promise<void> {
    this.closing = true;
    await withDeadline(this.redis.quit(), 1000, 'redis quit').catch(() => undefined);
    this.redis.disconnect();
  }
}
