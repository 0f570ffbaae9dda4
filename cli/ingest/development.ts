/**
 * `landgraph ingest development-applications`: development applications from a PlanningAlerts
 * or NSW Planning Portal JSON file into development.application, in one transaction. Reruns are
 * idempotent: records are keyed by source, council and council reference, and a record whose
 * content did not change is left as it was (its received_at too, so the change feed does not
 * send it again). Records that cannot be read are listed, not fatal.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Database, QueryFn } from '../../core/db.ts';
import {
  DA_CREDITS,
  type DaFormat,
  type DaRecord,
  isDaFormat,
  parseApplications,
  DA_FORMATS,
} from './development-formats.ts';
import {
  ANALYZE_DEVELOPMENT_TABLES,
  LOCK_DEVELOPMENT_WRITES,
  UPSERT_APPLICATIONS,
  type UpsertOutcome,
} from './development-sql.ts';
import { IngestError } from './gnaf-release.ts';
import type { PublishEvent } from '../../platform/webhooks/publish.ts';
import { publishEventsWith } from '../../platform/webhooks/publish.ts';
import { READ_DATASET_SOURCE } from './land-sql.ts';
import { WRITE_DATASET_SOURCE } from './planning-sql.ts';
import type { FeatureNote } from './planning-load.ts';
import { checkDataset, snapshotId } from './planning.ts';
import { UsageError } from './run.ts';

export const DEVELOPMENT_LAYER = 'development-applications';
/** JSON files above this are refused: the sources page their answers far below it. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;
const BATCH_ROWS = 2_000;

export type DevelopmentIngestOptions = { file: string; format?: string; dataset?: string; snapshot?: string };

export type PreparedDevelopmentIngest = {
  file: string;
  format: DaFormat;
  dataset: string;
  snapshot: string;
  records: DaRecord[];
  refused: FeatureNote[];
  read: number;
};

export type UpsertCounts = { inserted: number; updated: number; unchanged: number; matched: number };

export type DevelopmentIngestResult = UpsertCounts & {
  file: string;
  format: DaFormat;
  dataset: string;
  snapshot: string;
  read: number;
  refused: FeatureNote[];
  states: string[];
  ms: number;
};

/** Checks the options and reads the file before any database is opened. */
export async function prepareDevelopmentIngest(options: DevelopmentIngestOptions): Promise<PreparedDevelopmentIngest> {
  if (options.format === undefined) throw new UsageError(`name the format with --format ${DA_FORMATS.join('|')}`);
  if (!isDaFormat(options.format)) {
    throw new UsageError(`unknown format "${options.format}": one of ${DA_FORMATS.join(', ')}`);
  }
  const dataset = checkDataset(options.dataset ?? 'live');
  let size: number;
  try {
    size = (await stat(options.file)).size;
  } catch {
    throw new IngestError(`cannot read ${options.file}`);
  }
  if (size > MAX_FILE_BYTES) throw new IngestError(`${options.file} is over ${MAX_FILE_BYTES / 1024 / 1024} MB`);
  let body: unknown;
  try {
    body = JSON.parse(await readFile(options.file, 'utf8'));
  } catch (error) {
    throw new IngestError(`${options.file} is not JSON: ${(error as Error).message}`);
  }
  const name = basename(options.file);
  const parsed = parseApplications(options.format, body, name);
  if ('error' in parsed) throw new IngestError(`${name} ${parsed.error}`);
  return {
    file: name,
    format: options.format,
    dataset,
    snapshot: snapshotId(options.snapshot, options.file),
    ...parsed,
  };
}

const column = <K extends keyof DaRecord>(records: readonly DaRecord[], key: K) => records.map((r) => r[key]);

/**
 * Writes records with the lock every writer of the table takes; `query` runs inside the
 * caller's transaction. Returns what became of them.
 */
export async function upsertApplications(
  query: QueryFn,
  dataset: string,
  records: readonly DaRecord[],
): Promise<UpsertCounts> {
  await query(LOCK_DEVELOPMENT_WRITES);
  const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0, matched: 0 };
  for (let start = 0; start < records.length; start += BATCH_ROWS) {
    const batch = records.slice(start, start + BATCH_ROWS);
    const keys = new Set(batch.map((r) => `${r.source}\u0000${r.authority}\u0000${r.council_reference}`));
    const rows = await query<UpsertOutcome>(UPSERT_APPLICATIONS, [
      dataset,
      column(batch, 'seq'),
      column(batch, 'source'),
      column(batch, 'authority'),
      column(batch, 'council_reference'),
      column(batch, 'state'),
      column(batch, 'lga_code'),
      column(batch, 'lga_name'),
      column(batch, 'suburb'),
      column(batch, 'address'),
      column(batch, 'description'),
      column(batch, 'category'),
      column(batch, 'status'),
      column(batch, 'lodged_date'),
      column(batch, 'decided_date'),
      column(batch, 'estimated_cost'),
      column(batch, 'dwellings_proposed'),
      column(batch, 'source_url'),
      column(batch, 'attribution'),
      column(batch, 'license'),
      column(batch, 'updated_at'),
      column(batch, 'lng'),
      column(batch, 'lat'),
    ]);
    let written = 0;
    const changed: PublishEvent[] = [];
    for (const row of rows) {
      if (row.kind === 'written') {
        written += 1;
        changed.push(daUpdatedEvent(dataset, row));
        if (row.inserted) counts.inserted += 1;
        else counts.updated += 1;
      } else if (row.parcel_pfi !== null) counts.matched += 1;
    }
    counts.unchanged += keys.size - written;
    // One call per batch, in the same transaction: subscribers hear of exactly the rows written.
    await publishEventsWith(query, changed);
  }
  return counts;
}

/** development_application.updated for a written row, with the LGA and point endpoint filters match. */
function daUpdatedEvent(dataset: string, row: UpsertOutcome): PublishEvent {
  const updatedAt = row.updated_at instanceof Date ? row.updated_at.toISOString() : row.updated_at;
  const lng = row.lng === null ? null : Number(row.lng);
  const lat = row.lat === null ? null : Number(row.lat);
  return {
    type: 'development_application.updated',
    data: {
      change: row.inserted ? 'created' : 'updated',
      dataset,
      source: row.source,
      authority: row.authority,
      council_reference: row.council_reference,
      state: row.state,
      lga_code: row.lga_code,
      status: row.status,
      updated_at: updatedAt,
      location: lng === null || lat === null ? null : { lat, lng },
    },
    attributes: { lga_code: row.lga_code, lng, lat },
  };
}

/** A credit that names each source once, in the order they were first loaded. */
function mergeCredit(existing: string | undefined, added: string): string {
  const parts = existing ? existing.split(' | ') : [];
  return parts.includes(added) ? parts.join(' | ') : [...parts, added].join(' | ');
}

export async function loadDevelopmentApplications(
  db: Database,
  run: PreparedDevelopmentIngest,
): Promise<DevelopmentIngestResult> {
  const started = performance.now();
  const { dataset, format, records } = run;
  const states = [...new Set(records.map((r) => r.state))].sort();
  const counts = await db.transaction(async (query) => {
    const result = await upsertApplications(query, dataset, records);
    const credit = DA_CREDITS[format];
    for (const state of states) {
      const [current] = await query<{ attribution: string; license: string }>(READ_DATASET_SOURCE, [
        dataset,
        state,
        DEVELOPMENT_LAYER,
      ]);
      await query(WRITE_DATASET_SOURCE, [
        dataset,
        state,
        DEVELOPMENT_LAYER,
        mergeCredit(current?.attribution, credit.attribution),
        mergeCredit(current?.license, credit.license),
        run.snapshot,
      ]);
    }
    return result;
  });
  await db.exec(ANALYZE_DEVELOPMENT_TABLES);
  return {
    ...counts,
    file: run.file,
    format,
    dataset,
    snapshot: run.snapshot,
    read: run.read,
    refused: run.refused,
    states,
    ms: Math.round(performance.now() - started),
  };
}
