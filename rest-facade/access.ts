import type { Request, Response } from 'express';
import { hasScope } from '../core/context.ts';
import type { Dataset, RequestScope } from '../core/context.ts';
import { AppError } from '../core/errors.ts';
import { logger } from '../core/logger.ts';
import { rateLimitHeaders } from '../core/rate-limit.ts';
import type { Runtime } from '../gateway/runtime.ts';
import type { AuthenticatedKey } from '../platform/keys.ts';
import { invalidKeyGuard } from '../platform/keys.ts';
import { looksLikeSecret } from '../platform/secrets.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export class AuthError extends AppError {}

/** A client refused for presenting too many invalid keys; the answer carries Retry-After. */
export class InvalidKeysError extends AuthError {
  constructor(readonly retryAfter: number) {
    super(
      'RATE_LIMITED',
      'Too many invalid API keys from this client.',
      `Retry after ${retryAfter} s with a valid key; check the key was copied whole.`,
    );
  }
}

/**
 * The client a request came from: the socket's address, or behind LANDGRAPH_TRUST_PROXY_HOPS
 * proxies the X-Forwarded-For entry that many hops back (Express's `trust proxy`), never an
 * entry a client could have written itself.
 */
const clientOf = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

function unauthenticated(message: 'Missing API key' | 'Invalid API key'): AppError {
  return new AuthError(
    'UNAUTHENTICATED',
    message,
    message === 'Missing API key'
      ? 'Send Authorization: Bearer <your API key>.'
      : 'Check the key was copied whole; a rotated or revoked key stops working at once.',
  );
}

/**
 * The key of a request, from `Authorization: Bearer <key>`; 401 when absent or unknown, 403 when
 * suspended, 429 when the client has presented too many well-formed but unknown keys (checked
 * before any lookup).
 */
export async function authenticate(req: Request, runtime: Runtime): Promise<AuthenticatedKey> {
  const header = req.get('authorization');
  if (!header?.trim()) throw unauthenticated('Missing API key');
  const guard = invalidKeyGuard(runtime.limiter);
  const client = clientOf(req);
  const blocked = guard.retryAfter(client);
  if (blocked > 0) throw new InvalidKeysError(blocked);
  const secret = BEARER.exec(header)?.[1];
  const key = secret ? await runtime.keys.authenticate(secret) : null;
  if (!key) {
    // Only a secret of the right form can be a guess, and only it costs a lookup; a malformed
    // header is refused for free and not counted.
    const wait = secret && looksLikeSecret(secret) ? await guard.failed(client) : 0;
    throw wait > 0 ? new InvalidKeysError(wait) : unauthenticated('Invalid API key');
  }
  if (key.status === 'suspended') {
    throw new AppError('FORBIDDEN', 'API key suspended', 'Contact your account admin or support to reinstate it.');
  }
  return key;
}

/** Test keys read only the frozen sandbox, live keys only the live dataset (DESIGN.md §2). */
export function datasetOf(key: AuthenticatedKey): Dataset {
  return key.kind === 'test' ? 'sandbox' : 'live';
}

export function scopeOfKey(key: AuthenticatedKey, requestId: string): RequestScope {
  return { dataset: datasetOf(key), requestId, scopes: key.scopes };
}

function secondsUntilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * The per-key token bucket (spec §8), with its headers on every keyed answer; a 429 adds
 * Retry-After. Keys with a daily cap (the public demo key) are also counted per UTC day.
 */
export async function enforceLimits(
  key: AuthenticatedKey,
  res: Response,
  runtime: Runtime,
  metered: boolean,
): Promise<void> {
  const decision = await runtime.limiter.take(key.id, {
    capacity: key.rateLimitPerMinute,
    refillPerSecond: key.rateLimitPerMinute / 60,
  });
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);
  if (!decision.allowed) {
    throw new AppError(
      'RATE_LIMITED',
      `Rate limit of ${key.rateLimitPerMinute} requests per minute exceeded.`,
      `Retry after ${decision.retryAfter} s.`,
    );
  }
  if (key.dailyCap !== null && metered) {
    const now = new Date();
    // The cap is a courtesy limit on a free key: while the cache is unreachable it lets calls
    // through (the token bucket still applies) rather than failing every request.
    const used = await runtime.cache
      .increment(`landgraph:daily:${key.id}:${now.toISOString().slice(0, 10)}`, 1, 26 * 3600)
      .catch((error: unknown) => {
        logger.warn('daily cap not counted: cache unavailable', { error: (error as Error).message });
        return 0;
      });
    if (used > key.dailyCap) {
      res.setHeader('Retry-After', String(secondsUntilNextUtcDay(now)));
      throw new AppError(
        'RATE_LIMITED',
        `This key is capped at ${key.dailyCap} lookups a day.`,
        'The public demo key is for trying the API; create a test key for more.',
      );
    }
  }
}

export function requireScope(scope: RequestScope, needed: string): void {
  if (!hasScope(scope, needed)) {
    throw new AppError('FORBIDDEN', `Missing scope: ${needed}`, 'Ask your account admin to add the scope to this key.');
  }
}
