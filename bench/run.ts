/**
 * `npm run bench`: GET /api/cadastre/lookup through the facade against a bare node:http + pg
 * server running the same SQL on the same PostgreSQL, same points, same load, same run; then
 * GET /api/cadastre/by-address and GET /api/address/autocomplete through the facade alone; then
 * GET /v1/planning-provisions and GET /v1/envelope-by-address through the facade alone
 * and the layer routes of issue #11 with the whole property graph through REST and /graphql
 * and the whole graph against @graphql-hive/gateway over the distributed mode's subgraph services
 * (`--only start|lookup|address|planning|layers|graph|analytics|catchment|p7|enrich` runs one phase; layers includes graph unless --no-peer;
 * analytics times the suburb-analytics bundle, screen and timeseries against their p50 targets (`--analytics-suburbs N`: with N synthetic
 * suburbs per state besides the sandbox's, bench/analytics-scale.ts); catchment the walking catchment;
 * p7 the DA feed over 1,000,000 DAs, lots nearby and lot tiles in a database of its own; enrich one 2,000-row enrich job). First of all, the start phase times the
 * embedded default's cold and warm starts and reads its memory after a mix of requests. Bounded: loopback only, every phase has a
 * fixed duration, children are stopped on any exit.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import { loadConfig } from '../core/config.ts';
import type { Headers } from './api-key.ts';
import { benchHeaders } from './api-key.ts';
import type { AddressChecks, AddressResult } from './address-phase.ts';
import { checkAddressRoutes, describeChecks, measureAddressRoutes } from './address-phase.ts';
import type { ByAddressQuery, PrefixQuery } from './address-queries.ts';
import { byAddressQueries, gnafQueries, prefixQueries, rebuildsFormattedAddress } from './address-queries.ts';
import type { AddressRunFacts } from './address-report.ts';
import type { BenchFacts } from './docs-section.ts';
import { addressSection, addressTable, addressVerdict, writeAddressDocs } from './address-report.ts';
import type { BenchAddress, BenchPoint } from './database.ts';
import {
  benchAddresses,
  benchPoints,
  databaseFacts,
  DEFAULT_BENCH_DATABASE_URL,
  prepareBenchDatabase,
} from './database.ts';
import type { LoadOptions, Measurement, Target } from './load.ts';
import { measure, stopLoad, warmUp } from './load.ts';
import type { PlanningChecks } from './planning-checks.ts';
import { checkPlanningRoutes, describePlanningChecks } from './planning-checks.ts';
import type { PlanningResult } from './planning-phase.ts';
import { measurePlanningRoutes } from './planning-phase.ts';
import type { PlanningQueries } from './planning-queries.ts';
import { planningQueries } from './planning-queries.ts';
import type { PlanningRunFacts } from './planning-report.ts';
import { planningSection, planningTable, planningVerdict, writePlanningDocs } from './planning-report.ts';
import type { LayerChecks, LayerResult } from './layers-phase.ts';
import { checkLayerRoutes, describeLayerChecks, measureLayerRoutes } from './layers-phase.ts';
import type { LayerQueries } from './layers-queries.ts';
import { layerQueries } from './layers-queries.ts';
import type { LayerRunFacts } from './layers-report.ts';
import { layersSection, layersTable, layersVerdict, writeLayersDocs } from './layers-report.ts';
import type { GraphChecks } from './graph-compare.ts';
import {
  checkGraphServers,
  ensurePeerInstalled,
  graphTargets,
  measureGraphServers,
  startGraphServers,
  stopGraphServers,
} from './graph-compare.ts';
import type { GraphCompareResult } from './graph-compare-report.ts';
import { describeGraphChecks, graphSection, graphTable, graphVerdict, writeGraphDocs } from './graph-compare-report.ts';
import type { Child } from './processes.ts';
import { freePort, startChild, stopAllChildren, stopChildrenOnExit, waitUntilAnswering } from './processes.ts';
import { measureStart, startDocs, startSection, startVerdict } from './start-phase.ts';
import type { AnalyticsQueries } from './analytics-phase.ts';
import {
  analyticsQueries,
  analyticsVerdict,
  checkAnalyticsScreens,
  measureAnalyticsRoutes,
} from './analytics-phase.ts';
import { removeSyntheticSuburbs, scaleSuburbAnalytics, syntheticCounts } from './analytics-scale.ts';
import { catchmentPaths, catchmentVerdict, checkCatchments, measureCatchments } from './catchment-phase.ts';
import { P7_DATABASE_URL, prepareP7Database } from './p7-data.ts';
import { describeP7Checks, measureP7, p7Requests } from './p7-phase.ts';
import { P7_ROW, p7Queries } from './p7-queries.ts';
import { p7Section, p7Table, p7Verdict, writeP7Docs } from './p7-report.ts';
import type { Window } from './profile.ts';
import { monotonicUs, summariseProfiles } from './profile.ts';
import type { RouteResult, RunFacts } from './report.ts';
import { resultsTable, section, verdict, writeDocs } from './report.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The machine's load average (1 / 5 / 15 min), as each phase reports it beside its figures. */
const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
const DOCS = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const PROFILE_DIR = fileURLToPath(new URL('../.landgraph-bench/profiles', import.meta.url));
const START_TIMEOUT_MS = 180_000;
const PARITY_SAMPLES = 20;
/** Addresses whose G-NAF line and whole typed line are checked besides the measured queries. */
const ADDRESS_CHECK_SAMPLE = 500;
const PHASES = [
  'start',
  'lookup',
  'address',
  'planning',
  'layers',
  'graph',
  'analytics',
  'catchment',
  'p7',
  'enrich',
] as const;
type Phase = (typeof PHASES)[number];

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      'initial-warmup': { type: 'string', default: '15' },
      rounds: { type: 'string', default: '2' },
      connections: { type: 'string', default: '16' },
      'quiet-wait': { type: 'string', default: '120' },
      points: { type: 'string', default: '2000' },
      pool: { type: 'string', default: '10' },
      parcels: { type: 'string' },
      only: { type: 'string' },
      'address-queries': { type: 'string', default: '2000' },
      'address-connections': { type: 'string', default: '1,8' },
      'planning-lots': { type: 'string', default: '1500' },
      'planning-connections': { type: 'string', default: '1,8' },
      'layers-parcels': { type: 'string', default: '1000' },
      'layers-connections': { type: 'string', default: '1,16' },
      'analytics-suburbs': { type: 'string', default: '0' },
      'catchment-points': { type: 'string', default: '200' },
      'catchment-connections': { type: 'string', default: '1,4' },
      'p7-applications': { type: 'string', default: '1000000' },
      'p7-lots': { type: 'string', default: '1000' },
      'p7-connections': { type: 'string', default: '1,16' },
      'start-entry': { type: 'string', default: 'dist' },
      'start-requests': { type: 'string', default: '1000' },
      'warm-starts': { type: 'string', default: '3' },
      'start-node-args': { type: 'string', default: '' },
      'no-peer': { type: 'boolean', default: false },
      'prepare-only': { type: 'boolean', default: false },
      'subgraph-pool': { type: 'string', default: '4' },
      profile: { type: 'boolean', default: false },
      'no-docs': { type: 'boolean', default: false },
    },
  });
  const int = (name: string, value: string, min: number, max: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer ${min}..${max}`);
    return n;
  };
  const only = values.only;
  if (only !== undefined && !PHASES.includes(only as Phase)) throw new Error(`--only must be ${PHASES.join(' or ')}`);
  const phases = new Set<Phase>(only === undefined ? PHASES : [only as Phase]);
  const counts = (
    name:
      | 'address-connections'
      | 'planning-connections'
      | 'layers-connections'
      | 'catchment-connections'
      | 'p7-connections',
  ) => values[name].split(',').map((n) => int(name, n.trim(), 1, 256));
  const startEntry: 'dist' | 'sources' = values['start-entry'] === 'sources' ? 'sources' : 'dist';
  if (values['start-entry'] !== startEntry) throw new Error('--start-entry must be dist or sources');
  return {
    phases,
    /** Whether --only named the phase (else every phase runs). */
    onePhase: only !== undefined,
    startEntry,
    startRequests: int('start-requests', values['start-requests'], 1, 100_000),
    warmStarts: int('warm-starts', values['warm-starts'], 1, 10),
    startNodeArgs: values['start-node-args'].split(' ').filter(Boolean),
    addressQueries: int('address-queries', values['address-queries'], 3, 100_000),
    addressConnections: counts('address-connections'),
    planningLots: int('planning-lots', values['planning-lots'], 3, 100_000),
    planningConnections: counts('planning-connections'),
    layersParcels: int('layers-parcels', values['layers-parcels'], 1, 100_000),
    layersConnections: counts('layers-connections'),
    // synthetic computed suburbs per sandbox state for the analytics phase (0: the sandbox's own only)
    analyticsSuburbs: int('analytics-suburbs', values['analytics-suburbs'], 0, 20_000),
    catchmentPoints: int('catchment-points', values['catchment-points'], 1, 100_000),
    catchmentConnections: counts('catchment-connections'),
    p7Applications: int('p7-applications', values['p7-applications'], 1_000, 10_000_000),
    p7Lots: int('p7-lots', values['p7-lots'], 1, 100_000),
    p7Connections: counts('p7-connections'),
    peer: !values['no-peer'],
    prepareOnly: values['prepare-only'],
    // 8 subgraph services and the gateway each hold a pool: 9 x 4 leaves room under max_connections 100
    subgraphPoolMax: int('subgraph-pool', values['subgraph-pool'], 1, 10),
    load: {
      durationS: int('duration', values.duration, 1, 300),
      warmupS: int('warmup', values.warmup, 0, 60),
      connections: int('connections', values.connections, 1, 256),
      quietWaitS: int('quiet-wait', values['quiet-wait'], 0, 1800),
    } satisfies LoadOptions,
    initialWarmupS: int('initial-warmup', values['initial-warmup'], 0, 120),
    rounds: int('rounds', values.rounds, 1, 10),
    points: int('points', values.points, 1, 100_000),
    poolMax: int('pool', values.pool, 1, 90),
    parcels: values.parcels === undefined ? undefined : int('parcels', values.parcels, 600, 5_000_000),
    profile: values.profile,
    docs: !values['no-docs'],
  };
}

type Servers = { bare: Child | undefined; facade: Child; facadeCommand: string };

/** The facade, and the bare server when the lookup comparison runs. */
async function startServers(
  databaseUrl: string,
  poolMax: number,
  scaled: boolean,
  profile: boolean,
  withBare: boolean,
): Promise<Servers> {
  const [barePort, facadePort, subgraphBasePort] = [await freePort(), await freePort(), await freePort()];
  const common = { DATABASE_URL: databaseUrl, DATABASE_POOL_MAX: String(poolMax), NODE_ENV: 'production' };
  const bare = withBare
    ? startChild('bare', ['--import', 'tsx', 'bench/bare-server.ts'], {
        cwd: ROOT,
        url: `http://127.0.0.1:${barePort}`,
        env: { ...common, PORT: String(barePort) },
      })
    : undefined;
  const entry = scaled ? ['--import', 'tsx', 'bench/facade-server.ts'] : ['bin/landgraph.js', 'serve'];
  const prof = profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const facade = startChild('facade', [...prof, ...entry], {
    cwd: ROOT,
    url: `http://127.0.0.1:${facadePort}`,
    echo: true,
    env: {
      ...common,
      PORT: String(facadePort),
      HOST: '127.0.0.1',
      LANDGRAPH_MODE: 'embedded',
      LANDGRAPH_LOG_LEVEL: 'warn',
      LANDGRAPH_SUBGRAPH_BASE_PORT: String(subgraphBasePort),
      LANDGRAPH_DATA_DIR: '.landgraph-bench',
    },
  });
  await Promise.all([
    bare ? waitUntilAnswering(bare, '/api/health', START_TIMEOUT_MS) : undefined,
    waitUntilAnswering(facade, '/api/health', START_TIMEOUT_MS),
  ]);
  return { bare, facade, facadeCommand: `node ${[...prof, ...entry].join(' ')}` };
}

function pidOf(child: Child): number {
  if (child.process.pid === undefined) throw new Error(`${child.name} has no process id`);
  return child.process.pid;
}

const fetchJson = async (url: string, headers: Headers): Promise<unknown> => (await fetch(url, { headers })).json();

/** The two servers must answer the same JSON, or the comparison means nothing. */
async function checkParity(servers: Servers, paths: readonly string[], headers: Headers): Promise<void> {
  const bareUrl = servers.bare?.url;
  if (!bareUrl) throw new Error('The lookup comparison needs the bare server.');
  for (const path of paths.slice(0, PARITY_SAMPLES)) {
    const [bare, facade] = await Promise.all([
      fetchJson(`${bareUrl}${path}`, headers),
      fetchJson(`${servers.facade.url}${path}`, headers),
    ]);
    if (!isDeepStrictEqual(bare, facade)) {
      throw new Error(
        `The servers disagree on ${path}:\nbare:   ${JSON.stringify(bare)}\nfacade: ${JSON.stringify(facade)}`,
      );
    }
  }
}

function routes(points: readonly BenchPoint[]) {
  const at = (p: BenchPoint) => `/api/cadastre/lookup?lat=${p.lat}&lng=${p.lng}&state=${p.state}`;
  const byPfi = (p: BenchPoint) => `/api/cadastre/lookup?pfi=${encodeURIComponent(p.pfi)}&state=${p.state}`;
  return [
    { route: 'lookup by point', paths: points.map(at) },
    { route: 'lookup by pfi', paths: points.map(byPfi) },
  ];
}

function line(server: string, m: Measurement): string {
  return `  ${server.padEnd(6)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50.toFixed(2)} ms  p99 ${m.p99.toFixed(2)} ms  CPU ms/req: server ${m.cpuMsPerRequest.toFixed(3)}, postgres ${m.postgresMsPerRequest.toFixed(3)}, autocannon ${m.loadGeneratorMsPerRequest.toFixed(3)}  machine ${m.machineBusyCores.toFixed(2)} cores busy (${m.backgroundCores.toFixed(2)} before)  (${m.requests} requests, ${m.non2xx} non-2xx, ${m.errors} errors)\n`;
}

/** The code measured: the commit, and whether the work tree held changes on top of it. */
function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

type Options = ReturnType<typeof options>;
type Plan = ReturnType<typeof routes>;
const better = (a: Measurement | undefined, b: Measurement) => (a && a.rps >= b.rps ? a : b);

/**
 * A first warm-up of every route on each server (a fresh facade needs tens of seconds of load
 * before its JIT settles), then `rounds` rounds of every route on both servers, alternating
 * which server goes first; the best round of each server and route is kept, since on a shared
 * machine a round's only error is other work slowing it down.
 */
async function measureAll(
  servers: Servers,
  plan: Plan,
  opts: Options,
  target: (server: 'bare' | 'facade') => Target,
  facadeWindows: Window[],
) {
  const mixed = plan[0]?.paths.flatMap((path, i) => plan.map((r) => r.paths[i] ?? path)) ?? [];
  process.stdout.write(`warming both servers up: ${opts.initialWarmupS} s each
`);
  for (const server of ['bare', 'facade'] as const) {
    await warmUp(target(server), mixed, opts.load.connections, opts.initialWarmupS);
  }
  const best = plan.map((): Partial<Record<'bare' | 'facade', Measurement>> => ({}));
  const roundRatios = plan.map((): number[] => []);
  for (let round = 0; round < opts.rounds; round += 1) {
    for (const [index, r] of plan.entries()) {
      process.stdout
        .write(`${r.route}, round ${round + 1}/${opts.rounds}: ${opts.load.warmupS} s warm-up + ${opts.load.durationS} s
`);
      const order = (index + round) % 2 === 0 ? (['bare', 'facade'] as const) : (['facade', 'bare'] as const);
      const thisRound: Partial<Record<'bare' | 'facade', Measurement>> = {};
      for (const server of order) {
        const fromUs = monotonicUs() + opts.load.warmupS * 1e6;
        const m = await measure(target(server), r.paths, opts.load);
        if (server === 'facade') facadeWindows.push({ fromUs, toUs: monotonicUs() });
        process.stdout.write(line(server, m));
        const kept = best[index];
        if (kept) kept[server] = better(kept[server], m);
        thisRound[server] = m;
      }
      if (thisRound.bare && thisRound.facade) roundRatios[index]?.push(thisRound.facade.rps / thisRound.bare.rps);
    }
  }
  return plan.map((r, index): RouteResult => {
    const { bare, facade } = best[index] ?? {};
    if (!bare || !facade) throw new Error('a measurement is missing');
    return { route: r.route, bare, facade, roundRatios: roundRatios[index] ?? [] };
  });
}

type Context = {
  opts: Options;
  servers: Servers;
  headers: Headers;
  database: string;
  facadeWindows: Window[];
};

function targetOf(ctx: Context, server: 'bare' | 'facade'): Target {
  const child = server === 'bare' ? ctx.servers.bare : ctx.servers.facade;
  if (!child) throw new Error(`no ${server} server`);
  return { url: child.url, pid: pidOf(child), database: ctx.database, headers: ctx.headers };
}

const machineFacts = () => ({
  date: new Date().toISOString().slice(0, 10),
  cpus: cpus()[0]?.model.trim() ?? 'unknown CPU',
  nproc: cpus().length,
  node: process.version,
});

const keyNote = (headers: Headers) =>
  headers.authorization
    ? 'The facade authenticated a test key on every request (auth, rate limit, metering included); the bare server gets the same header and ignores it.'
    : 'The facade answered without an API key.';

/** The lookup comparison: parity first, then both servers on both routes. */
async function lookupPhase(ctx: Context, plan: Plan) {
  for (const r of plan) await checkParity(ctx.servers, r.paths, ctx.headers);
  const notes = [
    `Both servers answered identical JSON for the first ${PARITY_SAMPLES} paths of each route (checked before measuring).`,
    keyNote(ctx.headers),
  ];
  const results = await measureAll(ctx.servers, plan, ctx.opts, (s) => targetOf(ctx, s), ctx.facadeWindows);
  process.stdout.write(`\n${resultsTable(results)}\n\n${verdict(results)}\n\n`);
  return { results, notes };
}

type AddressSets = {
  queries: ByAddressQuery[];
  prefixes: PrefixQuery[];
  gnafSample: ByAddressQuery[];
  fullLineSample: PrefixQuery[];
  rebuilt: number;
};

function addressSets(addresses: readonly BenchAddress[]): AddressSets {
  const sample = addresses.slice(0, ADDRESS_CHECK_SAMPLE);
  const prefixes = prefixQueries(addresses);
  return {
    queries: byAddressQueries(addresses),
    prefixes,
    gnafSample: gnafQueries(sample),
    fullLineSample: prefixes.slice(0, ADDRESS_CHECK_SAMPLE),
    rebuilt: addresses.filter(rebuildsFormattedAddress).length,
  };
}

/** The address routes: every request checked, then measured at each connection count. */
async function addressPhase(
  ctx: Context,
  sets: AddressSets,
): Promise<{ results: AddressResult[]; checks: AddressChecks }> {
  const facade = targetOf(ctx, 'facade');
  process.stdout.write(
    `checking the address routes: ${sets.queries.length} by-address queries, ${sets.prefixes.length} prefixes, ${sets.gnafSample.length} G-NAF lines, ${sets.fullLineSample.length} whole typed lines\n`,
  );
  const checks = await checkAddressRoutes(facade.url, ctx.headers, sets);
  for (const line of describeChecks(checks)) process.stdout.write(`  ${line}\n`);
  const routes = [
    { route: 'by-address' as const, paths: sets.queries.map((q) => q.path) },
    { route: 'autocomplete' as const, paths: sets.prefixes.map((p) => p.path) },
  ];
  const results = await measureAddressRoutes(
    facade,
    routes,
    {
      load: ctx.opts.load,
      connections: ctx.opts.addressConnections,
      rounds: ctx.opts.rounds,
      initialWarmupS: ctx.opts.initialWarmupS,
    },
    (route, connections, m) => process.stdout.write(line(`${route}@${connections}`, m)),
    ctx.facadeWindows,
  );
  process.stdout.write(`\n${addressTable(results)}\n\n${addressVerdict(results)}\n`);
  return { results, checks };
}

/** The planning routes: every request checked, then measured at each connection count. */
async function planningPhase(
  ctx: Context,
  queries: PlanningQueries,
  parcels: number,
): Promise<{ results: PlanningResult[]; checks: PlanningChecks }> {
  const facade = targetOf(ctx, 'facade');
  process.stdout.write(
    `checking the planning routes: ${queries.lots.length} residential lots (${queries.states.join(', ')}), each asked of both routes\n`,
  );
  const checks = await checkPlanningRoutes(facade.url, ctx.headers, queries);
  for (const line of describePlanningChecks(checks)) process.stdout.write(`  ${line}\n`);
  const results = await measurePlanningRoutes(
    facade,
    queries,
    {
      load: ctx.opts.load,
      connections: ctx.opts.planningConnections,
      rounds: ctx.opts.rounds,
      initialWarmupS: ctx.opts.initialWarmupS,
    },
    (route, connections, m) => process.stdout.write(line(`${route}@${connections}`, m)),
    ctx.facadeWindows,
  );
  process.stdout.write(`\n${planningTable(results)}\n\n${planningVerdict(results, parcels)}\n`);
  return { results, checks };
}

/**
 * The suburb-analytics routes at one connection, against their p50 targets (printed; not written to the docs).
 * At state scale the synthetic suburbs are counted again after the measurements (a rollup in the
 * serving process would have replaced them) and then removed from the bench database.
 */
async function analyticsPhase(ctx: Context, queries: AnalyticsQueries, databaseUrl: string): Promise<void> {
  try {
    const loadBefore = loadAverage();
    process.stdout.write(`load average (1 / 5 / 15 min) before the analytics phase: ${loadBefore}\n`);
    const target = targetOf(ctx, 'facade');
    for (const checked of await checkAnalyticsScreens(target, queries)) process.stdout.write(`  checked ${checked}\n`);
    const results = await measureAnalyticsRoutes(
      target,
      queries,
      { load: ctx.opts.load, rounds: ctx.opts.rounds, initialWarmupS: ctx.opts.initialWarmupS },
      (route, m) => process.stdout.write(line(route, m)),
    );
    process.stdout.write(`\n${analyticsVerdict(results, queries)}\n`);
    process.stdout.write(`load average (1 / 5 / 15 min) before the phase: ${loadBefore}; after it: ${loadAverage()}\n`);
    if (queries.synthetic > 0) {
      const now = await syntheticCounts(databaseUrl);
      const synthetic = Object.values(now).reduce((sum, c) => sum + c.synthetic, 0);
      if (synthetic !== queries.synthetic)
        throw new Error(
          `the bench database held ${queries.synthetic} synthetic suburbs before the phase and ${synthetic} after it (a rollup replaced them?): the figures above are not at state scale`,
        );
    }
  } finally {
    if (queries.synthetic > 0) {
      const removed = await removeSyntheticSuburbs(databaseUrl, loadConfig().sandboxSeed);
      process.stdout.write(`removed the synthetic suburbs again (${(removed.ms / 1000).toFixed(1)} s)\n`);
    }
  }
}

/** The layer routes and the whole property graph: every request tallied, then measured at each connection count. */
async function layersPhase(
  ctx: Context,
  queries: LayerQueries,
  parcels: number,
): Promise<{ results: LayerResult[]; checks: LayerChecks; loadAvg: string }> {
  const facade = targetOf(ctx, 'facade');
  process.stdout.write(`checking the layer routes: ${queries.points.length} parcels, each asked of every route\n`);
  const checks = await checkLayerRoutes(facade.url, ctx.headers, queries);
  for (const line of describeLayerChecks(checks)) process.stdout.write(`  ${line}\n`);
  const loadAvg = loadAverage();
  const results = await measureLayerRoutes(
    facade,
    queries,
    {
      load: ctx.opts.load,
      connections: ctx.opts.layersConnections,
      rounds: ctx.opts.rounds,
      initialWarmupS: ctx.opts.initialWarmupS,
    },
    (route, connections, m) => process.stdout.write(line(`${route}@${connections}`, m)),
    ctx.facadeWindows,
  );
  process.stdout.write(`\n${layersTable(results)}\n\n${layersVerdict(results, parcels)}\n`);
  return { results, checks, loadAvg };
}

type GraphRun = {
  results: GraphCompareResult[];
  checks: GraphChecks;
  loadAvg: string;
  distributedCommand: string;
};

/** The whole graph on the embedded facade, our distributed gateway and the peer over the same subgraph services. */
async function graphPhase(ctx: Context, queries: LayerQueries, databaseUrl: string): Promise<GraphRun> {
  process.stdout.write('starting the distributed mode and the peer gateway over its subgraph services\n');
  const servers = await startGraphServers(ROOT, databaseUrl, ctx.opts.subgraphPoolMax);
  try {
    process.stdout.write(`  subgraph services: ${servers.subgraphPids.length} processes\n`);
    const targets = graphTargets(targetOf(ctx, 'facade'), servers);
    const checks = await checkGraphServers(targets, ctx.headers, queries);
    for (const line of describeGraphChecks(checks.rows, checks.parity)) process.stdout.write(`  ${line}\n`);
    const loadAvg = loadAverage();
    const results = await measureGraphServers(
      targets,
      queries,
      {
        load: ctx.opts.load,
        connections: ctx.opts.layersConnections,
        rounds: ctx.opts.rounds,
        initialWarmupS: ctx.opts.initialWarmupS,
      },
      (row, connections, m) =>
        process.stdout.write(
          `${line(`${row}@${connections}`, m).trimEnd()}  subgraph services ${m.helperMsPerRequest.toFixed(3)} ms/req\n`,
        ),
      ctx.facadeWindows,
    );
    process.stdout.write(`\n${graphTable(results)}\n\n${graphVerdict(results)}\n`);
    return { results, checks, loadAvg, distributedCommand: servers.distributedCommand };
  } finally {
    await stopGraphServers(servers);
  }
}

/** The embedded default's start times and memory (bench/start-phase.ts), written to the docs. */
async function startPhase(opts: Options, code: string): Promise<void> {
  const flags = opts.startNodeArgs;
  const entry =
    opts.startEntry === 'dist'
      ? {
          label: `node ${[...flags, 'bin/landgraph.js', 'serve'].join(' ')}, from the build in dist/`,
          args: [...flags, 'bin/landgraph.js', 'serve'],
        }
      : { label: 'the sources through tsx', args: [...flags, '--import', 'tsx', 'bench/serve-sources.ts'] };
  if (opts.startEntry === 'dist') execFileSync(process.execPath, ['bin/build.js'], { cwd: ROOT, stdio: 'inherit' });
  const loadAvg = loadAverage();
  const result = await measureStart(
    ROOT,
    entry,
    { requests: opts.startRequests, warmStarts: opts.warmStarts, concurrency: 4, seed: loadConfig().sandboxSeed },
    (text) => process.stdout.write(`${text}\n`),
  );
  process.stdout.write(`\n${startVerdict(result).join('\n')}\n`);
  if (!opts.docs) return;
  const facts = { ...machineFacts(), code, loadAvg };
  const docs = startDocs(opts.startEntry);
  docs.write(DOCS, result.parcels, `${docs.mark(result.parcels)}\n${startSection(facts, result)}`);
  process.stdout.write(`\nwrote ${DOCS}\n`);
}

/**
 * The P7 phase (bench/p7-*.ts): its own database of 1,000,000 DAs and some 90,000 lots, its own
 * facade on it; every request checked (the feed's pages against SQL), then measured; written to the docs.
 */
async function p7Phase(opts: Options, code: string): Promise<void> {
  const databaseUrl = process.env.BENCH_P7_DATABASE_URL ?? P7_DATABASE_URL;
  const say = (text: string) => process.stdout.write(`${text}\n`);
  say(`preparing ${new URL(databaseUrl).pathname.slice(1)}`);
  const data = await prepareP7Database(databaseUrl, loadConfig().sandboxSeed, opts.p7Applications, say);
  say(
    `${data.applications.toLocaleString('en-AU')} DAs (${data.benchApplications.toLocaleString('en-AU')} synthetic), ${data.lots.toLocaleString('en-AU')} lots in ${data.estates} estates, ready in ${(data.ms / 1000).toFixed(0)} s`,
  );
  const queries = await p7Queries(databaseUrl, opts.p7Lots);
  const servers = await startServers(databaseUrl, opts.poolMax, true, false, false);
  try {
    const probes = [
      `/v1/development-applications/feed?lga_code=325&limit=1`,
      `/v1/land-supply/lots/nearby?lat=-36.7&lng=144.3&radius_km=1`,
    ].map((path) => `${servers.facade.url}${path}`);
    const headers = await benchHeaders(ROOT, probes, databaseUrl);
    const target: Target = {
      url: servers.facade.url,
      pid: pidOf(servers.facade),
      database: decodeURIComponent(new URL(databaseUrl).pathname.slice(1)),
      headers,
    };
    say("checking every P7 request (the feed's pages against SQL)");
    const requests = await p7Requests(databaseUrl, servers.facade.url, headers, queries);
    const checked = describeP7Checks(requests.checks);
    for (const text of checked) say(`  ${text}`);
    const loadAvgBefore = loadAverage();
    const results = await measureP7(
      target,
      requests,
      {
        load: opts.load,
        connections: opts.p7Connections,
        rounds: opts.rounds,
        initialWarmupS: opts.initialWarmupS,
      },
      (row, connections, m) => process.stdout.write(line(`${P7_ROW[row].label}@${connections}`, m)),
    );
    const loadAvgAfter = loadAverage();
    say(`\n${p7Table(results)}\n\n${p7Verdict(results, data.applications)}`);
    if (!opts.docs) return;
    const facts = {
      ...machineFacts(),
      postgres: (await databaseFacts(databaseUrl)).postgres,
      postgis: (await databaseFacts(databaseUrl)).postgis,
      durationS: opts.load.durationS,
      warmupS: opts.load.warmupS,
      initialWarmupS: opts.initialWarmupS,
      rounds: opts.rounds,
      poolMax: opts.poolMax,
      facadeCommand: servers.facadeCommand,
      code,
      data,
      since: queries.since,
      connections: opts.p7Connections,
      loadAvgBefore,
      loadAvgAfter,
    };
    writeP7Docs(DOCS, data.applications, p7Section(facts, results, requests.checks, []));
    say(`\nwrote ${DOCS}`);
  } finally {
    await stopAllChildren();
  }
}

async function main(): Promise<void> {
  const opts = options();
  stopChildrenOnExit(stopLoad);
  // the code the servers will load, read before they start: the tree may change during a long run
  const code = codeVersion();
  // --prepare-only without --only builds the benchmark database of the size asked and measures nothing: the start and
  // enrich phases have nothing to prepare, and the P7 phase prepares a database of its own (--only p7)
  if (opts.prepareOnly && !opts.onePhase)
    for (const phase of ['start', 'p7', 'enrich'] as const) opts.phases.delete(phase);
  if (opts.phases.has('start')) await startPhase(opts, code);
  if (opts.phases.has('p7')) await p7Phase(opts, code);
  // enrich: one 2,000-row job on its own bench database (bench/enrich.ts), target under 30 s
  if (opts.phases.has('enrich'))
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/enrich.ts'], { cwd: ROOT, stdio: 'inherit' });
  if ([...opts.phases].every((phase) => phase === 'start' || phase === 'p7' || phase === 'enrich')) return;
  // a scaled sandbox gets its own database, so switching sizes does not reseed each time
  const databaseUrl =
    process.env.BENCH_DATABASE_URL ??
    (opts.parcels === undefined ? DEFAULT_BENCH_DATABASE_URL : `${DEFAULT_BENCH_DATABASE_URL}_p${opts.parcels}`);
  // the graph comparison runs with the layers phase (unless --no-peer), or alone as `--only graph`
  const graph = opts.peer && (opts.phases.has('graph') || opts.phases.has('layers'));
  if (graph) {
    ensurePeerInstalled(ROOT);
    // the distributed mode spawns eight subgraph services: from the build, each starts in a second or two,
    // from the sources each compiles its TypeScript first and may miss the distributed start's deadline
    execFileSync(process.execPath, ['bin/build.js'], { cwd: ROOT, stdio: 'inherit' });
  }
  const seed = loadConfig().sandboxSeed;
  process.stdout.write(`preparing ${new URL(databaseUrl).pathname.slice(1)} (seed ${seed})\n`);
  const preparing = performance.now();
  await prepareBenchDatabase(databaseUrl, seed, opts.parcels);
  if (opts.prepareOnly) {
    const facts = await databaseFacts(databaseUrl);
    process.stdout.write(
      `${facts.parcels.toLocaleString('en-AU')} sandbox parcels, ${facts.addresses.toLocaleString('en-AU')} addresses ready in ${((performance.now() - preparing) / 1000).toFixed(0)} s\n`,
    );
    return;
  }
  const lookup = opts.phases.has('lookup');
  const address = opts.phases.has('address');
  const planning = opts.phases.has('planning');
  const layers = opts.phases.has('layers') || graph;
  if (opts.phases.has('analytics')) {
    // state scale: N synthetic suburbs per sandbox state (bench/analytics-scale.ts); 0 removes any a stopped run left
    const scaled = await scaleSuburbAnalytics(databaseUrl, opts.analyticsSuburbs, seed);
    if (opts.analyticsSuburbs > 0)
      process.stdout.write(
        `suburb analytics at state scale: ${Object.entries(scaled.states)
          .map(([state, c]) => `${state} ${c.real} + ${c.synthetic.toLocaleString('en-AU')} synthetic`)
          .join(', ')} (written, vacuumed and analysed in ${(scaled.ms / 1000).toFixed(1)} s)\n`,
      );
  }
  const analytics = opts.phases.has('analytics') ? await analyticsQueries(databaseUrl) : undefined;
  const catchment = opts.phases.has('catchment');
  const [points, addresses, lots, db, layerPoints, catchmentPoints] = await Promise.all([
    lookup ? benchPoints(databaseUrl, opts.points, seed) : [],
    address ? benchAddresses(databaseUrl, opts.addressQueries, seed) : [],
    planning ? planningQueries(databaseUrl, opts.planningLots, seed) : undefined,
    databaseFacts(databaseUrl),
    layers ? benchPoints(databaseUrl, opts.layersParcels, seed) : [],
    catchment ? benchPoints(databaseUrl, opts.catchmentPoints, seed) : [],
  ]);
  const layerRequests = layers ? layerQueries(layerPoints) : undefined;
  process.stdout.write(
    `${db.parcels.toLocaleString('en-AU')} sandbox parcels, ${db.addresses.toLocaleString('en-AU')} sandbox addresses\n`,
  );
  const plan = routes(points);
  const sets = addressSets(addresses);
  if (address && sets.rebuilt < addresses.length)
    process.stdout.write(
      `note: the formatter rebuilds the stored G-NAF line of only ${sets.rebuilt} of ${addresses.length} addresses; the other forms may differ\n`,
    );
  const servers = await startServers(databaseUrl, opts.poolMax, opts.parcels !== undefined, opts.profile, lookup);
  const probes = [
    ...(lookup ? [plan[0]?.paths[0] ?? '/api/cadastre/lookup'] : []),
    ...(address ? [sets.gnafSample[0]?.path, sets.prefixes[0]?.path].filter((p): p is string => Boolean(p)) : []),
    ...(lots ? Object.values(lots.routes).flatMap((queries) => queries.slice(0, 1).map((q) => q.path)) : []),
    // the GET routes only: a probe is a GET, and /graphql answers a GET without a query 400
    ...(layerRequests
      ? Object.values(layerRequests.routes).flatMap((requests) =>
          requests.slice(0, 1).filter((r): r is string => typeof r === 'string'),
        )
      : []),
    ...(analytics ? [analytics.rows[0]?.paths[0] ?? ''] : []),
    ...(catchment ? catchmentPaths(catchmentPoints).slice(0, 1) : []),
  ].map((path) => `${servers.facade.url}${path}`);
  const headers = await benchHeaders(ROOT, probes, databaseUrl);
  const ctx: Context = {
    opts,
    servers,
    headers,
    database: decodeURIComponent(new URL(databaseUrl).pathname.slice(1)),
    facadeWindows: [],
  };
  const lookupRun = lookup ? await lookupPhase(ctx, plan) : undefined;
  const addressRun = address ? await addressPhase(ctx, sets) : undefined;
  const planningRun = lots ? await planningPhase(ctx, lots, db.parcels) : undefined;
  const layersRun =
    layerRequests && opts.phases.has('layers') ? await layersPhase(ctx, layerRequests, db.parcels) : undefined;
  const graphRun = layerRequests && graph ? await graphPhase(ctx, layerRequests, databaseUrl) : undefined;
  if (analytics) await analyticsPhase(ctx, analytics, databaseUrl);
  if (catchment) {
    // printed, not written to docs/benchmarks.md: the figure goes in the notes of the issue
    const facade = targetOf(ctx, 'facade');
    const paths = catchmentPaths(catchmentPoints);
    const checks = await checkCatchments(facade.url, ctx.headers, paths);
    process.stdout.write(
      `catchment checks: ${checks.asked} asked, ${checks.network} over the network, ${checks.approximate} approximate, ${checks.failed} failed, ${checks.amenities} amenities in all\n`,
    );
    const results = await measureCatchments(
      facade,
      paths,
      opts.load,
      opts.catchmentConnections,
      opts.initialWarmupS,
      (connections, m) => process.stdout.write(line(`catchment@${connections}`, m)),
    );
    process.stdout.write(`\n${catchmentVerdict(results, db.parcels)}\n`);
  }
  await stopAllChildren();

  const machine = machineFacts();
  if (opts.profile) process.stdout.write(`\n${summariseProfiles(PROFILE_DIR, ctx.facadeWindows)}\n`);
  // a profiled facade runs slower than a plain one: its figures stay out of the docs
  if (!opts.docs || opts.profile) return;
  // counted, so a run whose phases write nothing here (analytics) does not claim to have written the docs
  let sections = 0;
  const common: BenchFacts = {
    ...machine,
    postgres: db.postgres,
    postgis: db.postgis,
    parcels: db.parcels,
    durationS: opts.load.durationS,
    warmupS: opts.load.warmupS,
    initialWarmupS: opts.initialWarmupS,
    rounds: opts.rounds,
    poolMax: opts.poolMax,
    facadeCommand: servers.facadeCommand,
    code,
  };
  if (lookupRun) {
    const facts: RunFacts = { ...common, points: points.length, connections: opts.load.connections };
    writeDocs(DOCS, facts.parcels, section(facts, lookupRun.results, lookupRun.notes));
    sections += 1;
  }
  if (addressRun) {
    const facts: AddressRunFacts = {
      ...common,
      addresses: db.addresses,
      queries: sets.queries.length,
      prefixes: sets.prefixes.length,
      connections: opts.addressConnections,
    };
    const notes = [
      headers.authorization
        ? 'The facade authenticated a test key on every request (auth and rate limit; metering on by-address, autocomplete is not metered).'
        : 'The facade answered without an API key.',
    ];
    writeAddressDocs(DOCS, facts.addresses, addressSection(facts, addressRun.results, addressRun.checks, notes));
    sections += 1;
  }
  if (planningRun && lots) {
    const facts: PlanningRunFacts = {
      ...common,
      addresses: db.addresses,
      lots: lots.lots.length,
      states: lots.states,
      connections: opts.planningConnections,
    };
    const notes = [
      headers.authorization
        ? 'The facade authenticated a test key on every request (auth, rate limit and metering included).'
        : 'The facade answered without an API key.',
    ];
    writePlanningDocs(DOCS, facts.parcels, planningSection(facts, planningRun.results, planningRun.checks, notes));
    sections += 1;
  }
  if (layersRun && layerRequests) {
    const facts: LayerRunFacts = {
      ...common,
      parcelsAsked: layerRequests.points.length,
      connections: opts.layersConnections,
      loadAvg: layersRun.loadAvg,
    };
    const notes = [
      headers.authorization
        ? 'The facade authenticated a test key holding every scope on every request (auth, rate limit and metering included, on /graphql too).'
        : 'The facade answered without an API key.',
    ];
    writeLayersDocs(DOCS, facts.parcels, layersSection(facts, layersRun.results, layersRun.checks, notes));
    sections += 1;
  }
  if (graphRun && layerRequests) {
    const facts = {
      ...common,
      parcelsAsked: layerRequests.points.length,
      connections: opts.layersConnections,
      loadAvg: graphRun.loadAvg,
      distributedCommand: graphRun.distributedCommand,
      subgraphPoolMax: opts.subgraphPoolMax,
      nodeOptions: process.env.NODE_OPTIONS,
    };
    const notes = [
      'Our gateway (embedded and distributed) authenticated a test key holding every scope on every request (auth, rate limit and metering included); the peer got the same header and ignored it.',
    ];
    const checked = describeGraphChecks(graphRun.checks.rows, graphRun.checks.parity);
    writeGraphDocs(DOCS, facts.parcels, graphSection(facts, graphRun.results, checked, notes));
    sections += 1;
  }
  if (sections > 0) process.stdout.write(`\nwrote ${DOCS}\n`);
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    await stopAllChildren();
    process.exit(1);
  },
);
