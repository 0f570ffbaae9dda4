import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestScope } from '../../core/context.ts';
import { isRetryableStatus, statusOfGraphQLError } from '../../core/errors.ts';
import { logger } from '../../core/logger.ts';
import type { GraphExecutor } from './worker.ts';

/**
 * Waits before each retry of a graph operation that failed for a moment. About five seconds in
 * all: enough for a stage over its budget while the services start, or a subgraph restarting.
 */
export const GRAPH_RETRY_WAITS_MS: readonly number[] = [1_000, 4_000];

/**
 * The graph as a job reads it: an operation with an error that may pass by itself (502 a
 * subgraph that did not answer, 503 a stage over its budget or the database out of reach) is
 * run again after a wait, up to GRAPH_RETRY_WAITS_MS, before its errors stand. A batch job has
 * no caller waiting on it, and an error that stands is written into its rows for good
 * (`unavailable`). Its operations only read, so running one again is safe. Errors of any other
 * status (a refused input, a missing scope) are answered at once.
 */
export function retryingGraph(
  graph: GraphExecutor,
  signal: AbortSignal,
  waits: readonly number[] = GRAPH_RETRY_WAITS_MS,
): GraphExecutor {
  return {
    async execute<TData>(query: string, variables: Record<string, unknown>, scope: RequestScope) {
      for (let attempt = 0; ; attempt++) {
        const result = await graph.execute<TData>(query, variables, scope);
        const passing = result.errors?.find((e) => isRetryableStatus(statusOfGraphQLError(e).status));
        if (!passing || attempt >= waits.length || signal.aborted) return result;
        logger.warn('a graph read of a job failed for a moment; reading it again', {
          requestId: scope.requestId,
          error: passing.message,
          retryInMs: waits[attempt],
        });
        // a stopped job ends the wait at once, and the errors stand
        await sleep(waits[attempt], undefined, { signal }).catch(() => undefined);
      }
    },
  };
}
