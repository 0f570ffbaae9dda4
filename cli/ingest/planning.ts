/**
 * Loads a Vicmap Planning layer (zones, overlays or the urban growth boundary) into the
 * planning tables of one dataset ('live' by default), with the area the mirror covers and
 * the credit every answer from it carries.
 *
 * Everything that can be checked before writing is: the state, the dataset, the files, their
 * CRS and attribute layout. Then the whole run is one transaction: features, coverage and
 * the dataset_source row are committed together or not at all, so a failure half-way (a
 * dropped connection, a coordinate that shows the file is projected after all) leaves the
 * mirror exactly as it was. Rows are keyed by the feature's PFI (else UFI), so a rerun
 * replaces what the last one wrote instead of adding to it.
 */
import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { Database, QueryFn } from '../../core/db.ts';
import { isStateCode, type StateCode, STATES } from '../../core/geo.ts';
import { IngestError } from './gnaf-release.ts';
import { cleanPolygons, RefusedGeometry } from './planning-geometry.ts';
import {
  coverageName,
  isPlanningLayer,
  type LayoutPlan,
  PLANNING_LAYERS,
  type PlanningLayer,
  planLayout,
} from './planning-layout.ts';
import { type FeatureNote, FeatureLoader, type LayerCount } from './planning-load.ts';
import * as SQL from './planning-sql.ts';
import { type FeatureSource, openFeatureSource } from './planning-source.ts';
import { Progress } from './progress.ts';

export { IngestError } from './gnaf-release.ts';
export type { FeatureNote, LayerCount } from './planning-load.ts';

export interface PlanningIngestOptions {
  /** A GeoJSON file or a shapefile's .shp. */
  file: string;
  state: string;
  /** zone, overlay or ugb; from the file's name or attributes when not given. */
  layer?: string;
  /** Polygons of the area the layer covers (an LGA boundary); a zone layer covers its own zones without it. */
  coverage?: string;
  dataset?: string;
  /** Names the load in dataset_source; by default the file's name and modification date. */
  snapshot?: string;
  progress?: Progress;
  batchRows?: number;
}

export interface PlanningIngestResult {
  readonly dataset: string;
  readonly state: StateCode;
  readonly snapshot: string;
  readonly source: { readonly file: string; readonly format: string; readonly crs: string };
  readonly layers: readonly LayerCount[];
  readonly refused: readonly FeatureNote[];
  readonly repaired: readonly FeatureNote[];
  /** The coverage areas this run wrote, and from what; null when it wrote none. */
  readonly coverage: { readonly from: string; readonly names: readonly string[] } | null;
  /** How many coverage areas the state has in the dataset after the run. */
  readonly coverageAreas: number;
  readonly ms: number;
}

/** Whose data a state's planning layers are, in the layout this ingest reads. */
const PLANNING_SOURCES: Partial<Record<StateCode, { readonly attribution: string; readonly license: string }>> = {
  VIC: { attribution: SQL.VICMAP_PLANNING_ATTRIBUTION, license: SQL.VICMAP_PLANNING_LICENSE },
};

const DEFAULT_BATCH_ROWS = 500;

function checkState(value: string): { state: StateCode; credit: { attribution: string; license: string } } {
  const state = value.trim().toUpperCase();
  if (!isStateCode(state)) throw new IngestError(`unknown state "${value}": one of ${STATES.join(', ')}`);
  const credit = PLANNING_SOURCES[state];
  if (!credit) {
    throw new IngestError(
      `--state ${state}: only Vicmap Planning (VIC) is read so far; ${state}'s planning layers are published in another layout`,
    );
  }
  return { state, credit };
}

/** Datasets are names of ours; the sandbox is generated (landgraph sandbox seed), never ingested. */
export function checkDataset(dataset: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(dataset)) {
    throw new IngestError(`dataset must be a lower-case name (letters, digits, _), got "${dataset}"`);
  }
  if (dataset === 'sandbox') {
    throw new IngestError('the sandbox dataset is generated (landgraph sandbox seed) and frozen, not ingested');
  }
  return dataset;
}

function checkLayer(value: string | undefined): PlanningLayer | undefined {
  if (value === undefined) return undefined;
  if (!isPlanningLayer(value)) throw new IngestError(`unknown layer "${value}": one of ${PLANNING_LAYERS.join(', ')}`);
  return value;
}

/** The snapshot id: given, or the file's name and the day it was written (so a rerun of one file keeps its id). */
export function snapshotId(given: string | undefined, file: string): string {
  if (given !== undefined) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(given)) {
      throw new IngestError(`--snapshot "${given}": use letters, digits and . _ : - only`);
    }
    return given;
  }
  const stem = basename(file, extname(file)).replace(/[^A-Za-z0-9._-]+/g, '-');
  return `${stem}-${statSync(file).mtime.toISOString().slice(0, 10)}`;
}

// Geometry refusals come back with their batch, after the attribute refusals read since.
const inFileOrder = (notes: readonly FeatureNote[]) => [...notes].sort((a, b) => a.feature - b.feature);

/** Coverage areas from a file of polygons, one per name, each replacing the area of that name. */
async function loadCoverageFile(
  query: QueryFn,
  params: { dataset: string; state: StateCode },
  source: FeatureSource,
  refused: FeatureNote[],
): Promise<string[]> {
  const areas = new Map<string, string[]>();
  for await (const feature of source.features()) {
    const name = coverageName(feature.properties, source.fields, source.name);
    try {
      const clean = cleanPolygons(feature.geometry, { file: source.name, crs: source.crs, feature: feature.index });
      const parts = areas.get(name) ?? [];
      parts.push(clean.geojson);
      areas.set(name, parts);
    } catch (error) {
      if (!(error instanceof RefusedGeometry)) throw error;
      refused.push({ file: source.name, feature: feature.index, key: name, reason: error.message });
    }
  }
  const names: string[] = [];
  for (const [name, parts] of areas) {
    const written = await query<{ name: string }>(SQL.UPSERT_COVERAGE_AREA, [
      params.dataset,
      params.state,
      name,
      parts,
    ]);
    names.push(...written.map((w) => w.name));
  }
  if (names.length === 0) throw new IngestError(`${source.name}: no polygon in it has an area to cover`);
  return names;
}

/** A run checked and its files opened, ready to load: everything that can fail before writing has. */
export interface PreparedPlanningIngest {
  readonly dataset: string;
  readonly state: StateCode;
  readonly credit: { readonly attribution: string; readonly license: string };
  readonly input: FeatureSource;
  readonly plan: LayoutPlan;
  readonly coverage: FeatureSource | undefined;
  readonly snapshot: string;
  readonly progress: Progress;
  readonly batchRows: number;
}

/** Checks the options and opens the files (CRS and attribute layout included); throws IngestError. */
export async function preparePlanningIngest(options: PlanningIngestOptions): Promise<PreparedPlanningIngest> {
  const { state, credit } = checkState(options.state);
  const dataset = checkDataset(options.dataset ?? 'live');
  const input = await openFeatureSource(options.file);
  const plan = planLayout(input.name, input.fields, checkLayer(options.layer));
  if (plan.layer === 'ugb' && options.coverage !== undefined) {
    throw new IngestError('--coverage gives the area zones and overlays cover; the UGB layer takes none');
  }
  return {
    dataset,
    state,
    credit,
    input,
    plan,
    coverage: options.coverage === undefined ? undefined : await openFeatureSource(options.coverage),
    snapshot: snapshotId(options.snapshot, options.file),
    progress: options.progress ?? new Progress(process.stderr),
    batchRows: options.batchRows ?? DEFAULT_BATCH_ROWS,
  };
}

export async function ingestPlanning(db: Database, options: PlanningIngestOptions): Promise<PlanningIngestResult> {
  return loadPlanning(db, await preparePlanningIngest(options));
}

/** Writes a prepared run in one transaction. */
export async function loadPlanning(db: Database, run: PreparedPlanningIngest): Promise<PlanningIngestResult> {
  const started = performance.now();
  const { dataset, state, credit, input, plan, coverage, snapshot, progress } = run;
  const params = { dataset, state, batchRows: run.batchRows };

  const outcome = await db.transaction(async (query) => {
    const loader = new FeatureLoader(query, params, input, plan);
    const task = progress.task(`${state} ${input.name}`);
    let read = 0;
    for await (const feature of input.features()) {
      await loader.add(feature);
      read += 1;
      task.update(read, input.count ? read / input.count : undefined);
    }
    await loader.flush();
    task.done(read, `${loader.loaded.toLocaleString('en-AU')} loaded, ${loader.refused.length} refused`);
    if (loader.loaded === 0) {
      const first = loader.refused[0];
      throw new IngestError(
        `no feature of ${input.name} could be loaded${first ? ` (feature ${first.feature}: ${first.reason})` : ''}`,
      );
    }
    const refused = inFileOrder(loader.refused);
    let areas: { from: string; names: string[] } | null = null;
    if (coverage) {
      areas = { from: coverage.name, names: await loadCoverageFile(query, params, coverage, refused) };
    } else if (loader.zoneAreas.size > 0) {
      const written = await query<{ name: string }>(SQL.COVERAGE_FROM_ZONES, [dataset, state, [...loader.zoneAreas]]);
      areas = { from: `the zones of ${input.name}`, names: written.map((w) => w.name) };
    }
    const layers = [...loader.counts.values()].filter((c) => c.loaded > 0).map((c) => c.layer);
    // The UGB answers under its own source (spec 4.3: mirror:vic/ugb@<snapshot>), apart from zones and overlays.
    const sourceLayers = new Set(layers.map((layer) => (layer === 'ugb' ? 'ugb' : 'planning')));
    for (const layer of sourceLayers) {
      await query(SQL.WRITE_DATASET_SOURCE, [dataset, state, layer, credit.attribution, credit.license, snapshot]);
    }
    const [count] = await query<{ n: number }>(SQL.COUNT_COVERAGE_AREAS, [dataset, state]);
    return { loader, refused, areas, coverageAreas: count?.n ?? 0 };
  });
  await db.exec(SQL.ANALYZE_PLANNING_TABLES);
  return {
    dataset,
    state,
    snapshot,
    source: { file: input.name, format: input.format, crs: input.crs },
    layers: PLANNING_LAYERS.flatMap((layer) => outcome.loader.counts.get(layer) ?? []),
    refused: outcome.refused,
    repaired: inFileOrder(outcome.loader.repaired),
    coverage: outcome.areas,
    coverageAreas: outcome.coverageAreas,
    ms: performance.now() - started,
  };
}
