import { Prisma } from '../../generated/prisma/client.ts';
import type { BBox } from '../../core/geo.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';

/** The land layers as land.coverage and dataset_source name them. */
export type LandLayerName = 'easements' | 'buildings' | 'land-values';

export type EasementRow = {
  id: string;
  state: string;
  parcel_pfi: string | null;
  easement_type: string;
  width_m: number | null;
  plan_number: string | null;
  area_m2: number;
  geometry: GeoJSONGeometry;
};

export type BuildingRow = {
  id: string;
  state: string;
  source: 'osm' | 'state';
  height_m: number | null;
  storeys: number | null;
  area_m2: number;
  geometry: GeoJSONGeometry;
};

export type LandValueRow = {
  parcel_pfi: string;
  state: string;
  site_value: number;
  capital_improved_value: number | null;
  base_date: string;
  valuer: string;
};

/** What one statement finds for one place: the snapshot date of the coverage there (null: none reaches) and the features. */
export type Found<T> = { i: number; freshness: string | null; features: T[] };

const EASEMENT_COLUMNS = Prisma.sql`e.id, e.state, e.parcel_pfi, e.easement_type, e.width_m, e.plan_number,
  ST_Area(e.geom::geography) AS area_m2, ST_AsGeoJSON(e.geom, 7)::json AS geometry`;

const BUILDING_COLUMNS = Prisma.sql`b.id, b.state, b.source, b.height_m, b.storeys,
  ST_Area(b.geom::geography) AS area_m2, ST_AsGeoJSON(b.geom, 7)::json AS geometry`;

/** The newest snapshot of a layer whose coverage reaches a geometry; null when none does. */
const freshness = (dataset: string, layer: LandLayerName, state: Prisma.Sql, where: Prisma.Sql) => Prisma.sql`
  (SELECT max(c.snapshot_date)::text FROM land.coverage c
   WHERE c.dataset = ${dataset} AND c.layer = ${layer} AND c.state = ${state} AND ST_Intersects(c.geom, ${where}))`;

const POINT = Prisma.sql`ST_SetSRID(ST_MakePoint(k.lng, k.lat), 4326)`;

/**
 * The easements of each parcel of a batch (by its PFI), with the coverage at the point the
 * property is analysed at: one statement for every property of a request.
 */
export const EASEMENTS_OF_PARCELS = (
  dataset: string,
  states: string[],
  pfis: string[],
  lngs: number[],
  lats: number[],
) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, ${freshness(dataset, 'easements', Prisma.sql`k.state`, POINT)} AS freshness,
    coalesce((SELECT json_agg(f ORDER BY f.id) FROM (
      SELECT ${EASEMENT_COLUMNS} FROM land.easement e
      WHERE e.dataset = ${dataset} AND e.state = k.state AND e.parcel_pfi = k.pfi) f), '[]'::json) AS features
  FROM unnest(${states}::text[], ${pfis}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY
    AS k(state, pfi, lng, lat, i)`;

/**
 * The footprints on each parcel of a batch: those whose point on surface lies inside the
 * parcel's boundary, so a building is on exactly one parcel even where its outline strays
 * over a fence line.
 */
export const BUILDINGS_ON_PARCELS = (
  dataset: string,
  states: string[],
  parcels: string[],
  lngs: number[],
  lats: number[],
) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, ${freshness(dataset, 'buildings', Prisma.sql`k.state`, POINT)} AS freshness,
    coalesce((SELECT json_agg(f ORDER BY f.id) FROM (
      SELECT ${BUILDING_COLUMNS} FROM land.building_footprint b
      WHERE b.dataset = ${dataset} AND b.state = k.state AND b.geom && k.parcel
        AND ST_Intersects(k.parcel, ST_PointOnSurface(b.geom))) f), '[]'::json) AS features
  FROM (
    SELECT u.state, ST_SetSRID(ST_GeomFromGeoJSON(u.parcel), 4326) AS parcel, u.lng, u.lat, u.i
    FROM unnest(${states}::text[], ${parcels}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY
      AS u(state, parcel, lng, lat, i)
  ) k`;

/** The land value of each parcel of a batch; `features` holds it, or nothing. */
export const LAND_VALUES_OF_PARCELS = (
  dataset: string,
  states: string[],
  pfis: string[],
  lngs: number[],
  lats: number[],
) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, ${freshness(dataset, 'land-values', Prisma.sql`k.state`, POINT)} AS freshness,
    coalesce((SELECT json_agg(f) FROM (
      SELECT v.parcel_pfi, v.state, v.site_value, v.capital_improved_value, v.base_date::text AS base_date, v.valuer
      FROM land.land_value v
      WHERE v.dataset = ${dataset} AND v.state = k.state AND v.parcel_pfi = k.pfi) f), '[]'::json) AS features
  FROM unnest(${states}::text[], ${pfis}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY
    AS k(state, pfi, lng, lat, i)`;

const envelope = (b: BBox) => Prisma.sql`ST_MakeEnvelope(${b.west}, ${b.south}, ${b.east}, ${b.north}, 4326)`;

/**
 * Features that truly intersect a window (`&&` narrows by index, the exact test drops boxes
 * that overlap without the shape doing so), one row past the limit so an over-full window is
 * refused rather than cut short; with the coverage over the window, in one statement.
 */
export const EASEMENTS_IN_BBOX = (dataset: string, state: string, bbox: BBox, limit: number) => Prisma.sql`
  SELECT 0 AS i, ${freshness(dataset, 'easements', Prisma.sql`${state}`, envelope(bbox))} AS freshness,
    coalesce((SELECT json_agg(f ORDER BY f.id) FROM (
      SELECT ${EASEMENT_COLUMNS} FROM land.easement e
      WHERE e.dataset = ${dataset} AND e.state = ${state} AND e.geom && ${envelope(bbox)}
        AND ST_Intersects(e.geom, ${envelope(bbox)})
      ORDER BY e.id LIMIT ${limit + 1}) f), '[]'::json) AS features`;

export const BUILDINGS_IN_BBOX = (dataset: string, state: string, bbox: BBox, limit: number) => Prisma.sql`
  SELECT 0 AS i, ${freshness(dataset, 'buildings', Prisma.sql`${state}`, envelope(bbox))} AS freshness,
    coalesce((SELECT json_agg(f ORDER BY f.id) FROM (
      SELECT ${BUILDING_COLUMNS} FROM land.building_footprint b
      WHERE b.dataset = ${dataset} AND b.state = ${state} AND b.geom && ${envelope(bbox)}
        AND ST_Intersects(b.geom, ${envelope(bbox)})
      ORDER BY b.id LIMIT ${limit + 1}) f), '[]'::json) AS features`;

export const BUILDINGS_AT_POINT = (dataset: string, state: string, lng: number, lat: number) => Prisma.sql`
  SELECT 0 AS i, ${freshness(dataset, 'buildings', Prisma.sql`${state}`, Prisma.sql`ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326)`)} AS freshness,
    coalesce((SELECT json_agg(f ORDER BY f.id) FROM (
      SELECT ${BUILDING_COLUMNS} FROM land.building_footprint b
      WHERE b.dataset = ${dataset} AND b.state = ${state}
        AND ST_Intersects(b.geom, ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326))) f), '[]'::json) AS features`;
