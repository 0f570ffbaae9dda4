/**
 * Loads soil polygons with a clay content and a soil depth into soil.polygon of one dataset
 * ('live' by default), with the area the file spans as the layer's coverage and its credit.
 *
 * The figures are those of CSIRO's Soil and Landscape Grid of Australia (SLGA): CLY, the clay
 * (< 2 µm) share of the fine earth in percent, and DES, the depth of soil (A and B horizons) in
 * metres. The grid is a raster; what loads here is the grid summarised over polygons (land-unit
 * tracts, soil landscapes, or any polygon layer given zonal means), keeping SLGA's names:
 * CLY (or CLY_EV), or its depth slices CLY_000_005_EV .. CLY_100_200_EV, and DES (DES_EV,
 * DES_000_200_EV). Any other polygon layer with a clay and a depth figure loads by naming its
 * fields (--clay, --depth, --depth-unit). A shrink-swell class is kept where the layer has one
 * (REACTIVITY, SHRINK_SWELL or --reactivity); SLGA has none, and then none is written rather
 * than a class the source never gave.
 *
 * Soil landscape maps that carry only codes (NSW eSPADE soil landscapes, the Atlas of
 * Australian Soils' map units, Queensland's and Victoria's land-unit maps) have no figures to
 * load: the file is refused, naming the fields it has and the options that would map them.
 *
 * As the other ingests: checked before writing, one transaction, a polygon keeps its source id
 * (else an id drawn from its outline) so a rerun replaces its rows, only polygons of the state
 * named are loaded, and a polygon without usable figures is listed, not fatal.
 */
import { createHash } from 'node:crypto';
import type { Database } from '../../core/db.ts';
import { detectState, isStateCode, type StateCode } from '../../core/geo.ts';
import type { Reactivity } from '../../subgraphs/soil/site-class.ts';
import { firstCorner, firstOf, lowerKeys, snapshotDate } from './buildings.ts';
import { IngestError } from './gnaf-release.ts';
import { featureLabel } from './geojsonseq.ts';
import { checkDataset, snapshotId } from './planning.ts';
import { cleanPolygons, RefusedGeometry } from './planning-geometry.ts';
import type { FeatureNote } from './planning-load.ts';
import * as PLANNING from './planning-sql.ts';
import { type FeatureSource, openFeatureSource, type SourceFeature } from './planning-source.ts';
import { Progress } from './progress.ts';
import * as SOIL from './soil-sql.ts';

export const SOIL_STATES: readonly StateCode[] = ['VIC', 'NSW', 'QLD'];

export const SLGA_PRODUCT = 'SLGA CLY/DES (summarised over polygons)';
export const SLGA_CREDIT = {
  attribution:
    'Soil and Landscape Grid of Australia © CSIRO, TERN (University of Queensland) and Geoscience Australia, CC BY 4.0',
  license: 'CC BY 4.0',
};

/** SLGA's names for the figures, and the names other layers commonly give them. */
export const CLAY_KEYS = ['cly', 'cly_ev', 'clay', 'clay_pc', 'clay_pct', 'clay_percent'];
export const DEPTH_KEYS = ['des', 'des_ev', 'des_000_200_ev', 'depth_m', 'soil_depth'];
export const REACTIVITY_KEYS = ['reactivity', 'shrink_swell', 'shrinkswell'];
const ID_KEYS = ['id', 'ufi', 'pfi', 'objectid', 'fid'];
/** SLGA's depth slices of clay (top and bottom in centimetres), as its bands name them. */
const CLAY_SLICE = /^cly_(\d{3})_(\d{3})_ev$/;

const DEPTH_UNITS = { m: 1, cm: 0.01, mm: 0.001 } as const;
type DepthUnit = keyof typeof DEPTH_UNITS;
const DEFAULT_BATCH_ROWS = 500;

export interface SoilIngestOptions {
  file: string;
  state: string;
  /** The attribute holding clay percent (default: CLY and the like, or SLGA's clay slices). */
  clay?: string;
  /** The attribute holding the depth of soil (default: DES and the like). */
  depth?: string;
  depthUnit?: string;
  reactivity?: string;
  /** Names the product in answers (default: SLGA's). */
  product?: string;
  attribution?: string;
  license?: string;
  dataset?: string;
  snapshot?: string;
  progress?: Progress;
  batchRows?: number;
}

/** How the file's attributes become the layer's figures. */
export type SoilLayout = {
  /** The clay attribute, or SLGA's depth slices averaged over the soil's depth. */
  readonly clay: { readonly field: string } | { readonly slices: readonly ClaySlice[] };
  readonly depth: string;
  readonly depthUnit: DepthUnit;
  readonly reactivity: string | null;
};
type ClaySlice = { field: string; top: number; bottom: number };

export interface PreparedSoilIngest {
  readonly dataset: string;
  readonly state: StateCode;
  readonly input: FeatureSource;
  readonly layout: SoilLayout;
  readonly product: string;
  readonly credit: { readonly attribution: string; readonly license: string };
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly progress: Progress;
  readonly batchRows: number;
}

export interface SoilIngestResult {
  readonly dataset: string;
  readonly state: StateCode;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly product: string;
  readonly file: { readonly name: string; readonly format: string; readonly crs: string };
  /** The fields the figures were read from, as the file names them. */
  readonly mapping: string;
  readonly read: number;
  readonly loaded: number;
  /** Loaded without a shrink-swell class (the source gives none). */
  readonly withoutReactivity: number;
  readonly elsewhere: number;
  readonly refused: readonly FeatureNote[];
  readonly repaired: readonly FeatureNote[];
  readonly credit: { readonly attribution: string; readonly license: string };
  readonly coverage: string;
  readonly ms: number;
}

function checkState(value: string): StateCode {
  const state = value.trim().toUpperCase();
  if (!isStateCode(state) || !SOIL_STATES.includes(state)) {
    throw new IngestError(`--state ${value}: soil loads for ${SOIL_STATES.join(', ')}`);
  }
  return state;
}

/** The file's own spelling of a field named case-insensitively, or undefined. */
const fieldOf = (fields: readonly string[], name: string) => fields.find((f) => f.toLowerCase() === name.toLowerCase());

function namedField(fields: readonly string[], option: string, name: string): string {
  const found = fieldOf(fields, name);
  if (!found) throw new IngestError(`${option} ${name}: the file has no such field (it has ${fields.join(', ')})`);
  return found;
}

/** Which attributes carry clay, depth and reactivity: named by the options, else found by SLGA's names. */
export function soilLayout(
  name: string,
  fields: readonly string[],
  options: Pick<SoilIngestOptions, 'clay' | 'depth' | 'depthUnit' | 'reactivity'>,
): SoilLayout {
  const unit = (options.depthUnit ?? 'm').trim().toLowerCase();
  if (!(unit in DEPTH_UNITS)) throw new IngestError(`--depth-unit ${options.depthUnit}: one of m, cm, mm`);
  const pick = (keys: readonly string[]) => keys.map((k) => fieldOf(fields, k)).find((f) => f !== undefined);
  let clay: SoilLayout['clay'] | undefined;
  if (options.clay !== undefined) clay = { field: namedField(fields, '--clay', options.clay) };
  else {
    const field = pick(CLAY_KEYS);
    const slices = fields.flatMap((f) => {
      const m = CLAY_SLICE.exec(f.toLowerCase());
      return m ? [{ field: f, top: Number(m[1]), bottom: Number(m[2]) }] : [];
    });
    if (field) clay = { field };
    else if (slices.length > 0) clay = { slices: slices.sort((a, b) => a.top - b.top) };
  }
  const depth = options.depth !== undefined ? namedField(fields, '--depth', options.depth) : pick(DEPTH_KEYS);
  if (!clay || !depth) {
    const missing = [
      !clay && 'no clay figure (CLY, CLY_000_005_EV.., or --clay FIELD)',
      !depth && 'no soil depth (DES, or --depth FIELD)',
    ]
      .filter(Boolean)
      .join(' and ');
    throw new IngestError(
      `${name} gives ${missing}: its fields are ${fields.join(', ')}. Soil landscape maps that carry only codes ` +
        '(eSPADE soil landscapes, Atlas of Australian Soils map units) have no figures to load; summarise SLGA CLY and DES over the polygons, or name the fields',
    );
  }
  const reactivity =
    options.reactivity !== undefined
      ? namedField(fields, '--reactivity', options.reactivity)
      : (pick(REACTIVITY_KEYS) ?? null);
  return { clay, depth, depthUnit: unit as DepthUnit, reactivity };
}

export function describeLayout(layout: SoilLayout): string {
  const clay =
    'field' in layout.clay
      ? layout.clay.field
      : `${layout.clay.slices.map((s) => s.field).join('+')} (averaged over the soil depth)`;
  const depth = `${layout.depth}${layout.depthUnit === 'm' ? '' : ` (${layout.depthUnit})`}`;
  return `clay ${clay}, depth ${depth}, reactivity ${layout.reactivity ?? 'none (not in the source)'}`;
}

export async function prepareSoilIngest(options: SoilIngestOptions): Promise<PreparedSoilIngest> {
  const state = checkState(options.state);
  const dataset = checkDataset(options.dataset ?? 'live');
  if ((options.attribution === undefined) !== (options.license === undefined)) {
    throw new IngestError('--attribution and --license go together: the credit names its licence');
  }
  const input = await openFeatureSource(options.file);
  const layout = soilLayout(input.name, input.fields, options);
  const snapshot = snapshotId(options.snapshot, options.file);
  const product = options.product?.trim() || SLGA_PRODUCT;
  return {
    dataset,
    state,
    input,
    layout,
    product,
    credit:
      options.attribution !== undefined && options.license !== undefined
        ? { attribution: options.attribution, license: options.license }
        : SLGA_CREDIT,
    snapshot,
    snapshotDate: snapshotDate(snapshot, options.file),
    progress: options.progress ?? new Progress(process.stderr),
    batchRows: options.batchRows ?? DEFAULT_BATCH_ROWS,
  };
}

export async function ingestSoil(db: Database, options: SoilIngestOptions): Promise<SoilIngestResult> {
  return loadSoil(db, await prepareSoilIngest(options));
}

/** A figure as published: a number, or numeric text; blank is null. */
function figure(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  return Number.isFinite(n) ? n : NaN;
}

/** Shrink-swell classes as sources write them ("Very high", "VERY_HIGH", "non-reactive"). */
const REACTIVITY_WORDS: Record<string, Reactivity> = {
  nil: 'nil',
  none: 'nil',
  'non reactive': 'nil',
  low: 'low',
  slight: 'low',
  moderate: 'moderate',
  medium: 'moderate',
  high: 'high',
  'very high': 'very_high',
  extreme: 'extreme',
  problem: 'problem',
};

export function parseReactivity(value: unknown): Reactivity | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new Error(`shrink-swell class ${JSON.stringify(value)} is not a word`);
  const word = value.trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
  const reactivity = REACTIVITY_WORDS[word];
  if (!reactivity)
    throw new Error(`shrink-swell class "${value}" is none of ${Object.keys(REACTIVITY_WORDS).join(', ')}`);
  return reactivity;
}

type Figures = { clay: number; depth: number; reactivity: Reactivity | null };

/** The polygon's figures, or why it has none usable (SLGA's no-data values, text, out of range). */
function figuresOf(feature: SourceFeature, layout: SoilLayout): Figures | { reason: string } {
  const props = lowerKeys(feature.properties);
  const read = (field: string) => figure(props.get(field.toLowerCase()));
  const depthRaw = read(layout.depth);
  if (depthRaw === null) return { reason: `no soil depth (${layout.depth} is blank)` };
  const depth = depthRaw * DEPTH_UNITS[layout.depthUnit];
  if (Number.isNaN(depth) || depth < 0)
    return { reason: `${layout.depth} ${String(props.get(layout.depth.toLowerCase()))} is not a depth` };
  let clay: number | null;
  if ('field' in layout.clay) {
    clay = read(layout.clay.field);
    if (clay === null) return { reason: `no clay figure (${layout.clay.field} is blank)` };
  } else {
    // Each slice weighs by how much of it lies within the soil; below the soil is regolith.
    const bottom = Math.max(depth * 100, layout.clay.slices[0]!.bottom);
    let sum = 0;
    let weight = 0;
    for (const slice of layout.clay.slices) {
      const value = read(slice.field);
      const thickness = Math.min(slice.bottom, bottom) - slice.top;
      if (thickness <= 0) continue;
      if (value === null || Number.isNaN(value))
        return { reason: `no clay figure (${slice.field} is blank or not a number)` };
      sum += value * thickness;
      weight += thickness;
    }
    clay = weight > 0 ? Math.round((sum / weight) * 10) / 10 : null;
    if (clay === null) return { reason: 'no clay slice lies within the soil depth' };
  }
  if (Number.isNaN(clay) || clay < 0 || clay > 100)
    return { reason: `clay ${String(clay)} is not a percentage (0-100)` };
  let reactivity: Reactivity | null = null;
  if (layout.reactivity) {
    try {
      reactivity = parseReactivity(props.get(layout.reactivity.toLowerCase()));
    } catch (error) {
      return { reason: (error as Error).message };
    }
  }
  return { clay, depth, reactivity };
}

function idOf(feature: SourceFeature, state: StateCode, geojson: string): string {
  const raw = firstOf(lowerKeys(feature.properties), ID_KEYS);
  if (typeof raw === 'string' || typeof raw === 'number') return `${state}-soil-${String(raw)}`;
  return `${state}-soil-g${createHash('sha1').update(geojson).digest('hex').slice(0, 20)}`;
}

/** Writes a prepared run in one transaction. */
export async function loadSoil(db: Database, run: PreparedSoilIngest): Promise<SoilIngestResult> {
  const started = performance.now();
  const { dataset, state, input, layout, progress } = run;
  const refused: FeatureNote[] = [];
  const repaired: FeatureNote[] = [];
  const note = (feature: SourceFeature, key: string | null, reason: string): FeatureNote => ({
    file: input.name,
    feature: feature.index,
    key,
    reason,
  });

  const outcome = await db.transaction(async (query) => {
    let read = 0;
    let loaded = 0;
    let withoutReactivity = 0;
    let elsewhere = 0;
    let hull: string | null = null;
    type Pending = {
      feature: SourceFeature;
      id: string;
      figures: Figures;
      geojson: string;
      repairs: readonly string[];
    };
    let batch: Pending[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const outcomes = await query<SOIL.SoilBatchOutcome>(SOIL.UPSERT_SOIL, [
        dataset,
        state,
        run.product,
        run.snapshotDate,
        batch.map((_, i) => i),
        batch.map((b) => b.id),
        batch.map((b) => b.figures.clay),
        batch.map((b) => b.figures.depth),
        batch.map((b) => b.figures.reactivity),
        batch.map((b) => b.geojson),
        hull,
      ]);
      for (const o of outcomes) {
        const { feature, id, figures, repairs } = batch[o.seq]!;
        if (!o.usable) {
          refused.push(note(feature, id, `no area is left once its outline is mended (${o.reason ?? 'invalid'})`));
          continue;
        }
        loaded += 1;
        if (figures.reactivity === null) withoutReactivity += 1;
        const mended = o.valid ? [...repairs] : [...repairs, `mended an invalid outline (${o.reason ?? 'invalid'})`];
        if (mended.length > 0) repaired.push(note(feature, id, mended.join('; ')));
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
        const id = idOf(feature, state, clean.geojson);
        const figures = figuresOf(feature, layout);
        if ('reason' in figures) refused.push(note(feature, id, figures.reason));
        else batch.push({ feature, id, figures, geojson: clean.geojson, repairs: clean.repairs });
      } catch (error) {
        if (!(error instanceof RefusedGeometry)) throw error;
        refused.push(note(feature, null, error.message));
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
          ? ` (all ${elsewhere} polygons lie outside ${state})`
          : '';
      throw new IngestError(`no soil polygon of ${input.name} could be loaded${why}`);
    }
    const [coverage] = await query<{ name: string }>(SOIL.UPSERT_SOIL_COVERAGE, [dataset, state, input.name, hull]);
    await query(PLANNING.WRITE_DATASET_SOURCE, [
      dataset,
      state,
      'soil',
      run.credit.attribution,
      run.credit.license,
      run.snapshot,
    ]);
    return { read, loaded, withoutReactivity, elsewhere, coverage: coverage?.name ?? '' };
  });
  await db.exec(SOIL.ANALYZE_SOIL_TABLES);
  return {
    dataset,
    state,
    snapshot: run.snapshot,
    snapshotDate: run.snapshotDate,
    product: run.product,
    file: { name: input.name, format: input.format, crs: input.crs },
    mapping: describeLayout(layout),
    credit: run.credit,
    ...outcome,
    refused: [...refused].sort((a, b) => a.feature - b.feature),
    repaired: [...repaired].sort((a, b) => a.feature - b.feature),
    ms: performance.now() - started,
  };
}
