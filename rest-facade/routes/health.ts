import { z } from 'zod';
import { withDeadline } from '../../core/rate-limit/deadline.ts';
import { defineRoute } from '../route.ts';

/** A probe must answer within a load balancer's own probe timeout, whatever the database does. */
const DATABASE_CHECK_TIMEOUT_MS = 2_000;

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

export const health = defineRoute({
  method: 'get',
  path: '/api/health',
  tag: 'Health',
  summary: 'System health: the database and the graph (each subgraph in distributed mode). No key needed.',
  access: 'open',
  metered: false,
  query: z.object({}),
  errorStyle: 'plain',
  async handle(_q, { runtime, graph, scope }) {
    const [database, cache, graphCheck] = await Promise.all([
      timed(() => withDeadline(runtime.db.query('SELECT 1'), DATABASE_CHECK_TIMEOUT_MS, 'the database')),
      timed(() => runtime.cache.get('health:probe')),
      timed(async () => {
        const result = await graph.execute('{ __typename }', {}, scope);
        if (result.errors?.length) throw new Error(result.errors[0]!.message);
      }),
    ]);
    const subgraphs = runtime.subgraphUrls ? await subgraphChecks(runtime.subgraphUrls) : null;
    const checks = [database, cache, graphCheck, ...Object.values(subgraphs ?? {})];
    const healthy = checks.every((check) => check.status === 'healthy');
    return {
      status: healthy ? 200 : 503,
      body: {
        status: healthy ? 'healthy' : 'unhealthy',
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
