/**
 * The layers phase's outputs: a markdown table on stdout and a dated subsection in
 * docs/benchmarks.md between the layers markers, one per parcel count (a rerun replaces its own
 * count). The section and its markers are appended to the file when it has none yet.
 */
import type { BenchFacts } from './docs-section.ts';
import { closingBullets, fmt, latencyTable, machineLine, SizedSection } from './docs-section.ts';
import type { LayerChecks, LayerResult } from './layers-phase.ts';
import { describeLayerChecks } from './layers-phase.ts';
import { LAYER_ROUTE, LAYER_ROUTES, TARGET_PARCELS } from './layers-queries.ts';

export type LayerRunFacts = BenchFacts & {
  parcelsAsked: number;
  connections: readonly number[];
  loadAvg: string;
};

const INTRO = `## Hazards and the land around a parcel: layer routes and the whole property graph

The layer routes of issue #11 through the facade alone, measured with autocannon: \`GET /api/soil\`, \`/api/hazards\`,
\`/v1/risk-summary\`, \`/api/roads/fronting\` and \`/api/roads/nearest\` asked at a point inside a parcel;
\`/api/easements\`, \`/api/buildings\` and \`/api/land-values\` asked by the parcel's PFI; and the whole property graph
(every layer: the key holds every scope) by PFI, once through \`GET /v1/property/graph\` and once as the same GraphQL
operation sent to \`POST /graphql\`, so the difference between those two rows is the REST facade's own work. The
targets are latencies at one connection on the ${TARGET_PARCELS.toLocaleString('en-AU')}-parcel dataset: p50 under 10 ms for each point
route and under 15 ms for the risk summary; the graph has no target of its own. Throughput is measured at more
connections. A miss is reported as a miss; a run on fewer parcels says so.

The parcels are the lookup benchmark's (a seeded hash of the parcel key, a point from \`ST_PointOnSurface\`). Before
measuring, every measured request is sent once and its status tallied, and for the graph every layer that came back
other than \`ok\`: a route with no 200 at all stops the run; anything else is listed under the table, since a parcel
may rightly have no valuation or no soil polygon.

Run the phase alone with \`npm run bench -- --only layers\`. Options, besides the lookup's \`--duration\`, \`--warmup\`,
\`--initial-warmup\`, \`--rounds\`, \`--quiet-wait\`, \`--pool\` and \`--parcels\`: \`--layers-parcels N\` (1000),
\`--layers-connections 1,16\` (the first is the latency one).

`;

const SECTION = new SizedSection('layers', 'parcels', INTRO);

export function layersTable(results: readonly LayerResult[]): string {
  return latencyTable(
    results.map(({ route, connections, m }) => ({ label: LAYER_ROUTE[route].label, connections, m })),
  );
}

/** Per route: p50 at the fewest connections against its target (if it has one), and the best throughput. */
export function layersVerdict(results: readonly LayerResult[], parcels: number): string {
  const scale =
    parcels >= TARGET_PARCELS
      ? ''
      : ` (the target is set for ${TARGET_PARCELS.toLocaleString('en-AU')} parcels; this run had ${parcels.toLocaleString('en-AU')})`;
  return LAYER_ROUTES.map((route) => {
    const mine = results.filter((r) => r.route === route);
    if (mine.length === 0) return `- ${route}: not measured.`;
    const fewest = mine.reduce((a, b) => (b.connections < a.connections ? b : a));
    const fastest = mine.reduce((a, b) => (b.m.rps > a.m.rps ? b : a));
    const target = LAYER_ROUTE[route].p50TargetMs;
    const rounds = fewest.p50s.length;
    const metIn = target === undefined ? 0 : fewest.p50s.filter((p50) => p50 < target).length;
    const met = metIn === 0 ? 'NOT met' : metIn === rounds ? 'met' : `met in ${metIn} of ${rounds} rounds only`;
    const verdict = target === undefined ? 'no target' : `target (< ${target} ms) ${met}${scale}`;
    const single = fewest.connections === 1 ? 'one connection' : `${fewest.connections} connections`;
    const all = rounds > 1 ? `; p50 of each round: ${fewest.p50s.map((p50) => fmt(p50, 2)).join(', ')} ms` : '';
    return `- ${LAYER_ROUTE[route].label}: p50 ${fmt(fewest.m.p50, 2)} ms at ${single} (p99 ${fmt(fewest.m.p99, 2)} ms${all}): ${verdict}. Throughput ${fmt(fastest.m.rps, 0)} req/s at ${fastest.connections} connection${fastest.connections === 1 ? '' : 's'}.`;
  }).join('\n');
}

export function layersSection(
  facts: LayerRunFacts,
  results: readonly LayerResult[],
  checks: LayerChecks,
  notes: readonly string[],
): string {
  return `${SECTION.mark(facts.parcels)}
### ${facts.parcels.toLocaleString('en-AU')} sandbox parcels, ${facts.date}

${machineLine(facts)} Load average before the run (1 / 5 / 15 min): ${facts.loadAvg}.
Load: ${facts.connections.join(' and ')} connections; ${facts.initialWarmupS} s warm-up of the facade, then per route and connection count
${facts.warmupS} s warm-up and ${facts.durationS} s measured, best of ${facts.rounds} round${facts.rounds === 1 ? '' : 's'}; ${facts.parcelsAsked.toLocaleString('en-AU')} parcels cycled;
pool of ${facts.poolMax} connections. Facade: \`${facts.facadeCommand}\`. Code: ${facts.code}.

${layersTable(results)}

${layersVerdict(results, facts.parcels)}
${closingBullets(describeLayerChecks(checks), notes)}
`;
}

/** Writes `body` as the subsection for its size, keeping the other sizes' subsections. */
export function writeLayersDocs(file: string, parcels: number, body: string): void {
  SECTION.write(file, parcels, body);
}
