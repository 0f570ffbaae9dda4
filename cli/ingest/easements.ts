/**
 * Loads the easement polygons of a state cadastre into land.easement of one dataset ('live' by
 * default), each tied to the parcels it burdens, with the area the file spans as the layer's
 * coverage and the cadastre's CC BY 4.0 credit.
 *
 * The layouts read are the states' own: the NSW Digital Cadastral Database's easement layer
 * (cadid, planlabel or plannumber), Vicmap Property's easement polygons (PFI, PLAN_NUMBER) and
 * the Queensland DCDB's easement parcels (LOT, PLAN, LOTPLAN). Attribute names are matched
 * without regard to case, as the states' exports differ in it. The purpose (drainage,
 * sewerage, carriageway...) and width are read where the layer carries them, in a purpose or
 * description attribute ("EASEMENT FOR DRAINAGE 3 WIDE"); where it does not, the purpose is
 * 'unknown' and the width null rather than guessed.
 *
 * None of these layers names the burdened parcel: the link is drawn here, by cutting each
 * easement into its part on each parcel of the dataset's cadastre (see easements-sql.ts), so
 * the cadastre of the state should be loaded first. An easement on no parcel is still loaded
 * (it answers by bbox) and counted.
 *
 * As the other ingests: checked before writing, one transaction, ids kept from the source so a
 * rerun replaces its rows, only easements in the state named, bad features listed not fatal.
 */
import { createHash } from 'node:crypto';
import type { Database } from '../../core/db.ts';
import { detectState, isStateCode, type StateCode } from '../../core/geo.ts';
import { type Credit, firstCorner, firstOf, lowerKeys, snapshotDate } from './buildings.ts';
import * as EASEMENTS from './easements-sql.ts';
import { IngestError } from './gnaf-release.ts';
import { featureLabel } from './geojsonseq.ts';
import * as LAND from './land-sql.ts';
import { checkDataset, snapshotId } from './planning.ts';
import { cleanPolygons, RefusedGeometry } from './planning-geometry.ts';
import type { FeatureNote } from './planning-load.ts';
import * as PLANNING from './planning-sql.ts';
import { type FeatureSource, openFeatureSource, type SourceFeature } from './planning-source.ts';
import { Progress } from './progress.ts';

export const EASEMENT_STATES: readonly StateCode[] = ['VIC', 'NSW', 'QLD'];

export const EASEMENT_CREDITS: Record<string, Credit> = {
  VIC: {
    attribution: 'Vicmap Property © State of Victoria (Department of Transport and Planning), CC BY 4.0',
    license: 'CC BY 4.0',
  },
  NSW: {
    attribution: 'NSW Digital Cadastral Database © Spatial Services, NSW Department of Customer Service, CC BY 4.0',
    license: 'CC BY 4.0',
  },
  QLD: {
    attribution: 'Queensland Digital Cadastral Database © State of Queensland (Department of Resources), CC BY 4.0',
    license: 'CC BY 4.0',
  },
};

/** The states' identifiers of an easement feature, NSW's, Vicmap's, then the generic ones. */
export const EASEMENT_ID_KEYS = ['cadid', 'pfi', 'ufi', 'easement_id', 'objectid', 'fid', 'id'];
/** Attributes that say what the easement is for, most specific first. */
export const PURPOSE_KEYS = [
  'easement_type',
  'easementtype',
  'easement_purpose',
  'purpose',
  'ease_purp',
  'ease_desc',
  'easement_desc',
  'description',
  'feat_name',
];
export const WIDTH_KEYS = ['width_m', 'easement_width', 'easementwidth', 'ease_width', 'width'];
export const PLAN_KEYS = ['planlabel', 'plan_number', 'plan', 'plannumber', 'plan_no'];

/** A part of an easement on a parcel smaller than this (m²) is a sliver of boundary mismatch, not a burden. */
const MIN_PART_M2 = 0.5;
/** Metres the hull of the easements is widened by, as for footprints. */
const COVERAGE_MARGIN_M = 25;
const DEFAULT_BATCH_ROWS = 500;

export interface EasementsIngestOptions {
  file: string;
  state: string;
  dataset?: string;
  snapshot?: string;
  progress?: Progress;
  batchRows?: number;
}

export interface PreparedEasementsIngest {
  readonly dataset: string;
  readonly state: StateCode;
  readonly input: FeatureSource;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly progress: Progress;
  readonly batchRows: number;
}

export interface EasementsIngestResult {
  readonly dataset: string;
  readonly state: StateCode;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly file: { readonly name: string; readonly format: string; readonly crs: string };
  readonly read: number;
  readonly loaded: number;
  /** Easement-on-parcel rows written: an easement across three lots is three. */
  readonly parts: number;
  /** Easements that lie on no parcel of the dataset's cadastre. */
  readonly unlinked: readonly FeatureNote[];
  /** Easements whose layer gives no purpose ('unknown'). */
  readonly untyped: number;
  readonly elsewhere: number;
  readonly refused: readonly FeatureNote[];
  readonly repaired: readonly FeatureNote[];
  readonly credit: Credit;
  readonly coverage: string;
  readonly ms: number;
}

function checkState(value: string): StateCode {
  const state = value.trim().toUpperCase();
  if (!isStateCode(state) || !EASEMENT_STATES.includes(state)) {
    throw new IngestError(`--state ${value}: easements load for ${EASEMENT_STATES.join(', ')}`);
  }
  return state;
}

export async function prepareEasementsIngest(options: EasementsIngestOptions): Promise<PreparedEasementsIngest> {
  const state = checkState(options.state);
  const dataset = checkDataset(options.dataset ?? 'live');
  const input = await openFeatureSource(options.file);
  const snapshot = snapshotId(options.snapshot, options.file);
  return {
    dataset,
    state,
    input,
    snapshot,
    snapshotDate: snapshotDate(snapshot, options.file),
    progress: options.progress ?? new Progress(process.stderr),
    batchRows: options.batchRows ?? DEFAULT_BATCH_ROWS,
  };
}

export async function ingestEasements(db: Database, options: EasementsIngestOptions): Promise<EasementsIngestResult> {
  return loadEasements(db, await prepareEasementsIngest(options));
}

/** Purposes as plans word them, to the names the layer answers with. */
const PURPOSES: ReadonlyArray<[RegExp, string]> = [
  [/drain/i, 'drainage'],
  [/sewer/i, 'sewerage'],
  [/carriage|right of (?:way|footway)|\baccess\b/i, 'carriageway'],
  [/electric|power|transmission/i, 'electricity'],
  [/water (?:supply|main|pipe)/i, 'water supply'],
  [/\bgas\b/i, 'gas'],
  [/support/i, 'support'],
];

/** The purpose of an easement from its layer's words; 'unknown' when the layer says nothing. */
export function purposeOf(text: string | null): string {
  if (text === null || text.trim() === '') return 'unknown';
  for (const [pattern, purpose] of PURPOSES) if (pattern.test(text)) return purpose;
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Metres from a width attribute, else from the purpose's words ("3 WIDE", "2.5m wide"); null when neither says. */
export function widthOf(value: unknown, text: string | null): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/\s*m$/i, '')) : NaN;
  if (Number.isFinite(n) && n > 0) return n;
  const said =
    text === null ? null : /(\d+(?:\.\d+)?)\s*(?:m\b|metres?\b|meters?\b)?\s*wide\b|(\d+(?:\.\d+)?)\s*m\b/i.exec(text);
  const width = said ? Number(said[1] ?? said[2]) : NaN;
  return Number.isFinite(width) && width > 0 ? width : null;
}

/** An attribute as text: strings and numbers as written; blank, null and anything else are null. */
function text(value: unknown): string | null {
  const written = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  return written === '' ? null : written;
}

type Row = { id: string; easement_type: string; width_m: number | null; plan_number: string | null };

function rowOf(feature: SourceFeature, state: StateCode, geojson: string): Row {
  const props = lowerKeys(feature.properties);
  const raw = firstOf(props, EASEMENT_ID_KEYS);
  // Queensland's easements have no id of their own: lot-on-plan (easement A on SP123456) names them.
  const lotplan = text(firstOf(props, ['lotplan']));
  const id =
    typeof raw === 'string' || typeof raw === 'number'
      ? `${state}-easement-${String(raw)}`
      : lotplan
        ? `${state}-easement-${lotplan}-g${createHash('sha1').update(geojson).digest('hex').slice(0, 8)}`
        : `${state}-easement-g${createHash('sha1').update(geojson).digest('hex').slice(0, 20)}`;
  const purpose = text(firstOf(props, PURPOSE_KEYS));
  return {
    id,
    easement_type: purposeOf(purpose),
    width_m: widthOf(firstOf(props, WIDTH_KEYS), purpose),
    plan_number: text(firstOf(props, PLAN_KEYS)),
  };
}

/** Writes a prepared run in one transaction. */
export async function loadEasements(db: Database, run: PreparedEasementsIngest): Promise<EasementsIngestResult> {
  const started = performance.now();
  const { dataset, state, input, snapshot, progress } = run;
  const refused: FeatureNote[] = [];
  const repaired: FeatureNote[] = [];
  const unlinked: FeatureNote[] = [];
  const note = (feature: SourceFeature, key: string | null, reason: string): FeatureNote => ({
    file: input.name,
    feature: feature.index,
    key,
    reason,
  });

  const outcome = await db.transaction(async (query) => {
    const [cadastre] = await query<{ present: boolean }>(EASEMENTS.HAS_CADASTRE, [dataset, state]);
    const noCadastre = !cadastre?.present;
    let read = 0;
    let loaded = 0;
    let parts = 0;
    let untyped = 0;
    let elsewhere = 0;
    let hull: string | null = null;
    let batch: Array<{ feature: SourceFeature; row: Row; geojson: string; repairs: readonly string[] }> = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const outcomes = await query<EASEMENTS.EasementBatchOutcome>(EASEMENTS.UPSERT_EASEMENTS, [
        dataset,
        state,
        batch.map((_, i) => i),
        batch.map((b) => b.row.id),
        batch.map((b) => b.row.easement_type),
        batch.map((b) => b.row.width_m),
        batch.map((b) => b.row.plan_number),
        MIN_PART_M2,
        hull,
        batch.map((b) => b.geojson),
      ]);
      for (const o of outcomes) {
        const { feature, row, repairs } = batch[o.seq]!;
        if (!o.usable) {
          refused.push(note(feature, row.id, `no area is left once its outline is mended (${o.reason ?? 'invalid'})`));
          continue;
        }
        loaded += 1;
        if (row.easement_type === 'unknown') untyped += 1;
        parts += Math.max(1, o.parcels.length);
        if (o.parcels.length === 0) {
          unlinked.push(
            note(
              feature,
              row.id,
              noCadastre ? `no ${state} cadastre in '${dataset}'` : 'it lies on no parcel of the cadastre',
            ),
          );
        }
        const mended = o.valid ? [...repairs] : [...repairs, `mended an invalid outline (${o.reason ?? 'invalid'})`];
        if (mended.length > 0) repaired.push(note(feature, row.id, mended.join('; ')));
      }
      hull = outcomes.find((o) => o.hull !== null)?.hull ?? hull;
      batch = [];
    };

    const task = progress.task(`${state} ${input.name}`);
    for await (const feature of input.features()) {
      read += 1;
      try {
        const clean = cleanPolygons(feature.geometry, { file: input.name, crs: input.crs, feature: feature.index });
        const [lng, lat] = firstCorner(clean.geojson);
        if (detectState(lng, lat) !== state) {
          elsewhere += 1;
          continue;
        }
        batch.push({
          feature,
          row: rowOf(feature, state, clean.geojson),
          geojson: clean.geojson,
          repairs: clean.repairs,
        });
      } catch (error) {
        if (!(error instanceof RefusedGeometry)) throw error;
        const line = /not a polygon/.test(error.message)
          ? ' (an easement line layer draws edges: load the polygons)'
          : '';
        refused.push(note(feature, null, `${error.message}${line}`));
      }
      if (batch.length >= run.batchRows) await flush();
      task.update(read, input.count ? read / input.count : undefined);
    }
    await flush();
    task.done(
      read,
      `${loaded.toLocaleString('en-AU')} loaded, ${refused.length} refused, ${elsewhere} in other states`,
    );
    if (loaded === 0 || hull === null) {
      const first = [...refused].sort((a, b) => a.feature - b.feature)[0];
      const why = first
        ? ` (${featureLabel(input, first.feature)}: ${first.reason})`
        : elsewhere > 0
          ? ` (all ${elsewhere} easements lie outside ${state})`
          : '';
      throw new IngestError(`no easement of ${input.name} could be loaded${why}`);
    }
    const [coverage] = await query<{ name: string }>(LAND.UPSERT_LAND_COVERAGE, [
      dataset,
      state,
      'easements',
      input.name,
      run.snapshotDate,
      hull,
      COVERAGE_MARGIN_M,
    ]);
    const credit = EASEMENT_CREDITS[state]!;
    await query(PLANNING.WRITE_DATASET_SOURCE, [
      dataset,
      state,
      'easements',
      credit.attribution,
      credit.license,
      snapshot,
    ]);
    return { read, loaded, parts, untyped, elsewhere, credit, coverage: coverage?.name ?? '' };
  });
  await db.exec('ANALYZE land.easement, land.coverage');
  return {
    dataset,
    state,
    snapshot,
    snapshotDate: run.snapshotDate,
    file: { name: input.name, format: input.format, crs: input.crs },
    ...outcome,
    unlinked: [...unlinked].sort((a, b) => a.feature - b.feature),
    refused: [...refused].sort((a, b) => a.feature - b.feature),
    repaired: [...repaired].sort((a, b) => a.feature - b.feature),
    ms: performance.now() - started,
  };
}
