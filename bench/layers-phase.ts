/**
 * The layers phase of `npm run bench`: the hazard and land-around-a-parcel routes, the whole
 * property graph through GET /v1/property/graph and the same graph through POST /graphql, all
 * through the facade alone (the targets are latencies). Every request is sent once and its
 * answer tallied first; each route is then measured at each connection count.
 */
import type { Headers } from './api-key.ts';
import type { Fetched } from './checked-fetch.ts';
import { at, brief, eachLimited, pct, record } from './checked-fetch.ts';
import type { BenchRequest, LoadOptions, Measurement, Target } from './load.ts';
import { measure, warmUp } from './load.ts';
import type { LayerQueries, LayerRouteName } from './layers-queries.ts';
import { LAYER_ROUTES } from './layers-queries.ts';
import type { Window } from './profile.ts';
import { monotonicUs } from './profile.ts';

const CHECK_CONCURRENCY = 8;
const CHECK_TIMEOUT_MS = 15_000;
const EXAMPLES = 2;

/** The kept round of one route at one connection count, and the p50 of every round. */
export type LayerResult = { route: LayerRouteName; connections: number; m: Measurement; p50s: number[] };

/**
 * How a route answered the measured requests: the statuses, and for the property graph (either
 * way in) the layers that came back other than `ok`, by layer and status, so a fast answer
 * full of failed layers shows as such.
 */
export type LayerCheck = {
  route: LayerRouteName;
  total: number;
  statuses: Map<number, number>;
  layersNotOk: Map<string, number>;
  examples: string[];
};
export type LayerChecks = Record<LayerRouteName, LayerCheck>;

export async function send(url: string, request: BenchRequest, headers: Headers): Promise<Fetched> {
  const post = typeof request !== 'string';
  try {
    const response = await fetch(`${url}${post ? request.path : request}`, {
      method: post ? 'POST' : 'GET',
      headers: post ? { ...headers, 'content-type': 'application/json' } : headers,
      body: post ? request.body : undefined,
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
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

/** The layers of a property-graph answer, REST (`layers`) or GraphQL (`data.property`), that are not `ok`. */
function layersNotOk(route: LayerRouteName, body: unknown): string[] {
  const layers = route === 'graphql' ? at(body, 'data', 'property') : at(body, 'layers');
  const graphErrors = route === 'graphql' ? (at(body, 'errors') as unknown[] | undefined) : undefined;
  const notOk = Object.entries(record(layers)).flatMap(([name, value]) => {
    const status = at(value, 'status');
    return typeof status === 'string' && status !== 'ok' ? [`${name} ${status}`] : [];
  });
  return graphErrors?.length ? [...notOk, 'graphql errors'] : notOk;
}

export async function checkRoute(
  url: string,
  headers: Headers,
  route: LayerRouteName,
  requests: readonly BenchRequest[],
): Promise<LayerCheck> {
  const check: LayerCheck = {
    route,
    total: requests.length,
    statuses: new Map(),
    layersNotOk: new Map(),
    examples: [],
  };
  const answers = await eachLimited(requests, CHECK_CONCURRENCY, (r) => send(url, r, headers));
  for (const [i, answer] of answers.entries()) {
    check.statuses.set(answer.status, (check.statuses.get(answer.status) ?? 0) + 1);
    const notOk = route === 'graphql' || route === 'property-graph' ? layersNotOk(route, answer.body) : [];
    for (const layer of notOk) check.layersNotOk.set(layer, (check.layersNotOk.get(layer) ?? 0) + 1);
    if ((answer.status !== 200 || notOk.length > 0) && check.examples.length < EXAMPLES) {
      const request = requests[i] ?? '';
      check.examples.push(`${typeof request === 'string' ? request : request.path}: ${brief(answer.body)}`);
    }
  }
  return check;
}

export function describeLayerChecks(checks: LayerChecks): string[] {
  return LAYER_ROUTES.map((route) => {
    const c = checks[route];
    const statuses = [...c.statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${pct(n, c.total)} ${status === 0 ? 'no answer' : status}`)
      .join(', ');
    const layers = [...c.layersNotOk.entries()].map(([layer, n]) => `${layer} in ${n}`).join(', ');
    return `${route}: ${c.total.toLocaleString('en-AU')} requests answered ${statuses}${layers ? `; layers not ok: ${layers}` : ''}`;
  });
}

/**
 * Sends every measured request once. A route with no 200 at all is broken, not slow, and stops
 * the run; anything short of all-200 is reported beside the figures (a parcel with no
 * valuation or no soil polygon may rightly answer 404).
 */
export async function checkLayerRoutes(url: string, headers: Headers, queries: LayerQueries): Promise<LayerChecks> {
  const checks = {} as LayerChecks;
  for (const route of LAYER_ROUTES) checks[route] = await checkRoute(url, headers, route, queries.routes[route]);
  const broken = LAYER_ROUTES.filter((route) => (checks[route].statuses.get(200) ?? 0) === 0);
  if (broken.length > 0) {
    const examples = broken.flatMap((route) => checks[route].examples.map((e) => `  ${route}: ${e}`));
    throw new Error(
      `The layer routes are broken, not measured (no 200: ${broken.join(', ')}):\n${describeLayerChecks(checks).join('\n')}\n${examples.join('\n')}`,
    );
  }
  return checks;
}

export type LayerMeasureOptions = {
  load: LoadOptions;
  connections: readonly number[];
  rounds: number;
  initialWarmupS: number;
};

/**
 * A first warm-up of every route together, then `rounds` rounds of every route at every
 * connection count; the round with the most requests per second is kept, since on a shared
 * machine a round's only error is other work.
 */
export async function measureLayerRoutes(
  target: Target,
  queries: LayerQueries,
  options: LayerMeasureOptions,
  report: (route: LayerRouteName, connections: number, m: Measurement) => void,
  windows: Window[] = [],
): Promise<LayerResult[]> {
  const most = Math.max(...options.connections);
  const mixed = queries.points.flatMap((_, i) => LAYER_ROUTES.map((route) => queries.routes[route][i] ?? '/'));
  process.stdout.write(`warming the facade up on the layer routes: ${options.initialWarmupS} s\n`);
  await warmUp(target, mixed, most, options.initialWarmupS);
  const best = new Map<string, LayerResult>();
  for (let round = 0; round < options.rounds; round += 1) {
    for (const route of LAYER_ROUTES) {
      for (const connections of options.connections) {
        process.stdout.write(
          `${route} at ${connections} connection(s), round ${round + 1}/${options.rounds}: ${options.load.warmupS} s warm-up + ${options.load.durationS} s\n`,
        );
        const fromUs = monotonicUs() + options.load.warmupS * 1e6;
        const m = await measure(target, queries.routes[route], { ...options.load, connections });
        windows.push({ fromUs, toUs: monotonicUs() });
        report(route, connections, m);
        const key = `${route}@${connections}`;
        const kept = best.get(key);
        const p50s = [...(kept?.p50s ?? []), m.p50];
        best.set(key, !kept || m.rps > kept.m.rps ? { route, connections, m, p50s } : { ...kept, p50s });
      }
    }
  }
  return LAYER_ROUTES.flatMap((route) =>
    options.connections.map((connections) => {
      const kept = best.get(`${route}@${connections}`);
      if (!kept) throw new Error(`no measurement of ${route} at ${connections} connections`);
      return kept;
    }),
  );
}
