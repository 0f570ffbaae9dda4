/**
 * CPU per whole-graph call of the embedded facade, alone: the quick loop for working on the graph's
 * cost (`node --import tsx bench/graph-cpu.ts [--profile] [--connections 1,16] [--duration 8]`). The
 * full comparison with the peer (`npm run bench -- --only graph`) starts eleven servers; this starts
 * the facade only, on the prepared benchmark database, and prints the facade's and PostgreSQL's CPU
 * per call for `GET /v1/property/graph` and `POST /graphql`. On a machine shared with other work
 * CPU per call is the figure to compare between runs; req/s and latencies move with the load.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { benchHeaders } from './api-key.ts';
import { benchPoints, DEFAULT_BENCH_DATABASE_URL } from './database.ts';
import { LAYER_ROUTE } from './layers-queries.ts';
import type { Target } from './load.ts';
import { measure, stopLoad, warmUp } from './load.ts';
import type { Window } from './profile.ts';
import { monotonicUs, summariseProfiles } from './profile.ts';
import { freePort, startChild, stopAllChildren, stopChildrenOnExit, waitUntilAnswering } from './processes.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROFILES = fileURLToPath(new URL('../.landgraph-bench/profiles', import.meta.url));

const { values } = parseArgs({
  options: {
    parcels: { type: 'string', default: '200' },
    connections: { type: 'string', default: '1,16' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    'initial-warmup': { type: 'string', default: '8' },
    routes: { type: 'string', default: 'property-graph,graphql' },
    profile: { type: 'boolean', default: false },
  },
});

const databaseUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL;
const routes = values.routes.split(',') as ('property-graph' | 'graphql')[];
stopChildrenOnExit(stopLoad);
const points = await benchPoints(databaseUrl, Number(values.parcels), loadConfig().sandboxSeed);
const port = await freePort();
// a directory of its own: tsx's loader thread writes a second profile, which is not the facade's
if (values.profile) mkdirSync(PROFILES, { recursive: true }); // a fresh checkout has no bench folder yet
const profileDir = values.profile ? mkdtempSync(join(PROFILES, 'graph-cpu-')) : '';
const prof = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const facade = startChild('facade', [...prof, '--import', 'tsx', 'bench/facade-server.ts'], {
  cwd: ROOT,
  url: `http://127.0.0.1:${port}`,
  echo: true,
  env: {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: '10',
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    LANDGRAPH_MODE: 'embedded',
    LANDGRAPH_LOG_LEVEL: 'warn',
    LANDGRAPH_DATA_DIR: '.landgraph-bench',
  },
});
await waitUntilAnswering(facade, '/api/health', 60_000);
const first = LAYER_ROUTE['property-graph'].request(points[0]!) as string;
const headers = await benchHeaders(ROOT, `${facade.url}${first}`, databaseUrl);
const target: Target = {
  url: facade.url,
  pid: facade.process.pid!,
  database: decodeURIComponent(new URL(databaseUrl).pathname.slice(1)),
  headers,
};
const windows: Window[] = [];
await warmUp(target, points.map(LAYER_ROUTE.graphql.request), 4, Number(values['initial-warmup']));
for (const route of routes) {
  const requests = points.map(LAYER_ROUTE[route].request);
  for (const connections of values.connections.split(',').map(Number)) {
    const from = monotonicUs();
    const m = await measure(target, requests, {
      connections,
      durationS: Number(values.duration),
      warmupS: Number(values.warmup),
      quietWaitS: 0,
    });
    windows.push({ fromUs: from, toUs: monotonicUs() });
    process.stdout.write(
      `${route}@${connections}: ${m.rps.toFixed(1)} req/s, p50 ${m.p50.toFixed(1)} p99 ${m.p99.toFixed(1)} ms, CPU ms/call facade ${m.cpuMsPerRequest.toFixed(2)} PostgreSQL ${m.postgresMsPerRequest.toFixed(2)}, busy before ${m.backgroundCores.toFixed(2)} during ${m.machineBusyCores.toFixed(2)}, non2xx ${m.non2xx}\n`,
    );
  }
}
await stopAllChildren();
if (values.profile) {
  // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: the main thread is thread 0
  for (const name of readdirSync(profileDir))
    if (!/\.\d+\.0\.\d+\.cpuprofile$/.test(name)) rmSync(join(profileDir, name));
  process.stdout.write(`\n${summariseProfiles(profileDir, windows)}\n`);
}
