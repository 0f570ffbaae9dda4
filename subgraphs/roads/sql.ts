import { Prisma } from '../../generated/prisma/client.ts';
import type { Position } from '../../core/geojson.ts';

export type RoadLineRow = { i: number; road_name: string | null; road_class: string; coordinates: Position[] };

/**
 * Road centrelines near each parcel of a batch, for telling its front boundary from its sides.
 * The reach is in degrees (about 90 m north-south, 70 m east-west in southern Australia) so
 * the GiST index answers; the classifier measures real distances in metres afterwards.
 */
export const ROADS_NEAR_PARCELS = (dataset: string, states: string[], parcels: string[]) => Prisma.sql`
  WITH k AS (
    SELECT (i - 1)::int AS i, state, ST_SetSRID(ST_GeomFromGeoJSON(parcel), 4326) AS geom
    FROM unnest(${states}::text[], ${parcels}::text[]) WITH ORDINALITY AS u(state, parcel, i)
  )
  SELECT k.i, r.road_name, r.road_class, (ST_AsGeoJSON(r.geom, 7)::json ->> 'coordinates')::json AS coordinates
  FROM k
  JOIN roads.centreline r ON r.dataset = ${dataset} AND r.state = k.state AND ST_DWithin(r.geom, k.geom, 0.0008)
  ORDER BY k.i, r.id`;

export type NearbyRoadRow = {
  road_name: string | null;
  road_class: string;
  distance_m: number;
  coordinates: Position[];
};

/** How many candidates the index's planar order offers for each one answered (degrees are not metres). */
const CANDIDATES_PER_ROAD = 4;

/**
 * The centrelines nearest a point within `reachM` metres, nearest first. The `<->` order lets
 * the GiST index pick candidates in degrees; the distance on the ellipsoid then orders them.
 */
export const ROADS_NEAREST = (
  dataset: string,
  state: string,
  lng: number,
  lat: number,
  limit: number,
  reachM: number,
) =>
  // NOT MATERIALIZED: a CTE read twice is materialised, and `<->` against a materialised point cannot
  // use the GiST index: at a million parcels that scanned and sorted every centreline of the state.
  Prisma.sql`
  WITH pt AS NOT MATERIALIZED (SELECT ST_SetSRID(ST_MakePoint(${lng}::float8, ${lat}::float8), 4326) AS g),
  candidates AS (
    SELECT r.id, r.road_name, r.road_class, r.geom
    FROM roads.centreline r, pt
    WHERE r.dataset = ${dataset} AND r.state = ${state}
    ORDER BY r.geom <-> pt.g
    LIMIT ${limit * CANDIDATES_PER_ROAD}::int
  )
  SELECT c.road_name, c.road_class, d.distance_m,
         (ST_AsGeoJSON(c.geom, 7)::json ->> 'coordinates')::json AS coordinates
  FROM candidates c, pt, LATERAL (SELECT ST_Distance(c.geom::geography, pt.g::geography)::float8 AS distance_m) d
  WHERE d.distance_m <= ${reachM}::float8
  ORDER BY d.distance_m, c.id
  LIMIT ${limit}::int`;
