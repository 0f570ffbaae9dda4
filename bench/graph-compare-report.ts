/**
 * The graph comparison's outputs (bench/graph-compare.ts): a markdown table on stdout and a
 * dated subsection of docs/benchmarks.md between the graph-peer markers, one per parcel count.
 */
import type { BenchFacts } from './docs-section.ts';
import { closingBullets, fmt, machineLine, SizedSection } from './docs-section.ts';
import type { LayerCheck } from './layers-phase.ts';
import type { LayerRouteName } from './layers-queries.ts';
import type { Measurement } from './load.ts';

export const GRAPH_ROWS = [
  'embedded-rest',
  'embedded-graphql',
  'distributed-rest',
  'distributed-graphql',
  'peer-graphql',
] as const;
export type GraphRowName = (typeof GRAPH_ROWS)[number];

export const PEER_NAME = '@graphql-hive/gateway 2.15.1';

export const GRAPH_ROW: Record<
  GraphRowName,
  {
    label: string;
    server: 'embedded' | 'distributed' | 'peer';
    route: Extract<LayerRouteName, 'graphql' | 'property-graph'>;
  }
> = {
  'embedded-rest': { label: 'embedded: GET /v1/property/graph', server: 'embedded', route: 'property-graph' },
  'embedded-graphql': { label: 'embedded: POST /graphql', server: 'embedded', route: 'graphql' },
  'distributed-rest': {
    label: 'distributed, our gateway: GET /v1/property/graph',
    server: 'distributed',
    route: 'property-graph',
  },
  'distributed-graphql': { label: 'distributed, our gateway: POST /graphql', server: 'distributed', route: 'graphql' },
  'peer-graphql': { label: `distributed, peer (${PEER_NAME}): POST /graphql`, server: 'peer', route: 'graphql' },
};

/** The issue's targets: the embedded graph at least 3x the peer's throughput, p99 under 50 ms at 16 connections. */
export const PEER_RATIO_TARGET = 3;
export const P99_TARGET_MS = 50;
export const P99_TARGET_CONNECTIONS = 16;

export type GraphCompareResult = { row: GraphRowName; connections: number; m: Measurement; rpsPerRound: number[] };

export type GraphRunFacts = BenchFacts & {
  parcelsAsked: number;
  connections: readonly number[];
  loadAvg: string;
  distributedCommand: string;
  subgraphPoolMax: number;
  /** NODE_OPTIONS of the bench, which every server of the comparison inherits (ours and the peer alike). */
  nodeOptions: string | undefined;
};

const find = (results: readonly GraphCompareResult[], row: GraphRowName, connections: number) =>
  results.find((r) => r.row === row && r.connections === connections);

export function graphTable(results: readonly GraphCompareResult[]): string {
  const lines = [
    '| Server: route | Connections | req/s | p50 ms | p95 ms | p99 ms | CPU ms/req: gateway / subgraph services / PostgreSQL | cores busy: other work / during run | non-2xx / errors | req/s against the peer |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { row, connections, m } of results) {
    const peer = find(results, 'peer-graphql', connections);
    const ratio = peer && peer.m.rps > 0 && row !== 'peer-graphql' ? `${fmt(m.rps / peer.m.rps, 2)}x` : '';
    const helpers = GRAPH_ROW[row].server === 'embedded' ? 'in process' : fmt(m.helperMsPerRequest, 3);
    lines.push(
      `| ${GRAPH_ROW[row].label} | ${connections} | ${fmt(m.rps, 0)} | ${fmt(m.p50, 2)} | ${fmt(m.p95, 2)} | ${fmt(m.p99, 2)} | ${fmt(m.cpuMsPerRequest, 3)} / ${helpers} / ${fmt(m.postgresMsPerRequest, 3)} | ${fmt(m.backgroundCores, 2)} / ${fmt(m.machineBusyCores, 2)} | ${m.non2xx} / ${m.errors} | ${ratio} |`,
    );
  }
  return lines.join('\n');
}

/** The two targets, per connection count and per way in to the embedded graph. */
export function graphVerdict(results: readonly GraphCompareResult[]): string {
  const counts = [...new Set(results.map((r) => r.connections))].sort((a, b) => a - b);
  const lines: string[] = [];
  for (const connections of counts) {
    const peer = find(results, 'peer-graphql', connections);
    if (!peer || peer.m.rps <= 0) continue;
    for (const row of ['embedded-graphql', 'embedded-rest', 'distributed-graphql'] as const) {
      const mine = find(results, row, connections);
      if (!mine) continue;
      const ratio = mine.m.rps / peer.m.rps;
      const target = row.startsWith('embedded')
        ? `: target (>= ${PEER_RATIO_TARGET}x) ${ratio >= PEER_RATIO_TARGET ? 'met' : 'NOT met'}`
        : ' (like for like: both gateways over the same HTTP subgraph services; no target)';
      lines.push(
        `- ${GRAPH_ROW[row].label} at ${connections} connection${connections === 1 ? '' : 's'}: ${fmt(mine.m.rps, 0)} req/s against the peer's ${fmt(peer.m.rps, 0)}, ${fmt(ratio, 2)}x${target}.`,
      );
    }
  }
  const at16 = results.filter(
    (r) => r.connections === P99_TARGET_CONNECTIONS && GRAPH_ROW[r.row].server === 'embedded',
  );
  for (const r of at16) {
    const met = r.m.p99 < P99_TARGET_MS ? 'met' : 'NOT met';
    lines.push(
      `- ${GRAPH_ROW[r.row].label}: p99 ${fmt(r.m.p99, 2)} ms at ${P99_TARGET_CONNECTIONS} connections: target (< ${P99_TARGET_MS} ms) ${met}.`,
    );
  }
  if (at16.length === 0) lines.push(`- p99 at ${P99_TARGET_CONNECTIONS} connections: not measured in this run.`);
  return lines.join('\n');
}

/** The layer statuses a row tallied differently from the embedded graph's /graphql row, e.g. `provisions error in 845 (embedded 0)`. */
export function layerDifferences(row: LayerCheck, embedded: LayerCheck): string[] {
  const keys = [...new Set([...row.layersNotOk.keys(), ...embedded.layersNotOk.keys()])].filter(
    (key) => !key.startsWith('address '),
  );
  return keys.flatMap((key) => {
    const mine = row.layersNotOk.get(key) ?? 0;
    const theirs = embedded.layersNotOk.get(key) ?? 0;
    return mine === theirs
      ? []
      : [`${key} in ${mine.toLocaleString('en-AU')} (embedded ${theirs.toLocaleString('en-AU')})`];
  });
}

export function describeGraphChecks(
  rows: Record<GraphRowName, LayerCheck>,
  parity: { compared: number; distributed: number; peer: number; examples: readonly string[] },
): string[] {
  const tallies = GRAPH_ROWS.map((row) => {
    const c = rows[row];
    const ok = c.statuses.get(200) ?? 0;
    const notOk = [...c.layersNotOk.values()].reduce((sum, n) => sum + n, 0);
    // the REST rows against the REST row, the GraphQL rows against the GraphQL row (only /graphql reports the address layer)
    const base = GRAPH_ROW[row].route === 'graphql' ? rows['embedded-graphql'] : rows['embedded-rest'];
    const differs = GRAPH_ROW[row].server === 'embedded' ? [] : layerDifferences(c, base);
    const beyond = differs.length
      ? `; layers whose status differs from the embedded graph's: ${differs.join(', ')}`
      : '';
    return `${GRAPH_ROW[row].label}: ${ok.toLocaleString('en-AU')} of ${c.total.toLocaleString('en-AU')} answered 200, ${notOk.toLocaleString('en-AU')} layers other than ok in all${beyond}`;
  });
  const same = `the whole graph of the first ${parity.compared} parcels through POST /graphql: the distributed gateway's \`data\` equal to the embedded graph's for ${parity.distributed}, the peer's for ${parity.peer}${parity.examples.length ? ` (${parity.examples.join('; ')})` : ''}`;
  return [...tallies, same];
}

const INTRO = `## The whole property graph against a peer gateway

The whole property graph (every layer; the key holds every scope) by PFI, through \`POST /graphql\` and
\`GET /v1/property/graph\`, measured side by side in one run on three servers over one database: the embedded default
(\`landgraph serve\`: the subgraphs run in the gateway's process), the distributed mode (\`landgraph serve
--distributed\`: every subgraph its own process on its own port, called over HTTP with HMAC-signed requests) and,
as the peer, ${PEER_NAME} composing the same supergraph (composed exactly as the distributed gateway composes it)
over the very same running subgraph services, signing its subgraph requests with the same shared secret through an
\`onFetch\` plugin (\`bench/peer/gateway.ts\`). The peer is installed apart, in \`bench/peer/\` with its own lockfile;
the bench runs \`npm ci --prefix bench/peer\` when it is missing. The targets: the embedded graph at least ${PEER_RATIO_TARGET}x the
peer's throughput, and its p99 under ${P99_TARGET_MS} ms at ${P99_TARGET_CONNECTIONS} connections.

What the comparison is not: the peer has no product features. Our gateway, embedded or distributed, authenticates
the API key, checks the rate limit, meters the call, measures the operation against the operation limits, runs our
validation rules and withholds the planner's identity fields the key's scopes do not open; \`/v1/property/graph\`
adds the scope filter, the reshaping and the credits. The peer does none of that (it asks the subgraphs for every
scope). The peer runs in one process, as our facade does (its CLI would fork a worker per core).

Runs with the layers phase (\`npm run bench -- --only layers\`; \`--no-peer\` leaves it out), or alone with
\`--only graph\`; \`--subgraph-pool N\` (4) sizes the distributed pools. The CPU columns: the
gateway's own process; the subgraph services' processes (distributed rows and the peer, which share them); the
PostgreSQL backends of the benchmark database. Before measuring, every request is sent once to its server and its
status and layers tallied, and the first parcels' answers are compared across the three servers.

`;

const SECTION = new SizedSection('graph-peer', 'parcels', INTRO);

export function graphSection(
  facts: GraphRunFacts,
  results: readonly GraphCompareResult[],
  checked: readonly string[],
  notes: readonly string[],
): string {
  return `${SECTION.mark(facts.parcels)}
### ${facts.parcels.toLocaleString('en-AU')} sandbox parcels, ${facts.date}

${machineLine(facts)} Load average before the comparison (1 / 5 / 15 min): ${facts.loadAvg}.
Load: ${facts.connections.join(' and ')} connections; ${facts.initialWarmupS} s warm-up of each server, then per row and connection count
${facts.warmupS} s warm-up and ${facts.durationS} s measured, best of ${facts.rounds} round${facts.rounds === 1 ? '' : 's'}; ${facts.parcelsAsked.toLocaleString('en-AU')} parcels cycled.
Embedded: \`${facts.facadeCommand}\`, pool of ${facts.poolMax}. Distributed: \`${facts.distributedCommand}\`, a pool of ${facts.subgraphPoolMax} in the gateway and in each
of the 8 subgraph services. Peer: \`node --import tsx bench/peer/gateway.ts\`. Code: ${facts.code}.
Node options of every server, ours and the peer's: ${facts.nodeOptions ? `\`NODE_OPTIONS=${facts.nodeOptions}\`` : "Node's defaults"}.

${graphTable(results)}

${graphVerdict(results)}
${closingBullets(checked, notes)}
`;
}

export function writeGraphDocs(file: string, parcels: number, body: string): void {
  SECTION.write(file, parcels, body);
}
