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
import type { AmenityRow, CatchmentRow, EdgeRow, NearestNodeRow, SuburbCountRow, SuburbExtentRow } from './sql.ts';
import * as SQL from './sql.ts';
import { type ReachedEdge, walkFrom } from './walk.ts';

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
  centre_lat: number | null;
  centre_lng: number | null;
  counts: SuburbCountRow[] | null;
};

export type CatchmentModel = {
  status: 'ok' | 'not_covered' | 'error';
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

  /** The catchment of `minutes`: over the network from its nearest node, or a straight-line buffer. */
  async catchment(state: string, lat: number, lng: number, minutes: number) {
    const budget = minutes * WALKING_SPEED_M_PER_MIN;
    const db = this.deps.db;
    const walk = await this.walk(state, lat, lng, budget);
    if (!walk || walk.reached.every((r) => r.parts.length === 0)) {
      const [row] = await db.sql<CatchmentRow>(
        SQL.CATCHMENT(this.scope.dataset, state, lng, lat, SQL.AREA_OF_BUFFER(lng, lat, budget), {
          ids: [],
          ds: [],
          dt: [],
          snapM: 0,
        }),
      );
      return {
        approximate: true,
        walk: null,
        polygon: JSON.parse(row!.polygon!) as { type: string; coordinates: unknown },
        amenities: (row!.amenities ?? []).map(amenityModel),
      };
    }
    const parts = walk.reached.flatMap((r) => r.parts.map(([f, t]) => ({ id: r.id, f, t })));
    const area = SQL.AREA_OF_PARTS(
      this.scope.dataset,
      parts.map((p) => p.id),
      parts.map((p) => p.f),
      parts.map((p) => p.t),
      CATCHMENT_BAND_M,
    );
    const [row] = await db.sql<CatchmentRow>(
      SQL.CATCHMENT(this.scope.dataset, state, lng, lat, area, {
        ...reachedArrays(walk.reached),
        snapM: CATCHMENT_BAND_M * 2,
      }),
    );
    // inside the band, but further along the network than the walk allows plus the band's step off it
    const amenities = (row!.amenities ?? [])
      .map(amenityModel)
      .filter((a) => a.walking_distance_m !== null && a.walking_distance_m <= budget + CATCHMENT_BAND_M);
    return {
      approximate: false,
      walk,
      polygon: JSON.parse(row!.polygon!) as { type: string; coordinates: unknown },
      amenities,
    };
  }

  async suburb(state: string, suburb: string) {
    const db = this.deps.db;
    const [extent] = await db.sql<SuburbExtentRow>(
      SQL.SUBURB_EXTENT(this.scope.dataset, state, suburb, SUBURB_EXTENT_MARGIN_M),
    );
    if (!extent?.extent) return null;
    const counts = await db.sql<SuburbCountRow>(
      SQL.SUBURB_COUNTS(this.scope.dataset, state, extent.extent, [...AMENITY_CATEGORIES]),
    );
    return {
      extent,
      counts: counts.map((c) => ({
        ...c,
        nearest_m: c.nearest_m === null ? null : round(c.nearest_m),
      })),
    };
  }
}

export type AmenitiesContext = RequestScope & { amenities: AmenitiesData };
