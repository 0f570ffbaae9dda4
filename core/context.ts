/**
 * What every operation carries from the edge into each subgraph: which dataset the caller
 * may read, what its key may see, and the request id. In distributed mode it travels between
 * gateway and subgraphs as headers (gateway/datasources.ts), so both modes build subgraph
 * context the same way. Subgraphs believe these headers only under the gateway's signature
 * over them (core/internal-auth.ts), and listen on loopback unless told otherwise.
 */
export type Dataset = 'sandbox' | 'live';

export type RequestScope = {
  dataset: Dataset;
  requestId: string;
  /** The scopes of the caller's key; `'*'` for the service's own calls (health checks). */
  scopes: readonly string[] | '*';
};

export const DATASET_HEADER = 'x-landgraph-dataset';
export const REQUEST_ID_HEADER = 'x-request-id';
export const SCOPES_HEADER = 'x-landgraph-scopes';

export const INTERNAL_SCOPE: RequestScope = { dataset: 'sandbox', requestId: 'internal', scopes: '*' };

export function hasScope(scope: RequestScope, needed: string): boolean {
  return scope.scopes === '*' || scope.scopes.includes(needed);
}

export function scopeHeaders(scope: RequestScope): Record<string, string> {
  return {
    [DATASET_HEADER]: scope.dataset,
    [REQUEST_ID_HEADER]: scope.requestId,
    [SCOPES_HEADER]: scope.scopes === '*' ? '*' : scope.scopes.join(','),
  };
}

export function scopeFromHeaders(get: (name: string) => string | undefined): RequestScope {
  const dataset = get(DATASET_HEADER) === 'live' ? 'live' : 'sandbox';
  const scopes = get(SCOPES_HEADER) ?? '';
  return {
    dataset,
    requestId: get(REQUEST_ID_HEADER) ?? 'internal',
    scopes: scopes === '*' ? '*' : scopes.split(',').filter(Boolean),
  };
}
