import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import type { Prisma } from '../generated/prisma/client.ts';
import { PrismaClient } from '../generated/prisma/client.ts';
import { BoundedMemo } from './bounded-memo.ts';
import type { Config } from './config.ts';
import { driverError, driverQuery, rowsOf } from './driver-sql.ts';
import { AppError, DatabaseUnavailableError } from './errors.ts';
import { logger } from './logger.ts';
import { serveWholeExchanges } from './pglite-exchange-queue.ts';
import { landgraphPostgis } from './postgis-bundle.ts';
import { withDeadline } from './rate-limit/deadline.ts';

/** Connections the embedded database's wire-protocol socket accepts (see pgliteDatabase). */
export const EMBEDDED_SOCKET_CONNECTIONS = 96;

/**
 * Pool size of a process reaching the embedded database over its socket: the database runs one
 * query at a time, so a bigger pool only queues, and every pool counts against the socket's limit.
 */
export const EMBEDDED_CLIENT_POOL = 2;

export type DatabaseKind = 'postgres' | 'pglite';

export type QueryFn = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

/** Runs a script of statements without parameters inside the enclosing transaction. */
export type ScriptFn = (sql: string) => Promise<void>;

/**
 * One database handle for the whole process. Layers run their named PostGIS statements with
 * `sql` (Prisma's driver adapter); the platform's tables go through Prisma Client's models;
 * `exec` runs multi-statement scripts (migrations, bulk loads).
 */
export interface Database {
  readonly kind: DatabaseKind;
  readonly prisma: PrismaClient;
  /**
   * Runs one named statement (a `Prisma.sql` template of a layer's sql.ts) on Prisma's driver
   * adapter, skipping Prisma Client's request pipeline; the rows are those `prisma.$queryRaw`
   * returns for the same statement.
   */
  sql<T>(query: Prisma.Sql, options?: SqlOptions): Promise<T[]>;
  /** Runs a script of one or more statements without parameters, on one connection; an open transaction is rolled back on failure. */
  exec(sql: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows; for loaders that bypass Prisma's row mapping. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `work` in one transaction on one connection: all of it is committed, or none. */
  transaction<T>(work: (query: QueryFn, script: ScriptFn) => Promise<T>): Promise<T>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`, from any process; returns
   * the function that stops listening. Used to drop cached state the moment another process changes it.
   * A lost connection is made again by itself; since notifications may have been missed in the
   * gap, `onMessage` is then called once with the payload `''`.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** The wire-protocol URL other processes can use to reach this database. */
  readonly url: string;
  close(): Promise<void>;
}

/** A health probe must answer within a load balancer's own probe timeout, whatever the database does. */
export const DATABASE_PROBE_TIMEOUT_MS = 2_000;

/**
 * Whether the database answers a trivial statement in time: the facade's /api/health and each
 * subgraph service's /health ask it. Rejects with the database's error, or with "the database took
 * longer than 2000 ms".
 */
export function probeDatabase(db: Pick<Database, 'query'>): Promise<unknown> {
  return withDeadline(db.query('SELECT 1'), DATABASE_PROBE_TIMEOUT_MS, 'the database');
}

// How a lost or refused database connection shows itself, by the layer that noticed: the socket
// (Node's codes), PostgreSQL (SQLSTATE class 08, shutdown, too many connections), Prisma
// (P1001 cannot reach, P1017 server closed, P2024 pool timeout) and Prisma's driver adapters.
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'P1001',
  'P1002',
  'P1017',
  'P2024',
]);
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
// node-postgres reports a dropped or never-made connection with these messages and no code.
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end/;

/**
 * Whether an error means the database could not be reached (as opposed to a statement it
 * refused): looks through the error and its causes, as each client wraps the one below it.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth += 1) {
    if (current instanceof DatabaseUnavailableError) return true;
    // Any other error of ours was raised on purpose, whatever it wraps.
    if (current instanceof AppError) return false;
    const { code, errorCode, kind, originalCode, message } = current as Record<string, unknown>;
    for (const value of [code, errorCode, originalCode]) {
      if (typeof value === 'string' && (UNREACHABLE_CODES.has(value) || /^08[0-9A-Z]{3}$/.test(value))) return true;
    }
    if (typeof kind === 'string' && UNREACHABLE_KINDS.has(kind)) return true;
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The same failure, or the 503 a caller should see when the database was out of reach. */
export function asUnavailable(error: unknown): unknown {
  return !(error instanceof AppError) && isDatabaseUnreachable(error) ? new DatabaseUnavailableError(error) : error;
}

async function reachable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw asUnavailable(error);
  }
}

const SOCKET_FILE = 'socket.json';
/**
 * Marks a URL as PGlite's socket, so a process handed it as DATABASE_URL (a subgraph in
 * distributed mode) still knows it is not a real PostgreSQL server.
 */
const PGLITE_MARK = 'application_name=landgraph-pglite';
const pgliteUrl = (port: number) => `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable&${PGLITE_MARK}`;

type SocketRecord = { port: number; pid: number };

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readSocketRecord(dataDir: string): SocketRecord | undefined {
  const file = join(dataDir, SOCKET_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as SocketRecord;
    // The owner may be this very process (a second handle, as tests and the CLI open): it
    // must go through the socket too, since PGlite cannot open one folder twice.
    if (processAlive(record.pid)) return record;
  } catch {
    // a torn or stale file: the owner is gone, so this process may take the folder over
  }
  return undefined;
}

/**
 * `plan: 'generic'` is for the graph's keyed statements (a batch of keys in arrays, one index
 * probe each): PostgreSQL then plans such a statement once per connection and reuses the plan.
 * Left to itself it planned most of them again at every call, because a plan made for the actual
 * arrays looks cheaper than the generic one; planning was about half of PostgreSQL's CPU per
 * whole-graph call, and the generic plans also ran faster (docs/benchmarks.md). Only statements
 * whose best plan does not depend on the values bound may ask for it (not a LIKE on a parameter,
 * not a window whose size decides between indexes). On PostgreSQL these statements run on
 * connections of their own opened with `plan_cache_mode = force_generic_plan`; on PGlite, one
 * backend serves every statement, so the option is not applied there.
 */
export type SqlOptions = { plan?: 'generic' };

/** For a keyed statement of the graph's loaders (see SqlOptions). */
export const GENERIC_PLAN: SqlOptions = { plan: 'generic' };

export type OpenOptions = {
  /** Called with the SQL of every query sent through Prisma: instrumentation, and the batching tests. */
  onQuery?: (sql: string) => void;
};

type DriverSql = { sql: <T>(query: Prisma.Sql) => Promise<T[]>; dispose(): Promise<void> };

function driverSql(connecting: Promise<SqlDriverAdapter>, options: OpenOptions): DriverSql {
  // An unused handle must not leave a rejected promise unobserved.
  connecting.catch(() => undefined);
  return {
    async sql<T>(query: Prisma.Sql): Promise<T[]> {
      const request = driverQuery(query);
      options.onQuery?.(request.sql);
      const driver = await reachable(connecting);
      try {
        return rowsOf<T>(await driver.queryRaw(request));
      } catch (error) {
        throw asUnavailable(driverError(error));
      }
    },
    async dispose() {
      await (await connecting.catch(() => null))?.dispose();
    },
  };
}

type Adapter = NonNullable<ConstructorParameters<typeof PrismaClient>[0]['adapter']>;

function prismaClient(adapter: Adapter, options: OpenOptions): PrismaClient {
  const onQuery = options.onQuery;
  if (!onQuery) return new PrismaClient({ adapter });
  const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (event) => onQuery(event.query));
  return prisma;
}

const statementNames = new BoundedMemo<string, string>(5_000);

/**
 * Names each distinct SQL text so every pooled connection prepares it once and then only
 * binds and executes: the layers send the same few spatial statements over and over, and
 * parsing and planning them again each time was PostgreSQL's largest cost per lookup.
 */
function statementName(query: { sql: string }): string {
  return statementNames.get(query.sql, (sql) => `lg_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`);
}

const RELISTEN_AFTER_MS = 1_000;

/**
 * LISTEN on a connection of its own, outside the pool (LISTEN belongs to one session for its
 * lifetime). When the database drops that session (a restart, a network cut) it is made again
 * every second until it holds, and the listener hears `''` once: without that, a process would
 * go on serving what another process had changed (a revoked key) until its cache expired.
 */
async function listenWithReconnect(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
): Promise<() => Promise<void>> {
  let current: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (client: pg.Client, error?: Error) => {
    if (stopped || current !== client) return;
    current = undefined;
    logger.warn('notification connection lost; listening again shortly', { channel, error: error?.message });
    client.end().catch(() => undefined);
    schedule();
  };
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    current = client;
  };
  const schedule = () => {
    retry = setTimeout(() => {
      connect().then(
        () => {
          if (stopped) {
            void current?.end().catch(() => undefined);
            return;
          }
          logger.info('notification connection restored', { channel });
          onMessage('');
        },
        () => {
          if (!stopped) schedule();
        },
      );
    }, RELISTEN_AFTER_MS);
    // Reconnecting is housekeeping: it must not keep a finished process alive.
    retry.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => undefined);
  };
}

function postgresDatabase(url: string, kind: DatabaseKind, max: number, options: OpenOptions): Database {
  // A server that does not answer at all (a dead host, a full backlog) must fail a checkout
  // rather than hold the request forever; the caller then gets a 503 like any outage.
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
  // An idle connection the server dropped (restart, network cut) is reported here; unheard, the
  // event would end the process. The pool replaces the connection on the next checkout.
  pool.on('error', (error) => logger.warn('database connection lost', { error: error.message }));
  // Not over PGlite's socket: its connections share one backend, where a second connection
  // preparing the same statement name would collide.
  const adapter = new PrismaPg(pool, kind === 'postgres' ? { statementNameGenerator: statementName } : {});
  const prisma = prismaClient(adapter, options);
  const driver = driverSql(adapter.connect(), options);
  // The generic-plan connections (see SqlOptions), opened on first use. Not over PGlite's socket,
  // where every connection is the one backend: the setting would reach every other statement.
  let generic: { pool: pg.Pool; driver: DriverSql } | undefined;
  const genericDriver = (): DriverSql => {
    if (!generic) {
      const genericPool = new pg.Pool({
        connectionString: url,
        max,
        connectionTimeoutMillis: 5_000,
        options: '-c plan_cache_mode=force_generic_plan',
      });
      genericPool.on('error', (error) => logger.warn('database connection lost', { error: error.message }));
      const genericAdapter = new PrismaPg(genericPool, { statementNameGenerator: statementName });
      generic = { pool: genericPool, driver: driverSql(genericAdapter.connect(), options) };
    }
    return generic.driver;
  };
  return {
    kind,
    prisma,
    sql: (query, sqlOptions) =>
      sqlOptions?.plan === 'generic' && kind === 'postgres' ? genericDriver().sql(query) : driver.sql(query),
    url,
    async exec(sql) {
      // One connection for the whole script, rolled back on failure: a script that opened a
      // transaction must never go back to the pool inside an aborted one.
      const client = await reachable(pool.connect());
      try {
        await client.query(sql);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw asUnavailable(error);
      } finally {
        client.release();
      }
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await reachable(pool.query(sql, params));
      return result.rows as T[];
    },
    async listen(channel, onMessage) {
      return listenWithReconnect(url, channel, onMessage);
    },
    async transaction<T>(work: (query: QueryFn, script: ScriptFn) => Promise<T>) {
      const client = await reachable(pool.connect());
      try {
        await client.query('BEGIN');
        const result = await work(
          async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
          // No parameters: the simple query protocol, which takes several statements at once.
          async (sql) => {
            await client.query(sql);
          },
        );
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw asUnavailable(error);
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await driver.dispose();
      await pool.end();
      if (generic) {
        await generic.driver.dispose();
        await generic.pool.end();
      }
    },
  };
}

/**
 * PostgreSQL's default 128 MB of shared buffers lives inside PGlite's WebAssembly memory and is
 * all touched at start: about 90 MB of resident memory for a cache the operating system's file
 * cache already provides, since PGlite reads its data folder through ordinary files. The sandbox's
 * hot indexes fit in 32 MB many times over (docs/benchmarks.md).
 */
const EMBEDDED_SHARED_BUFFERS = '32MB';

/**
 * A fresh data folder is made by a second PGlite and PGlite's initdb program, each an Emscripten
 * instance with a WebAssembly memory of its own (189 and 64 MB touched). Once dropped, they still
 * reach each other (initdb mounts the other's file system) and wasm instances V8 releases through
 * weak callbacks, so a full collection frees one link and the next link goes only at a collection
 * after a turn of the event loop: it takes three, and nothing on the rest of the cold path brings
 * them, so the server held them (about 300 MB) when healthy. When PGlite loaded the bundle itself,
 * it did so after initdb and its collections freed them on the way (docs/benchmarks.md). Only a
 * fresh folder pays for these collections.
 */
async function collectInitdbGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc');
  // V8 documents flags set after start as unsupported: without gc the server only holds more memory
  const gc = runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
  if (!gc) return;
  const held = () => {
    const usage = process.memoryUsage();
    return usage.external + usage.arrayBuffers;
  };
  // three rounds free them when measured; a round may free nothing visible while other work allocates
  for (let round = 0, before = held(); round < 5; round++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    const after = held();
    if (round >= 2 && after >= before) break;
    before = after;
  }
}

async function pgliteDatabase(dataDir: string, options: OpenOptions): Promise<Database> {
  const [{ PGlite }, postgis, { PGLiteSocketServer }, { PrismaPGlite }] = await Promise.all([
    import('@electric-sql/pglite'),
    landgraphPostgis(),
    import('@electric-sql/pglite-socket'),
    import('pglite-prisma-adapter'),
  ]);
  mkdirSync(dataDir, { recursive: true });
  const pgdata = join(dataDir, 'pgdata');
  const started = Date.now();
  const fresh = !existsSync(join(pgdata, 'PG_VERSION'));
  const db: PGlite = await PGlite.create({
    dataDir: pgdata,
    extensions: { postgis },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
  });
  if (fresh) await collectInitdbGarbage();
  logger.info(`embedded database opened at ${pgdata} in ${Date.now() - started} ms`);
  // Serve the same database on a loopback port so other processes (the CLI, subgraphs in
  // distributed mode) reach it over the Postgres wire protocol while this process owns it.
  // Queries are queued one at a time whatever the number of connections, and a connection over
  // the limit is refused: room for every subgraph process's pool and its listener, the job
  // worker and a CLI command or two (fourteen subgraphs once filled 16 under load: 503s).
  const server: PGLiteSocketServer = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: 0,
    maxConnections: EMBEDDED_SOCKET_CONNECTIONS,
  });
  serveWholeExchanges(server, db);
  await server.start();
  const port = Number(/:(\d+)$/.exec(server.getServerConn())?.[1]);
  const socketFile = join(dataDir, SOCKET_FILE);
  writeFileSync(socketFile, JSON.stringify({ port, pid: process.pid } satisfies SocketRecord));
  const adapter = new PrismaPGlite(db);
  const prisma = prismaClient(adapter, options);
  const driver = driverSql(adapter.connect(), options);
  return {
    kind: 'pglite',
    prisma,
    sql: driver.sql,
    url: pgliteUrl(port),
    async exec(sql) {
      try {
        await db.exec(sql);
      } catch (error) {
        await db.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await db.query<T>(sql, params);
      return result.rows;
    },
    async listen(channel, onMessage) {
      const stop = await db.listen(channel, onMessage);
      return async () => stop();
    },
    transaction<T>(work: (query: QueryFn, script: ScriptFn) => Promise<T>) {
      return db.transaction((tx) =>
        work(
          async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows,
          async (sql) => {
            await tx.exec(sql);
          },
        ),
      );
    },
    async close() {
      await prisma.$disconnect();
      await driver.dispose();
      await server.stop();
      // The socket server answers each closed connection on a later setImmediate, which reads the
      // database: let those run before it closes (subgraph children exiting at stop), or they throw.
      await new Promise((resolve) => setImmediate(resolve));
      rmSync(socketFile, { force: true });
      await db.close();
    },
  };
}

/** Where another process reaches the embedded database of `dataDir`; undefined when no live process owns it. */
export function embeddedDatabaseUrl(dataDir: string): string | undefined {
  const owner = readSocketRecord(dataDir);
  return owner ? pgliteUrl(owner.port) : undefined;
}

/**
 * PostgreSQL when DATABASE_URL is set; otherwise the embedded PGlite + PostGIS in the data
 * folder, reached over its socket when another live process already owns the folder.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolMax'>>,
  options: OpenOptions = {},
): Promise<Database> {
  if (config.databaseUrl) {
    const kind = config.databaseUrl.includes(PGLITE_MARK) ? 'pglite' : 'postgres';
    return postgresDatabase(config.databaseUrl, kind, config.databasePoolMax ?? 10, options);
  }
  const owner = readSocketRecord(config.dataDir);
  if (owner) return postgresDatabase(pgliteUrl(owner.port), 'pglite', 2, options);
  return pgliteDatabase(config.dataDir, options);
}
