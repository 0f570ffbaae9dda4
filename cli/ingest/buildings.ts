/**
 * Loads building footprints into land.building_footprint of one dataset ('live' by default):
 * OpenStreetMap or Microsoft's outlines (ODbL, --source osm) or a state's building layer
 * (CC BY 4.0, --source state), from GeoJSON, line-delimited GeoJSON (streamed) or a shapefile,
 * with the area the file spans as the layer's coverage and the credit its answers carry.
 *
 * As the planning ingest does: everything checkable is checked before writing, then the run
 * is one transaction (footprints, coverage, credit). A footprint keeps its source's id (OSM's
 * way/123, a state layer's UFI), else an id drawn from its outline, so a rerun of the same
 * file replaces its rows instead of adding to them. Only footprints in the state named are
 * loaded: Microsoft publishes one file for all of Australia.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type { Database, QueryFn } from '../../core/db.ts';
import { detectState, isStateCode, type StateCode } from '../../core/geo.ts';
import { IngestError } from './gnaf-release.ts';
import { featureLabel } from './geojsonseq.ts';
import * as LAND from './land-sql.ts';
import { checkDataset, snapshotId } from './planning.ts';
import { cleanPolygons, RefusedGeometry } from './planning-geometry.ts';
import type { FeatureNote } from './planning-load.ts';
import * as PLANNING from './planning-sql.ts';
import { type FeatureSource, openFeatureSource, type SourceFeature } from './planning-source.ts';
import { Progress } from './progress.ts';

export const BUILDING_STATES: readonly StateCode[] = ['VIC', 'NSW', 'QLD'];
export const BUILDING_SOURCES = ['osm', 'state'] as const;
export type BuildingSource = (typeof BUILDING_SOURCES)[number];

export type Credit = { readonly attribution: string; readonly license: string };

/** The words ODbL asks for, by who drew the outlines (told from the ids the file carries). */
export const OSM_CREDIT: Credit = {
  attribution: 'Building footprints © OpenStreetMap contributors, ODbL 1.0',
  license: 'ODbL',
};
export const MICROSOFT_CREDIT: Credit = {
  attribution: 'Building footprints © Microsoft (Australia Building Footprints), ODbL 1.0',
  license: 'ODbL',
};
const STATE_CREDITS: Record<string, Credit> = {
  VIC: {
    attribution: 'Vicmap Buildings © State of Victoria (Department of Transport and Planning), CC BY 4.0',
    license: 'CC BY 4.0',
  },
  NSW: {
    attribution: 'NSW building outlines © Spatial Services, NSW Department of Customer Service, CC BY 4.0',
    license: 'CC BY 4.0',
  },
  QLD: {
    attribution: 'Queensland building outlines © State of Queensland (Department of Resources), CC BY 4.0',
    license: 'CC BY 4.0',
  },
};

/** Metres the area a file spans is widened by: a footprint on its edge covers the land it stands on. */
const COVERAGE_MARGIN_M = 25;
const DEFAULT_BATCH_ROWS = 500;
const OSM_ID = /^(way|relation)\/\d+$/;

export interface BuildingsIngestOptions {
  file: string;
  state: string;
  source?: string;
  dataset?: string;
  snapshot?: string;
  progress?: Progress;
  batchRows?: number;
}

export interface BuildingsIngestResult {
  readonly dataset: string;
  readonly state: StateCode;
  readonly source: BuildingSource;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly file: { readonly name: string; readonly format: string; readonly crs: string };
  readonly read: number;
  readonly loaded: number;
  /** Footprints of the file in another state, left for a run naming that state. */
  readonly elsewhere: number;
  readonly refused: readonly FeatureNote[];
  readonly repaired: readonly FeatureNote[];
  /** The credit the layer carries after the run. */
  readonly credit: Credit;
  readonly coverage: string;
  readonly ms: number;
}

export interface PreparedBuildingsIngest {
  readonly dataset: string;
  readonly state: StateCode;
  readonly source: BuildingSource;
  readonly input: FeatureSource;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly progress: Progress;
  readonly batchRows: number;
}

function checkState(value: string): StateCode {
  const state = value.trim().toUpperCase();
  if (!isStateCode(state) || !BUILDING_STATES.includes(state)) {
    throw new IngestError(`--state ${value}: building footprints load for ${BUILDING_STATES.join(', ')}`);
  }
  return state;
}

function checkSource(value: string | undefined): BuildingSource {
  const source = (value ?? 'osm').trim().toLowerCase();
  if (!(BUILDING_SOURCES as readonly string[]).includes(source)) {
    throw new IngestError(`--source ${value}: one of ${BUILDING_SOURCES.join(', ')}`);
  }
  return source as BuildingSource;
}

/**
 * The day the snapshot was taken: the first date in the snapshot id (Microsoft names its
 * release Australia_2020-06-21, NSW its land value files LV_20250701; the default id ends with
 * the file's date), else the day the file was written.
 */
export function snapshotDate(snapshot: string, file: string): string {
  for (const match of snapshot.matchAll(/(?<!\d)((?:19|20)\d{2})-?(\d{2})-?(\d{2})(?!\d)/g)) {
    const date = `${match[1]}-${match[2]}-${match[3]}`;
    const parsed = new Date(`${date}T00:00:00Z`);
    if (!Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date)) return date;
  }
  return statSync(file).mtime.toISOString().slice(0, 10);
}

export async function prepareBuildingsIngest(options: BuildingsIngestOptions): Promise<PreparedBuildingsIngest> {
  const state = checkState(options.state);
  const source = checkSource(options.source);
  const dataset = checkDataset(options.dataset ?? 'live');
  const input = await openFeatureSource(options.file);
  const snapshot = snapshotId(options.snapshot, options.file);
  return {
    dataset,
    state,
    source,
    input,
    snapshot,
    snapshotDate: snapshotDate(snapshot, options.file),
    progress: options.progress ?? new Progress(process.stderr),
    batchRows: options.batchRows ?? DEFAULT_BATCH_ROWS,
  };
}

export async function ingestBuildings(db: Database, options: BuildingsIngestOptions): Promise<BuildingsIngestResult> {
  return loadBuildings(db, await prepareBuildingsIngest(options));
}

export const lowerKeys = (properties: Readonly<Record<string, unknown>>) =>
  new Map(Object.entries(properties).map(([k, v]) => [k.toLowerCase(), v]));

export function firstOf(props: Map<string, unknown>, keys: readonly string[]): unknown {
  for (const key of keys) {
    const value = props.get(key);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/** A positive number from a tag such as OSM's height=12 or "12 m"; Microsoft's -1 (unknown) and junk are null. */
function positive(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/\s*m$/i, '')) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

export const HEIGHT_KEYS = ['height', 'height_m', 'building:height', 'bldg_height'];
export const STOREY_KEYS = ['building:levels', 'levels', 'storeys', 'num_storeys', 'floors'];
const ID_KEYS = ['@id', 'id', 'osm_id', 'osm_way_id', 'ufi', 'pfi', 'objectid'];

type Row = { id: string; height_m: number | null; storeys: number | null };

/** A footprint's row: its source's id where it has one, its height and storeys where the source gives them. */
function rowOf(feature: SourceFeature, state: StateCode, source: BuildingSource, geojson: string): Row {
  const props = lowerKeys(feature.properties);
  const raw = firstOf(props, ID_KEYS);
  let id: string;
  if (typeof raw === 'string' && OSM_ID.test(raw)) id = raw;
  else if (raw !== undefined && (typeof raw === 'string' || typeof raw === 'number')) {
    id = `${state}-${source}-${String(raw)}`;
  } else {
    // No id (Microsoft's release): the outline itself names the footprint, the same on every rerun.
    id = `${state}-${source}-g${createHash('sha1').update(geojson).digest('hex').slice(0, 20)}`;
  }
  const storeys = positive(firstOf(props, STOREY_KEYS));
  return {
    id,
    height_m: positive(firstOf(props, HEIGHT_KEYS)),
    storeys: storeys !== null && Number.isInteger(storeys) ? storeys : null,
  };
}

/** GDAL's OSM driver and Geofabrik's extracts name OSM's ids osm_id and osm_way_id. */
const hasOsmKey = (feature: SourceFeature): boolean =>
  Object.keys(feature.properties).some((k) => /^osm_(way_)?id$/i.test(k));

/** The first corner of the outline, to tell which state a footprint stands in. */
export function firstCorner(geojson: string): [number, number] {
  const { coordinates } = JSON.parse(geojson) as { coordinates: number[][][][] };
  const [lng = 0, lat = 0] = coordinates[0]![0]![0]!;
  return [lng, lat];
}

/** The layer's credit after this load: the credits already there, and this source's if not among them. */
export async function mergedCredit(query: QueryFn, key: [string, StateCode, string], credit: Credit): Promise<Credit> {
  const [existing] = await query<Credit>(LAND.READ_DATASET_SOURCE, key);
  if (!existing) return credit;
  const parts = (text: string) => text.split(' | ').filter((p) => p !== '');
  const join = (a: string, b: string) => [...new Set([...parts(a), ...parts(b)])].join(' | ');
  return {
    attribution: join(existing.attribution, credit.attribution),
    license: join(existing.license, credit.license),
  };
}

/** Writes a prepared run in one transaction. */
export async function loadBuildings(db: Database, run: PreparedBuildingsIngest): Promise<BuildingsIngestResult> {
  const started = performance.now();
  const { dataset, state, source, input, snapshot, progress } = run;
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
    let elsewhere = 0;
    let hull: string | null = null;
    let sawOsmIds = false;
    let batch: Array<{ feature: SourceFeature; row: Row; geojson: string; repairs: readonly string[] }> = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const outcomes = await query<LAND.BuildingBatchOutcome>(LAND.UPSERT_BUILDINGS, [
        dataset,
        state,
        source,
        batch.map((_, i) => i),
        batch.map((b) => b.row.id),
        batch.map((b) => b.row.height_m),
        batch.map((b) => b.row.storeys),
        batch.map((b) => b.geojson),
        hull,
      ]);
      for (const o of outcomes) {
        const { feature, row, repairs } = batch[o.seq]!;
        if (!o.usable) {
          refused.push(note(feature, row.id, `no area is left once its outline is mended (${o.reason ?? 'invalid'})`));
          continue;
        }
        loaded += 1;
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
        const row = rowOf(feature, state, source, clean.geojson);
        if (OSM_ID.test(row.id) || hasOsmKey(feature)) sawOsmIds = true;
        batch.push({ feature, row, geojson: clean.geojson, repairs: clean.repairs });
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
      const first = refused[0];
      const why = first
        ? ` (${featureLabel(input, first.feature)}: ${first.reason})`
        : elsewhere > 0
          ? ` (all ${elsewhere} footprints lie outside ${state})`
          : '';
      throw new IngestError(`no footprint of ${input.name} could be loaded${why}`);
    }
    const [coverage] = await query<{ name: string }>(LAND.UPSERT_LAND_COVERAGE, [
      dataset,
      state,
      'buildings',
      `${source}:${input.name}`,
      run.snapshotDate,
      hull,
      COVERAGE_MARGIN_M,
    ]);
    const layer = source === 'osm' ? 'buildings' : 'buildings-state';
    const own = source === 'state' ? STATE_CREDITS[state]! : sawOsmIds ? OSM_CREDIT : MICROSOFT_CREDIT;
    const credit = await mergedCredit(query, [dataset, state, layer], own);
    await query(PLANNING.WRITE_DATASET_SOURCE, [dataset, state, layer, credit.attribution, credit.license, snapshot]);
    return { read, loaded, elsewhere, credit, coverage: coverage?.name ?? '' };
  });
  await db.exec(LAND.ANALYZE_LAND_TABLES);
  return {
    dataset,
    state,
    source,
    snapshot,
    snapshotDate: run.snapshotDate,
    file: { name: input.name, format: input.format, crs: input.crs },
    ...outcome,
    refused: [...refused].sort((a, b) => a.feature - b.feature),
    repaired: [...repaired].sort((a, b) => a.feature - b.feature),
    ms: performance.now() - started,
  };
}
