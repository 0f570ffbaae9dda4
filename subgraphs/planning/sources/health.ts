import type { StateCode } from '../../../core/geo.ts';
import type { MirrorView, StateView } from './registry.ts';
import { PLANNING_STATES } from './registry.ts';
import type { ResilienceSnapshot } from '../../../core/sources/resilient.ts';

export type AdapterStatus = 'healthy' | 'degraded' | 'unhealthy' | 'unsupported';
export type OverallStatus = Exclude<AdapterStatus, 'unsupported'>;
export type AdapterServiceType = 'database-mirror' | 'arcgis-rest' | 'wfs' | 'none';

export type AdapterHealth = {
  name: StateCode;
  status: AdapterStatus;
  serviceType: AdapterServiceType;
  provider: string;
  successRate: number | null;
  errorCount: number;
  message: string;
};

/** A live service answering at least this share of its recent calls is healthy. */
export const HEALTHY_SUCCESS_RATE = 0.95;

const SANDBOX_PROVIDER = 'Landgraph sandbox (synthetic demo data)';
const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const iso = (ms: number) => new Date(ms).toISOString();

function mirrorProvider(mirror: MirrorView): string {
  return mirror.datasets.includes('live') ? mirror.provenance.attribution : SANDBOX_PROVIDER;
}

function mirrorWords(mirror: MirrorView | null): string {
  return mirror ? `the database mirror (${mirror.datasets.join(' and ')}) first, ` : '';
}

/**
 * A live service's status from its counters: unhealthy while its circuit is open or since a
 * probe failed; degraded while half-open or when fewer than 95% of its recent calls succeeded;
 * healthy otherwise. With no calls yet it is healthy only if a mirror stands in front of it (a
 * live-only service is probed before it is judged: see resolvers/service-health.ts).
 */
function liveStatus(s: ResilienceSnapshot, mirrored: boolean): { status: OverallStatus; why: string } {
  const last = s.lastError ? ` (last error: ${s.lastError})` : '';
  if (s.circuitState === 'open') {
    return {
      status: 'unhealthy',
      why: `circuit open after ${s.consecutiveFailures} failed calls in a row${last}; a trial call goes after ${iso(s.retryAt ?? Date.now())}.`,
    };
  }
  const probe = s.lastProbe;
  if (probe && !probe.ok && (s.lastSuccessAt === null || s.lastSuccessAt < probe.at)) {
    return { status: 'unhealthy', why: `the last probe failed: ${probe.message}` };
  }
  if (s.circuitState === 'half-open') {
    return { status: 'degraded', why: `circuit half-open: the next call is a trial${last}.` };
  }
  const rate = s.recentSuccessRate;
  if (rate === null) {
    if (probe?.ok) return { status: 'healthy', why: `no calls yet; a probe at ${iso(probe.at)} was answered.` };
    return mirrored
      ? { status: 'healthy', why: 'no live calls yet.' }
      : { status: 'degraded', why: 'no calls yet and no probe answered: not verified.' };
  }
  const share = `${percent(rate)} of the last ${s.recentCalls} calls succeeded`;
  return rate >= HEALTHY_SUCCESS_RATE
    ? { status: 'healthy', why: `${share}; p95 latency ${s.latency.p95Ms ?? 0} ms.` }
    : { status: 'degraded', why: `${share}${last}.` };
}

export function adapterHealth(view: StateView): AdapterHealth {
  const { state, mirror, live } = view;
  if (live) {
    const { status, why } = liveStatus(live.snapshot, mirror !== null);
    return {
      name: state,
      status,
      serviceType: live.adapter.serviceType,
      provider: live.adapter.profile.provider,
      successRate: live.snapshot.recentSuccessRate,
      errorCount: live.snapshot.errors,
      message: `Serves ${mirrorWords(mirror)}the ${live.adapter.label} where it does not reach (live keys only): ${why}`,
    };
  }
  if (mirror) {
    return {
      name: state,
      status: 'healthy',
      serviceType: 'database-mirror',
      provider: mirrorProvider(mirror),
      successRate: null,
      errorCount: 0,
      message: `Serves the database mirror (${mirror.datasets.join(' and ')}, ${mirror.provenance.source}); no live service is configured.`,
    };
  }
  return {
    name: state,
    status: 'unsupported',
    serviceType: 'none',
    provider: 'none',
    successRate: null,
    errorCount: 0,
    message: `No planning source for ${state}: no database mirror holds it and no live service is configured.`,
  };
}

/** Healthy when every supported adapter is, unhealthy when none is (or none is supported), degraded otherwise. */
export function overallStatus(adapters: readonly AdapterHealth[]): OverallStatus {
  const supported = adapters.filter((a) => a.status !== 'unsupported');
  const healthy = supported.filter((a) => a.status === 'healthy').length;
  if (supported.length > 0 && healthy === supported.length) return 'healthy';
  return healthy === 0 ? 'unhealthy' : 'degraded';
}

export function healthSummary(adapters: readonly AdapterHealth[]) {
  const count = (status: AdapterStatus) => adapters.filter((a) => a.status === status).length;
  return {
    healthyAdapters: count('healthy'),
    degradedAdapters: count('degraded'),
    unhealthyAdapters: count('unhealthy'),
    unsupportedStates: count('unsupported'),
  };
}

export type StateCoverage = { state: StateCode; supported: boolean; protocol: AdapterServiceType; provider: string };

export function coverageOf(views: readonly StateView[]) {
  const details: StateCoverage[] = views.map((view) => {
    const { serviceType, provider, status } = adapterHealth(view);
    return { state: view.state, supported: status !== 'unsupported', protocol: serviceType, provider };
  });
  const supported = details.filter((d) => d.supported).map((d) => d.state);
  return {
    supported,
    unsupported: details.filter((d) => !d.supported).map((d) => d.state),
    totalStates: PLANNING_STATES.length,
    supportedCount: supported.length,
    coveragePercentage: Math.round((supported.length / PLANNING_STATES.length) * 1000) / 10,
    details,
  };
}
