import type { RequestScope } from '../../core/context.ts';
import { withGrant } from '../../core/scopes.ts';
import { MAX_PROPERTY_BATCH } from '../../core/limits.ts';
import type { GraphExecutor } from '../jobs/worker.ts';
import type { BatchLayer, GraphProperty } from './layers.ts';
import { batchOperation } from './layers.ts';

/**
 * One property of a batch read: its graph answer (null when unknown), the layer fields that
 * failed, and whether the property itself failed (its row is then unavailable in every layer).
 */
export type BatchRead = { property: GraphProperty | null; failedFields: Set<string>; failed: boolean };

/** The scope the bulk reads run under: the caller's own scopes plus the bulk products' identity grant. */
export function bulkScope(scope: RequestScope): RequestScope {
  return withGrant(scope, 'internal:bulk-rows');
}

/**
 * Reads one batch of properties with their layers in one graph operation. A layer that failed
 * for a property (an error under `properties.<i>.<field>`) is reported, so its row says
 * unavailable; a failure of the whole operation throws (the job's attempt fails and is retried).
 */
export async function readBatch(
  graph: GraphExecutor,
  scope: RequestScope,
  gnafPids: readonly string[],
  layers: readonly BatchLayer[],
): Promise<BatchRead[]> {
  if (gnafPids.length > MAX_PROPERTY_BATCH) throw new Error(`a batch holds at most ${MAX_PROPERTY_BATCH} properties`);
  if (gnafPids.length === 0) return [];
  const result = await graph.execute<{ properties: (GraphProperty | null)[] }>(
    batchOperation(layers),
    { gnafPids },
    bulkScope(scope),
  );
  const properties = result.data?.properties;
  if (!properties) {
    const message = result.errors?.map((e) => e.message).join('; ') ?? 'no data';
    throw new Error(`the batch read failed: ${message}`);
  }
  const reads: BatchRead[] = properties.map((property) => ({
    property,
    failedFields: new Set<string>(),
    failed: false,
  }));
  for (const error of result.errors ?? []) {
    const [root, index, field] = error.path ?? [];
    if (root !== 'properties' || typeof index !== 'number') continue;
    const read = reads[index];
    // an error above a layer (the property itself) leaves nothing of the row to trust
    if (!read) continue;
    if (typeof field === 'string') read.failedFields.add(field);
    else {
      read.property = null;
      read.failed = true;
    }
  }
  return reads;
}
