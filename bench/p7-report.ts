/**
 * The P7 phase's outputs: a markdown table on stdout and a dated subsection in docs/benchmarks.md
 * between the p7 markers, one per count of applications (a rerun replaces its own count).
 */
import type { BenchFacts } from './docs-section.ts';
import { closingBullets, fmt, latencyTable, machineLine, SizedSection } from './docs-section.ts';
import type { P7Facts } from './p7-data.ts';
import { LOTS_PER_ESTATE, P7_LGAS } from './p7-data.ts';
import type { P7Result, P7RowChecks } from './p7-phase.ts';
import { DEEP_FRACTION, describeP7Checks } from './p7-phase.ts';
import { P7_ROW, P7_ROWS } from './p7-queries.ts';

export const P7_TARGET_APPLICATIONS = 1_000_000;

export type P7RunFacts = Omit<BenchFacts, 'parcels'> & {
  data: P7Facts;
  since: string;
  connections: readonly number[];
  loadAvgBefore: string;
  loadAvgAfter: string;
};

const INTRO = `## Development pipeline at 1,000,000 DAs

Issue P7's speed targets, through the facade alone (autocannon, loopback, a test key with auth, rate limit and
metering on every request): the DA change feed (\`GET /v1/development-applications/feed\`, a page of 200 rows) p50
under 30 ms with 1,000,000 DAs in the table; land-supply lots nearby (\`GET /v1/land-supply/lots/nearby\`) p50 under
10 ms; a lot tile (\`GET /api/land-supply/lots/tiles/{z}/{x}/{y}\`) p50 under 20 ms at zoom 14-16. A target is read at
one connection; 16 connections show throughput.

The phase has its own PostgreSQL database (\`landgraph_bench_p7\`): the default sandbox, then (bench/p7-data.ts, a few
\`INSERT ... SELECT generate_series\` statements, deterministic, labelled synthetic) 1,000,000 DAs in the sandbox
dataset spread over ${P7_LGAS.length} LGAs of VIC, NSW and QLD by size (a Gaussian cloud around each LGA's centre; 2% without an LGA,
3% without a point), received over 2016-2026 (more in recent years, in no physical order), every status and category;
and estates of ${LOTS_PER_ESTATE} lots (10 x 15 plots of 15 x 32 m with drawn boundaries) on a 3 km grid near the growth LGAs,
then \`VACUUM ANALYZE\`. The feed is asked by every LGA's code and by windows around ten cities (2°, and 0.05-1°),
first pages, with \`updated_since\` 90 days before the newest change, and deep pages (a cursor placed ${DEEP_FRACTION * 100}% of the way
through the query's rows: the first page's own cursor moved there, checked against SQL); sparse windows are 2°
windows 1° to 1.5° inland, along the coast or out to sea from each city holding some DAs but fewer than 5,000 (the case
where walking the feed's index in order passes over the most rows). Lots nearby: a sample of lots' points, 1 km. Tiles: every
distinct tile at z14, z15 and z16 holding a sampled lot.

Run it with \`npm run bench -- --only p7\`. Options, besides \`--duration\`, \`--warmup\`, \`--initial-warmup\`,
\`--rounds\`, \`--quiet-wait\` and \`--pool\`: \`--p7-applications N\` (1000000; loads once, reloads when the count
differs), \`--p7-lots N\` (lot points sampled, 1000), \`--p7-connections 1,16\` (the first is the latency one).

`;

const SECTION = new SizedSection('p7', 'applications', INTRO);

export function p7Table(results: readonly P7Result[]): string {
  return latencyTable(results.map(({ row, connections, m }) => ({ label: P7_ROW[row].label, connections, m })));
}

/** Per row: p50 at the fewest connections against its target, and the best throughput. */
export function p7Verdict(results: readonly P7Result[], applications: number): string {
  const scale =
    applications >= P7_TARGET_APPLICATIONS
      ? ''
      : ` (the feed target is set for ${P7_TARGET_APPLICATIONS.toLocaleString('en-AU')} DAs; this run had ${applications.toLocaleString('en-AU')})`;
  return P7_ROWS.map((row) => {
    const mine = results.filter((r) => r.row === row);
    if (mine.length === 0) return `- ${P7_ROW[row].label}: not measured.`;
    const fewest = mine.reduce((a, b) => (b.connections < a.connections ? b : a));
    const fastest = mine.reduce((a, b) => (b.m.rps > a.m.rps ? b : a));
    const target = P7_ROW[row].targetMs;
    const failed = fewest.m.non2xx + fewest.m.errors > 0;
    const metIn = fewest.p50s.filter((p50) => p50 < target).length;
    const rounds = fewest.p50s.length;
    const met = failed
      ? 'NOT met (answers other than 200)'
      : metIn === 0
        ? 'NOT met'
        : metIn === rounds
          ? 'met'
          : `met in ${metIn} of ${rounds} rounds only`;
    const all = rounds > 1 ? `; p50 of each round: ${fewest.p50s.map((p50) => fmt(p50, 2)).join(', ')} ms` : '';
    const single = fewest.connections === 1 ? 'one connection' : `${fewest.connections} connections`;
    return `- ${P7_ROW[row].label}: p50 ${fmt(fewest.m.p50, 2)} ms at ${single} (p95 ${fmt(fewest.m.p95, 2)}, p99 ${fmt(fewest.m.p99, 2)} ms${all}): target (< ${target} ms) ${met}${row.startsWith('tile') || row === 'lots-nearby' ? '' : scale}. Throughput ${fmt(fastest.m.rps, 0)} req/s at ${fastest.connections} connection${fastest.connections === 1 ? '' : 's'}.`;
  }).join('\n');
}

export function p7Section(
  facts: P7RunFacts,
  results: readonly P7Result[],
  checks: readonly P7RowChecks[],
  notes: readonly string[],
): string {
  const d = facts.data;
  return `${SECTION.mark(d.applications)}
### ${d.applications.toLocaleString('en-AU')} DAs (${d.benchApplications.toLocaleString('en-AU')} synthetic + the sandbox's), ${d.lots.toLocaleString('en-AU')} lots in ${d.estates.toLocaleString('en-AU')} estates, ${facts.date}

${machineLine({ ...facts, parcels: 0 })} Load average (1 / 5 / 15 min) before the phase: ${facts.loadAvgBefore}; after it: ${facts.loadAvgAfter}.
**The machine is shared**: other helpers' builds and tests ran during this phase; the "cores busy" column shows how
many cores other work kept busy just before each measurement and how many were busy during it (2 in all).
Load: ${facts.connections.join(' and ')} connections; ${facts.initialWarmupS} s warm-up of the facade, then per row and connection count
${facts.warmupS} s warm-up and ${facts.durationS} s measured, best of ${facts.rounds} round${facts.rounds === 1 ? '' : 's'}; \`updated_since\` ${facts.since};
pool of ${facts.poolMax} connections. Facade: \`${facts.facadeCommand}\`. Code: ${facts.code}.

${p7Table(results)}

${p7Verdict(results, d.applications)}
${closingBullets(describeP7Checks(checks), notes)}
`;
}

export function writeP7Docs(file: string, applications: number, body: string): void {
  SECTION.write(file, applications, body);
}
