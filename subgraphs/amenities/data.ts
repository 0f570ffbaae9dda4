import type { RequestScope } from '../../core/context.ts';
import type { Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import {
  AMENITIES_LAYER,
  AMENITY_CATEGORIES,
  CATCHMENT_BAND_M,
  NETWORK_SNAP_M,
  WALKING_SPEED_M_PER_MIN,
} from '../../core/amenities.ts';
import DataLoader from 'dataloader';
import type {
  AmenityRow,
  CatchmentsRow,
  EdgeRow,
  NearestNodeRow,
  SuburbCountRow,
  SuburbCountWithCentreRow,
  WalkInputRow,
} from './sql.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import * as SQL from './sql.ts';
import { type ReachedEdge, type Walk, walkFrom } from './walk.ts';

/** How much further than the search radius the network is read, so a walk may bend out and back. */
export const NETWORK_REACH_FACTOR = 1.4;
/**
 * The furthest a nearby lookup walks (metres): beyond, walking_distance_m is null. Bounds the
 * edges one request reads (a 5 km radius in a city would otherwise read tens of thousands).
 */
export const MAX_WALKING_REACH_M = 3000;
/** Margin round a suburb's address hull (metres): an amenity on its boundary road still counts. */
export const SUBURB_EXTENT_MARGIN_M = 25;
/** The largest network distance passed as "not reached" (a finite stand-in for Infinity in SQL arrays). */
const UNREACHED_M = 1e12;

export type AmenityModel = Omit<AmenityRow, 'tags'> & {
  tags: Array<{ key: string; value: string }>;
  walking_minutes: number | null;
};

export type AmenitiesNearModel = {
  status: 'ok' | 'no_data' | 'not_covered' | 'error';
  source: string | null;
  attribution: string | null;
  license: string | null;
  freshness: string | null;
  message: string | null;
  radius_m: number;
  network: boolean;
  data: AmenityModel[] | null;
};

/**
 * A suburb entity as the graph keys it, with what the owning subgraphs gave it through @requires:
 * the demographics' SAL boundary and the address layer's hull of its address points.
 */
export type SuburbEntity = {
  state: string;
  name: string;
  sal_boundary?: SalBoundaryInput | null;
  address_hull?: AddressHullInput | null;
};

/** The address subgraph's hull of a suburb's address points (Suburb.address_hull). */
export type AddressHullInput = { addresses: number; geometry: GeoJSONGeometry };

export type SalBoundaryInput = {
  code: string;
  name: string;
  geometry: GeoJSONGeometry;
  attribution: string;
  license: string;
};

/** What a suburb's extent holds, and how the extent was drawn. */
export type SuburbCounts = {
  extent_method: 'sal-boundary' | 'address-hull';
  sal: SalBoundaryInput | null;
  centre_lat: number | null;
  centre_lng: number | null;
  counts: SuburbCountRow[];
};

export type SuburbAmenitiesModel = {
  status: 'ok' | 'no_data' | 'not_covered' | 'error';
  source: string | null;
  attribution: string | null;
  license: string | null;
  freshness: string | null;
  message: string | null;
  state: string;
  suburb: string;
  extent_method: string | null;
  sal_code: string | null;
  sal_name: string | null;
  centre_lat: number | null;
  centre_lng: number | null;
  counts: SuburbCountRow[] | null;
};

/** A property as the amenities subgraph sees it: its point comes from the cadastre through @requires. */
export type AmenitiesProperty = {
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
};

export type CatchmentModel = {
  status: 'ok' | 'not_covered' | 'skipped' | 'error';
  source: string | null;
  attribution: string | null;
  license: string | null;
  freshness: string | null;
  message: string | null;
  minutes: number;
  walking_speed_m_per_min: number;
  budget_m: number;
  approximate: boolean;
  reason: string | null;
  origin_node: string | null;
  origin_access_m: number | null;
  reached_nodes: number;
  reached_edges: number;
  polygon: { type: string; coordinates: unknown } | null;
  amenities: AmenityModel[];
};

/** A catchment asked for: where, in which state's data, and how many minutes. */
type CatchmentAsked = { state: string; lat: number; lng: number; minutes: number };

/** A catchment worked out: its walk (null for the straight-line buffer), polygon and amenities inside. */
export type CatchmentResult = {
  approximate: boolean;
  walk: (Walk & { origin: NearestNodeRow }) | null;
  polygon: { type: string; coordinates: unknown } | null;
  amenities: AmenityModel[];
};

const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;

function amenityModel(row: AmenityRow): AmenityModel {
  const tags = typeof row.tags === 'string' ? (JSON.parse(row.tags) as Record<string, string>) : row.tags;
  const walk = row.walking_distance_m === null ? null : round(row.walking_distance_m);
  return {
    ...row,
    osm_id: row.osm_id === null ? null : Number(row.osm_id),
    distance_m: round(row.distance_m),
    walking_distance_m: walk,
    walking_minutes: walk === null ? null : round(walk / WALKING_SPEED_M_PER_MIN),
    tags: Object.entries(tags ?? {})
      .map(([key, value]) => ({ key, value: String(value) }))
      .sort((a, b) => a.key.localeCompare(b.key)),
  };
}

/** The walk's reached edges as the amenity statements take them. */
function reachedArrays(reached: readonly ReachedEdge[]) {
  return {
    ids: reached.map((r) => r.id),
    ds: reached.map((r) => (Number.isFinite(r.toSource) ? r.toSource : UNREACHED_M)),
    dt: reached.map((r) => (Number.isFinite(r.toTarget) ? r.toTarget : UNREACHED_M)),
  };
}

/** The amenities subgraph's data source for one request. */
export class AmenitiesData {
  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {}

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, AMENITIES_LAYER, state);
  }

  /**
   * A walk from the network node nearest the point, bounded by `budgetM`: null when no node lies
   * within NETWORK_SNAP_M (no network is held there).
   */
  async walk(state: string, lat: number, lng: number, budgetM: number) {
    const db = this.deps.db;
    const [node] = await db.sql<NearestNodeRow>(SQL.NEAREST_NODE(this.scope.dataset, state, lng, lat, NETWORK_SNAP_M));
    if (!node) return null;
    const edges = await db.sql<EdgeRow>(SQL.EDGES_WITHIN(this.scope.dataset, state, lng, lat, budgetM));
    const walk = walkFrom(node.id, node.distance_m, edges, budgetM);
    return { origin: node, ...walk };
  }

  async near(
    state: string,
    lat: number,
    lng: number,
    categories: readonly string[],
    radiusM: number,
    limit: number,
  ): Promise<{ network: boolean; rows: AmenityModel[] }> {
    const walk = await this.walk(state, lat, lng, Math.min(radiusM * NETWORK_REACH_FACTOR, MAX_WALKING_REACH_M));
    const arrays = walk ? reachedArrays(walk.reached) : { ids: [], ds: [], dt: [] };
    const rows = await this.deps.db.sql<AmenityRow>(
      SQL.AMENITIES_NEAR(this.scope.dataset, state, lng, lat, [...categories], radiusM, limit, {
        ...arrays,
        snapM: NETWORK_SNAP_M,
      }),
    );
    return { network: walk !== null, rows: rows.map(amenityModel) };
  }

  /**
   * The catchment of `minutes` at a point: over the network from its nearest node, or a
   * straight-line buffer where no node is near. Every catchment a request asks for (the root
   * field, Property.walking_catchment of each entity) is worked out together: two statements
   * for the batch, whatever its size (CATCHMENT_BATCH).
   */
  catchment(state: string, lat: number, lng: number, minutes: number): Promise<CatchmentResult> {
    return this.catchments.load({ state, lat, lng, minutes });
  }

  private readonly catchments = new DataLoader<CatchmentAsked, CatchmentResult, string>(
    (keys) => this.catchmentBatch(keys),
    { cacheKeyFn: (k) => `${k.state}:${k.lng},${k.lat}:${k.minutes}` },
  );

  /**
   * CATCHMENT_BATCH: one statement reads every point's nearest node and the edges within its
   * budget; the walks run here (walk.ts); one statement draws every catchment's area and finds
   * the amenities inside each. The walk between the two is why it is two statements, not one.
   */
  private async catchmentBatch(keys: readonly CatchmentAsked[]): Promise<CatchmentResult[]> {
    const db = this.deps.db;
    const dataset = this.scope.dataset;
    const budgets = keys.map((k) => k.minutes * WALKING_SPEED_M_PER_MIN);
    const inputs = await db.sql<WalkInputRow>(
      SQL.WALK_INPUTS(
        dataset,
        keys.map((k) => k.state),
        keys.map((k) => k.lng),
        keys.map((k) => k.lat),
        budgets,
        NETWORK_SNAP_M,
      ),
    );
    const byIndex = new Map(inputs.map((row) => [row.i, row]));
    const walks = keys.map((_k, i) => {
      const row = byIndex.get(i);
      if (!row?.node_id || row.node_distance_m === null) return null;
      const edges = (typeof row.edges === 'string' ? JSON.parse(row.edges) : (row.edges ?? [])) as EdgeRow[];
      const walk = walkFrom(row.node_id, row.node_distance_m, edges, budgets[i]!);
      // a walk that reaches no stretch of way draws nothing: the buffer stands for it
      if (walk.reached.every((r) => r.parts.length === 0)) return null;
      return { origin: { id: row.node_id, distance_m: row.node_distance_m }, ...walk };
    });
    const parts = { i: [] as number[], ids: [] as string[], froms: [] as number[], tos: [] as number[] };
    const reached = { i: [] as number[], ids: [] as string[], ds: [] as number[], dt: [] as number[] };
    walks.forEach((walk, i) => {
      if (!walk) return;
      for (const r of walk.reached) {
        for (const [f, t] of r.parts) {
          parts.i.push(i);
          parts.ids.push(r.id);
          parts.froms.push(f);
          parts.tos.push(t);
        }
      }
      const arrays = reachedArrays(walk.reached);
      reached.i.push(...arrays.ids.map(() => i));
      reached.ids.push(...arrays.ids);
      reached.ds.push(...arrays.ds);
      reached.dt.push(...arrays.dt);
    });
    const rows = await db.sql<CatchmentsRow>(
      SQL.CATCHMENTS(
        dataset,
        keys.map((k, i) => ({ state: k.state, lng: k.lng, lat: k.lat, bufferM: walks[i] ? null : budgets[i]! })),
        parts,
        reached,
        CATCHMENT_BAND_M,
        CATCHMENT_BAND_M * 2,
      ),
    );
    const answers = new Map(rows.map((row) => [row.i, row]));
    return keys.map((_k, i) => {
      const row = answers.get(i);
      const walk = walks[i] ?? null;
      const polygon = row?.polygon ? (JSON.parse(row.polygon) as { type: string; coordinates: unknown }) : null;
      const amenities = (row?.amenities ?? []).map(amenityModel);
      if (!walk) return { approximate: true, walk: null, polygon, amenities };
      return {
        approximate: false,
        walk,
        polygon,
        // inside the band, but further along the network than the walk allows plus the band's step off it
        amenities: amenities.filter(
          (a) => a.walking_distance_m !== null && a.walking_distance_m <= budgets[i]! + CATCHMENT_BAND_M,
        ),
      };
    });
  }

  /**
   * A suburb's counts: inside its SAL boundary where the graph brought one, else inside the hull
   * of its addresses (also brought by the graph) widened SUBURB_EXTENT_MARGIN_M; null when it has
   * no address either.
   */
  async suburb(
    state: string,
    sal: SalBoundaryInput | null,
    hull: AddressHullInput | null,
  ): Promise<SuburbCounts | null> {
    const shape = sal?.geometry ?? hull?.geometry;
    if (!shape) return null;
    const rows = await this.deps.db.sql<SuburbCountWithCentreRow>(
      SQL.SUBURB_COUNTS(this.scope.dataset, state, JSON.stringify(shape), sal ? null : SUBURB_EXTENT_MARGIN_M, [
        ...AMENITY_CATEGORIES,
      ]),
    );
    return {
      extent_method: sal ? 'sal-boundary' : 'address-hull',
      sal,
      centre_lat: rows[0]?.centre_lat ?? null,
      centre_lng: rows[0]?.centre_lng ?? null,
      counts: rows.map(({ category, count, nearest_m, nearest_name }) => ({
        category,
        count,
        nearest_m: nearest_m === null ? null : round(nearest_m),
        nearest_name,
      })),
    };
  }
}

export type AmenitiesContext = RequestScope & { amenities: AmenitiesData };
