import { z } from 'zod';
import { probeDatabase } from '../../core/db.ts';
import { defineRoute } from '../route.ts';

type Check = { status: 'healthy' | 'unhealthy'; latencyMs: number; error?: string };

async function timed(check: () => Promise<unknown>): Promise<Check> {
  const started = performance.now();
  try {
    await check();
    return { status: 'healthy', latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return { status: 'unhealthy', latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
  }
}

/** Each subgraph service answering its own /health, in distributed mode. */
async function subgraphChecks(urls: Record<string, string>): Promise<Record<string, Check>> {
  const entries = await Promise.all(
    Object.entries(urls).map(async ([name, url]): Promise<[string, Check]> => {
      const check = await timed(async () => {
        const response = await fetch(url.replace(/\/graphql$/, '/health'), { signal: AbortSignal.timeout(2_000) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
      });
      return [name, check];
    }),
  );
  return Object.fromEntries(entries);
}

type Status = 'healthy' | 'degraded' | 'unhealthy';

/**
 * Unhealthy (503, so a load balancer takes the instance out) only when this instance cannot
 * serve: its database or its graph is down. Redis being away, or one subgraph of the
 * distributed mode, is degraded (200): the in-process fallbacks answer, and other instances
 * share the same outage, so taking this one out would help nobody.
 */
function overall(essential: Check[], optional: Check[]): Status {
  if (essential.some((check) => check.status !== 'healthy')) return 'unhealthy';
  return optional.some((check) => check.status !== 'healthy') ? 'degraded' : 'healthy';
}

export const health = defineRoute({
  method: 'get',
  path: '/api/health',
  tag: 'Health',
  summary:
    'System health: the database and the graph (each subgraph in distributed mode). 503 unhealthy only when the ' +
    'database or the graph is down; Redis or one subgraph away is degraded (200). No key needed.',
  access: 'open',
  metered: false,
  query: z.object({}),
  errorStyle: 'plain',
  async handle(_q, { runtime, graph, scope }) {
    const [database, cache, graphCheck] = await Promise.all([
      timed(() => probeDatabase(runtime.db)),
      timed(() => runtime.cache.ping()),
      timed(async () => {
        const result = await graph.execute('{ __typename }', {}, scope);
        if (result.errors?.length) throw new Error(result.errors[0]!.message);
      }),
    ]);
    const subgraphs = runtime.subgraphUrls ? await subgraphChecks(runtime.subgraphUrls) : null;
    const status = overall([database, graphCheck], [cache, ...Object.values(subgraphs ?? {})]);
    return {
      status: status === 'unhealthy' ? 503 : 200,
      body: {
        status,
        timestamp: new Date().toISOString(),
        version: '1.0.0',
        mode: runtime.config.mode,
        database: runtime.db.kind,
        cache: runtime.cache.kind,
        rateLimiter: runtime.limiter.backend,
        checks: { database, cache, graph: graphCheck, ...(subgraphs ? { subgraphs } : {}) },
      },
    };
  },
});
