/**
 * The embedded default as a first-time user meets it: `landgraph serve` with no DATABASE_URL.
 * Cold start: a fresh data folder (PGlite created, migrated, the sandbox generated and loaded).
 * Warm start: the same folder again, the sandbox already loaded. Memory: the server's resident
 * set (VmRSS) after a warm start and after it served a fixed mix of requests, and its peak
 * (VmHWM). Start times are wall clock from spawn to the first 200 of /api/health, beside the CPU
 * the process spent by then: on a shared machine the wall clock stretches, the CPU much less.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { embeddedDatabaseUrl } from '../core/db.ts';
import { byAddressQueries, prefixQueries } from './address-queries.ts';
import { processTicks } from './cpu.ts';
import { benchAddresses, benchPoints, databaseFacts } from './database.ts';
import { fmt, SizedSection } from './docs-section.ts';
import { planningQueries } from './planning-queries.ts';
import type { Child } from './processes.ts';
import { freePort, startChild, stopChild } from './processes.ts';

const START_TIMEOUT_MS = 600_000;
const POLL_MS = 50;
const TICKS_PER_S = 100;
const SCOPES = [
  'cadastre.read',
  'locality.read',
  'planning.provisions.read',
  'envelope.by-address.read',
  'property-graph.read',
];

export type StartOptions = { requests: number; warmStarts: number; concurrency: number; seed: number };

export type Start = { wallS: number; cpuS: number; rssMb: number };
export type StartResult = {
  entry: string;
  cold: Start;
  warm: Start[];
  rssAfterStartMb: number;
  rssAfterLoadMb: number;
  peakMb: number;
  requests: number;
  non2xx: number;
  routes: string[];
  loadS: number;
  parcels: number;
  postgres: string;
  postgis: string;
};

function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return kb / 1024;
}

const pidOf = (child: Child): number => {
  if (child.process.pid === undefined) throw new Error(`${child.name} has no process id`);
  return child.process.pid;
};

/** Spawns the server and times it to its first healthy answer, polled every 50 ms. */
async function timedStart(root: string, dataDir: string, entry: string[]): Promise<{ child: Child; start: Start }> {
  const port = await freePort();
  const began = performance.now();
  const child = startChild('embedded', entry, {
    cwd: root,
    url: `http://127.0.0.1:${port}`,
    env: {
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LANDGRAPH_MODE: 'embedded',
      LANDGRAPH_LOG_LEVEL: 'warn',
      LANDGRAPH_DATA_DIR: dataDir,
      NODE_ENV: 'production',
    },
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`the server exited:\n${child.output.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`no healthy answer within ${START_TIMEOUT_MS / 1000} s`);
    const ok = await fetch(`${child.url}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
      async (r) => (await r.arrayBuffer(), r.ok),
      () => false,
    );
    if (ok) break;
    await sleep(POLL_MS);
  }
  const wallS = (performance.now() - began) / 1000;
  const pid = pidOf(child);
  // The answer must be this server's: another process may have taken the port it was given (freePort
  // only knows the port was free a moment before), and a server that found another live owner of the
  // folder would reach its database over the socket; either way the figures would be of something else.
  const socket = join(dataDir, 'socket.json');
  const owner = existsSync(socket) ? (JSON.parse(readFileSync(socket, 'utf8')) as { pid?: number }).pid : undefined;
  if (owner !== pid)
    throw new Error(
      `the healthy answer was not the server's (pid ${pid}): ${dataDir} is owned by ${owner ?? 'nobody'}`,
    );
  return { child, start: { wallS, cpuS: processTicks(pid) / TICKS_PER_S, rssMb: procStatusMb(pid, 'VmRSS') } };
}

async function createKey(root: string, dataDir: string): Promise<string> {
  const args = ['bin/landgraph.js', 'keys', 'create', '--name', 'landgraph-bench-start', '--kind', 'test'];
  args.push('--scopes', SCOPES.join(','), '--rate-limit', '100000000');
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', LANDGRAPH_DATA_DIR: dataDir, LANDGRAPH_LOG_LEVEL: 'warn' },
    timeout: 120_000,
  });
  const { secret } = JSON.parse(stdout) as { secret?: unknown };
  if (typeof secret !== 'string') throw new Error(`keys create printed no secret:\n${stdout}`);
  return secret;
}

/** One path per route in turn: lookups by point and pfi, address search, planning, the property graph. */
async function mixedPaths(databaseUrl: string, seed: number, count: number): Promise<string[]> {
  const [points, addresses, planning] = await Promise.all([
    benchPoints(databaseUrl, 200, seed),
    benchAddresses(databaseUrl, 200, seed),
    planningQueries(databaseUrl, 100, seed),
  ]);
  const lists = [
    points.map((p) => `/api/cadastre/lookup?lat=${p.lat}&lng=${p.lng}&state=${p.state}`),
    points.map((p) => `/api/cadastre/lookup?pfi=${encodeURIComponent(p.pfi)}&state=${p.state}`),
    byAddressQueries(addresses).map((q) => q.path),
    prefixQueries(addresses).map((q) => q.path),
    planning.routes.provisions.map((q) => q.path),
    planning.routes['envelope-by-address'].map((q) => q.path),
    points.map((p) => `/v1/property/graph?lat=${p.lat}&lng=${p.lng}`),
  ].filter((list) => list.length > 0);
  return Array.from({ length: count }, (_, i) => {
    const list = lists[i % lists.length] ?? [];
    return list[Math.floor(i / lists.length) % list.length] ?? '/api/health';
  });
}

async function serveRequests(url: string, paths: readonly string[], secret: string, concurrency: number) {
  let next = 0;
  let non2xx = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] ?? '/api/health';
      const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${secret}` } });
      await response.arrayBuffer();
      if (response.status < 200 || response.status >= 300) non2xx += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return non2xx;
}

export async function measureStart(
  root: string,
  entry: { label: string; args: string[] },
  opts: StartOptions,
  log: (line: string) => void,
): Promise<StartResult> {
  const dataDir = join(root, '.landgraph-bench', 'embedded-start');
  rmSync(dataDir, { recursive: true, force: true });
  log(`cold start of ${entry.label} in a fresh ${dataDir}`);
  const cold = await timedStart(root, dataDir, entry.args);
  log(`  cold: ${fmt(cold.start.wallS, 1)} s (${fmt(cold.start.cpuS, 1)} s CPU), ${fmt(cold.start.rssMb, 0)} MB`);
  await stopChild(cold.child);
  const warm: Start[] = [];
  let running: Child | undefined;
  let picked: { secret: string; paths: string[]; db: Awaited<ReturnType<typeof databaseFacts>> } | undefined;
  for (let i = 0; i < opts.warmStarts; i += 1) {
    const started = await timedStart(root, dataDir, entry.args);
    warm.push(started.start);
    log(
      `  warm ${i + 1}: ${fmt(started.start.wallS, 1)} s (${fmt(started.start.cpuS, 1)} s CPU), ${fmt(started.start.rssMb, 0)} MB`,
    );
    if (!picked) {
      // The requests and the key are picked through the first warm server, not the measured one:
      // the sampling queries (sorting every parcel by a hash) would grow the measured server's
      // WebAssembly memory by tens of MB that no request needs.
      const databaseUrl = embeddedDatabaseUrl(dataDir);
      if (!databaseUrl) throw new Error(`no live embedded database in ${dataDir}`);
      const [secret, paths, db] = await Promise.all([
        createKey(root, dataDir),
        mixedPaths(databaseUrl, opts.seed, opts.requests),
        databaseFacts(databaseUrl),
      ]);
      picked = { secret, paths, db };
    }
    if (i < opts.warmStarts - 1) await stopChild(started.child);
    else running = started.child;
  }
  if (!running || !picked) throw new Error('no warm start ran');
  const pid = pidOf(running);
  const rssAfterStartMb = procStatusMb(pid, 'VmRSS');
  const { secret, paths, db } = picked;
  log(`serving ${paths.length} mixed requests, ${opts.concurrency} at a time`);
  const loadStarted = performance.now();
  const non2xx = await serveRequests(running.url, paths, secret, opts.concurrency);
  const loadS = (performance.now() - loadStarted) / 1000;
  const result: StartResult = {
    entry: entry.label,
    cold: cold.start,
    warm,
    rssAfterStartMb,
    rssAfterLoadMb: procStatusMb(pid, 'VmRSS'),
    peakMb: procStatusMb(pid, 'VmHWM'),
    requests: paths.length,
    non2xx,
    routes: [...new Set(paths.map((p) => p.split('?')[0] ?? p))],
    loadS,
    parcels: db.parcels,
    postgres: db.postgres,
    postgis: db.postgis,
  };
  await stopChild(running);
  return result;
}

const TARGETS = { rssMb: 600, warmS: 3, coldS: 20 };
const best = (starts: readonly Start[], key: 'wallS' | 'cpuS') => Math.min(...starts.map((s) => s[key]));

export function startVerdict(r: StartResult): string[] {
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const warmBest = best(r.warm, 'wallS');
  return [
    `RSS after ${r.requests} mixed requests: ${fmt(r.rssAfterLoadMb, 0)} MB (peak ${fmt(r.peakMb, 0)} MB): target (< ${TARGETS.rssMb} MB) ${met(r.rssAfterLoadMb < TARGETS.rssMb)}.`,
    `Warm start: best ${fmt(warmBest, 1)} s of ${r.warm.length}: target (< ${TARGETS.warmS} s) ${met(warmBest < TARGETS.warmS)}.`,
    `Cold start: ${fmt(r.cold.wallS, 1)} s: target (< ${TARGETS.coldS} s) ${met(r.cold.wallS < TARGETS.coldS)}.`,
  ];
}

export type StartFacts = { date: string; cpus: string; nproc: number; node: string; code: string; loadAvg: string };

export function startSection(facts: StartFacts, r: StartResult): string {
  const row = (label: string, s: Start) => `| ${label} | ${fmt(s.wallS, 1)} | ${fmt(s.cpuS, 1)} | ${fmt(s.rssMb, 0)} |`;
  return [
    `### ${r.entry}: ${fmt(r.parcels, 0)} sandbox parcels, ${facts.date}`,
    '',
    `Machine: ${facts.nproc} cores (${facts.cpus}), Node ${facts.node}, PGlite (PostgreSQL ${r.postgres}, PostGIS ${r.postgis}); load average ${facts.loadAvg} when the phase began. Code: ${facts.code}.`,
    '',
    '| Start | wall s | CPU s | RSS MB when healthy |',
    '| --- | ---: | ---: | ---: |',
    row('cold (fresh data folder)', r.cold),
    ...r.warm.map((s, i) => row(`warm ${i + 1}`, s)),
    '',
    `RSS after the last warm start: ${fmt(r.rssAfterStartMb, 0)} MB; after ${r.requests} mixed requests (${r.non2xx} non-2xx, ${fmt(r.loadS, 1)} s): ${fmt(r.rssAfterLoadMb, 0)} MB; peak ${fmt(r.peakMb, 0)} MB.`,
    `Routes, in turn: ${r.routes.map((p) => `\`${p}\``).join(', ')}.`,
    '',
    ...startVerdict(r).map((line) => `- ${line}`),
  ].join('\n');
}

const INTRO = `## Embedded default: start time and memory

\`npm run bench -- --only start\` starts \`landgraph serve\` with no DATABASE_URL, as \`npm start\` does, in a
fresh data folder (cold: PGlite created, migrated, the sandbox generated and loaded), then three times more on
the same folder (warm), timing each from spawn to the first healthy answer of \`/api/health\`, beside the CPU
seconds the server had used by then. The last warm server then answers 1,000 requests (four at a time; they and the key are picked through the
first warm server, so the sampling queries do not count) cycling
over lookups by point and by pfi, address search and autocomplete, the planning routes and the property graph, with
a test key; its resident set (VmRSS) and peak (VmHWM) are read from /proc. Targets: RSS under 600 MB, warm start
under 3 s, cold start under 20 s. \`--start-entry sources\` measures the TypeScript sources through tsx instead of
the build in dist/.

`;

const SOURCES_INTRO = `### The same, from the TypeScript sources through tsx (\`--start-entry sources\`)

`;

/** Where a run's figures go: the build and the sources each keep their own block. */
export const startDocs = (entry: 'dist' | 'sources'): SizedSection =>
  entry === 'dist'
    ? new SizedSection('start', 'parcels', INTRO)
    : new SizedSection('start-sources', 'parcels', SOURCES_INTRO);
