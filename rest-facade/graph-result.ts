import { AppError, statusOfGraphQLError } from '../core/errors.ts';
import type { GraphResult } from '../gateway/graph.ts';

/**
 * The data of a graph result, or the error a REST caller should see: of several errors the
 * one with the highest HTTP status decides the response, as SOFA does.
 */
export function unwrap<TData>(result: GraphResult<TData>): TData {
  const errors = result.errors ?? [];
  if (errors.length > 0) {
    const ranked = errors
      .map((error) => ({ error, ...statusOfGraphQLError(error) }))
      .sort((a, b) => b.status - a.status);
    const worst = ranked[0]!;
    if (worst.code === 'INTERNAL') {
      // The graph's own words stay in the log (as the cause), never in the answer.
      throw new AppError(
        'INTERNAL',
        'The request could not be completed.',
        'Retry later; if it persists, contact support with the X-Request-Id.',
        { cause: new Error(worst.error.message) },
      );
    }
    const hint = worst.error.extensions?.hint;
    throw new AppError(worst.code, worst.error.message, typeof hint === 'string' ? hint : undefined, {
      cause: new Error(worst.error.message),
    });
  }
  if (result.data == null) throw new AppError('INTERNAL', 'The graph returned no data.');
  return result.data;
}
