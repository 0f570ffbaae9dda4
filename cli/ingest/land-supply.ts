/**
 * `landgraph ingest land-supply`: estates and this week's lot list (land-supply-formats.ts) into
 * schema supply, in one transaction: estates upserted by estate_id, lots by lot_id (a rerun
 * changes only what changed), a snapshot of every listed lot for the week (replaced on a rerun
 * of the same week), the state's credit, and the week rolled up. Rows that cannot be read, and
 * lots of an estate neither file nor database holds, are listed, not fatal.
 */
import { basename } from 'node:path';
import type { Database, QueryFn } from '../../core/db.ts';
import { rollupWeeksIn, weekOf } from '../../core/land-supply.ts';
import { IngestError } from './gnaf-release.ts';
import type { EstateRecord, LotRecord, Parsed } from './land-supply-formats.ts';
import { parseEstates, parseLots, readTable } from './land-supply-formats.ts';
import {
  ANALYZE_SUPPLY_TABLES,
  KNOWN_ESTATES,
  UPSERT_ESTATES,
  UPSERT_LOTS,
  WRITE_LOT_SNAPSHOTS,
} from './land-supply-sql.ts';
import { WRITE_DATASET_SOURCE } from './planning-sql.ts';
import type { FeatureNote } from './planning-load.ts';
import { checkDataset, snapshotId } from './planning.ts';

export const LAND_SUPPLY_LAYER = 'land-supply';
const BATCH_ROWS = 2_000;

export const LAND_SUPPLY_CREDIT = {
  attribution: 'Land supply: estates and lot price lists collected by the operator from developers',
  license: 'Not openly licensed: collected from developers’ published price lists',
};

export type LandSupplyIngestOptions = {
  estates?: string;
  lots?: string;
  week?: string;
  dataset?: string;
  snapshot?: string;
  attribution?: string;
  license?: string;
};

export type PreparedLandSupplyIngest = {
  dataset: string;
  week: string;
  snapshot: string;
  attribution: string;
  license: string;
  estates: Parsed<EstateRecord> & { file: string | null };
  lots: Parsed<LotRecord> & { file: string | null };
};

type Counts = { read: number; inserted: number; updated: number; unchanged: number; refused: FeatureNote[] };

export type LandSupplyIngestResult = {
  dataset: string;
  week: string;
  snapshot: string;
  estates: Counts & { file: string | null };
  lots: Counts & { file: string | null; snapshotted: number };
  states: string[];
  rollup_rows: number;
  ms: number;
};

function validDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day;
}

/** Checks the options and reads both files before any database is opened. */
export async function prepareLandSupplyIngest(options: LandSupplyIngestOptions): Promise<PreparedLandSupplyIngest> {
  const dataset = checkDataset(options.dataset ?? 'live');
  if (!options.estates && !options.lots) throw new IngestError('give --estates FILE, --lots FILE or both');
  if (options.week !== undefined && !validDay(options.week)) {
    throw new IngestError(`--week must be a calendar day YYYY-MM-DD, got "${options.week}"`);
  }
  const estates = options.estates
    ? { ...parseEstates(await readTable(options.estates)), file: options.estates }
    : { records: [], refused: [], read: 0, file: null };
  const lots = options.lots
    ? { ...parseLots(await readTable(options.lots)), file: options.lots }
    : { records: [], refused: [], read: 0, file: null };
  return {
    dataset,
    week: weekOf(options.week ?? new Date()),
    snapshot: snapshotId(options.snapshot, (options.lots ?? options.estates)!),
    attribution: options.attribution?.trim() || LAND_SUPPLY_CREDIT.attribution,
    license: options.license?.trim() || LAND_SUPPLY_CREDIT.license,
    estates,
    lots,
  };
}

const column = <R, K extends keyof R>(records: readonly R[], key: K) => records.map((r) => r[key]);

function batches<R>(records: readonly R[]): R[][] {
  const out: R[][] = [];
  for (let start = 0; start < records.length; start += BATCH_ROWS) out.push(records.slice(start, start + BATCH_ROWS));
  return out;
}

async function upsertEstates(query: QueryFn, run: PreparedLandSupplyIngest) {
  const counts = { inserted: 0, updated: 0, unchanged: 0 };
  for (const batch of batches(run.estates.records)) {
    const rows = await query<{ inserted: boolean }>(UPSERT_ESTATES, [
      run.dataset,
      column(batch, 'seq'),
      column(batch, 'estate_id'),
      column(batch, 'name'),
      column(batch, 'developer'),
      column(batch, 'state'),
      column(batch, 'lga_code'),
      column(batch, 'lga_name'),
      column(batch, 'suburb'),
      column(batch, 'status'),
      column(batch, 'lng'),
      column(batch, 'lat'),
      run.attribution,
      run.license,
      column(batch, 'outline'),
    ]);
    for (const row of rows) counts[row.inserted ? 'inserted' : 'updated'] += 1;
    counts.unchanged += new Set(batch.map((r) => r.estate_id)).size - rows.length;
  }
  return counts;
}

async function upsertLots(query: QueryFn, run: PreparedLandSupplyIngest, lots: readonly LotRecord[]) {
  const counts = { inserted: 0, updated: 0, unchanged: 0, snapshotted: 0 };
  for (const batch of batches(lots)) {
    const rows = await query<{ inserted: boolean }>(UPSERT_LOTS, [
      run.dataset,
      column(batch, 'seq'),
      column(batch, 'lot_id'),
      column(batch, 'estate_id'),
      column(batch, 'lot_number'),
      column(batch, 'sales_status'),
      column(batch, 'title_status'),
      column(batch, 'asking_price'),
      column(batch, 'area_m2'),
      column(batch, 'frontage_m'),
      column(batch, 'depth_m'),
      column(batch, 'listing_text'),
      column(batch, 'aspect'),
      column(batch, 'aspect_source'),
      column(batch, 'lng'),
      column(batch, 'lat'),
      column(batch, 'boundary'),
      column(batch, 'frontage_edge'),
      run.week,
    ]);
    for (const row of rows) counts[row.inserted ? 'inserted' : 'updated'] += 1;
    counts.unchanged += new Set(batch.map((r) => r.lot_id)).size - rows.length;
    const snapshots = await query<{ lot_id: string }>(WRITE_LOT_SNAPSHOTS, [
      run.dataset,
      run.week,
      column(batch, 'seq'),
      column(batch, 'lot_id'),
      column(batch, 'asking_price'),
      column(batch, 'sales_status'),
    ]);
    counts.snapshotted += snapshots.length;
  }
  return counts;
}

export async function loadLandSupply(db: Database, run: PreparedLandSupplyIngest): Promise<LandSupplyIngestResult> {
  const started = performance.now();
  const result = await db.transaction(async (query) => {
    const estates = await upsertEstates(query, run);
    const ids = [
      ...new Set([...run.estates.records.map((e) => e.estate_id), ...run.lots.records.map((l) => l.estate_id)]),
    ];
    const known = new Map(
      (await query<{ estate_id: string; state: string }>(KNOWN_ESTATES, [run.dataset, ids])).map((r) => [
        r.estate_id,
        r.state,
      ]),
    );
    const refusedLots = [...run.lots.refused];
    const lots = run.lots.records.filter((lot) => {
      if (known.has(lot.estate_id)) return true;
      refusedLots.push({
        file: basename(run.lots.file ?? ''),
        feature: lot.seq,
        key: `${lot.estate_id} lot ${lot.lot_number}`,
        reason: `no estate ${lot.estate_id} in the estates file or dataset '${run.dataset}'`,
      });
      return false;
    });
    refusedLots.sort((a, b) => a.feature - b.feature);
    const lotCounts = await upsertLots(query, run, lots);
    const states = [...new Set(known.values())].sort();
    for (const state of states) {
      await query(WRITE_DATASET_SOURCE, [
        run.dataset,
        state,
        LAND_SUPPLY_LAYER,
        run.attribution,
        run.license,
        run.snapshot,
      ]);
    }
    const rollupRows = lots.length > 0 ? await rollupWeeksIn(query, run.dataset, run.week, run.week) : 0;
    return { estates, lotCounts, refusedLots, states, rollupRows };
  });
  await db.exec(ANALYZE_SUPPLY_TABLES);
  return {
    dataset: run.dataset,
    week: run.week,
    snapshot: run.snapshot,
    estates: { ...result.estates, file: run.estates.file, read: run.estates.read, refused: run.estates.refused },
    lots: { ...result.lotCounts, file: run.lots.file, read: run.lots.read, refused: result.refusedLots },
    states: result.states,
    rollup_rows: result.rollupRows,
    ms: Math.round(performance.now() - started),
  };
}
