/**
 * What a phase needs to check a route's answers before measuring it: a GET that never throws
 * (a timeout or refused connection is an answer too, status 0), a bounded fan-out so the check
 * does not itself become a load test, and tolerant readers for JSON bodies of unknown shape.
 */
import type { Headers } from './api-key.ts';

const CHECK_TIMEOUT_MS = 15_000;

export type Fetched = { status: number; body: unknown };

export async function getJson(url: string, headers: Headers): Promise<Fetched> {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      return { status: response.status, body: text };
    }
  } catch (error) {
    return { status: 0, body: error instanceof Error ? error.message : String(error) };
  }
}

/** `work` over `items`, at most `limit` at a time, results in order. */
export async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** The value at a path of object keys, or undefined where the body has another shape. */
export const at = (body: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((value, key) => record(value)[key], body);

/** A body cut short enough to print as an example. */
export const brief = (body: unknown): string => (typeof body === 'string' ? body : JSON.stringify(body)).slice(0, 300);

export const share = (part: number, total: number): number => (total === 0 ? 0 : part / total);
export const pct = (part: number, total: number): string => `${(share(part, total) * 100).toFixed(1)}%`;
