import { describe, expect, it } from 'vitest';
import type { RequestScope } from '../core/context.ts';
import { ErrorCodes } from '../core/errors.ts';
import { retryingGraph } from '../platform/jobs/graph-retry.ts';
import type { GraphExecutor } from '../platform/jobs/worker.ts';

type Answer = Awaited<ReturnType<GraphExecutor['execute']>>;

const scope: RequestScope = { dataset: 'sandbox', requestId: 'export:job_test', scopes: ['cadastre.read'] };

const failure = (code: keyof typeof ErrorCodes, path?: (string | number)[]) => ({
  message: `${code} happened`,
  ...(path ? { path } : {}),
  extensions: { code, http: { status: ErrorCodes[code] } },
});

/** A graph that gives the answers in turn (the last one again once they run out), counting the calls. */
function scripted(answers: Answer[]): GraphExecutor & { calls: number } {
  const graph = {
    calls: 0,
    execute<TData>() {
      const answer = answers[Math.min(graph.calls, answers.length - 1)]!;
      graph.calls += 1;
      return Promise.resolve(answer as { data?: TData | null });
    },
  };
  return graph;
}

const ok: Answer = { data: { properties: [{ gnaf_pid: 'GAVIC1' }] } };

describe("a job's graph reads", () => {
  it('are read again after an error that may pass (a stage over budget, a subgraph that did not answer)', async () => {
    const graph = scripted([
      { data: { properties: [null] }, errors: [failure('SERVICE_UNAVAILABLE', ['properties', 0])] },
      { data: null, errors: [failure('UPSTREAM_UNAVAILABLE')] },
      ok,
    ]);
    const answer = await retryingGraph(graph, new AbortController().signal, [0, 0]).execute('{ x }', {}, scope);
    expect(answer).toEqual(ok);
    expect(graph.calls).toBe(3);
  });

  it('keep the errors once the retries are spent, so the rows say unavailable', async () => {
    const graph = scripted([{ data: null, errors: [failure('SERVICE_UNAVAILABLE')] }]);
    const answer = await retryingGraph(graph, new AbortController().signal, [0, 0]).execute('{ x }', {}, scope);
    expect(answer.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(graph.calls).toBe(3);
  });

  it('answer at once an error that would not pass: a refused input, a missing scope', async () => {
    for (const code of ['BAD_REQUEST', 'FORBIDDEN'] as const) {
      const graph = scripted([{ data: null, errors: [failure(code)] }, ok]);
      const answer = await retryingGraph(graph, new AbortController().signal, [0, 0]).execute('{ x }', {}, scope);
      expect(answer.errors?.[0]?.extensions?.code).toBe(code);
      expect(graph.calls).toBe(1);
    }
  });

  it('stop retrying once the job is stopped or its claim lost', async () => {
    const stopped = new AbortController();
    stopped.abort();
    const graph = scripted([{ data: null, errors: [failure('UPSTREAM_UNAVAILABLE')] }, ok]);
    const answer = await retryingGraph(graph, stopped.signal, [60_000]).execute('{ x }', {}, scope);
    expect(answer.errors).toHaveLength(1);
    expect(graph.calls).toBe(1);
  });
});
