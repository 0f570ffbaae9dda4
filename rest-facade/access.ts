import type { Request, Response } from 'express';
import { hasScope } from '../core/context.ts';
import type { Dataset, RequestScope } from '../core/context.ts';
import { AppError } from '../core/errors.ts';
import { logger } from '../core/logger.ts';
import { tokensFor } from '../core/operation-limits.ts';
import { rateLimitHeaders } from '../core/rate-limit.ts';
import type { Runtime } from '../app/runtime.ts';
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

/**
 * Keyless calls of the open routes (the UGB map mount, spec 4.3), counted per client address in
 * the service's rate limiter (shared through Redis when there is one). Without a key there is no
 * key's bucket, and an open route must not be the way around the limits. LANDGRAPH_KEYLESS_RATE_LIMIT
 * a minute (120 by default: a map panning and zooming asks a few windows a second), in bursts of as many.
 */
export async function enforceKeylessLimit(req: Request, res: Response, runtime: Runtime): Promise<void> {
  const perMinute = runtime.config.keylessRateLimitPerMinute;
  await takeTokens(runtime, res, `keyless:${clientOf(req)}`, perMinute, 1, (retryAfter) => [
    `Calls without an API key are limited to ${perMinute} a minute from one client.`,
    `Retry after ${retryAfter} s, or send an API key.`,
  ]);
}

/**
 * Takes `tokens` from a bucket of `perMinute` (refilled evenly over the minute) and writes the
 * rate-limit headers, on every answer; over the limit, 429 with the refusal's message and hint.
 */
async function takeTokens(
  runtime: Runtime,
  res: Response,
  bucket: string,
  perMinute: number,
  tokens: number,
  refusal: (retryAfter: number) => [message: string, hint: string],
): Promise<void> {
  const decision = await runtime.limiter.take(bucket, { capacity: perMinute, refillPerSecond: perMinute / 60 }, tokens);
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);
  if (!decision.allowed) throw new AppError('RATE_LIMITED', ...refusal(decision.retryAfter));
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
 * A request takes one token, a GraphQL operation as many as its cost asks (`tokensFor`), but
 * never more than the whole bucket: a key with a small bucket can still run a large operation,
 * once a minute.
 */
export async function enforceLimits(
  key: AuthenticatedKey,
  res: Response,
  runtime: Runtime,
  metered: boolean,
  tokens = 1,
): Promise<number> {
  const charged = Math.min(tokens, key.rateLimitPerMinute);
  await takeTokens(runtime, res, key.id, key.rateLimitPerMinute, charged, (retryAfter) => [
    charged > 1
      ? `Rate limit of ${key.rateLimitPerMinute} requests per minute exceeded: this operation costs ${charged}.`
      : `Rate limit of ${key.rateLimitPerMinute} requests per minute exceeded.`,
    `Retry after ${retryAfter} s.`,
  ]);
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
  return charged;
}

export function requireScope(scope: RequestScope, needed: string): void {
  if (!hasScope(scope, needed)) {
    throw new AppError('FORBIDDEN', `Missing scope: ${needed}`, 'Ask your account admin to add the scope to this key.');
  }
}

/** The GraphQL-over-HTTP request parameters: a GET carrying any of them asks for an operation. */
const GRAPHQL_PARAMS = ['query', 'operationName', 'variables', 'extensions'] as const;
/** What a GraphQL client may ask an answer in, against the Sandbox page's HTML. */
const GRAPHQL_MEDIA = ['application/json', 'application/graphql-response+json', 'multipart/mixed'];

/**
 * Exactly a browser opening the Apollo Sandbox page: a GET with no operation in it whose Accept
 * prefers HTML to every GraphQL answer type. Only this goes keyless; Apollo's own test is looser
 * (an Accept preferring `application/graphql-response+json` but naming HTML is an operation to it),
 * which is how a keyless GET once reached its persisted-query cache.
 */
export function isSandboxPageRequest(req: Request): boolean {
  if (req.method !== 'GET') return false;
  if (GRAPHQL_PARAMS.some((param) => param in req.query)) return false;
  return req.accepts([...GRAPHQL_MEDIA, 'text/html']) === 'text/html';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SEND_QUERY_HINT = 'POST {"query": "...", "variables": {...}} as JSON, or GET ?query=...';

/** `extensions`, from a JSON body or a GET parameter holding JSON. */
function extensionsOf(value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new AppError('BAD_REQUEST', 'The extensions parameter is not valid JSON.', SEND_QUERY_HINT);
    }
  }
  if (!isRecord(parsed)) throw new AppError('BAD_REQUEST', 'extensions must be a JSON object.', SEND_QUERY_HINT);
  return parsed;
}

/** The operation a /graphql request asks to run; 400 for anything that holds none. */
export function graphqlOperation(req: Request): { query: string; operationName: string | null } {
  let params: Record<string, unknown>;
  if (req.method === 'POST') {
    const body: unknown = req.body;
    if (Array.isArray(body)) {
      throw new AppError('BAD_REQUEST', 'Batched operations are not supported.', 'Send one operation per request.');
    }
    if (!req.is('application/json') || !isRecord(body)) {
      throw new AppError('BAD_REQUEST', 'Send the operation as a JSON body.', SEND_QUERY_HINT);
    }
    params = body;
  } else {
    params = req.query;
  }
  if (extensionsOf(params.extensions)?.persistedQuery !== undefined) {
    throw new AppError(
      'BAD_REQUEST',
      'PERSISTED_QUERY_NOT_SUPPORTED: automatic persisted queries are turned off.',
      'Send the whole operation in query; Apollo Client falls back to that by itself.',
    );
  }
  const { query, operationName } = params;
  if (typeof query !== 'string' || !query.trim()) {
    throw new AppError('BAD_REQUEST', 'The request holds no GraphQL operation in query.', SEND_QUERY_HINT);
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    throw new AppError('BAD_REQUEST', 'operationName must be a string.', SEND_QUERY_HINT);
  }
  return { query, operationName: operationName ?? null };
}

/**
 * Measures a keyed /graphql operation against the operation limits and charges its cost to the
 * key's bucket, before Apollo Server parses, validates or plans it. An operation that is refused
 * (over a limit, or no operation at all) still takes one token, so refusals are not free either.
 * `X-Query-Cost` tells the caller the operation's cost units, `X-Query-Tokens` what was taken.
 */
export async function admitGraphqlOperation(
  req: Request,
  res: Response,
  key: AuthenticatedKey,
  runtime: Runtime,
): Promise<void> {
  let refusal: AppError | null = null;
  let cost: number | null = null;
  try {
    const { query, operationName } = graphqlOperation(req);
    const admission = runtime.graph.admit(query, operationName);
    if ('refused' in admission) refusal = admission.refused;
    else if ('measure' in admission) cost = admission.measure.cost;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    refusal = error;
  }
  const charged = await enforceLimits(key, res, runtime, true, cost === null ? 1 : tokensFor(cost));
  if (refusal) throw refusal;
  if (cost !== null) {
    res.setHeader('X-Query-Cost', String(cost));
    res.setHeader('X-Query-Tokens', String(charged));
  }
}
