import { createRequire } from 'node:module';
import type { DefinitionNode, DocumentNode } from 'graphql';
import { Kind } from 'graphql';

/**
 * Apollo's `executeQueryPlan` (@apollo/gateway 2.14) turns the operation back into federation's
 * own `Operation` on every execution (`operationFromDocument`, without validation), although the
 * query plan built from the same operation is cached: about 5% of the facade's CPU per
 * whole-graph call. Its input is the operation's definition node and its fragments' nodes, the
 * same objects for every call of a cached document (the facade's prepared operations, Apollo
 * Server's document store), and the API schema, so the result is kept per schema and per those
 * nodes. Federation's `Operation` is immutable (its methods return new operations), so one may
 * serve every call. Only the unvalidated conversion of execution is kept: the planner's own call
 * (with an operation name, on a plan-cache miss) goes through unchanged.
 *
 * The gateway reads `operationFromDocument` from federation-internals' exports at each call, so
 * the memo is installed by replacing that export; test/operation-memo.test.ts checks the gateway
 * still reaches it, so a release that moves the call makes the test fail rather than the memo
 * silently stop working.
 */
type OperationFromDocument = (schema: object, document: DocumentNode, options?: Record<string, unknown>) => object;
type Kept = { rest: readonly DefinitionNode[]; operation: object };

const require = createRequire(import.meta.url);
const operations = require('@apollo/federation-internals/dist/operations.js') as {
  operationFromDocument: OperationFromDocument & { landgraphMemo?: true };
};

/** Conversions answered from the memo since the process started (for the test that proves it is reached). */
export const operationMemoStats = { hits: 0, misses: 0 };

export function installOperationMemo(): void {
  const original = operations.operationFromDocument;
  if (original.landgraphMemo) return;
  const bySchema = new WeakMap<object, WeakMap<DefinitionNode, Kept>>();
  const memoised: OperationFromDocument & { landgraphMemo?: true } = (schema, document, options) => {
    const [first, ...rest] = document.definitions;
    const keyed =
      options?.validate === false &&
      options.operationName === undefined &&
      first?.kind === Kind.OPERATION_DEFINITION &&
      rest.every((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
    if (!keyed) return original(schema, document, options);
    let byNode = bySchema.get(schema);
    if (!byNode) {
      byNode = new WeakMap();
      bySchema.set(schema, byNode);
    }
    const kept = byNode.get(first);
    if (kept && kept.rest.length === rest.length && kept.rest.every((definition, i) => definition === rest[i])) {
      operationMemoStats.hits += 1;
      return kept.operation;
    }
    operationMemoStats.misses += 1;
    const operation = original(schema, document, options);
    byNode.set(first, { rest, operation });
    return operation;
  };
  memoised.landgraphMemo = true;
  operations.operationFromDocument = memoised;
}
