/**
 * The planning phase of `npm run bench`: GET /v1/planning-provisions and GET
 * /v1/envelope-by-address through the facade alone (no bare baseline: the targets are
 * latencies). Each route is measured at each connection count, after planning-checks.ts has
 * found its answers right: one connection for latency, more for throughput.
 */
import type { LoadOptions, Measurement, Target } from './load.ts';
import { measure, warmUp } from './load.ts';
import type { PlanningQueries, PlanningRouteName } from './planning-queries.ts';
import { PLANNING_ROUTES } from './planning-queries.ts';
import type { Window } from './profile.ts';
import { monotonicUs } from './profile.ts';

/** The kept round of one route at one connection count, and the p50 of every round. */
export type PlanningResult = { route: PlanningRouteName; connections: number; m: Measurement; p50s: number[] };

export type PlanningMeasureOptions = {
  load: LoadOptions;
  connections: readonly number[];
  rounds: number;
  initialWarmupS: number;
};

/** Both routes' requests taken in turn, for the warm-up: the facade's JIT should settle on both. */
function mixed(queries: PlanningQueries): string[] {
  return queries.lots.flatMap((_, i) => PLANNING_ROUTES.map((route) => queries.routes[route][i]?.path ?? ''));
}

/**
 * A first warm-up of both routes together, then `rounds` rounds of every route at every
 * connection count; the round with the most requests per second is kept (at one connection,
 * the lowest mean latency), since on a shared machine a round's only error is other work.
 */
export async function measurePlanningRoutes(
  target: Target,
  queries: PlanningQueries,
  options: PlanningMeasureOptions,
  report: (route: PlanningRouteName, connections: number, m: Measurement) => void,
  windows: Window[] = [],
): Promise<PlanningResult[]> {
  const most = Math.max(...options.connections);
  process.stdout.write(`warming the facade up on the planning routes: ${options.initialWarmupS} s\n`);
  await warmUp(target, mixed(queries), most, options.initialWarmupS);
  const best = new Map<string, PlanningResult>();
  for (let round = 0; round < options.rounds; round += 1) {
    for (const route of PLANNING_ROUTES) {
      const paths = queries.routes[route].map((q) => q.path);
      for (const connections of options.connections) {
        process.stdout.write(
          `${route} at ${connections} connection(s), round ${round + 1}/${options.rounds}: ${options.load.warmupS} s warm-up + ${options.load.durationS} s\n`,
        );
        const fromUs = monotonicUs() + options.load.warmupS * 1e6;
        const m = await measure(target, paths, { ...options.load, connections });
        windows.push({ fromUs, toUs: monotonicUs() });
        report(route, connections, m);
        const key = `${route}@${connections}`;
        const kept = best.get(key);
        const p50s = [...(kept?.p50s ?? []), m.p50];
        best.set(key, !kept || m.rps > kept.m.rps ? { route, connections, m, p50s } : { ...kept, p50s });
      }
    }
  }
  return PLANNING_ROUTES.flatMap((route) =>
    options.connections.map((connections) => {
      const kept = best.get(`${route}@${connections}`);
      if (!kept) throw new Error(`no measurement of ${route} at ${connections} connections`);
      return kept;
    }),
  );
}
