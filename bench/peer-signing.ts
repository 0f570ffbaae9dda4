/**
 * What the peer gateway (@graphql-hive/gateway, bench/peer/gateway.ts) adds to each request it
 * sends a subgraph service: our subgraphs believe a caller's dataset and scopes only under the
 * gateway's HMAC signature over them and the body (core/internal-auth.ts), so the peer signs
 * exactly as our distributed gateway does, with the same shared secret. It has no keys: it asks
 * for every scope, as the bench's own key holds every scope, so both graphs answer every layer.
 */
import { INTERNAL_SCOPE, scopeHeaders } from '../core/context.ts';
import { signRequest } from '../core/internal-auth.ts';

/** The part of a fetch's options the signature reads (the hive gateway's MeshFetchRequestInit). */
export type PeerFetchInit = { method?: string; body?: unknown; headers?: Record<string, string> };

/**
 * The headers of one subgraph request from the peer: its own, the scope headers, and the
 * timestamp and signature over method, path, body and scope headers. A body that is not text or
 * bytes (a multipart upload; the bench sends none) cannot be signed as sent and is refused.
 */
export function peerSubgraphHeaders(
  secret: string,
  url: string,
  init: PeerFetchInit,
  requestId: string,
  now = Date.now(),
): Record<string, string> {
  const body = init.body ?? '';
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new TypeError('The peer gateway can sign only a text or byte body.');
  }
  const headers: Record<string, string> = {
    ...init.headers,
    ...scopeHeaders({ ...INTERNAL_SCOPE, requestId }),
  };
  const target = new URL(url);
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    ...headers,
    ...signRequest(
      secret,
      {
        method: init.method ?? 'GET',
        path: `${target.pathname}${target.search}`,
        body,
        header: (name) => lower.get(name.toLowerCase()),
      },
      now,
    ),
  };
}
