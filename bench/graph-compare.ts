/**
 * The whole property graph against a peer gateway, in the layers phase: the same subgraph
 * services (`landgraph serve --distributed`: every subgraph its own process, called over HTTP
 * with signed requests) behind our gateway and behind @graphql-hive/gateway 2.15.1
 * (bench/peer/gateway.ts, installed on demand into bench/peer/node_modules), and the embedded
 * default (subgraphs in process) beside them, all measured in one run with the same requests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { distributedSubgraphUrls } from '../app/runtime.ts';
import { generateInternalSecret } from '../core/internal-auth.ts';
import { composeSupergraph } from '../gateway/compose.ts';
import { SUBGRAPH_NAMES } from '../subgraphs/index.ts';
import type { Headers } from './api-key.ts';
import { at, record } from './checked-fetch.ts';
import type { GraphCompareResult, GraphRowName } from './graph-compare-report.ts';
import { GRAPH_ROW, GRAPH_ROWS } from './graph-compare-report.ts';
import type { LayerCheck } from './layers-phase.ts';
import { checkRoute, send } from './layers-phase.ts';
import type { LayerQueries } from './layers-queries.ts';
import type { BenchRequest, LoadOptions, Measurement, Target } from './load.ts';
import { measure, warmUp } from './load.ts';
import type { Child } from './processes.ts';
import { freePort, startChild, stopChild, waitUntilAnswering } from './processes.ts';
import type { Window } from './profile.ts';
import { monotonicUs } from './profile.ts';

const START_TIMEOUT_MS = 180_000;
const PEER_PACKAGE = join('bench', 'peer', 'node_modules', '@graphql-hive', 'gateway', 'package.json');
/** Parcels whose whole graph is compared, answer against answer, before measuring. */
const PARITY_SAMPLES = 20;

/** Installs the peer from bench/peer's own lockfile when it is missing, saying so. */
export function ensurePeerInstalled(root: string): void {
  if (existsSync(join(root, PEER_PACKAGE))) return;
  process.stdout.write(
    'the peer gateway (@graphql-hive/gateway) is not installed: npm ci --prefix bench/peer (once, into bench/peer/node_modules)\n',
  );
  execFileSync('npm', ['ci', '--prefix', 'bench/peer', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

/** `count` consecutive free ports on loopback (the subgraph services take base, base + 1, ...). */
async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const { createServer } = await import('node:net');
    const free = await Promise.all(
      Array.from(
        { length: count },
        (_, i) =>
          new Promise<boolean>((resolve) => {
            const probe = createServer();
            probe.once('error', () => resolve(false));
            probe.listen(base + i, '127.0.0.1', () => probe.close(() => resolve(true)));
          }),
      ),
    );
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports`);
}

export type GraphServers = {
  distributed: Child;
  peer: Child;
  /** The subgraph services both gateways call. */
  subgraphs: Child[];
  subgraphPids: number[];
  distributedCommand: string;
};

/**
 * The distributed mode as `landgraph serve --distributed` runs it, started piece by piece so the
 * bench sets the deadline (on this shared 2-core machine eight services starting at once can take
 * longer than the serve command's 60 s): each subgraph service through its own entry point
 * (subgraphs/<name>/index, from the build when it is current) with a pool of `poolMax`, then our
 * gateway in distributed mode over them (bench/facade-server.ts with LANDGRAPH_MODE=distributed:
 * startRuntime and the Express app, as serve builds them), then the peer over the same services,
 * the supergraph composed exactly as the distributed gateway composes it.
 */
export async function startGraphServers(root: string, databaseUrl: string, poolMax: number): Promise<GraphServers> {
  const secret = generateInternalSecret();
  const [gatewayPort, peerPort, basePort] = [
    await freePort(),
    await freePort(),
    await freePortRange(SUBGRAPH_NAMES.length),
  ];
  const common = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: String(poolMax),
    NODE_ENV: 'production',
    LANDGRAPH_LOG_LEVEL: 'warn',
    LANDGRAPH_SUBGRAPH_BASE_PORT: String(basePort),
    LANDGRAPH_SUBGRAPH_HOST: '127.0.0.1',
    LANDGRAPH_INTERNAL_SECRET: secret,
    LANDGRAPH_DATA_DIR: '.landgraph-bench',
  };
  // bench/run.ts builds first; a build that failed or lags the sources leaves the services on tsx
  const compiled = SUBGRAPH_NAMES.every((name) => existsSync(join(root, 'dist', 'subgraphs', name, 'index.js')));
  const urls = distributedSubgraphUrls({ subgraphHost: '127.0.0.1', subgraphBasePort: basePort });
  const subgraphs = SUBGRAPH_NAMES.map((name) =>
    startChild(
      `subgraph-${name}`,
      compiled
        ? [join('dist', 'subgraphs', name, 'index.js')]
        : ['--import', 'tsx', join('subgraphs', name, 'index.ts')],
      { cwd: root, url: urls[name].replace(/\/graphql$/, ''), echo: true, env: common },
    ),
  );
  await Promise.all(subgraphs.map((child) => waitUntilAnswering(child, '/health', START_TIMEOUT_MS)));
  const args = ['--import', 'tsx', 'bench/facade-server.ts'];
  const distributed = startChild('distributed', args, {
    cwd: root,
    url: `http://127.0.0.1:${gatewayPort}`,
    echo: true,
    env: { ...common, PORT: String(gatewayPort), HOST: '127.0.0.1', LANDGRAPH_MODE: 'distributed' },
  });
  await waitUntilAnswering(distributed, '/api/health', START_TIMEOUT_MS);
  const dir = join(root, '.landgraph-bench');
  mkdirSync(dir, { recursive: true });
  const supergraphFile = join(dir, 'peer-supergraph.graphql');
  writeFileSync(supergraphFile, composeSupergraph({ urlFor: (name) => urls[name] }));
  const peer = startChild('peer', ['--import', 'tsx', 'bench/peer/gateway.ts'], {
    cwd: root,
    url: `http://127.0.0.1:${peerPort}`,
    echo: true,
    env: {
      NODE_ENV: 'production',
      PORT: String(peerPort),
      PEER_SUPERGRAPH: supergraphFile,
      LANDGRAPH_INTERNAL_SECRET: secret,
    },
  });
  await waitUntilAnswering(peer, '/healthcheck', START_TIMEOUT_MS);
  return {
    distributed,
    peer,
    subgraphs,
    subgraphPids: subgraphs.map((child) => child.process.pid ?? 0),
    distributedCommand: `LANDGRAPH_MODE=distributed node ${args.join(' ')}\` over \`node ${compiled ? 'dist/subgraphs/<name>/index.js' : '--import tsx subgraphs/<name>/index.ts'}`,
  };
}

export async function stopGraphServers(servers: GraphServers): Promise<void> {
  await Promise.all([stopChild(servers.peer), stopChild(servers.distributed)]);
  await Promise.all(servers.subgraphs.map(stopChild));
}

/** Where each row's requests go and whose CPU they cost. */
export type GraphTargets = Record<'embedded' | 'distributed' | 'peer', Target>;

export function graphTargets(embedded: Target, servers: GraphServers): GraphTargets {
  const of = (child: Child) => child.process.pid ?? 0;
  return {
    embedded,
    distributed: {
      ...embedded,
      url: servers.distributed.url,
      pid: of(servers.distributed),
      helperPids: servers.subgraphPids,
    },
    peer: { ...embedded, url: servers.peer.url, pid: of(servers.peer), helperPids: servers.subgraphPids },
  };
}

const requestsOf = (queries: LayerQueries, row: GraphRowName): BenchRequest[] => queries.routes[GRAPH_ROW[row].route];

export type GraphChecks = {
  /** The status and not-ok layer tallies of every measured request, per row. */
  rows: Record<GraphRowName, LayerCheck>;
  /** The first parcels' /graphql answers: how many of each server's `data` equal the embedded graph's. */
  parity: { compared: number; distributed: number; peer: number; examples: string[] };
};

/** The first layer (top-level key under `data.property`) where two answers differ, or undefined. */
export function firstDifference(a: unknown, b: unknown): string | undefined {
  const left = record(at(a, 'data', 'property'));
  const right = record(at(b, 'data', 'property'));
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])];
  const layer = keys.find((key) => !isDeepStrictEqual(left[key], right[key]));
  if (layer !== undefined) return layer;
  return isDeepStrictEqual(at(a, 'data'), at(b, 'data')) ? undefined : 'data';
}

/** Every measured request sent once to each row's server; the first parcels' graphs compared across servers. */
export async function checkGraphServers(
  targets: GraphTargets,
  headers: Headers,
  queries: LayerQueries,
): Promise<GraphChecks> {
  const rows = {} as Record<GraphRowName, LayerCheck>;
  for (const row of GRAPH_ROWS) {
    const { server, route } = GRAPH_ROW[row];
    rows[row] = await checkRoute(targets[server].url, headers, route, requestsOf(queries, row));
  }
  const parity = { compared: 0, distributed: 0, peer: 0, examples: [] as string[] };
  for (const request of queries.routes.graphql.slice(0, PARITY_SAMPLES)) {
    const [embedded, distributed, peer] = await Promise.all(
      (['embedded', 'distributed', 'peer'] as const).map((server) => send(targets[server].url, request, headers)),
    );
    parity.compared += 1;
    for (const [name, answer] of [
      ['distributed', distributed],
      ['peer', peer],
    ] as const) {
      const differs = answer && embedded ? firstDifference(embedded.body, answer.body) : 'no answer';
      if (differs === undefined) parity[name] += 1;
      else if (parity.examples.length < 3) {
        const asked = typeof request === 'string' ? request : JSON.stringify(at(JSON.parse(request.body), 'variables'));
        parity.examples.push(`${name} differs from embedded at ${differs}, ${asked}`);
      }
    }
  }
  return { rows, parity };
}

export type GraphMeasureOptions = {
  load: LoadOptions;
  connections: readonly number[];
  rounds: number;
  initialWarmupS: number;
};

/**
 * A first warm-up of each server on its own rows, then `rounds` rounds of every row at every
 * connection count, the rows of a round in a rotating order so no server always follows
 * another; each row keeps its best round.
 */
export async function measureGraphServers(
  targets: GraphTargets,
  queries: LayerQueries,
  options: GraphMeasureOptions,
  report: (row: GraphRowName, connections: number, m: Measurement) => void,
  windows: Window[] = [],
): Promise<GraphCompareResult[]> {
  const most = Math.max(...options.connections);
  for (const server of ['embedded', 'distributed', 'peer'] as const) {
    const mine = GRAPH_ROWS.filter((row) => GRAPH_ROW[row].server === server);
    const mixed = queries.points.flatMap((_, i) => mine.map((row) => requestsOf(queries, row)[i] ?? '/'));
    process.stdout.write(`warming ${server} up on the whole graph: ${options.initialWarmupS} s\n`);
    await warmUp(targets[server], mixed, most, options.initialWarmupS);
  }
  const best = new Map<string, GraphCompareResult>();
  for (let round = 0; round < options.rounds; round += 1) {
    for (const connections of options.connections) {
      const order = GRAPH_ROWS.map((_, i) => GRAPH_ROWS[(i + round) % GRAPH_ROWS.length] as GraphRowName);
      for (const row of order) {
        const { server } = GRAPH_ROW[row];
        process.stdout.write(
          `${row} at ${connections} connection(s), round ${round + 1}/${options.rounds}: ${options.load.warmupS} s warm-up + ${options.load.durationS} s\n`,
        );
        const fromUs = monotonicUs() + options.load.warmupS * 1e6;
        const m = await measure(targets[server], requestsOf(queries, row), { ...options.load, connections });
        if (server === 'embedded') windows.push({ fromUs, toUs: monotonicUs() });
        report(row, connections, m);
        const key = `${row}@${connections}`;
        const kept = best.get(key);
        const rps = [...(kept?.rpsPerRound ?? []), m.rps];
        best.set(
          key,
          !kept || m.rps > kept.m.rps ? { row, connections, m, rpsPerRound: rps } : { ...kept, rpsPerRound: rps },
        );
      }
    }
  }
  return GRAPH_ROWS.flatMap((row) =>
    options.connections.map((connections) => {
      const kept = best.get(`${row}@${connections}`);
      if (!kept) throw new Error(`no measurement of ${row} at ${connections} connections`);
      return kept;
    }),
  );
}
