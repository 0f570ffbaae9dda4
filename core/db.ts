import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
import { logger } from './logger.ts';
import { landgraphPostgis } from './postgis-bundle.ts';

export type DatabaseKind = 'postgres' | 'pglite';

export type QueryFn = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

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
  sql<T>(query: Prisma.Sql): Promise<T[]>;
  /** Runs a script of one or more statements without parameters, on one connection; an open transaction is rolled back on failure. */
  exec(sql: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows; for loaders that bypass Prisma's row mapping. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `work` in one transaction on one connection: all of it is committed, or none. */
  transaction<T>(work: (query: QueryFn) => Promise<T>): Promise<T>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`, from any process; returns
   * the function that stops listening. Used to drop cached state the moment another process changes it.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** The wire-protocol URL other processes can use to reach this database. */
  readonly url: string;
  close(): Promise<void>;
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

export type OpenOptions = {
  /** Called with the SQL of every query sent through Prisma: instrumentation, and the batching tests. */
  onQuery?: (sql: string) => void;
};

type DriverSql = { sql: Database['sql']; dispose(): Promise<void> };

function driverSql(connecting: Promise<SqlDriverAdapter>, options: OpenOptions): DriverSql {
  // An unused handle must not leave a rejected promise unobserved.
  connecting.catch(() => undefined);
  return {
    async sql<T>(query: Prisma.Sql): Promise<T[]> {
      const request = driverQuery(query);
      options.onQuery?.(request.sql);
      const driver = await connecting;
      try {
        return rowsOf<T>(await driver.queryRaw(request));
      } catch (error) {
        throw driverError(error);
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

function postgresDatabase(url: string, kind: DatabaseKind, max: number, options: OpenOptions): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // Not over PGlite's socket: its connections share one backend, where a second connection
  // preparing the same statement name would collide.
  const adapter = new PrismaPg(pool, kind === 'postgres' ? { statementNameGenerator: statementName } : {});
  const prisma = prismaClient(adapter, options);
  const driver = driverSql(adapter.connect(), options);
  return {
    kind,
    prisma,
    sql: driver.sql,
    url,
    async exec(sql) {
      // One connection for the whole script, rolled back on failure: a script that opened a
      // transaction must never go back to the pool inside an aborted one.
      const client = await pool.connect();
      try {
        await client.query(sql);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await pool.query(sql, params);
      return result.rows as T[];
    },
    async listen(channel, onMessage) {
      // A connection of its own, outside the pool: LISTEN belongs to one session for its lifetime.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel) onMessage(message.payload ?? '');
      });
      client.on('error', (error) => logger.warn('notification connection lost', { channel, error: error.message }));
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        await client.end().catch(() => undefined);
      };
    },
    async transaction<T>(work: (query: QueryFn) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(
          async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
        );
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await driver.dispose();
      await pool.end();
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
  const db: PGlite = await PGlite.create({
    dataDir: pgdata,
    extensions: { postgis },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
  });
  logger.info(`embedded database opened at ${pgdata} in ${Date.now() - started} ms`);
  // Serve the same database on a loopback port so other processes (the CLI, subgraphs in
  // distributed mode) reach it over the Postgres wire protocol while this process owns it.
  const server: PGLiteSocketServer = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
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
    transaction<T>(work: (query: QueryFn) => Promise<T>) {
      return db.transaction((tx) =>
        work(async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows),
      );
    },
    async close() {
      await prisma.$disconnect();
      await driver.dispose();
      await server.stop();
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
