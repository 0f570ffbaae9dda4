/**
 * The walking-catchment phase (`--only catchment`): GET /v1/catchment/walking at 15 minutes over
 * sandbox parcel points, checked first (every answer a network catchment, not the straight-line
 * fallback), then measured at one connection and at `connections`. The target of the issue is a
 * p50 under 200 ms for 15 minutes.
 */
import type { BenchPoint } from './database.ts';
import type { LoadOptions, Measurement, Target } from './load.ts';
import { measure, warmUp } from './load.ts';

export const CATCHMENT_MINUTES = 15;
export const CATCHMENT_P50_TARGET_MS = 200;

export const catchmentPaths = (points: readonly BenchPoint[]): string[] =>
  points.map((p) => `/v1/catchment/walking?lat=${p.lat}&lng=${p.lng}&minutes=${CATCHMENT_MINUTES}`);

export type CatchmentChecks = {
  asked: number;
  network: number;
  approximate: number;
  failed: number;
  amenities: number;
};

/** Asks every path once: how many answered over the network, how many fell back, how many failed. */
export async function checkCatchments(
  url: string,
  headers: Record<string, string>,
  paths: readonly string[],
): Promise<CatchmentChecks> {
  const checks: CatchmentChecks = { asked: 0, network: 0, approximate: 0, failed: 0, amenities: 0 };
  for (const path of paths.slice(0, 50)) {
    checks.asked += 1;
    const res = await fetch(`${url}${path}`, { headers });
    if (!res.ok) {
      checks.failed += 1;
      continue;
    }
    const body = (await res.json()) as { approximate: boolean; amenities: unknown[] };
    if (body.approximate) checks.approximate += 1;
    else checks.network += 1;
    checks.amenities += body.amenities.length;
  }
  return checks;
}

export type CatchmentResult = { connections: number; m: Measurement };

export async function measureCatchments(
  target: Target,
  paths: readonly string[],
  load: LoadOptions,
  connections: readonly number[],
  initialWarmupS: number,
  report: (connections: number, m: Measurement) => void,
): Promise<CatchmentResult[]> {
  await warmUp(target, paths, Math.max(...connections), initialWarmupS);
  const results: CatchmentResult[] = [];
  for (const c of connections) {
    const m = await measure(target, paths, { ...load, connections: c });
    report(c, m);
    results.push({ connections: c, m });
  }
  return results;
}

export function catchmentVerdict(results: readonly CatchmentResult[], parcels: number): string {
  const one = results.find((r) => r.connections === 1) ?? results[0];
  if (!one) return 'catchment: not measured';
  if (one.m.non2xx > 0 || one.m.errors > 0) {
    return `walking catchment: ${one.m.non2xx} answers were not 2xx and ${one.m.errors} failed: no figure`;
  }
  const ok = one.m.p50 < CATCHMENT_P50_TARGET_MS;
  return `walking catchment (${CATCHMENT_MINUTES} min) on ${parcels.toLocaleString('en-AU')} sandbox parcels: p50 ${one.m.p50.toFixed(1)} ms, p95 ${one.m.p95.toFixed(1)} ms at 1 connection: ${ok ? 'meets' : 'MISSES'} the ${CATCHMENT_P50_TARGET_MS} ms p50 target`;
}
