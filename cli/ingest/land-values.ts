/**
 * Loads the NSW Valuer General's bulk land values (the LV files of its bulk data download,
 * one CSV per valuation district) into land.land_value of one dataset ('live' by default).
 *
 * The file keys a property by the Valuer General's PROPERTY ID, which the cadastre does not
 * carry. What links the two is the file's PROPERTY DESCRIPTION, the property's lot and plan
 * ("1/DP123456"): read as a lot reference it gives the NSW SPI ("1//DP123456"), and the value
 * goes to the parcel of that SPI in the same dataset. A property whose description names
 * several lots, or part of one, or no lot the cadastre holds, is left out and listed: the
 * Valuer General values it as a whole, and splitting its value among lots would invent numbers.
 *
 * Each row carries up to five valuations (BASE DATE 1..5, LAND VALUE 1..5); the newest is
 * loaded, or the one at --base-date. As the other ingests: checked before writing, one
 * transaction, reruns replace (rows are keyed by parcel), the live dataset by default.
 */
import type { Database } from '../../core/db.ts';
import type { StateCode } from '../../core/geo.ts';
import { parseLotReference } from '../../subgraphs/cadastre/lot-reference.ts';
import { snapshotDate } from './buildings.ts';
import { type DelimitedFile, type DelimitedRecord, openDelimited } from './delimited.ts';
import { IngestError } from './gnaf-release.ts';
import * as LAND from './land-sql.ts';
import { checkDataset, snapshotId } from './planning.ts';
import type { FeatureNote } from './planning-load.ts';
import * as PLANNING from './planning-sql.ts';
import { Progress } from './progress.ts';

export const NSW_VALUER = 'NSW Valuer General';
export const NSW_LAND_VALUE_CREDIT = {
  attribution: 'Land values © Crown in right of New South Wales through the Valuer General, CC BY 4.0',
  license: 'CC BY 4.0',
};

/** The columns this ingest reads, as the Valuer General names them in its bulk files. */
export const NSW_LV_COLUMNS = {
  district: 'DISTRICT CODE',
  districtName: 'DISTRICT NAME',
  property: 'PROPERTY ID',
  description: 'PROPERTY DESCRIPTION',
  baseDate: (n: number) => `BASE DATE ${n}`,
  landValue: (n: number) => `LAND VALUE ${n}`,
} as const;
const VALUATIONS = [1, 2, 3, 4, 5];

/** Metres the hull of a district's valued parcels is widened by, as for footprints. */
const COVERAGE_MARGIN_M = 25;
const DEFAULT_BATCH_ROWS = 500;

export interface LandValuesIngestOptions {
  file: string;
  state: string;
  /** Load the valuation at this base date (YYYY-MM-DD) rather than each property's newest. */
  baseDate?: string;
  dataset?: string;
  snapshot?: string;
  progress?: Progress;
  batchRows?: number;
}

export interface LandValuesIngestResult {
  readonly dataset: string;
  readonly state: StateCode;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly file: { readonly name: string; readonly delimiter: string };
  readonly read: number;
  readonly loaded: number;
  /** Rows whose property could not be tied to one parcel, with why. */
  readonly unlinked: readonly FeatureNote[];
  /** Rows with no valuation (at --base-date when given). */
  readonly unvalued: number;
  readonly districts: readonly string[];
  readonly ms: number;
}

export interface PreparedLandValuesIngest {
  readonly dataset: string;
  readonly state: StateCode;
  readonly baseDate: string | null;
  readonly input: DelimitedFile;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly progress: Progress;
  readonly batchRows: number;
}

/** A date as the Valuer General writes it (01/07/2024), or ISO (2024-07-01); null when blank. */
export function parseValuerDate(text: string | null): string | null {
  if (text === null) return null;
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text);
  const [y, m, d] = dmy ? [dmy[3], dmy[2], dmy[1]] : iso ? [iso[1], iso[2], iso[3]] : [];
  if (!y || !m || !d) throw new Error(`"${text}" is not a date (DD/MM/YYYY)`);
  const date = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || !parsed.toISOString().startsWith(date)) {
    throw new Error(`"${text}" is not a date (DD/MM/YYYY)`);
  }
  return date;
}

/** Whole dollars as published ("1250000", at times "1,250,000" or "$1,250,000"); null when blank. */
function parseDollars(text: string | null): number | null {
  if (text === null) return null;
  const n = Number(text.replace(/[$,\s]/g, ''));
  if (!Number.isFinite(n) || n < 0) throw new Error(`"${text}" is not an amount of dollars`);
  return n;
}

export async function prepareLandValuesIngest(options: LandValuesIngestOptions): Promise<PreparedLandValuesIngest> {
  const state = options.state.trim().toUpperCase();
  if (state !== 'NSW') {
    throw new IngestError(
      `--state ${options.state}: only the NSW Valuer General's bulk land value files are read so far`,
    );
  }
  let baseDate: string | null = null;
  if (options.baseDate !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(options.baseDate)) {
      throw new IngestError(`--base-date ${options.baseDate}: give a date as YYYY-MM-DD`);
    }
    try {
      baseDate = parseValuerDate(options.baseDate);
    } catch {
      throw new IngestError(`--base-date ${options.baseDate} is not a date`);
    }
  }
  const dataset = checkDataset(options.dataset ?? 'live');
  const input = await openDelimited(options.file, [
    NSW_LV_COLUMNS.district,
    NSW_LV_COLUMNS.property,
    NSW_LV_COLUMNS.description,
    NSW_LV_COLUMNS.baseDate(1),
    NSW_LV_COLUMNS.landValue(1),
  ]);
  const snapshot = snapshotId(options.snapshot, options.file);
  return {
    dataset,
    state: 'NSW',
    baseDate,
    input,
    snapshot,
    snapshotDate: snapshotDate(snapshot, options.file),
    progress: options.progress ?? new Progress(process.stderr),
    batchRows: options.batchRows ?? DEFAULT_BATCH_ROWS,
  };
}

export async function ingestLandValues(
  db: Database,
  options: LandValuesIngestOptions,
): Promise<LandValuesIngestResult> {
  return loadLandValues(db, await prepareLandValuesIngest(options));
}

type Valuation = { site_value: number; base_date: string };

/** The row's valuation to load: the one at `baseDate`, else its newest; null when it has none. */
function valuationOf(record: DelimitedRecord, name: string, baseDate: string | null): Valuation | null {
  let chosen: Valuation | null = null;
  for (const n of VALUATIONS) {
    let date: string | null;
    let value: number | null;
    try {
      date = parseValuerDate(record.get(NSW_LV_COLUMNS.baseDate(n)));
      value = parseDollars(record.get(NSW_LV_COLUMNS.landValue(n)));
    } catch (error) {
      throw new IngestError(`${name} line ${record.line}: valuation ${n}: ${(error as Error).message}`);
    }
    if (date === null || value === null) continue;
    if (baseDate !== null ? date === baseDate : chosen === null || date > chosen.base_date) {
      chosen = { site_value: value, base_date: date };
    }
  }
  return chosen;
}

/**
 * The Valuer General writes a deposited plan by its number alone ("18/802483" is lot 18 of
 * DP802483; a strata plan keeps its SP): the plan type the cadastre's SPI carries is put back.
 */
function withPlanType(description: string): string {
  return description.trim().replace(/^([A-Z0-9]+\/(?:[A-Z0-9]*\/)?)(\d+)$/i, '$1DP$2');
}

/** The NSW SPI of the one whole lot a description names, or why there is none. */
export function spiOfDescription(description: string | null): { spi: string } | { reason: string } {
  if (description === null) return { reason: 'it has no PROPERTY DESCRIPTION (lot and plan)' };
  if (/^\s*PT\b|\bPART\b/i.test(description)) return { reason: `"${description}" is part of a lot` };
  // "2/37691 3/159442": the real files list several lots of one property with spaces between
  if (/[,&;]/.test(description) || /\d\s*-\s*\d[^/]*\//.test(description) || /\/\S*\s+\S+\//.test(description)) {
    return { reason: `"${description}" names more than one lot, valued together` };
  }
  try {
    const ref = parseLotReference(withPlanType(description), 'NSW');
    if (ref.spi === null || ref.lot === null) return { reason: `"${description}" names no lot` };
    return { spi: ref.spi };
  } catch {
    return { reason: `"${description}" is not a lot/plan reference` };
  }
}

/** Writes a prepared run in one transaction. */
export async function loadLandValues(db: Database, run: PreparedLandValuesIngest): Promise<LandValuesIngestResult> {
  const started = performance.now();
  const { dataset, state, input, snapshot, progress } = run;
  const unlinked: FeatureNote[] = [];

  const outcome = await db.transaction(async (query) => {
    let read = 0;
    let loaded = 0;
    let unvalued = 0;
    const hulls = new Map<string, string | null>();
    type Pending = { line: number; property: string; district: string; spi: string; valuation: Valuation };
    let batch: Pending[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const outcomes = await query<{ seq: number; parcel_pfi: string | null }>(LAND.UPSERT_LAND_VALUES, [
        dataset,
        state,
        NSW_VALUER,
        batch.map((_, i) => i),
        batch.map((p) => p.spi),
        batch.map((p) => p.valuation.site_value),
        batch.map((p) => p.valuation.base_date),
      ]);
      const reached = new Map<string, string[]>();
      for (const o of outcomes) {
        const p = batch[o.seq]!;
        if (o.parcel_pfi === null) {
          unlinked.push({
            file: input.name,
            feature: p.line,
            key: p.property,
            reason: `no parcel ${p.spi} in the ${state} cadastre of '${dataset}'`,
          });
          continue;
        }
        loaded += 1;
        reached.set(p.district, [...(reached.get(p.district) ?? []), o.parcel_pfi]);
      }
      for (const [district, pfis] of reached) {
        const [row] = await query<{ hull: string | null }>(LAND.HULL_OF_PARCELS, [
          dataset,
          state,
          pfis,
          hulls.get(district) ?? null,
        ]);
        hulls.set(district, row?.hull ?? hulls.get(district) ?? null);
      }
      batch = [];
    };

    const task = progress.task(`${state} ${input.name}`);
    for await (const record of input) {
      read += 1;
      const property = record.get(NSW_LV_COLUMNS.property);
      const district = record.get(NSW_LV_COLUMNS.districtName) ?? `DISTRICT ${record.get(NSW_LV_COLUMNS.district)}`;
      if (property === null) throw new IngestError(`${input.name} line ${record.line} has no PROPERTY ID`);
      const valuation = valuationOf(record, input.name, run.baseDate);
      if (valuation === null) {
        unvalued += 1;
        continue;
      }
      const link = spiOfDescription(record.get(NSW_LV_COLUMNS.description));
      if ('reason' in link) {
        unlinked.push({ file: input.name, feature: record.line, key: property, reason: link.reason });
        continue;
      }
      batch.push({ line: record.line, property, district: district.toUpperCase(), spi: link.spi, valuation });
      if (batch.length >= run.batchRows) await flush();
      task.update(read);
    }
    await flush();
    task.done(read, `${loaded.toLocaleString('en-AU')} loaded, ${unlinked.length} not linked to a parcel`);
    if (loaded === 0) {
      const first = [...unlinked].sort((a, b) => a.feature - b.feature)[0];
      const why = first ? ` (line ${first.feature}: ${first.reason})` : unvalued > 0 ? ' (no row has a valuation)' : '';
      // Lots read but none found: the cadastre these values hang on is not there yet.
      const hint = unlinked.some((u) => u.reason.startsWith('no parcel'))
        ? `; load the ${state} cadastre into '${dataset}' first`
        : '';
      throw new IngestError(`no land value of ${input.name} could be tied to a parcel${why}${hint}`);
    }
    const districts: string[] = [];
    for (const [district, hull] of hulls) {
      if (hull === null) continue;
      const written = await query<{ name: string }>(LAND.UPSERT_LAND_COVERAGE, [
        dataset,
        state,
        'land-values',
        district,
        run.snapshotDate,
        hull,
        COVERAGE_MARGIN_M,
      ]);
      districts.push(...written.map((w) => w.name));
    }
    await query(PLANNING.WRITE_DATASET_SOURCE, [
      dataset,
      state,
      'land-values',
      NSW_LAND_VALUE_CREDIT.attribution,
      NSW_LAND_VALUE_CREDIT.license,
      snapshot,
    ]);
    return { read, loaded, unvalued, districts };
  });
  await db.exec(LAND.ANALYZE_LAND_TABLES);
  return {
    dataset,
    state,
    snapshot,
    snapshotDate: run.snapshotDate,
    file: { name: input.name, delimiter: input.delimiter },
    ...outcome,
    unlinked: [...unlinked].sort((a, b) => a.feature - b.feature),
    ms: performance.now() - started,
  };
}
