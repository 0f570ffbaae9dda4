import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Config } from './config.ts';
import { logger } from './logger.ts';

export type DatabaseKind = 'postgres' | 'pglite';

/**
 * One database handle for the whole process. Layers query through Prisma
 * (`prisma.$queryRaw` for PostGIS); `exec` runs multi-statement scripts (migrations, bulk loads).
 */
export interface Database {
  readonly kind: DatabaseKind;
  readonly prisma: PrismaClient;
  /** Runs a script of one or more statements without parameters. */
  exec(sql: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows; for loaders that bypass Prisma's row mapping. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The wire-protocol URL other processes can use to reach this database. */
  readonly url: string;
  close(): Promise<void>;
}

const SOCKET_FILE = 'socket.json';

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
    if (record.pid !== process.pid && processAlive(record.pid)) return record;
  } catch {
    // a torn or stale file: the owner is gone, so this process may take the folder over
  }
  return undefined;
}

function postgresDatabase(url: string, kind: DatabaseKind, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind,
    prisma,
    url,
    async exec(sql) {
      await pool.query(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await pool.query(sql, params);
      return result.rows as T[];
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

async function pgliteDatabase(dataDir: string): Promise<Database> {
  const [{ PGlite }, { postgis }, { PGLiteSocketServer }, { PrismaPGlite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-postgis'),
    import('@electric-sql/pglite-socket'),
    import('pglite-prisma-adapter'),
  ]);
  mkdirSync(dataDir, { recursive: true });
  const pgdata = join(dataDir, 'pgdata');
  const started = Date.now();
  const db: PGlite = await PGlite.create({ dataDir: pgdata, extensions: { postgis } });
  logger.info(`embedded database opened at ${pgdata} in ${Date.now() - started} ms`);
  // Serve the same database on a loopback port so other processes (the CLI, subgraphs in
  // distributed mode) reach it over the Postgres wire protocol while this process owns it.
  const server: PGLiteSocketServer = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
  await server.start();
  const port = Number(/:(\d+)$/.exec(server.getServerConn())?.[1]);
  const socketFile = join(dataDir, SOCKET_FILE);
  writeFileSync(socketFile, JSON.stringify({ port, pid: process.pid } satisfies SocketRecord));
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(db) });
  return {
    kind: 'pglite',
    prisma,
    url: `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    async exec(sql) {
      await db.exec(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await db.query<T>(sql, params);
      return result.rows;
    },
    async close() {
      await prisma.$disconnect();
      await server.stop();
      rmSync(socketFile, { force: true });
      await db.close();
    },
  };
}

/**
 * PostgreSQL when DATABASE_URL is set; otherwise the embedded PGlite + PostGIS in the data
 * folder, reached over its socket when another live process already owns the folder.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolMax'>>,
): Promise<Database> {
  if (config.databaseUrl) return postgresDatabase(config.databaseUrl, 'postgres', config.databasePoolMax);
  const owner = readSocketRecord(config.dataDir);
  if (owner) {
    return postgresDatabase(`postgresql://postgres@127.0.0.1:${owner.port}/postgres?sslmode=disable`, 'pglite', 2);
  }
  return pgliteDatabase(config.dataDir);
}
