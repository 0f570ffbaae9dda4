/**
 * The benchmark's outputs: a markdown table on stdout and a dated section in docs/benchmarks.md,
 * between the lookup markers, one subsection per dataset size (a rerun replaces its own size).
 */
import type { BenchFacts } from './docs-section.ts';
import { machineLine, SizedSection } from './docs-section.ts';
import type { Measurement } from './load.ts';

export type ServerName = 'bare' | 'facade';
/** The best round of each server, and facade / bare within each round (the two measured back to back). */
export type RouteResult = { route: string; bare: Measurement; facade: Measurement; roundRatios: number[] };

export type RunFacts = BenchFacts & {
  points: number;
  connections: number;
};

export const TARGET_RATIO = 0.5;

const SERVER_LABEL: Record<ServerName, string> = {
  bare: 'bare (node:http + pg)',
  facade: 'facade (Express + gateway)',
};

const INTRO = `# Benchmarks

## Parcel lookup: facade against a bare server

\`GET /api/cadastre/lookup\` (by point, and by \`pfi\`) on the sandbox dataset in PostgreSQL + PostGIS, measured
with autocannon side by side with a bare Node server (\`bench/bare-server.ts\`: \`node:http\` and a \`pg\` pool, no
framework, no GraphQL) that runs the cadastre subgraph's own SQL (\`PARCELS_AT_POINTS\`, \`PARCELS_BY_PFI\`) on the
same database and answers the same JSON envelope. Each request goes to the next of about 2,000 interior points
(\`ST_PointOnSurface\`) of sandbox parcels picked by a seeded hash, so requests spread over many parcels. Both servers
run as child processes on loopback with the same pool size; the load generator runs in the parent process, on the
same machine. The target is that the facade reaches at least half the bare server's throughput.

Run it with \`npm run bench\` (PostgreSQL from \`BENCH_DATABASE_URL\`, default
\`postgresql://postgres@127.0.0.1:5432/landgraph_bench\`, created and seeded when missing). Options:
\`--duration S\` (default 10), \`--warmup S\` (3), \`--initial-warmup S\` (15), \`--rounds N\` (2, best kept),
\`--connections N\` (16), \`--quiet-wait S\` (120: how long to wait for other work on the machine to settle before each
measurement), \`--points N\` (2000), \`--pool N\` (10), \`--parcels N\` (a scaled sandbox in its own database,
\`landgraph_bench_p<N>\`, seeded once), \`--profile\` (CPU profile of the facade, summarised; figures not written here),
\`--no-docs\`. \`node --import tsx bench/breakdown.ts\` splits one lookup's Node CPU by layer, in one process.

The numbers below are from this project's 2-core machine, where PostgreSQL, both servers and autocannon share the two
cores, and other engineers' test runs come and go: the "other work" column says how busy the machine was just before
each measurement. Read the ratio and the CPU per request more than the absolute figures. The facade is started with
\`node bin/landgraph.js serve\`, except on a scaled sandbox: there \`serve\` would find no default-size load and reseed
the database, so \`bench/facade-server.ts\` builds the same runtime and app without preparing the database.

`;

const SECTION = new SizedSection('lookup', 'parcels', INTRO);

const fmt = (n: number, digits: number) =>
  n.toLocaleString('en-AU', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const ratioOf = (r: RouteResult) => r.facade.rps / r.bare.rps;

export function resultsTable(results: readonly RouteResult[]): string {
  const lines = [
    '| Route | Server | req/s | p50 ms | p99 ms | CPU ms/req: server / PostgreSQL | cores busy: other work / during run | facade / bare |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    for (const server of ['bare', 'facade'] as const) {
      const m = r[server];
      const ratio = server === 'facade' ? fmt(ratioOf(r), 2) : '';
      const failed = m.non2xx + m.errors > 0 ? ` (${m.non2xx} non-2xx, ${m.errors} errors)` : '';
      lines.push(
        `| ${r.route} | ${SERVER_LABEL[server]}${failed} | ${fmt(m.rps, 0)} | ${fmt(m.p50, 2)} | ${fmt(m.p99, 2)} | ${fmt(m.cpuMsPerRequest, 3)} / ${fmt(m.postgresMsPerRequest, 3)} | ${fmt(m.backgroundCores, 2)} / ${fmt(m.machineBusyCores, 2)} | ${ratio} |`,
      );
    }
  }
  return lines.join('\n');
}

export function verdict(results: readonly RouteResult[]): string {
  return results
    .map((r) => {
      const ratio = ratioOf(r);
      const met = ratio >= TARGET_RATIO ? 'met' : 'NOT met';
      const rounds = r.roundRatios.map((x) => fmt(x, 2)).join(', ');
      return `- ${r.route}: facade at ${fmt(ratio * 100, 0)}% of the bare server's throughput: target (>= ${TARGET_RATIO * 100}%) ${met}. Round by round (the two servers back to back): ${rounds}.`;
    })
    .join('\n');
}

export function section(facts: RunFacts, results: readonly RouteResult[], notes: readonly string[]): string {
  return `${SECTION.mark(facts.parcels)}
### ${facts.parcels.toLocaleString('en-AU')} sandbox parcels, ${facts.date}

${machineLine(facts)}
Load: ${facts.connections} connections; ${facts.initialWarmupS} s warm-up of each server, then per server and route
${facts.warmupS} s warm-up and ${facts.durationS} s measured, best of ${facts.rounds} rounds; ${facts.points.toLocaleString('en-AU')} points cycled;
pool of ${facts.poolMax} connections in each server. Facade: \`${facts.facadeCommand}\`. Code: ${facts.code}.

${resultsTable(results)}

${verdict(results)}
${notes.map((n) => `- ${n}`).join('\n')}
`;
}

/** Writes `body` as the subsection for its size, keeping the other sizes' subsections. */
export function writeDocs(file: string, parcels: number, body: string): void {
  SECTION.write(file, parcels, body);
}
