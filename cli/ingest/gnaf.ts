/**
 * Loads a G-NAF release into the address tables of one dataset ('live' by default).
 *
 * The authority codes first, then state by state: STATE, LOCALITY (+alias), STREET_LOCALITY
 * (+alias), ADDRESS_DETAIL, ADDRESS_DEFAULT_GEOCODE, ADDRESS_ALIAS, each file streamed in
 * batches of upserts, so a rerun rewrites rather than duplicates. A file is recorded in
 * address.ingest_progress only once its last batch is in, and a rerun passes over recorded
 * files (unless `force`): an interrupted ingest resumes at the file it was in. Retired rows are
 * skipped. Every header is checked before anything is written, so a malformed release fails
 * before its first row.
 *
 * The formatted address and search key are computed while the addresses stream past, from the
 * state's streets and localities held in memory (a few hundred thousand rows at most; the
 * millions of addresses never are). The steps that join whole tables run in SQL once a state's
 * files are in: the default geocode copied beside each address, blank locality postcodes
 * filled from their addresses, addresses linked to the parcels holding them, and the credit
 * written to public.dataset_source. An address's state is its locality's, taken while
 * streaming because the column may not be null.
 */
import { basename, resolve } from 'node:path';
import type { StateCode } from '../../core/geo.ts';
import type { Database } from '../../core/db.ts';
import { formatLookups } from '../../subgraphs/address/format.ts';
import { addressColumns, type ComputedColumns } from './gnaf-addresses.ts';
import { findRelease, IngestError, STATE_TABLES, type StateTable } from './gnaf-release.ts';
import * as SQL from './gnaf-sql.ts';
import { AUTHORITY_SPEC, STATE_SPECS, type TableSpec } from './gnaf-tables.ts';
import { Progress } from './progress.ts';
import { openPsv, type PsvRecord } from './psv.ts';

export { IngestError } from './gnaf-release.ts';

export interface GnafIngestOptions {
  /** A folder holding a release (found recursively). */
  folder: string;
  /** Only these states; every state in the release by default. */
  states?: readonly StateCode[];
  dataset?: string;
  /** Names the release in ingest_progress and dataset_source; by default the release folder's name. */
  release?: string;
  /** Reload files an earlier run completed. */
  force?: boolean;
  progress?: Progress;
  batchRows?: number;
}

export interface FileResult {
  /** Null for the national authority code files. */
  readonly state: StateCode | null;
  /** The G-NAF table, or the authority ("STREET_TYPE") of an authority code file. */
  readonly table: string;
  readonly file: string;
  readonly read: number;
  readonly loaded: number;
  readonly retired: number;
  /** Active rows citing a street or locality the release does not have. */
  readonly unresolved: number;
  readonly ms: number;
  /** Completed by an earlier run and passed over. */
  readonly skipped: boolean;
}

export interface StateResult {
  readonly state: StateCode;
  readonly addresses: number;
  readonly linked: number;
  readonly postStepsMs: number | null;
}

export interface GnafIngestResult {
  readonly release: string;
  readonly dataset: string;
  readonly files: readonly FileResult[];
  readonly states: readonly StateResult[];
  readonly ms: number;
}

/** One row's values, in the order of its table's statement arrays. */
type Row = (string | null)[];

interface FileJob {
  readonly state: StateCode | null;
  readonly table: string;
  readonly path: string;
  readonly spec: TableSpec;
  /** The computed columns of a record, or null to skip it as unresolved. */
  computed(record: PsvRecord<string>): ComputedColumns | null;
}

const DEFAULT_BATCH_ROWS = 1_000;

/** Datasets are names of ours; the sandbox is generated, never ingested. */
function checkDataset(dataset: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(dataset)) {
    throw new IngestError(`dataset must be a lower-case name (letters, digits, _), got "${dataset}"`);
  }
  if (dataset === 'sandbox')
    throw new IngestError('the sandbox dataset is generated (landgraph sandbox seed), not ingested');
  return dataset;
}

const progressKey = (job: FileJob) => basename(job.path);
const postStepsKey = (state: StateCode) => `${state}:post-steps`;

async function checkHeader(job: FileJob): Promise<void> {
  const file = await openPsv(job.path, requiredColumns(job.spec, job.state), job.spec.optional);
  file.close();
}

// Every state table carries DATE_RETIRED, which decides whether a row is loaded at all.
const requiredColumns = (spec: TableSpec, state: StateCode | null) =>
  state && !spec.required.includes('DATE_RETIRED') ? [...spec.required, 'DATE_RETIRED'] : spec.required;

/** What every step of one ingest shares. */
interface Run {
  readonly db: Database;
  readonly dataset: string;
  readonly release: string;
  readonly batchRows: number;
  readonly progress: Progress;
}

async function writeBatch(run: Run, job: FileJob, rows: Row[]): Promise<void> {
  const width = rows[0]?.length ?? 0;
  const columns = Array.from({ length: width }, (_, i) => rows.map((row) => row[i] ?? null));
  await run.db.query(job.spec.sql, job.state === null ? columns : [run.dataset, ...columns]);
}

async function loadFile(run: Run, job: FileJob): Promise<FileResult> {
  const started = performance.now();
  const file = await openPsv(job.path, requiredColumns(job.spec, job.state), job.spec.optional);
  const task = run.progress.task(`${job.state ?? 'AUTHORITY'} ${job.table}`);
  const counts = { read: 0, loaded: 0, retired: 0, unresolved: 0 };
  let batch: Row[] = [];
  // One batch is written while the next is read; a failure surfaces at the next flush.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await writing;
    const rows = batch;
    batch = [];
    if (rows.length === 0) return;
    const line = file.line();
    writing = writeBatch(run, job, rows).then(
      () => void (counts.loaded += rows.length),
      (error: unknown) => {
        throw new IngestError(
          `${basename(job.path)}: the batch ending at line ${line} failed: ${(error as Error).message}`,
        );
      },
    );
    writing.catch(() => undefined);
  };
  for await (const record of file) {
    counts.read += 1;
    if (job.state && record.DATE_RETIRED) {
      counts.retired += 1;
      continue;
    }
    let computed: ComputedColumns | null;
    try {
      computed = job.computed(record);
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      await writing.catch(() => undefined);
      throw new IngestError(`${basename(job.path)} line ${file.line()}: ${error.message}`);
    }
    if (!computed) {
      counts.unresolved += 1;
      continue;
    }
    batch.push([...job.spec.columns.map((c) => record[c.psv] ?? null), ...computed]);
    if (batch.length >= run.batchRows) await flush();
    task.update(counts.read, file.bytesRead() / Math.max(1, file.size));
  }
  await flush();
  await writing;
  await run.db.query(SQL.MARK_FILE_COMPLETE, [run.dataset, run.release, progressKey(job), counts.read]);
  task.done(counts.read, `${counts.loaded.toLocaleString('en-AU')} loaded, ${counts.retired} retired`);
  return { ...fileResult(job, false), ...counts, ms: performance.now() - started };
}

const fileResult = (job: FileJob, skipped: boolean): FileResult => ({
  state: job.state,
  table: job.table,
  file: basename(job.path),
  read: 0,
  loaded: 0,
  retired: 0,
  unresolved: 0,
  ms: 0,
  skipped,
});

const noComputed = (): ComputedColumns => [];

/** A record the load cannot take: loadFile names its file and line. */
class RecordError extends Error {}

const COORDINATE_RANGE = [
  ['LONGITUDE', 180],
  ['LATITUDE', 90],
] as const;

/**
 * A default geocode's coordinates must be numbers within range: the point becomes the address's
 * (migration 0032 refuses any other), and a bad one found only then would fail the state's load
 * with a database error naming no line.
 */
function checkedGeocode(record: PsvRecord<string>): ComputedColumns {
  for (const [column, limit] of COORDINATE_RANGE) {
    const text = record[column] ?? '';
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || Math.abs(value) > limit) {
      throw new RecordError(
        `${column} "${text}" of ${record.ADDRESS_DETAIL_PID ?? 'an address'} is not a number from -${limit} to ${limit}`,
      );
    }
  }
  return [];
}

function stateJob(state: StateCode, table: StateTable, path: string): FileJob {
  const computed =
    table === 'LOCALITY'
      ? (): ComputedColumns => [state]
      : table === 'ADDRESS_DEFAULT_GEOCODE'
        ? checkedGeocode
        : noComputed;
  return { state, table, path, spec: STATE_SPECS[table], computed };
}

async function postSteps(run: Run, state: StateCode): Promise<void> {
  const params = [run.dataset, state];
  // Fresh statistics first: the steps below join tables that were empty when last analysed.
  await run.db.exec(SQL.ANALYZE_ADDRESS_TABLES);
  const step = async (label: string, sql: string) => {
    const started = performance.now();
    await run.db.query(sql, params);
    run.progress.note(`${state} ${label}  ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  await step('default geocodes copied to addresses', SQL.COPY_DEFAULT_GEOCODES);
  await step('blank locality postcodes filled', SQL.FILL_LOCALITY_POSTCODES);
  await step('addresses linked to parcels', SQL.LINK_PARCELS);
  await run.db.query(SQL.WRITE_DATASET_SOURCE, [...params, SQL.GNAF_ATTRIBUTION, SQL.GNAF_LICENSE, run.release]);
  await run.db.query(SQL.MARK_FILE_COMPLETE, [run.dataset, run.release, postStepsKey(state), 0]);
}

export async function ingestGnaf(db: Database, options: GnafIngestOptions): Promise<GnafIngestResult> {
  const started = performance.now();
  const dataset = checkDataset(options.dataset ?? 'live');
  const release = findRelease(resolve(options.folder), options.states, options.release);
  const run: Run = {
    db,
    dataset,
    release: release.name,
    batchRows: options.batchRows ?? DEFAULT_BATCH_ROWS,
    progress: options.progress ?? new Progress(process.stderr),
  };
  const authorityJobs: FileJob[] = release.authorityFiles.map((f) => ({
    state: null,
    table: f.authority,
    path: f.path,
    spec: AUTHORITY_SPEC,
    computed: () => [f.authority],
  }));
  const stateJobs = [...release.states].map(([state, tables]) => ({
    state,
    jobs: STATE_TABLES.flatMap((table) => {
      const path = tables.get(table);
      return path ? [stateJob(state, table, path)] : [];
    }),
  }));
  for (const job of [...authorityJobs, ...stateJobs.flatMap((s) => s.jobs)]) await checkHeader(job);

  const completed = new Set(
    options.force
      ? []
      : (await db.query<{ file: string }>(SQL.COMPLETED_FILES, [dataset, release.name])).map((r) => r.file),
  );
  const files: FileResult[] = [];
  const load = async (job: FileJob): Promise<boolean> => {
    const skip = completed.has(progressKey(job));
    files.push(skip ? fileResult(job, true) : await loadFile(run, job));
    return !skip;
  };
  for (const job of authorityJobs) await load(job);
  const lookups = formatLookups(await db.query<{ authority: string; code: string; name: string }>(SQL.AUTHORITY_NAMES));
  if (lookups.streetTypes.size === 0) {
    throw new IngestError(
      `no street type codes: ${release.root} has no Authority Code/Authority_Code_STREET_TYPE_AUT_psv.psv and none were loaded before`,
    );
  }

  const states: StateResult[] = [];
  for (const { state, jobs } of stateJobs) {
    let changed = false;
    for (const job of jobs) {
      const address = job.table === 'ADDRESS_DETAIL' && !completed.has(progressKey(job));
      const ready = address ? { ...job, computed: await addressColumns(db, dataset, state, lookups) } : job;
      changed = (await load(ready)) || changed;
    }
    let postStepsMs: number | null = null;
    if (changed || !completed.has(postStepsKey(state))) {
      const at = performance.now();
      await postSteps(run, state);
      postStepsMs = performance.now() - at;
    }
    const [count] = await db.query<{ addresses: number; linked: number }>(SQL.COUNT_LINKED, [dataset, state]);
    states.push({ state, addresses: count?.addresses ?? 0, linked: count?.linked ?? 0, postStepsMs });
  }
  if (files.some((f) => !f.skipped)) await db.exec(SQL.ANALYZE_ADDRESS_TABLES);
  return { release: release.name, dataset, files, states, ms: performance.now() - started };
}
