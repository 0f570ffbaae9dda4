/**
 * `landgraph ingest osm --file <extract.osm | extract.osm.pbf>`: loads an OpenStreetMap extract's
 * amenities (schools with sector and level where tagged, childcare, supermarkets, transport
 * stops with their mode, retail, recreation, cafes, hospitals; nodes, and ways at their
 * centroid) and its walking network (the walkable ways, split into edges wherever two ways share
 * a node) into dataset 'live' by default, credited "© OpenStreetMap contributors" under the ODbL.
 *
 * Each object is filed under the state its point lies in (or only the state --state names).
 * Ids are OpenStreetMap's (node/123, way/456; edges <way>-<n>), so a rerun of the same extract
 * replaces its rows rather than adding copies. Relations are not assembled (a school mapped as
 * a multipolygon relation is counted, not loaded). One transaction: a failed run leaves nothing.
 */
import { basename } from 'node:path';
import type { Database } from '../../core/db.ts';
import { detectState, isStateCode, type StateCode } from '../../core/geo.ts';
import { AMENITIES_LAYER, OSM_ATTRIBUTION, OSM_LICENSE } from '../../core/amenities.ts';
import { snapshotDate } from './buildings.ts';
import { IngestError } from './gnaf-release.ts';
import { type AmenityClass, classifyAmenity, isWalkable } from './osm-classify.ts';
import { type OsmFormat, osmFormatOf, readOsm } from './osm-read.ts';
import * as SQL from './osm-sql.ts';
import { checkDataset, snapshotId } from './planning.ts';
import * as PLANNING from './planning-sql.ts';
import { Progress } from './progress.ts';

/** Metres the hull of what was loaded is widened by to make the layer's coverage. */
const COVERAGE_MARGIN_M = 100;
const BATCH_ROWS = 2_000;

export interface OsmIngestOptions {
  file: string;
  /** Load only objects in this state (default: each in the state it lies in). */
  state?: string;
  dataset?: string;
  snapshot?: string;
  progress?: Progress;
}

export interface PreparedOsmIngest {
  readonly file: string;
  readonly format: OsmFormat;
  readonly state: StateCode | null;
  readonly dataset: string;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly progress: Progress;
}

export interface OsmIngestResult {
  readonly dataset: string;
  readonly snapshot: string;
  readonly snapshotDate: string;
  readonly file: { readonly name: string; readonly format: OsmFormat };
  readonly read: { readonly nodes: number; readonly ways: number; readonly relations: number };
  readonly amenities: number;
  readonly byCategory: Readonly<Record<string, number>>;
  readonly nodes: number;
  readonly edges: number;
  readonly walkableWays: number;
  /** Ways whose nodes the extract cuts off: loaded in the pieces it holds. */
  readonly clippedWays: number;
  readonly relationsSkipped: number;
  /** Objects outside Australia's states or outside --state. */
  readonly elsewhere: number;
  readonly states: readonly StateCode[];
  readonly ms: number;
}

export async function prepareOsmIngest(options: OsmIngestOptions): Promise<PreparedOsmIngest> {
  const format = osmFormatOf(options.file);
  let state: StateCode | null = null;
  if (options.state !== undefined) {
    const code = options.state.trim().toUpperCase();
    if (!isStateCode(code))
      throw new IngestError(`--state ${options.state}: not an Australian state or territory code`);
    state = code;
  }
  const dataset = checkDataset(options.dataset ?? 'live');
  let snapshot: string;
  try {
    snapshot = snapshotId(options.snapshot, options.file);
  } catch (error) {
    if (error instanceof IngestError) throw error;
    throw new IngestError(`cannot read ${options.file}: ${(error as Error).message}`);
  }
  return {
    file: options.file,
    format,
    state,
    dataset,
    snapshot,
    snapshotDate: snapshotDate(snapshot, options.file),
    progress: options.progress ?? new Progress(process.stderr),
  };
}

export async function ingestOsm(db: Database, options: OsmIngestOptions): Promise<OsmIngestResult> {
  return loadOsm(db, await prepareOsmIngest(options));
}

type AmenityRow = {
  id: string;
  osm_type: 'node' | 'way';
  osm_id: number;
  state: StateCode;
  cls: AmenityClass;
  name: string | null;
  tags: string;
  wkt: string;
};
type EdgeRow = { id: string; state: StateCode; source: string; target: string; highway: string; wkt: string };

const coord = ([lon, lat]: readonly [number, number]) => `${lon} ${lat}`;

/** Reads the whole extract (nodes are needed to draw ways), then writes it in one transaction. */
export async function loadOsm(db: Database, run: PreparedOsmIngest): Promise<OsmIngestResult> {
  const started = performance.now();
  const task = run.progress.task(basename(run.file));
  const points = new Map<number, readonly [number, number]>();
  const amenities: AmenityRow[] = [];
  const walkWays: Array<{ id: number; nodes: number[]; highway: string }> = [];
  const amenityWays: Array<{ id: number; nodes: number[]; tags: Record<string, string>; cls: AmenityClass }> = [];
  const read = { nodes: 0, ways: 0, relations: 0 };
  let relationsSkipped = 0;
  let elsewhere = 0;
  const stateAt = (lon: number, lat: number): StateCode | null => {
    const state = detectState(lon, lat) ?? null;
    if (state === null || (run.state !== null && state !== run.state)) return null;
    return state;
  };
  for await (const element of readOsm(run.file)) {
    if (element.type === 'node') {
      read.nodes += 1;
      points.set(element.id, [element.lon, element.lat]);
      const cls = classifyAmenity(element.tags);
      if (cls) {
        const state = stateAt(element.lon, element.lat);
        if (state === null) elsewhere += 1;
        else {
          amenities.push({
            id: `node/${element.id}`,
            osm_type: 'node',
            osm_id: element.id,
            state,
            cls,
            name: element.tags.name ?? null,
            tags: JSON.stringify(element.tags),
            wkt: `POINT(${element.lon} ${element.lat})`,
          });
        }
      }
    } else if (element.type === 'way') {
      read.ways += 1;
      if (isWalkable(element.tags))
        walkWays.push({ id: element.id, nodes: element.nodes, highway: element.tags.highway! });
      const cls = classifyAmenity(element.tags);
      if (cls) amenityWays.push({ id: element.id, nodes: element.nodes, tags: element.tags, cls });
    } else {
      read.relations += 1;
      if (classifyAmenity(element.tags)) relationsSkipped += 1;
    }
    const total = read.nodes + read.ways + read.relations;
    if (total % 50_000 === 0) task.update(total);
  }

  // amenities drawn as ways: a closed way is an area (its centroid), an open one a line (its middle)
  for (const way of amenityWays) {
    const coords = way.nodes.map((id) => points.get(id)).filter((p): p is readonly [number, number] => !!p);
    if (coords.length === 0) continue;
    const lon = coords.reduce((s, p) => s + p[0], 0) / coords.length;
    const lat = coords.reduce((s, p) => s + p[1], 0) / coords.length;
    const state = stateAt(lon, lat);
    if (state === null) {
      elsewhere += 1;
      continue;
    }
    const closed =
      way.nodes.length >= 4 && way.nodes[0] === way.nodes[way.nodes.length - 1] && coords.length === way.nodes.length;
    const wkt = closed
      ? `POLYGON((${coords.map(coord).join(',')}))`
      : coords.length >= 2
        ? `LINESTRING(${coords.map(coord).join(',')})`
        : `POINT(${coord(coords[0]!)})`;
    amenities.push({
      id: `way/${way.id}`,
      osm_type: 'way',
      osm_id: way.id,
      state,
      cls: way.cls,
      name: way.tags.name ?? null,
      tags: JSON.stringify(way.tags),
      wkt,
    });
  }

  // the walking network: a node is a vertex wherever a walkable way ends or two of them share it
  const uses = new Map<number, number>();
  for (const way of walkWays) {
    for (const [i, id] of way.nodes.entries()) {
      // a closed way's first and last node are one vertex, counted once
      if (i === way.nodes.length - 1 && id === way.nodes[0]) continue;
      uses.set(id, (uses.get(id) ?? 0) + 1);
    }
  }
  const edges: EdgeRow[] = [];
  const vertices = new Map<number, StateCode>();
  let clippedWays = 0;
  for (const way of walkWays) {
    let clipped = false;
    let piece: number[] = [];
    let n = 0;
    const close = () => {
      if (piece.length >= 2) {
        const coords = piece.map((id) => points.get(id)!);
        const [lon, lat] = coords[Math.floor(coords.length / 2)]!;
        const state = stateAt(lon, lat);
        if (state === null) elsewhere += 1;
        else {
          n += 1;
          const source = piece[0]!;
          const target = piece[piece.length - 1]!;
          vertices.set(source, vertices.get(source) ?? state);
          vertices.set(target, vertices.get(target) ?? state);
          edges.push({
            id: `${way.id}-${n}`,
            state,
            source: String(source),
            target: String(target),
            highway: way.highway,
            wkt: `LINESTRING(${coords.map(coord).join(',')})`,
          });
        }
      }
    };
    for (const [i, id] of way.nodes.entries()) {
      if (!points.has(id)) {
        // the extract cut the way here: end this piece, start again at the next node it holds
        clipped = true;
        close();
        piece = [];
        continue;
      }
      if (piece.length > 0 && piece[piece.length - 1] === id) continue;
      piece.push(id);
      const last = i === way.nodes.length - 1;
      if (piece.length >= 2 && (last || (uses.get(id) ?? 0) >= 2)) {
        close();
        piece = [id];
      }
    }
    if (piece.length >= 2) close();
    if (clipped) clippedWays += 1;
  }
  task.done(read.nodes + read.ways + read.relations, `${amenities.length} amenities, ${edges.length} walking edges`);

  if (amenities.length === 0 && edges.length === 0) {
    throw new IngestError(
      elsewhere > 0
        ? `no amenity or walkable way of ${basename(run.file)} lies in ${run.state ?? 'an Australian state'}`
        : `${basename(run.file)} holds no amenity and no walkable way`,
    );
  }

  const states = [...new Set([...amenities.map((a) => a.state), ...edges.map((e) => e.state)])].sort();
  const byCategory: Record<string, number> = {};
  for (const a of amenities) byCategory[a.cls.category] = (byCategory[a.cls.category] ?? 0) + 1;
  const nodeRows = [...vertices.entries()].map(([id, state]) => ({ id: String(id), state, at: points.get(id)! }));

  await db.transaction(async (query) => {
    for (let i = 0; i < amenities.length; i += BATCH_ROWS) {
      const b = amenities.slice(i, i + BATCH_ROWS);
      await query(SQL.UPSERT_AMENITIES, [
        run.dataset,
        b.map((a) => a.id),
        b.map((a) => a.osm_type),
        b.map((a) => a.osm_id),
        b.map((a) => a.state),
        b.map((a) => a.cls.category),
        b.map((a) => a.cls.subcategory),
        b.map((a) => a.cls.school_sector),
        b.map((a) => a.cls.school_level),
        b.map((a) => a.cls.transport_mode),
        b.map((a) => a.name),
        b.map((a) => a.tags),
        b.map((a) => a.wkt),
      ]);
    }
    for (let i = 0; i < nodeRows.length; i += BATCH_ROWS) {
      const b = nodeRows.slice(i, i + BATCH_ROWS);
      await query(SQL.UPSERT_NODES, [
        run.dataset,
        b.map((r) => r.id),
        b.map((r) => r.state),
        b.map((r) => r.at[0]),
        b.map((r) => r.at[1]),
      ]);
    }
    for (let i = 0; i < edges.length; i += BATCH_ROWS) {
      const b = edges.slice(i, i + BATCH_ROWS);
      await query(SQL.UPSERT_EDGES, [
        run.dataset,
        b.map((e) => e.id),
        b.map((e) => e.state),
        b.map((e) => e.source),
        b.map((e) => e.target),
        b.map((e) => e.highway),
        b.map((e) => e.wkt),
      ]);
    }
    const name = basename(run.file);
    for (const state of states) {
      const amenityIds = amenities.filter((a) => a.state === state).map((a) => a.id);
      const edgeIds = edges.filter((e) => e.state === state).map((e) => e.id);
      if (amenityIds.length > 0) {
        await query(SQL.UPSERT_COVERAGE, [
          run.dataset,
          state,
          'amenities',
          name,
          run.snapshotDate,
          COVERAGE_MARGIN_M,
          amenityIds,
        ]);
      }
      if (edgeIds.length > 0) {
        await query(SQL.UPSERT_COVERAGE, [
          run.dataset,
          state,
          'walking-network',
          name,
          run.snapshotDate,
          COVERAGE_MARGIN_M,
          edgeIds,
        ]);
      }
      await query(PLANNING.WRITE_DATASET_SOURCE, [
        run.dataset,
        state,
        AMENITIES_LAYER,
        OSM_ATTRIBUTION,
        OSM_LICENSE,
        run.snapshot,
      ]);
    }
  });
  await db.exec(SQL.ANALYZE_AMENITY_TABLES);
  return {
    dataset: run.dataset,
    snapshot: run.snapshot,
    snapshotDate: run.snapshotDate,
    file: { name: basename(run.file), format: run.format },
    read,
    amenities: amenities.length,
    byCategory,
    nodes: nodeRows.length,
    edges: edges.length,
    walkableWays: walkWays.length,
    clippedWays,
    relationsSkipped,
    elsewhere,
    states,
    ms: performance.now() - started,
  };
}
