/**
 * Where a facade lookup's time goes, layer by layer, in one process: the same lookups run
 * through raw pg, Prisma Client's $queryRaw, Prisma's driver adapter (`db.sql`, what the
 * layers use), the cadastre subgraph (graphql-js, then the compiled operation the gateway runs
 * in process), the gateway (its executor, the cached plan, the in-process subgraph) and the
 * route handler (zod + handle), each at the same concurrency. The stages marked "not what
 * runs" are the standard paths, for comparison; each other layer includes the ones before it, so the differences in
 * Node CPU per lookup are the cost of each layer. Two loopback HTTP stages follow, client and
 * server in this process: a fixed answer (the client's and node:http's share) and the whole
 * facade app; the facade minus the fixed answer minus the route stage is Express and HTTP. The database must be prepared (run
 * `npm run bench` once). Run: node --import tsx bench/breakdown.ts [--ops N] [--concurrency N]
 */
import { Agent, createServer, get } from 'node:http';
import { GraphQLDataSourceRequestKind } from '@apollo/gateway/dist/datasources/types.js';
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import type { DocumentNode } from 'graphql';
import { execute, parse } from 'graphql';
import pg from 'pg';
import { loadConfig } from '../core/config.ts';
import type { RequestScope } from '../core/context.ts';
import { openDatabase } from '../core/db.ts';
import { InProcessSubgraphDataSource } from '../gateway/datasources.ts';
import { startRuntime } from '../app/runtime.ts';
import { createApp } from '../rest-facade/app.ts';
import { cadastreLookup, LAYER_FIELDS, PARCEL_FIELDS } from '../rest-facade/routes/cadastre.ts';
import { buildCadastreSubgraph } from '../subgraphs/cadastre/server.ts';
import { PARCELS_AT_POINTS } from '../subgraphs/cadastre/sql.ts';
import type { Headers } from './api-key.ts';
import { benchHeaders } from './api-key.ts';
import type { BenchPoint } from './database.ts';
import { benchPoints, DEFAULT_BENCH_DATABASE_URL } from './database.ts';

type Stage = { name: string; run: (p: BenchPoint) => Promise<unknown> };
type StageResult = { name: string; opsPerS: number; cpuUsPerOp: number; queriesPerOp: number };

const PARCEL_AT = `query ParcelAt($lat: Float!, $lng: Float!, $state: String!) {
  parcelAt(lat: $lat, lng: $lng, state: $state) { ${LAYER_FIELDS} data { ${PARCEL_FIELDS} } }
}`;

/** GET over a keep-alive agent, body read and dropped: the client half of the HTTP stages. */
function httpGet(agent: Agent, url: string, headers: Headers = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode ?? '?'}`));
      res.resume();
      res.once('end', resolve);
      res.once('error', reject);
    }).once('error', reject);
  });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
}

async function pool(ops: number, concurrency: number, points: readonly BenchPoint[], stage: Stage) {
  let next = 0;
  const worker = async () => {
    while (next < ops) {
      const point = points[next++ % points.length];
      if (point) await stage.run(point);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { ops: { type: 'string', default: '4000' }, concurrency: { type: 'string', default: '16' } },
  });
  const ops = Number(values.ops);
  const concurrency = Number(values.concurrency);
  const url = process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL;
  const config = { ...loadConfig(), databaseUrl: url, logLevel: 'warn' as const };
  let queries = 0;
  const db = await openDatabase(config, { onQuery: () => (queries += 1) });
  const runtime = await startRuntime(config, { db, prepare: false });
  const raw = new pg.Pool({ connectionString: url, max: config.databasePoolMax });
  const points = await benchPoints(url, 2000, config.sandboxSeed);
  const scope: RequestScope = { dataset: 'sandbox', requestId: 'bench', scopes: ['cadastre.read'] };
  const subgraph = buildCadastreSubgraph({ db, catalog: runtime.catalog });
  const inProcess = new InProcessSubgraphDataSource(subgraph);
  const document: DocumentNode = parse(PARCEL_AT);
  const vars = (p: BenchPoint) => ({ lat: p.lat, lng: p.lng, state: p.state });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const fixedBody = JSON.stringify({ success: true, data: null });
  const fixed = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(fixedBody));
  const facade = createServer(createApp(runtime));
  const [fixedUrl, facadeUrl] = [await listen(fixed), await listen(facade)];
  const path = (p: BenchPoint) => `/api/cadastre/lookup?lat=${p.lat}&lng=${p.lng}&state=${p.state}`;
  const root = new URL('..', import.meta.url).pathname;
  const headers = points[0] ? await benchHeaders(root, `${facadeUrl}${path(points[0])}`, url) : {};

  const stages: Stage[] = [
    {
      name: 'pg pool.query (the SQL alone)',
      run: (p) => {
        const sql = PARCELS_AT_POINTS('sandbox', [p.state], [p.lng], [p.lat]);
        return raw.query(sql.text, sql.values);
      },
    },
    {
      name: 'Prisma Client $queryRaw (same SQL; not what the layers use)',
      run: (p) => db.prisma.$queryRaw(PARCELS_AT_POINTS('sandbox', [p.state], [p.lng], [p.lat])),
    },
    {
      name: "db.sql: Prisma's driver adapter (same SQL, as the cadastre runs it)",
      run: (p) => db.sql(PARCELS_AT_POINTS('sandbox', [p.state], [p.lng], [p.lat])),
    },
    {
      name: 'cadastre subgraph: graphql-js execute (not what runs in process)',
      run: (p) =>
        Promise.resolve(
          execute({
            schema: subgraph.schema,
            document,
            variableValues: vars(p),
            contextValue: subgraph.createContext(scope),
          }),
        ),
    },
    {
      name: 'cadastre subgraph: compiled operation, as the gateway runs it in process',
      run: (p) =>
        inProcess.process({
          request: { query: PARCEL_AT, variables: vars(p) },
          kind: GraphQLDataSourceRequestKind.HEALTH_CHECK,
          context: {},
        }),
    },
    {
      name: 'gateway: graph.execute (executor, cached plan, in-process subgraph)',
      run: (p) => runtime.graph.execute(PARCEL_AT, vars(p), scope),
    },
    {
      name: 'route: zod parse + handle',
      run: async (p) => {
        const input = { lat: String(p.lat), lng: String(p.lng), state: p.state };
        const parsed = cadastreLookup.query.parse(input);
        return cadastreLookup.handle(parsed, { graph: runtime.graph, scope, runtime, key: null });
      },
    },
    {
      name: 'loopback HTTP: client + node:http fixed answer (no database)',
      run: (p) => httpGet(agent, `${fixedUrl}${path(p)}`),
    },
    {
      name: 'loopback HTTP: client + facade Express app',
      run: (p) => httpGet(agent, `${facadeUrl}${path(p)}`, headers),
    },
  ];

  const results: StageResult[] = [];
  for (const stage of stages) {
    await pool(Math.min(ops, 1000), concurrency, points, stage); // warm-up: JIT, caches, pool
    queries = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await pool(ops, concurrency, points, stage);
    const wallS = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    results.push({
      name: stage.name,
      opsPerS: ops / wallS,
      cpuUsPerOp: (used.user + used.system) / ops,
      queriesPerOp: queries / ops,
    });
  }
  agent.destroy();
  fixed.close();
  facade.close();
  await raw.end();
  await runtime.close();
  await db.close();

  process.stdout.write(`${ops} lookups by point per layer, ${concurrency} at a time, one process\n\n`);
  process.stdout.write(
    '| Layer (includes those above) | lookups/s | Node CPU µs/lookup | + µs over previous | Prisma queries/lookup |\n',
  );
  process.stdout.write('| --- | ---: | ---: | ---: | ---: |\n');
  results.forEach((r, i) => {
    const previous = results[i - 1];
    const delta = previous ? (r.cpuUsPerOp - previous.cpuUsPerOp).toFixed(0) : '';
    process.stdout.write(
      `| ${r.name} | ${r.opsPerS.toFixed(0)} | ${r.cpuUsPerOp.toFixed(0)} | ${delta} | ${r.queriesPerOp.toFixed(2)} |\n`,
    );
  });
}

await main();
