/**
 * The benchmark's PostgreSQL database: created when missing, migrated and seeded through the
 * project's own functions, and the source of the random parcel points the load generator cycles.
 */
import pg from 'pg';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { migrate } from '../core/migrate.ts';
import { prepareDatabase } from '../app/runtime.ts';
import { isSandboxLoaded, seedSandbox } from '../prisma/sandbox/load.ts';

export const DEFAULT_BENCH_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/landgraph_bench';

/** One benchmark target: a parcel's interior point and its key, so both routes hit the same parcels. */
export type BenchPoint = { state: string; pfi: string; lat: number; lng: number };

export type DatabaseFacts = { postgres: string; postgis: string; parcels: number; addresses: number };

/** Creates the database named by `url` (through the server's `postgres` database) if it is missing. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[\w-]+$/.test(name)) throw new Error(`Unexpected benchmark database name: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`);
      process.stdout.write(`created database ${name}\n`);
    }
  } finally {
    await client.end();
  }
}

/**
 * Migrates and seeds: the default-size sandbox exactly as a serving process would
 * (prepareDatabase), or a scaled one through seedSandbox, reloaded only when the loaded
 * snapshot is not the one asked for.
 */
export async function prepareBenchDatabase(url: string, seed: number, parcels: number | undefined): Promise<void> {
  await ensureDatabase(url);
  const db = await openDatabase({ databaseUrl: url, dataDir: '.landgraph-bench' });
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS postgis');
    if (parcels === undefined) await prepareDatabase(db, { sandboxSeed: seed });
    else await seedScaled(db, seed, parcels);
    // fresh statistics, so both servers' identical queries get the same, index-using plan
    await db.exec('ANALYZE cadastre.parcel, address.address_detail, address.street_locality, address.locality');
  } finally {
    await db.close();
  }
}

async function seedScaled(db: Database, seed: number, parcels: number): Promise<void> {
  await migrate(db);
  if (await isSandboxLoaded(db, { seed, parcels })) return;
  process.stdout.write(`seeding a sandbox of about ${parcels.toLocaleString('en-AU')} parcels (minutes)...\n`);
  let reported = 0;
  const summary = await seedSandbox(db, {
    seed,
    parcels,
    onProgress: (done, total) => {
      if (done - reported < total / 10 && done !== total) return;
      reported = done;
      process.stdout.write(`  ${done.toLocaleString('en-AU')} / ${total.toLocaleString('en-AU')} parcels\n`);
    },
  });
  process.stdout.write(`seeded ${summary.parcels} parcels in ${(summary.ms / 1000).toFixed(0)} s\n`);
  // The seed's inserts sit in each GIN index's pending list, which every search reads in full until a
  // VACUUM merges it; this PostgreSQL runs without autovacuum, so without this the SPEAR lookup by PFI
  // read 242 buffers (6 ms) per parcel at a million parcels instead of one index probe.
  process.stdout.write('vacuuming the seeded database (minutes)...\n');
  await db.exec('VACUUM (ANALYZE)');
}

export async function withDatabase<T>(url: string, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase({ databaseUrl: url, dataDir: '.landgraph-bench' });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

/**
 * `count` sandbox parcels chosen by a seeded hash of their key (the same parcels every run on
 * the same data), each with ST_PointOnSurface: a point guaranteed inside the parcel.
 */
export function benchPoints(url: string, count: number, seed: number): Promise<BenchPoint[]> {
  return withDatabase(url, async (db) => {
    const rows = await db.query<BenchPoint>(
      `SELECT state, pfi, ST_Y(pt) AS lat, ST_X(pt) AS lng
       FROM (
         SELECT p.state, p.parcel_pfi AS pfi, ST_PointOnSurface(p.geom) AS pt
         FROM cadastre.parcel p
         WHERE p.dataset = 'sandbox'
         ORDER BY md5(p.state || ':' || p.parcel_pfi || ':' || $1::text)
         LIMIT $2
       ) chosen`,
      [String(seed), count],
    );
    if (rows.length === 0) throw new Error('The benchmark database holds no sandbox parcels.');
    return rows.map((r) => ({ ...r, lat: Number(r.lat), lng: Number(r.lng) }));
  });
}

export function databaseFacts(url: string): Promise<DatabaseFacts> {
  return withDatabase(url, async (db) => {
    const [row] = await db.query<DatabaseFacts>(
      `SELECT current_setting('server_version') AS postgres, postgis_lib_version() AS postgis,
              (SELECT count(*)::int FROM cadastre.parcel WHERE dataset = 'sandbox') AS parcels,
              (SELECT count(*)::int FROM address.address_detail WHERE dataset = 'sandbox') AS addresses`,
    );
    if (!row) throw new Error('No answer from the benchmark database.');
    return row;
  });
}

/** One sandbox address as the address benchmark needs it: its G-NAF components and the parcel it lies on. */
export type BenchAddress = {
  gnaf_pid: string;
  formatted_address: string;
  search_key: string;
  geocode_type: string;
  parcel_pfi: string;
  state: string;
  postcode: string | null;
  locality_name: string;
  street_name: string;
  street_type_code: string | null;
  street_suffix_code: string | null;
  building_name: string | null;
  flat_type_code: string | null;
  flat_number: number | null;
  flat_number_suffix: string | null;
  level_type_code: string | null;
  level_number: number | null;
  number_first: number | null;
  number_first_suffix: string | null;
  number_last: number | null;
  number_last_suffix: string | null;
  lot_number: string | null;
};

/**
 * `count` sandbox addresses with a parcel-grade geocode (PC or FCS) and a parcel, chosen by a
 * seeded hash of their G-NAF PID (the same addresses every run on the same data).
 */
export function benchAddresses(url: string, count: number, seed: number): Promise<BenchAddress[]> {
  return withDatabase(url, async (db) => {
    const rows = await db.query<BenchAddress>(
      `SELECT a.gnaf_pid, a.formatted_address, a.search_key, a.geocode_type, a.parcel_pfi, a.state, a.postcode,
              l.locality_name, s.street_name, s.street_type_code, s.street_suffix_code, a.building_name,
              a.flat_type_code, a.flat_number, a.flat_number_suffix, a.level_type_code, a.level_number,
              a.number_first, a.number_first_suffix, a.number_last, a.number_last_suffix, a.lot_number
       FROM (
         SELECT * FROM address.address_detail a
         WHERE a.dataset = 'sandbox' AND a.geocode_type IN ('PC', 'FCS') AND a.geom IS NOT NULL
           AND a.parcel_pfi IS NOT NULL AND a.search_key IS NOT NULL
         ORDER BY md5(a.gnaf_pid || ':' || $1::text)
         LIMIT $2
       ) a
       JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
       JOIN address.street_locality s ON s.dataset = a.dataset AND s.street_locality_pid = a.street_locality_pid
       ORDER BY md5(a.gnaf_pid || ':' || $1::text)`,
      [String(seed), count],
    );
    if (rows.length === 0) throw new Error('The benchmark database holds no sandbox addresses with a parcel geocode.');
    return rows;
  });
}
