/**
 * The address phase's outputs: a markdown table on stdout and a dated subsection in
 * docs/benchmarks.md between the address markers, one per address count (a rerun replaces its
 * own count). The section and its markers are appended to the file when it has none yet.
 */
import type { BenchFacts } from './docs-section.ts';
import { closingBullets, fmt, latencyTable, machineLine, SizedSection } from './docs-section.ts';
import type { AddressChecks, AddressResult, AddressRouteName } from './address-phase.ts';
import { describeChecks, P50_TARGET_MS } from './address-phase.ts';
import type { Form } from './address-queries.ts';
import { FORM_LABEL, FORMS, PREFIX_MAX, PREFIX_MIN } from './address-queries.ts';

export type AddressRunFacts = BenchFacts & {
  addresses: number;
  queries: number;
  prefixes: number;
  connections: readonly number[];
};

const ROUTE_LABEL: Record<AddressRouteName, string> = {
  'by-address': 'GET /api/cadastre/by-address',
  autocomplete: 'GET /api/address/autocomplete',
};

const INTRO = `## Address routes: by-address and autocomplete

\`GET /api/cadastre/by-address?q=\` (the matcher, then the parcel under the matched address point) and
\`GET /api/address/autocomplete?q=\` (prefix search over \`address.address_detail.search_key\`) through the facade
alone, on a scaled sandbox in PostgreSQL + PostGIS, measured with autocannon. The targets are latencies: p50 under
${P50_TARGET_MS['by-address']} ms for by-address and under ${P50_TARGET_MS.autocomplete} ms for autocomplete, at one connection (one
client waiting for each answer); throughput is measured at more connections. There is no bare baseline here.

The queries are drawn from the benchmark database: addresses with a parcel-grade geocode (PC or FCS) and a parcel,
picked by a seeded hash of their \`gnaf_pid\`. Each by-address query writes its address in one of three forms, in
turn: ${FORMS.map((f: Form) => FORM_LABEL[f]).join('; ')}. Each autocomplete query is the first ${PREFIX_MIN} to ${PREFIX_MAX}
characters (by a seeded hash) of an address typed in lower case, units as \`4/10 ...\`, as a search box sends it while
someone types. Before measuring, every measured query is sent once and checked (by-address: 200 with the parcel the
address lies on; autocomplete: 200 with suggestions), as are the G-NAF line and the whole typed line of a sample of
the addresses (the address itself among the suggestions); a route below the thresholds in \`bench/address-phase.ts\`
stops the run, so a broken route cannot win.

Run the address phase alone with \`npm run bench -- --only address --parcels 1000000\` (the scaled database is seeded
once). Options, besides the lookup's \`--duration\`, \`--warmup\`, \`--initial-warmup\`, \`--rounds\`,
\`--quiet-wait\`, \`--pool\` and \`--parcels\`: \`--only lookup|address\` (default both), \`--address-queries N\`
(2000), \`--address-connections 1,8\` (the connection counts measured; the first is the latency one).

`;

const SECTION = new SizedSection('address', 'addresses', INTRO);

export function addressTable(results: readonly AddressResult[]): string {
  return latencyTable(results.map(({ route, connections, m }) => ({ label: ROUTE_LABEL[route], connections, m })));
}

/** The verdict per route: p50 at the fewest connections measured against its target, and the best throughput. */
export function addressVerdict(results: readonly AddressResult[]): string {
  const routes = [...new Set(results.map((r) => r.route))];
  return routes
    .map((route) => {
      const mine = results.filter((r) => r.route === route);
      const fewest = mine.reduce((a, b) => (b.connections < a.connections ? b : a));
      const fastest = mine.reduce((a, b) => (b.m.rps > a.m.rps ? b : a));
      const target = P50_TARGET_MS[route];
      const single = fewest.connections === 1 ? 'one connection' : `${fewest.connections} connections`;
      const rounds = fewest.p50s.length;
      const metIn = fewest.p50s.filter((p50) => p50 < target).length;
      const met = metIn === 0 ? 'NOT met' : metIn === rounds ? 'met' : `met in ${metIn} of ${rounds} rounds only`;
      const all = rounds > 1 ? `; p50 of each round: ${fewest.p50s.map((p50) => fmt(p50, 2)).join(', ')} ms` : '';
      return `- ${route}: p50 ${fmt(fewest.m.p50, 2)} ms at ${single} (p95 ${fmt(fewest.m.p95, 2)} ms${all}): target (< ${target} ms) ${met}. Throughput ${fmt(fastest.m.rps, 0)} req/s at ${fastest.connections} connections.`;
    })
    .join('\n');
}

export function addressSection(
  facts: AddressRunFacts,
  results: readonly AddressResult[],
  checks: AddressChecks,
  notes: readonly string[],
): string {
  return `${SECTION.mark(facts.addresses)}
### ${facts.addresses.toLocaleString('en-AU')} sandbox addresses (${facts.parcels.toLocaleString('en-AU')} parcels), ${facts.date}

${machineLine(facts)}
Load: ${facts.connections.join(' and ')} connections; ${facts.initialWarmupS} s warm-up of the facade, then per route and connection count
${facts.warmupS} s warm-up and ${facts.durationS} s measured, best of ${facts.rounds} rounds; ${facts.queries.toLocaleString('en-AU')} by-address queries and
${facts.prefixes.toLocaleString('en-AU')} prefixes cycled; pool of ${facts.poolMax} connections. Facade: \`${facts.facadeCommand}\`. Code: ${facts.code}.

${addressTable(results)}

${addressVerdict(results)}
${closingBullets(describeChecks(checks), notes)}
`;
}

/** Writes `body` as the subsection for its size, keeping the other sizes' subsections. */
export function writeAddressDocs(file: string, addresses: number, body: string): void {
  SECTION.write(file, addresses, body);
}
