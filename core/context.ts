/**
 * What every operation carries from the edge into each subgraph: which dataset the caller
 * may read and who is asking. In distributed mode it travels between gateway and subgraphs
 * as headers (see gateway/datasources.ts), so both modes build subgraph context the same way.
 */
export type Dataset = 'sandbox' | 'live';

export type RequestScope = {
  dataset: Dataset;
  requestId: string;
};

export const DATASET_HEADER = 'x-landgraph-dataset';
export const REQUEST_ID_HEADER = 'x-request-id';

export function scopeFromHeaders(get: (name: string) => string | undefined): RequestScope {
  const dataset = get(DATASET_HEADER) === 'live' ? 'live' : 'sandbox';
  return { dataset, requestId: get(REQUEST_ID_HEADER) ?? 'internal' };
}
