/**
 * `landgraph ingest spear`: SPEAR applications from an export (see spear-formats.ts) into
 * development.spear_application, in one transaction. Reruns are idempotent: rows are keyed by
 * SPEAR reference, and one whose content did not change is left as it was. Rows that cannot be
 * read are listed, not fatal.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Database, QueryFn } from '../../core/db.ts';
import { IngestError } from './gnaf-release.ts';
import { WRITE_DATASET_SOURCE } from './planning-sql.ts';
import type { FeatureNote } from './planning-load.ts';
import { checkDataset, snapshotId } from './planning.ts';
import { readCsv } from './csv.ts';
import { SPEAR_CREDIT, type SpearRecord, parseSpear, spearRowsOfCsv } from './spear-formats.ts';
import { ANALYZE_SPEAR_TABLES, UPSERT_SPEAR } from './spear-sql.ts';

export const SPEAR_LAYER = 'spear';
const MAX_FILE_BYTES = 256 * 1024 * 1024;
const BATCH_ROWS = 2_000;

export type SpearIngestOptions = {
  file: string;
  dataset?: string;
  snapshot?: string;
  attribution?: string;
  license?: string;
};

export type PreparedSpearIngest = {
  file: string;
  dataset: string;
  snapshot: string;
  attribution: string;
  license: string;
  records: SpearRecord[];
  refused: FeatureNote[];
  read: number;
};

export type SpearIngestResult = {
  file: string;
  dataset: string;
  snapshot: string;
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Written rows that touch at least one lot. */
  on_lot: number;
  refused: FeatureNote[];
  ms: number;
};

/** Checks the options and reads the file before any database is opened. */
export async function prepareSpearIngest(options: SpearIngestOptions): Promise<PreparedSpearIngest> {
  const dataset = checkDataset(options.dataset ?? 'live');
  let size: number;
  try {
    size = (await stat(options.file)).size;
  } catch {
    throw new IngestError(`cannot read ${options.file}`);
  }
  if (size > MAX_FILE_BYTES) throw new IngestError(`${options.file} is over ${MAX_FILE_BYTES / 1024 / 1024} MB`);
  const name = basename(options.file);
  const now = new Date().toISOString();
  let parsed: ReturnType<typeof parseSpear>;
  if (extname(options.file).toLowerCase() === '.csv') {
    const table = readCsv(options.file);
    const csv = spearRowsOfCsv(table.header, table.rows, name);
    if ('error' in csv) throw new IngestError(csv.error);
    parsed = parseSpear(csv.rows, name, now, csv.lines);
  } else {
    let body: unknown;
    try {
      body = JSON.parse(await readFile(options.file, 'utf8'));
    } catch (error) {
      throw new IngestError(`${options.file} is not JSON: ${(error as Error).message}`);
    }
    parsed = parseSpear(body, name, now);
  }
  if ('error' in parsed) throw new IngestError(`${name} ${parsed.error}`);
  return {
    file: name,
    dataset,
    snapshot: snapshotId(options.snapshot, options.file),
    attribution: options.attribution?.trim() || SPEAR_CREDIT.attribution,
    license: options.license?.trim() || SPEAR_CREDIT.license,
    ...parsed,
  };
}

const column = <K extends keyof SpearRecord>(records: readonly SpearRecord[], key: K) => records.map((r) => r[key]);

/** Writes records inside the caller's transaction; returns what became of them. */
export async function upsertSpear(query: QueryFn, run: PreparedSpearIngest) {
  const counts = { inserted: 0, updated: 0, unchanged: 0, on_lot: 0 };
  for (let start = 0; start < run.records.length; start += BATCH_ROWS) {
    const batch = run.records.slice(start, start + BATCH_ROWS);
    const rows = await query<{ inserted: boolean; on_lot: boolean }>(UPSERT_SPEAR, [
      run.dataset,
      column(batch, 'seq'),
      column(batch, 'spear_reference'),
      column(batch, 'application_type'),
      column(batch, 'responsible_authority'),
      column(batch, 'council_reference'),
      column(batch, 'lga_code'),
      column(batch, 'status'),
      column(batch, 'description'),
      column(batch, 'lodged_date'),
      column(batch, 'decided_date'),
      column(batch, 'parcel_pfis'),
      column(batch, 'address'),
      column(batch, 'source_url'),
      column(batch, 'updated_at'),
      column(batch, 'lng'),
      column(batch, 'lat'),
      run.attribution,
      run.license,
    ]);
    for (const row of rows) {
      if (row.inserted) counts.inserted += 1;
      else counts.updated += 1;
      if (row.on_lot) counts.on_lot += 1;
    }
    counts.unchanged += new Set(batch.map((r) => r.spear_reference)).size - rows.length;
  }
  return counts;
}

export async function loadSpear(db: Database, run: PreparedSpearIngest): Promise<SpearIngestResult> {
  const started = performance.now();
  const counts = await db.transaction(async (query) => {
    const result = await upsertSpear(query, run);
    await query(WRITE_DATASET_SOURCE, [run.dataset, 'VIC', SPEAR_LAYER, run.attribution, run.license, run.snapshot]);
    return result;
  });
  await db.exec(ANALYZE_SPEAR_TABLES);
  return {
    ...counts,
    file: run.file,
    dataset: run.dataset,
    snapshot: run.snapshot,
    read: run.read,
    refused: run.refused,
    ms: Math.round(performance.now() - started),
  };
}
