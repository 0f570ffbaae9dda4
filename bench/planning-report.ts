/**
 * The planning phase's outputs: a markdown table on stdout and a dated subsection in
 * docs/benchmarks.md between the planning markers, one per parcel count (a rerun replaces its
 * own count). The section and its markers are appended to the file when it has none yet.
 */
import type { BenchFacts } from './docs-section.ts';
import { closingBullets, fmt, latencyTable, machineLine, SizedSection } from './docs-section.ts';
import type { PlanningChecks } from './planning-checks.ts';
import { describePlanningChecks, MIN_CORRECT } from './planning-checks.ts';
import type { PlanningResult } from './planning-phase.ts';
import type { PlanningRouteName } from './planning-queries.ts';
import {
  MIN_LOT_AREA_M2,
  P50_TARGET_MS,
  PLANNING_ROUTES,
  RESIDENTIAL_FAMILIES,
  ROUTE_PATH,
  TARGET_PARCELS,
} from './planning-queries.ts';

export type PlanningRunFacts = BenchFacts & {
  addresses: number;
  lots: number;
  states: readonly string[];
  connections: readonly number[];
};

const families = Object.entries(RESIDENTIAL_FAMILIES)
  .map(([state, codes]) => `${state} ${codes.join(', ')}`)
  .join('; ');

const INTRO = `## Planning products: provisions and envelope by address

\`GET ${ROUTE_PATH.provisions}?lat=&lng=\` (the parcel at the point, its zone and overlays, its boundaries told apart
by the roads around it, then the state's residential code) and \`GET ${ROUTE_PATH['envelope-by-address']}?address=\` (the
address matcher, the parcel under the address point, then the same provisions and the parcel shrunk by its setbacks,
tier by tier) through the facade alone, on a scaled sandbox in PostgreSQL + PostGIS, measured with autocannon. The
targets are latencies at one connection (one client waiting for each answer) on the ${TARGET_PARCELS.toLocaleString('en-AU')}-parcel dataset:
p50 under ${P50_TARGET_MS.provisions} ms for provisions and under ${P50_TARGET_MS['envelope-by-address']} ms for envelope by address; throughput is measured at more
connections. A miss is reported as a miss. There is no bare baseline here.

The queries are residential lots of the benchmark database, an equal share from every state it holds, picked by a
seeded hash of the parcel key: parcels of at least ${MIN_LOT_AREA_M2} m² (the NSW Housing Code's minimum lot) whose interior point
(\`ST_PointOnSurface\`) lies in a zone whose residential code we hold (${families}) and that carry a
parcel-grade address (PC or FCS geocode). Provisions are asked at the lot's interior point; the envelope by the
address's G-NAF single line (\`10 ARGYLE ST, PARRAMATTA NSW 2150\`). Before measuring, every measured request is sent
once and checked: 200 for the expected parcel (\`property.parcel_pfi\`), the state's residential code rather than the
conservative default, and for the envelope an area above zero and below the lot's. A route below ${MIN_CORRECT * 100}% correct stops
the run with examples, so a broken route cannot win.

A row is one route at one connection count: requests per second over the measured seconds, latency percentiles of
every response, CPU time per request of the facade process and of the benchmark database's PostgreSQL backends, and
how many cores the machine kept busy just before and during the run (the facade shares them with PostgreSQL and the
load generator).

Run the planning phase alone with \`npm run bench -- --only planning --parcels 1000000\` (the scaled database is
seeded once). Options, besides the lookup's \`--duration\`, \`--warmup\`, \`--initial-warmup\`, \`--rounds\`,
\`--quiet-wait\`, \`--pool\` and \`--parcels\`: \`--planning-lots N\` (1500, shared among the states),
\`--planning-connections 1,8\` (the connection counts measured; the first is the latency one).

`;

const SECTION = new SizedSection('planning', 'parcels', INTRO);

const ROUTE_LABEL: Record<PlanningRouteName, string> = {
  provisions: `GET ${ROUTE_PATH.provisions}`,
  'envelope-by-address': `GET ${ROUTE_PATH['envelope-by-address']}`,
};

export function planningTable(results: readonly PlanningResult[]): string {
  return latencyTable(results.map(({ route, connections, m }) => ({ label: ROUTE_LABEL[route], connections, m })));
}

/**
 * The verdict per route: p50 at the fewest connections measured against its target, and the best
 * throughput. The targets are set for the 1M-parcel dataset; a run on another size says so.
 */
export function planningVerdict(results: readonly PlanningResult[], parcels: number): string {
  const scale =
    parcels >= TARGET_PARCELS
      ? ''
      : ` (the target is set for ${TARGET_PARCELS.toLocaleString('en-AU')} parcels; this run had ${parcels.toLocaleString('en-AU')})`;
  return PLANNING_ROUTES.map((route) => {
    const mine = results.filter((r) => r.route === route);
    if (mine.length === 0) return `- ${route}: not measured.`;
    const fewest = mine.reduce((a, b) => (b.connections < a.connections ? b : a));
    const fastest = mine.reduce((a, b) => (b.m.rps > a.m.rps ? b : a));
    const target = P50_TARGET_MS[route];
    const single = fewest.connections === 1 ? 'one connection' : `${fewest.connections} connections`;
    const rounds = fewest.p50s.length;
    const metIn = fewest.p50s.filter((p50) => p50 < target).length;
    const met = metIn === 0 ? 'NOT met' : metIn === rounds ? 'met' : `met in ${metIn} of ${rounds} rounds only`;
    const all = rounds > 1 ? `; p50 of each round: ${fewest.p50s.map((p50) => fmt(p50, 2)).join(', ')} ms` : '';
    return `- ${route}: p50 ${fmt(fewest.m.p50, 2)} ms at ${single} (p95 ${fmt(fewest.m.p95, 2)} ms, p99 ${fmt(fewest.m.p99, 2)} ms${all}): target (< ${target} ms) ${met}${scale}. Throughput ${fmt(fastest.m.rps, 0)} req/s at ${fastest.connections} connection${fastest.connections === 1 ? '' : 's'}.`;
  }).join('\n');
}

export function planningSection(
  facts: PlanningRunFacts,
  results: readonly PlanningResult[],
  checks: PlanningChecks,
  notes: readonly string[],
): string {
  return `${SECTION.mark(facts.parcels)}
### ${facts.parcels.toLocaleString('en-AU')} sandbox parcels (${facts.addresses.toLocaleString('en-AU')} addresses), ${facts.date}

${machineLine(facts)}
Load: ${facts.connections.join(' and ')} connections; ${facts.initialWarmupS} s warm-up of the facade, then per route and connection count
${facts.warmupS} s warm-up and ${facts.durationS} s measured, best of ${facts.rounds} rounds; ${facts.lots.toLocaleString('en-AU')} residential lots (${facts.states.join(', ')}) cycled;
pool of ${facts.poolMax} connections. Facade: \`${facts.facadeCommand}\`. Code: ${facts.code}.

${planningTable(results)}

${planningVerdict(results, facts.parcels)}
${closingBullets(describePlanningChecks(checks), notes)}
`;
}

/** Writes `body` as the subsection for its size, keeping the other sizes' subsections. */
export function writePlanningDocs(file: string, parcels: number, body: string): void {
  SECTION.write(file, parcels, body);
}
