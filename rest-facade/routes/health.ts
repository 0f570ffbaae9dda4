import { z } from 'zod';
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

export const health = defineRoute({
  method: 'get',
  path: '/api/health',
  tag: 'Health',
  summary: 'System health: the database and the graph (each subgraph in distributed mode). No key needed.',
  scope: null,
  query: z.object({}),
  errorStyle: 'plain',
  async handle(_q, { runtime, graph, scope }) {
    const [database, cache, graphCheck] = await Promise.all([
      timed(() => runtime.db.query('SELECT 1')),
      timed(() => runtime.cache.get('health:probe')),
      timed(async () => {
        const result = await graph.execute('{ __typename }', {}, scope);
        if (result.errors?.length) throw new Error(result.errors[0]!.message);
      }),
    ]);
    const healthy = [database, cache, graphCheck].every((check) => check.status === 'healthy');
    return {
      status: healthy ? 200 : 503,
      body: {
        status: healthy ? 'healthy' : 'unhealthy',
        timestamp: new Date().toISOString(),
        version: '1.0.0',
        mode: runtime.config.mode,
        database: runtime.db.kind,
        cache: runtime.cache.kind,
        checks: { database, cache, graph: graphCheck },
      },
    };
  },
});
