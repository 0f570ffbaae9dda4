import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Measurement } from './load.ts';

/**
 * A section of docs/benchmarks.md that a phase owns: an intro, then one subsection per dataset
 * size between start and end markers. A run replaces its own size's subsection and keeps the rest.
 */
export type SizedSection = { start: string; end: string; intro: string; sizeMark: RegExp; sizeMarkPrefix: string };

export function writeSizedSection(file: string, section: SizedSection, size: number, body: string): void {
  const { start: START, end: END } = section;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  if (!text.includes(START)) text = `${text.trimEnd()}\n\n${section.intro}${START}\n${END}\n`;
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${file} has no ${START} ... ${END} block`);
  const inner = text.slice(start + START.length, end);
  const sizes = new Map<number, string>();
  const prefix = section.sizeMarkPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const part of inner.split(new RegExp(`(?=${prefix}\\d+ -->)`))) {
    const found = section.sizeMark.exec(part)?.[1];
    if (found) sizes.set(Number(found), part.trim());
  }
  sizes.set(size, body.trim());
  const ordered = [...sizes.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
  writeFileSync(file, `${text.slice(0, start)}${START}\n${ordered.join('\n\n')}\n${text.slice(end)}`);
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
