import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Measurement } from './load.ts';

/**
 * A section of docs/benchmarks.md that a phase owns: an intro, then one subsection per dataset
 * size between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`, each subsection
 * opened by `<!-- bench:<name>:<sizeKey>=<size> -->`. A run replaces its own size's subsection.
 */
export class SizedSection {
  private readonly start: string;
  private readonly end: string;
  private readonly markPrefix: string;

  constructor(
    name: string,
    sizeKey: string,
    private readonly intro: string,
  ) {
    this.start = `<!-- bench:${name}:start -->`;
    this.end = `<!-- bench:${name}:end -->`;
    this.markPrefix = `<!-- bench:${name}:${sizeKey}=`;
  }

  /** The line that opens a size's subsection. */
  mark(size: number): string {
    return `${this.markPrefix}${size} -->`;
  }

  /** Writes `body` (opened by `mark(size)`) as its size's subsection, keeping the other sizes'. */
  write(file: string, size: number, body: string): void {
    const { start: START, end: END } = this;
    let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
    if (!text.includes(START)) text = `${text.trimEnd()}\n\n${this.intro}${START}\n${END}\n`;
    const start = text.indexOf(START);
    const end = text.indexOf(END);
    if (start < 0 || end < start) throw new Error(`${file} has no ${START} ... ${END} block`);
    const sizes = new Map<number, string>();
    for (const part of text.slice(start + START.length, end).split(this.markPrefix)) {
      const found = /^(\d+) -->/.exec(part)?.[1];
      if (found) sizes.set(Number(found), `${this.markPrefix}${part}`.trim());
    }
    sizes.set(size, body.trim());
    const ordered = [...sizes.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
    writeFileSync(file, `${text.slice(0, start)}${START}\n${ordered.join('\n\n')}\n${text.slice(end)}`);
  }
}

export const fmt = (n: number, digits: number) =>
  n.toLocaleString('en-AU', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** One row per route and connection count: throughput, latencies, CPU per request and how busy the machine was. */
export function latencyTable(rows: ReadonlyArray<{ label: string; connections: number; m: Measurement }>): string {
  const lines = [
    '| Route | Connections | req/s | p50 ms | p95 ms | p99 ms | CPU ms/req: facade / PostgreSQL | cores busy: other work / during run | non-2xx / errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { label, connections, m } of rows) {
    lines.push(
      `| ${label} | ${connections} | ${fmt(m.rps, 0)} | ${fmt(m.p50, 2)} | ${fmt(m.p95, 2)} | ${fmt(m.p99, 2)} | ${fmt(m.cpuMsPerRequest, 3)} / ${fmt(m.postgresMsPerRequest, 3)} | ${fmt(m.backgroundCores, 2)} / ${fmt(m.machineBusyCores, 2)} | ${m.non2xx} / ${m.errors} |`,
    );
  }
  return lines.join('\n');
}

/** What every phase's docs subsection says about the machine, the database and the run. */
export type BenchFacts = {
  date: string;
  cpus: string;
  nproc: number;
  node: string;
  postgres: string;
  postgis: string;
  parcels: number;
  durationS: number;
  warmupS: number;
  initialWarmupS: number;
  rounds: number;
  poolMax: number;
  facadeCommand: string;
  code: string;
};

export function machineLine(facts: BenchFacts): string {
  return `Machine: ${facts.nproc} cores (${facts.cpus}), Node ${facts.node}, PostgreSQL ${facts.postgres} with PostGIS ${facts.postgis}.`;
}

/** The closing bullets of a subsection: what was checked before measuring, then the run's notes. */
export function closingBullets(checked: readonly string[], notes: readonly string[]): string {
  return [...checked.map((line) => `- Checked before measuring: ${line}.`), ...notes.map((n) => `- ${n}`)].join('\n');
}
