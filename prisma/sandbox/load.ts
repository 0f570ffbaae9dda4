/**
 * Loads the sandbox dataset into the database.
 *
 * The whole reload (delete the old sandbox rows, insert the new ones, write the
 * dataset_source rows) runs in one transaction on one connection through
 * `Database.transaction`, so readers keep seeing the previous sandbox until the new one
 * commits, and a failure at any point leaves the previous one exactly as it was. Two loads
 * at once queue on an advisory lock rather than interleave their deletes and inserts.
 * Inserts are plain (no ON CONFLICT): under the lock a conflict can only mean a generator
 * bug, and that should fail the load, not be skipped. The one exception is the G-NAF
 * authority codes, which are national rather than the sandbox's: they are added where absent.
 *
 * The dataset_source rows are written last and carry the snapshot id
 * `sandbox-v5-<seed>-<parcels>`: `isSandboxLoaded` compares it with the options asked for, so a
 * caller knows whether the loaded sandbox is the one it wants or must be reloaded, and one
 * written by an older generator (another version) is never taken for it.
 */
import { rollupWeeksIn } from '../../core/land-supply.ts';
import { rollupSuburbAnalytics } from '../../core/suburb-analytics/rollup.ts';
import { SUBURB_METRICS_PROVIDERS } from '../../subgraphs/suburb-metrics.ts';
import { SUPPLY_LAST_WEEK, weekAt } from './supply.ts';
import { seedMarketIn } from './market.ts';
import { logger } from '../../core/logger.ts';
import type { Database, QueryFn } from '../../core/db.ts';
import { AUTHORITY_ROWS } from '../../subgraphs/address/matching/vocabulary.ts';
import {
  datasetSources,
  generateSandbox,
  planSandbox,
  SANDBOX_DATASET,
  SANDBOX_VERSION,
  sandboxSnapshotId,
} from './generate.ts';
import type { SandboxBatch, SandboxTable, SandboxTables } from './rows.ts';
import {
  ANALYZE_TABLES,
  COUNT_COMPLETE_SOURCES,
  DELETE_DATASET,
  LOCK_SANDBOX_LOAD,
  UPSERT_AUTHORITY_CODES,
  WRITERS,
} from './sql.ts';

export { sandboxSamples, type SandboxSample } from './samples.ts';

export interface SeedOptions {
  seed: number;
  /** Target total of parcels; defaults to about 15,000. */
  parcels?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface SeedResult {
  parcels: number;
  addresses: number;
  zones: number;
  overlays: number;
  roads: number;
  demTiles: number;
  ms: number;
}

// Statements queued on the transaction's connection: with two, PostgreSQL runs one batch while
// the generator builds the next. PGlite runs in this thread, so queueing would gain nothing.
const QUEUED_WRITES = { postgres: 2, pglite: 1 } as const;
const BATCH_ROWS = 4_000;

async function write<T extends SandboxTable>(query: QueryFn, table: T, rows: SandboxTables[T][]): Promise<void> {
  const writer = WRITERS[table];
  await query(writer.sql, [SANDBOX_DATASET, ...writer.params(rows)]);
}

export async function seedSandbox(db: Database, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const generatorOptions = { seed: options.seed, parcels: options.parcels, batchRows: BATCH_ROWS };
  const plan = planSandbox(generatorOptions);
  const result: SeedResult = { parcels: 0, addresses: 0, zones: 0, overlays: 0, roads: 0, demTiles: 0, ms: 0 };
  const tally = (batch: SandboxBatch) => {
    if (batch.table === 'parcel') {
      result.parcels += batch.rows.length;
      options.onProgress?.(result.parcels, plan.parcels);
    } else if (batch.table === 'address_detail') result.addresses += batch.rows.length;
    else if (batch.table === 'zone') result.zones += batch.rows.length;
    else if (batch.table === 'overlay') result.overlays += batch.rows.length;
    else if (batch.table === 'road') result.roads += batch.rows.length;
    else if (batch.table === 'dem_tile') result.demTiles += batch.rows.length;
  };

  // each phase's time at debug level: the cold start of the embedded default is mostly this load
  let phaseStarted = performance.now();
  const phaseDone = (phase: string) => {
    const now = performance.now();
    logger.debug('sandbox load phase', { phase, ms: Math.round(now - phaseStarted) });
    phaseStarted = now;
  };
  await db.transaction(async (query) => {
    await query(LOCK_SANDBOX_LOAD);
    for (const sql of DELETE_DATASET) await query(sql, [SANDBOX_DATASET]);
    await query(UPSERT_AUTHORITY_CODES, [
      AUTHORITY_ROWS.map((r) => r.authority),
      AUTHORITY_ROWS.map((r) => r.code),
      AUTHORITY_ROWS.map((r) => r.name),
      AUTHORITY_ROWS.map((r) => r.description),
    ]);
    options.onProgress?.(0, plan.parcels);
    const limit = QUEUED_WRITES[db.kind];
    const queued = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    for (const batch of generateSandbox(generatorOptions, plan)) {
      const pending: Promise<void> = write(query, batch.table, batch.rows)
        .then(() => tally(batch))
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => queued.delete(pending));
      queued.add(pending);
      while (queued.size >= limit) await Promise.race(queued);
      if (failure) break;
    }
    // let every queued statement settle before the transaction commits or rolls back
    await Promise.all(queued);
    if (failure) throw failure.error;
    phaseDone('generate and write the layers');
    // the land-supply series are read from the weekly rollup: roll up the sandbox's year of weeks
    await rollupWeeksIn(query, SANDBOX_DATASET, weekAt(0), SUPPLY_LAST_WEEK);
    phaseDone('land-supply weekly rollup');
    // the market rows are drawn from the sandbox's addresses and localities, set-based (prisma/sandbox/market.ts)
    // The sales are drawn by joining the addresses, localities and parcels just written. Without
    // statistics on them the planner's guess made that one statement take 8 s of a 13 s cold
    // start on the embedded database; analysed first (0.2 s), it takes 0.4 s.
    await query('ANALYZE address.address_detail, address.locality, cadastre.parcel');
    phaseDone('analyze the tables the market is drawn from');
    await seedMarketIn(query, SANDBOX_DATASET, options.seed);
    phaseDone('market sales, rents and approvals');
  });
  phaseDone('commit');
  await db.exec(ANALYZE_TABLES);
  phaseDone('analyze');
  // the suburb bundles are computed from every layer just loaded (each state replaced in its own transaction)
  await rollupSuburbAnalytics(db, { dataset: SANDBOX_DATASET, providers: SUBURB_METRICS_PROVIDERS });
  phaseDone('suburb analytics rollup');
  result.ms = Math.round(performance.now() - started);
  return result;
}

/** True when the loaded sandbox is the one these options describe. */
export async function isSandboxLoaded(db: Database, options: { seed: number; parcels?: number }): Promise<boolean> {
  const [row] = await db.query<{ n: number }>(COUNT_COMPLETE_SOURCES, [SANDBOX_DATASET, sandboxSnapshotId(options)]);
  return row?.n === datasetSources(options).length;
}

/**
 * True when a complete sandbox of this seed is loaded at any size: a server start must not
 * replace a scaled benchmark sandbox (`sandbox seed --parcels N`) with the default one.
 */
export async function isSandboxLoadedAtAnySize(db: Database, seed: number): Promise<boolean> {
  const expected = datasetSources({ seed }).length;
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM public.dataset_source
     WHERE dataset = $1 AND snapshot_id LIKE $2 GROUP BY snapshot_id`,
    [SANDBOX_DATASET, `sandbox-${SANDBOX_VERSION}-${seed}-%`],
  );
  return rows.some((row) => row.n === expected);
}
