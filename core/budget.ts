/**
 * Time budgets of multi-stage lookups (spec 4.2.6): the clamp and default of `timeout_ms`, and
 * the deadline that turns a stage over budget into a 503, shared by the subgraph that runs the
 * statements and the facade that waits on the graph.
 */
import { AppError } from './errors.ts';

export const STAGE_BUDGET = { defaultMs: 3000, minMs: 250, maxMs: 12000 } as const;

/** timeout_ms as spec 4.2.6 reads it: garbage or non-positive means the default; else clamped. */
export function stageBudget(timeoutMs: number | null | undefined): number {
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) return STAGE_BUDGET.defaultMs;
  return Math.min(STAGE_BUDGET.maxMs, Math.max(STAGE_BUDGET.minMs, Math.round(timeoutMs)));
}

export function overBudget(stage: string, ms: number): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `The ${stage} lookup did not finish within its ${ms} ms budget.`,
    `Retry, or raise timeout_ms (up to ${STAGE_BUDGET.maxMs}).`,
  );
}

/** `work`, or a 503 once `ms` have passed; a late result or failure of `work` is dropped. */
export async function withinBudget<T>(stage: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(overBudget(stage, ms)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}
