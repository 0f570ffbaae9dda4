import type { PlanningContext } from '../data.ts';
import type { PlanningAdapterMetrics, QueryResolvers } from '../generated/resolvers-types.ts';
import { adapterHealth, coverageOf, healthSummary, overallStatus } from '../sources/health.ts';
import type { PlanningAdapters, StateView } from '../sources/registry.ts';

const elapsedMs = (started: number) => Math.round((performance.now() - started) * 10) / 10;
const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Probes before judging: every live service on a refresh; otherwise only those nothing has
 * vouched for yet (no mirror in front, no call, no probe), so a fresh process reports what its
 * live-only states really do rather than "not verified". Returns the views after the probes.
 */
async function viewsAfterProbes(adapters: PlanningAdapters, refresh: boolean): Promise<StateView[]> {
  const views = await adapters.states();
  const unverified = views.flatMap(({ mirror, live }) =>
    live && !mirror && live.snapshot.requests === 0 && live.snapshot.lastProbe === null ? [live.adapter] : [],
  );
  const toProbe = refresh ? adapters.liveAdapters() : unverified;
  if (toProbe.length === 0) return views;
  await Promise.all(toProbe.map((adapter) => adapter.probe()));
  return adapters.states();
}

/** A state's counters; a mirror-only state has none (only live calls are counted). */
function metricsOf(view: StateView): PlanningAdapterMetrics {
  const { serviceType } = adapterHealth(view);
  const s = view.live?.snapshot;
  return {
    name: view.state,
    serviceType,
    requests: s?.requests ?? 0,
    successes: s?.successes ?? 0,
    errors: s?.errors ?? 0,
    retries: s?.retries ?? 0,
    timeouts: s?.timeouts ?? 0,
    successRate: s?.successRate ?? null,
    circuitState: s?.circuitState ?? 'closed',
    latency: s?.latency ?? { meanMs: null, p50Ms: null, p95Ms: null, maxMs: null },
    lastError: s?.lastError ?? null,
    lastSuccessAt: isoOrNull(s?.lastSuccessAt ?? null),
    lastFailureAt: isoOrNull(s?.lastFailureAt ?? null),
  };
}

/** The three planning-service fields of Query (spec 2.13-2.15), spread into the Query resolvers. */
export const serviceHealthQueries: Pick<
  QueryResolvers<PlanningContext>,
  'planningServiceHealth' | 'planningServiceMetrics' | 'planningCoverage'
> = {
  async planningServiceHealth(_parent, { refresh }, ctx) {
    const started = performance.now();
    const { adapters } = ctx.planning;
    const views = await viewsAfterProbes(adapters, refresh === true);
    const health = views.map(adapterHealth);
    const coverage = coverageOf(views);
    return {
      status: overallStatus(health),
      timestamp: new Date().toISOString(),
      responseTime: elapsedMs(started),
      coverage: {
        statesSupported: coverage.supported,
        statesCount: coverage.supportedCount,
        totalStates: coverage.totalStates,
        coveragePercentage: coverage.coveragePercentage,
      },
      adapters: health,
      configuration: adapters.settings,
      summary: healthSummary(health),
    };
  },

  async planningServiceMetrics(_parent, _args, ctx) {
    const started = performance.now();
    const { adapters } = ctx.planning;
    const views = await adapters.states();
    return {
      timestamp: new Date().toISOString(),
      responseTime: elapsedMs(started),
      adapters: views.filter((view) => view.mirror || view.live).map(metricsOf),
      system: { ...adapters.settings, performanceTracking: true },
    };
  },

  async planningCoverage(_parent, _args, ctx) {
    const views = await ctx.planning.adapters.states();
    return { timestamp: new Date().toISOString(), ...coverageOf(views) };
  },
};
