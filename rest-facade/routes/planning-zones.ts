import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { logger } from '../../core/logger.ts';
import { unwrap } from '../graph-result.ts';
import type { RouteContext, RouteResponse } from '../route.ts';
import { defineRoute } from '../route.ts';

/**
 * The planning-zone service's health, metrics and coverage (spec 2.13-2.15, 4.1): open like
 * /api/health, unmetered, and read from the planning subgraph's adapters. The graph answers
 * lists; the spec's bodies are maps keyed by adapter or state, built here.
 */

const HEALTH = `query PlanningServiceHealth($refresh: Boolean) {
  planningServiceHealth(refresh: $refresh) {
    status timestamp responseTime
    coverage { statesSupported statesCount totalStates coveragePercentage }
    adapters { name status serviceType provider successRate errorCount message }
    configuration { cacheEnabled cacheTTL requestTimeout }
    summary { healthyAdapters degradedAdapters unhealthyAdapters unsupportedStates }
  }
}`;

const METRICS = `query PlanningServiceMetrics {
  planningServiceMetrics {
    timestamp responseTime
    adapters {
      name serviceType requests successes errors retries timeouts successRate circuitState
      latency { meanMs p50Ms p95Ms maxMs }
      lastError lastSuccessAt lastFailureAt
    }
    system { cacheEnabled cacheTTL requestTimeout performanceTracking }
  }
}`;

const COVERAGE = `query PlanningCoverage {
  planningCoverage {
    timestamp supported unsupported totalStates supportedCount coveragePercentage
    details { state supported protocol provider }
  }
}`;

type Named = { name: string };
type AdapterHealth = Named & {
  status: string;
  serviceType: string;
  provider: string;
  successRate: number | null;
  errorCount: number;
  message: string;
};
type HealthResult = {
  planningServiceHealth: {
    status: 'healthy' | 'degraded' | 'unhealthy';
    timestamp: string;
    responseTime: number;
    coverage: Record<string, unknown>;
    adapters: AdapterHealth[];
    configuration: Record<string, unknown>;
    summary: Record<string, unknown>;
  };
};
type MetricsResult = {
  planningServiceMetrics: {
    timestamp: string;
    responseTime: number;
    adapters: Array<Named & Record<string, unknown>>;
    system: Record<string, unknown>;
  };
};
type StateCoverage = { state: string; supported: boolean; protocol: string; provider: string };
type CoverageResult = {
  planningCoverage: {
    timestamp: string;
    supported: string[];
    unsupported: string[];
    totalStates: number;
    supportedCount: number;
    coveragePercentage: number;
    details: StateCoverage[];
  };
};

/** A list keyed by one of its fields, the field left out of each value. */
function keyedBy<T extends Record<string, unknown>, K extends keyof T & string>(
  items: readonly T[],
  key: K,
): Record<string, Omit<T, K>> {
  return Object.fromEntries(
    items.map((item) => {
      const { [key]: name, ...rest } = item;
      return [String(name), rest];
    }),
  );
}

/** Why building an answer failed, in words a caller may see: an AppError's own, otherwise general. */
function failureOf(what: string, error: unknown): string {
  logger.error(`${what} failed`, { error: (error as Error).message });
  return error instanceof AppError ? error.message : 'The planning service could not be asked.';
}

/**
 * Runs a route's operation; when it fails, the route answers 500 with its own error shape rather
 * than the facade's plain one (spec 2.13-2.15 give each route its error body).
 */
async function answer(
  what: string,
  build: () => Promise<RouteResponse>,
  failure: (message: string) => Record<string, unknown>,
): Promise<RouteResponse> {
  try {
    return await build();
  } catch (error) {
    return { status: 500, body: failure(failureOf(what, error)) };
  }
}

const refreshParam = z
  .enum(['true', 'false'], { error: "refresh must be 'true' or 'false'." })
  .optional()
  .describe('true probes every live state service now (a cheap query each) before answering.');

export const planningZonesHealth = defineRoute({
  method: 'get',
  path: '/api/planning-zones/health',
  tag: 'Health',
  summary: "Health of every state's planning-zone adapter: 200 when all are healthy, 503 otherwise. No key needed.",
  access: 'open',
  metered: false,
  query: z.object({ refresh: refreshParam }),
  errorStyle: 'plain',
  handle: (q, { graph, scope }: RouteContext) =>
    answer(
      'planning-zone health',
      async () => {
        const result = unwrap(await graph.execute<HealthResult>(HEALTH, { refresh: q.refresh === 'true' }, scope));
        const health = result.planningServiceHealth;
        return {
          status: health.status === 'healthy' ? 200 : 503,
          body: { ...health, adapters: keyedBy(health.adapters, 'name') },
        };
      },
      (message) => ({
        status: 'unhealthy',
        timestamp: new Date().toISOString(),
        error: 'The planning-zone health check failed.',
        message,
      }),
    ),
});

export const planningZonesMetrics = defineRoute({
  method: 'get',
  path: '/api/planning-zones/metrics',
  tag: 'Health',
  summary: "Counters of every state's planning-zone adapter since the service started. No key needed.",
  access: 'open',
  metered: false,
  query: z.object({}),
  errorStyle: 'plain',
  handle: (_q, { graph, scope }: RouteContext) =>
    answer(
      'planning-zone metrics',
      async () => {
        const metrics = unwrap(await graph.execute<MetricsResult>(METRICS, {}, scope)).planningServiceMetrics;
        return { body: { ...metrics, adapters: keyedBy(metrics.adapters, 'name') } };
      },
      (message) => ({
        error: 'The planning-zone metrics could not be read.',
        timestamp: new Date().toISOString(),
        message,
      }),
    ),
});

export const planningZonesCoverage = defineRoute({
  method: 'get',
  path: '/api/planning-zones/coverage',
  tag: 'Health',
  summary: 'Which states the planning-zone service covers, and through what. No key needed.',
  access: 'open',
  metered: false,
  query: z.object({}),
  errorStyle: 'plain',
  handle: (_q, { graph, scope }: RouteContext) =>
    answer(
      'planning-zone coverage',
      async () => {
        const c = unwrap(await graph.execute<CoverageResult>(COVERAGE, {}, scope)).planningCoverage;
        return {
          body: {
            timestamp: c.timestamp,
            coverage: {
              supported: c.supported,
              unsupported: c.unsupported,
              totalStates: c.totalStates,
              supportedCount: c.supportedCount,
              coveragePercentage: c.coveragePercentage,
            },
            details: keyedBy(c.details, 'state'),
          },
        };
      },
      (message) => ({
        timestamp: new Date().toISOString(),
        error: `The planning-zone coverage could not be read: ${message}`,
      }),
    ),
});
