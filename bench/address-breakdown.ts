/**
 * Where a by-address and an autocomplete request's time goes, stage by stage, in one process:
 * the route's SQL through pg (planned each time, and as a prepared statement that PostgreSQL
 * may plan once), the same SQL through the address layer's budgeted runner (Prisma; with
 * timeout_ms, in a transaction with SET LOCAL statement_timeout), the matcher or suggestion
 * resolver around it,
 * the cadastre lookup by-address adds, the route's handler (both graph calls through the
 * gateway), and the whole facade over loopback HTTP. Each stage runs the same requests one at
 * a time by default (latency, as the p50 target reads), with its wall time per request and the
 * Node and PostgreSQL CPU behind it. The database must be prepared (`npm run bench -- --only
 * address --parcels N` once). Run:
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/landgraph_bench_p1000000 \
 *     node --import tsx bench/address-breakdown.ts [--ops N] [--concurrency N] [--explain]
 * `--explain` also prints EXPLAIN (ANALYZE, BUFFERS) of each statement, once planned for its
 * values and once as the generic plan a prepared statement may reuse.
 */
import { Agent, createServer, get } from 'node:http';
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../core/config.ts';
import type { RequestScope } from '../core/context.ts';
import { openDatabase } from '../core/db.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { startRuntime } from '../app/runtime.ts';
import { createApp } from '../rest-facade/app.ts';
import { addressAutocomplete, cadastreByAddress } from '../rest-facade/routes/address.ts';
import { LAYER_FIELDS, PARCEL_FIELDS } from '../rest-facade/routes/cadastre.ts';
import { STAGE_BUDGET } from '../core/budget.ts';
import { budgetedRunner } from '../subgraphs/address/data.ts';
import type { StageRunner } from '../subgraphs/address/matching/match.ts';
import { AddressMatcher, LocalityDirectory } from '../subgraphs/address/matching/match.ts';
import { suggestionQuery } from '../subgraphs/address/matching/suggest.ts';
import { ADDRESSES_ON_NAMED_STREETS, SUGGESTIONS_BY_PREFIX } from '../subgraphs/address/sql.ts';
import { PARCELS_AT_POINTS } from '../subgraphs/cadastre/sql.ts';
import { parseAddress } from '../subgraphs/address/matching/parse.ts';
import type { ByAddressQuery, PrefixQuery } from './address-queries.ts';
import { byAddressQueries, prefixQueries } from './address-queries.ts';
import type { Headers } from './api-key.ts';
import { benchHeaders } from './api-key.ts';
import { cpuSince, cpuSnapshot } from './cpu.ts';
import { benchAddresses, DEFAULT_BENCH_DATABASE_URL } from './database.ts';

type Stage<T> = { name: string; run: (item: T) => Promise<unknown> };
type StageResult = {
  name: string;
  p50Ms: number;
  meanMs: number;
  nodeUsPerOp: number;
  postgresUsPerOp: number;
  queriesPerOp: number;
};

const DATASET = 'sandbox';

/** `sql` with Prisma's `?` placeholders numbered for pg. */
function pgText(sql: Prisma.Sql): { text: string; values: unknown[] } {
  let n = 0;
  return { text: sql.sql.replace(/\?/g, () => `$${++n}`), values: sql.values };
}

function httpGet(agent: Agent, url: string, headers: Headers): Promise<void> {
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

async function runStage<T>(
  items: readonly T[],
  ops: number,
  concurrency: number,
  stage: Stage<T>,
  database: string,
  counter: { queries: number },
): Promise<StageResult> {
  const once = async (count: number, times?: number[]) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const item = items[next++ % items.length] as T;
        const started = performance.now();
        await stage.run(item);
        times?.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  await once(Math.min(ops, 300)); // warm-up: JIT, caches, pool, prepared statements
  counter.queries = 0;
  const times: number[] = [];
  const cpu = process.cpuUsage();
  const before = cpuSnapshot(process.pid, database);
  await once(ops, times);
  const used = process.cpuUsage(cpu);
  const pgUse = cpuSince(before, process.pid, database);
  times.sort((a, b) => a - b);
  return {
    name: stage.name,
    p50Ms: times[Math.floor(times.length / 2)] ?? Number.NaN,
    meanMs: times.reduce((s, t) => s + t, 0) / times.length,
    nodeUsPerOp: (used.user + used.system) / ops,
    postgresUsPerOp: (pgUse.postgresMs * 1000) / ops,
    queriesPerOp: counter.queries / ops,
  };
}

function table(title: string, results: readonly StageResult[]): string {
  const lines = [
    `### ${title}`,
    '',
    '| Stage | p50 ms | mean ms | Node CPU µs/req | PostgreSQL CPU µs/req | Prisma queries/req |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results)
    lines.push(
      `| ${r.name} | ${r.p50Ms.toFixed(2)} | ${r.meanMs.toFixed(2)} | ${r.nodeUsPerOp.toFixed(0)} | ${r.postgresUsPerOp.toFixed(0)} | ${r.queriesPerOp.toFixed(2)} |`,
    );
  return lines.join('\n');
}

/** EXPLAIN ANALYZE of one statement, planned for its values and as the generic plan (PREPARE). */
async function explain(client: pg.Client, label: string, sql: Prisma.Sql): Promise<string> {
  const { text, values } = pgText(sql);
  // the matcher's and the suggestions' values are text, numbers, nulls and arrays of text
  const literal = (v: unknown): string => {
    if (v === null || v === undefined) return 'NULL';
    if (typeof v === 'number') return String(v);
    if (Array.isArray(v)) return client.escapeLiteral(`{${v.map((x) => JSON.stringify(String(x))).join(',')}}`);
    return client.escapeLiteral(typeof v === 'string' ? v : JSON.stringify(v));
  };
  const out = [`--- ${label}`];
  for (const mode of ['force_custom_plan', 'force_generic_plan']) {
    await client.query(`SET plan_cache_mode = ${mode}`);
    await client.query('DEALLOCATE ALL');
    await client.query(`PREPARE bench_explain AS ${text}`);
    const run = `EXECUTE bench_explain(${values.map(literal).join(', ')})`;
    for (let i = 0; i < 3; i += 1) await client.query(run);
    const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${run}`);
    out.push(`-- ${mode}`, ...plan.rows.map((r) => r['QUERY PLAN']));
  }
  await client.query('DEALLOCATE ALL');
  await client.query('RESET plan_cache_mode');
  return out.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ops: { type: 'string', default: '1000' },
      concurrency: { type: 'string', default: '1' },
      explain: { type: 'boolean', default: false },
    },
  });
  const ops = Number(values.ops);
  const concurrency = Number(values.concurrency);
  const url = process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL;
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  const config = { ...loadConfig(), databaseUrl: url, logLevel: 'warn' as const };
  const counter = { queries: 0 };
  const db = await openDatabase(config, { onQuery: () => (counter.queries += 1) });
  const runtime = await startRuntime(config, { db, prepare: false });
  const raw = new pg.Pool({ connectionString: url, max: config.databasePoolMax });
  // the same statements with the plan a prepared statement would keep if PostgreSQL chose it
  const generic = new pg.Pool({
    connectionString: url,
    max: config.databasePoolMax,
    options: '-c plan_cache_mode=force_generic_plan',
  });
  const addresses = await benchAddresses(url, 600, config.sandboxSeed);
  const queries = byAddressQueries(addresses);
  const prefixes = prefixQueries(addresses);
  const scope: RequestScope = { dataset: DATASET, requestId: 'bench', scopes: ['cadastre.read', 'locality.read'] };
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const facade = createServer(createApp(runtime));
  const facadeUrl = await listen(facade);
  const root = new URL('..', import.meta.url).pathname;
  const first = [queries[0]?.path, prefixes[0]?.path].filter((p): p is string => Boolean(p));
  const headers = await benchHeaders(
    root,
    first.map((p) => `${facadeUrl}${p}`),
    url,
  );

  // the matcher's first statement and the point it finds, per query, read once up front
  const pgRunner: StageRunner = async <T>(_stage: string, sql: Prisma.Sql) =>
    (await raw.query(pgText(sql).text, pgText(sql).values)).rows as T[];
  let namedCount = 0;
  const names = new Map<string, string>();
  const pgNamedRunner: StageRunner = async <T>(_stage: string, sql: Prisma.Sql) => {
    const { text, values: params } = pgText(sql);
    let name = names.get(text);
    if (!name) names.set(text, (name = `bench_${namedCount++}`));
    return (await raw.query({ name, text, values: params })).rows as T[];
  };
  const pgGenericRunner: StageRunner = async <T>(_stage: string, sql: Prisma.Sql) => {
    const { text, values: params } = pgText(sql);
    let name = names.get(text);
    if (!name) names.set(text, (name = `bench_${namedCount++}`));
    return (await generic.query({ name, text, values: params })).rows as T[];
  };
  const directory = await LocalityDirectory.load(pgRunner, DATASET);
  const matcherOver = (run: StageRunner) => new AddressMatcher(run, DATASET, () => Promise.resolve(directory));
  const firstStatement = (q: ByAddressQuery) => {
    const parsed = parseAddress(q.q);
    const names = [...new Set(parsed.readings.map((r) => r.streetName))];
    return ADDRESSES_ON_NAMED_STREETS(
      DATASET,
      names,
      parsed.number ? { number: parsed.number.first } : { lot: parsed.lot ?? '' },
    );
  };
  const points = new Map<string, { state: string; lat: number; lng: number }>();
  for (const q of queries) {
    const outcome = await matcherOver(pgRunner).match(q.q, { state: null, postcode: null, near: null });
    if (outcome.status === 'matched') points.set(q.q, outcome.match.row);
  }
  const matched = queries.filter((q) => points.has(q.q));
  const parcelAt = `query ParcelAt($lat: Float!, $lng: Float!, $state: String!) {
    parcelAt(lat: $lat, lng: $lng, state: $state) { ${LAYER_FIELDS} data { ${PARCEL_FIELDS} } }
  }`;
  const suggestSql = (p: PrefixQuery) => {
    const s = suggestionQuery(p.q);
    return SUGGESTIONS_BY_PREFIX(DATASET, s.prefixes, null, s.flatNumber, 10);
  };

  const byAddress: Array<Stage<ByAddressQuery>> = [
    { name: 'parse the text (JS)', run: (q) => Promise.resolve(parseAddress(q.q)) },
    { name: 'pg: the matcher SQL, planned each time', run: (q) => pgRunner('address', firstStatement(q)) },
    {
      name: 'pg: the matcher SQL, prepared (as Prisma sends it)',
      run: (q) => pgNamedRunner('address', firstStatement(q)),
    },
    {
      name: 'pg: the matcher SQL, prepared, generic plan (not what runs today)',
      run: (q) => pgGenericRunner('address', firstStatement(q)),
    },
    {
      name: "budgeted runner, default budget: Prisma's driver adapter (db.sql), our deadline",
      run: (q) => budgetedRunner(db, STAGE_BUDGET.defaultMs)('address', firstStatement(q)),
    },
    {
      name: 'budgeted runner, timeout_ms given: BEGIN, SET LOCAL, the SQL, COMMIT',
      run: (q) => budgetedRunner(db, STAGE_BUDGET.defaultMs, true)('address', firstStatement(q)),
    },
    {
      name: 'matcher over pg, prepared (parse, SQL, scoring)',
      run: (q) => matcherOver(pgNamedRunner).match(q.q, { state: null, postcode: null, near: null }),
    },
    {
      name: 'matcher over the budgeted runner, default budget (the subgraph resolver)',
      run: (q) =>
        matcherOver(budgetedRunner(db, STAGE_BUDGET.defaultMs)).match(q.q, { state: null, postcode: null, near: null }),
    },
    {
      name: 'pg: PARCELS_AT_POINTS at the matched point, prepared',
      run: (q) => {
        const p = points.get(q.q);
        if (!p) return Promise.resolve();
        return pgNamedRunner('cadastre', PARCELS_AT_POINTS(DATASET, [p.state], [p.lng], [p.lat]));
      },
    },
    {
      name: 'gateway: parcelAt at the matched point',
      run: (q) => {
        const p = points.get(q.q);
        return p ? runtime.graph.execute(parcelAt, p, scope) : Promise.resolve();
      },
    },
    {
      name: 'route handler: matchAddress + parcelAt through the gateway',
      run: (q) =>
        cadastreByAddress.handle(cadastreByAddress.query.parse({ q: q.q }), {
          graph: runtime.graph,
          scope,
          runtime,
          key: null,
        }),
    },
    { name: 'loopback HTTP: the whole facade', run: (q) => httpGet(agent, `${facadeUrl}${q.path}`, headers) },
  ];
  const autocomplete: Array<Stage<PrefixQuery>> = [
    { name: 'prefixes from the typed text (JS)', run: (p) => Promise.resolve(suggestionQuery(p.q)) },
    { name: 'pg: SUGGESTIONS_BY_PREFIX, planned each time', run: (p) => pgRunner('suggestion', suggestSql(p)) },
    { name: 'pg: SUGGESTIONS_BY_PREFIX, prepared', run: (p) => pgNamedRunner('suggestion', suggestSql(p)) },
    {
      name: 'pg: SUGGESTIONS_BY_PREFIX, prepared, generic plan (not what runs today)',
      run: (p) => pgGenericRunner('suggestion', suggestSql(p)),
    },
    {
      name: "budgeted runner, default budget: Prisma's driver adapter (db.sql), our deadline",
      run: (p) => budgetedRunner(db, STAGE_BUDGET.defaultMs)('suggestion', suggestSql(p)),
    },
    {
      name: 'route handler: suggestAddresses through the gateway',
      run: (p) =>
        addressAutocomplete.handle(addressAutocomplete.query.parse({ q: p.q }), {
          graph: runtime.graph,
          scope,
          runtime,
          key: null,
        }),
    },
    { name: 'loopback HTTP: the whole facade', run: (p) => httpGet(agent, `${facadeUrl}${p.path}`, headers) },
  ];

  // each stage's figures as it ends: a slow machine shows its progress
  const progressed = (r: StageResult) => {
    process.stderr.write(`  ${r.name}: p50 ${r.p50Ms.toFixed(2)} ms, mean ${r.meanMs.toFixed(2)} ms\n`);
    return r;
  };
  const byAddressResults: StageResult[] = [];
  for (const stage of byAddress)
    byAddressResults.push(progressed(await runStage(matched, ops, concurrency, stage, database, counter)));
  const autocompleteResults: StageResult[] = [];
  for (const stage of autocomplete)
    autocompleteResults.push(progressed(await runStage(prefixes, ops, concurrency, stage, database, counter)));

  process.stdout.write(
    `${ops} requests per stage, ${concurrency} at a time, one process; ${matched.length} by-address queries (all forms), ${prefixes.length} prefixes\n\n`,
  );
  process.stdout.write(`${table('by-address', byAddressResults)}\n\n${table('autocomplete', autocompleteResults)}\n`);

  if (values.explain) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const q = matched[0];
      const p = prefixes.find((x) => suggestionQuery(x.q).flatNumber !== null) ?? prefixes[0];
      const point = q ? points.get(q.q) : undefined;
      if (q) process.stdout.write(`\n${await explain(client, `matcher SQL for '${q.q}'`, firstStatement(q))}\n`);
      if (point)
        process.stdout.write(
          `\n${await explain(client, 'PARCELS_AT_POINTS', PARCELS_AT_POINTS(DATASET, [point.state], [point.lng], [point.lat]))}\n`,
        );
      if (p) process.stdout.write(`\n${await explain(client, `SUGGESTIONS_BY_PREFIX for '${p.q}'`, suggestSql(p))}\n`);
    } finally {
      await client.end();
    }
  }
  agent.destroy();
  facade.close();
  await raw.end();
  await generic.end();
  await runtime.close();
  await db.close();
}

await main();
