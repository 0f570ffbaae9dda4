import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DATASET_HEADER, REQUEST_ID_HEADER, SCOPES_HEADER } from './context.ts';

/**
 * Signing of gateway → subgraph requests in the distributed mode. A subgraph takes the caller's
 * dataset and scopes from headers, so anyone who can reach its port could claim `scopes: *`;
 * the signature proves the gateway wrote those headers for this exact request.
 */
export const SIGNATURE_HEADER = 'x-landgraph-signature';
export const TIMESTAMP_HEADER = 'x-landgraph-timestamp';

/** The headers the subgraph trusts, and so the ones the signature covers. */
export const SIGNED_HEADERS = [DATASET_HEADER, SCOPES_HEADER, REQUEST_ID_HEADER] as const;

/**
 * How far a request's timestamp may stray from the subgraph's clock, either way. Gateway and
 * subgraphs share a host or an NTP-synchronised network, so seconds of drift are generous; the
 * window is what a captured request can be replayed in, and a replay can only repeat a read the
 * original caller was already allowed, so no nonce store is kept.
 */
export const MAX_CLOCK_SKEW_MS = 30_000;

/** The shortest secret accepted: 32 bytes of entropy written as hex or base64 is longer. */
export const MIN_SECRET_LENGTH = 32;

export type SignedRequest = {
  method: string;
  /** Path and query string, as the subgraph sees them (`/graphql?...`). */
  path: string;
  body: string | Uint8Array;
  header(name: string): string | undefined;
};

export type Verdict = { ok: true } | { ok: false; reason: string };

/** A fresh secret for one distributed run when none is configured. */
export function generateInternalSecret(): string {
  return randomBytes(32).toString('hex');
}

function sha256(body: string | Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/** One line per signed part, so no part can bleed into its neighbour. */
function canonical(request: SignedRequest, timestamp: string): string {
  return [
    request.method.toUpperCase(),
    request.path,
    sha256(request.body),
    timestamp,
    ...SIGNED_HEADERS.map((name) => `${name}:${request.header(name) ?? ''}`),
  ].join('\n');
}

function hmac(secret: string, message: string): Buffer {
  return createHmac('sha256', secret).update(message).digest();
}

/** The timestamp and signature headers to add to `request`. */
export function signRequest(secret: string, request: SignedRequest, now = Date.now()): Record<string, string> {
  const timestamp = String(now);
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: hmac(secret, canonical(request, timestamp)).toString('hex'),
  };
}

export function verifyRequest(secret: string, request: SignedRequest, now = Date.now()): Verdict {
  const timestamp = request.header(TIMESTAMP_HEADER);
  const signature = request.header(SIGNATURE_HEADER);
  if (!timestamp || !signature) return { ok: false, reason: 'The request is not signed.' };
  if (!/^\d{1,15}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > MAX_CLOCK_SKEW_MS) {
    return { ok: false, reason: 'The request signature has expired.' };
  }
  const expected = hmac(secret, canonical(request, timestamp));
  const given = /^[0-9a-f]+$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  // Equal lengths first: timingSafeEqual throws otherwise, and a length says nothing secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'The request signature does not match.' };
  }
  return { ok: true };
}
