import { Prisma } from '../../generated/prisma/client.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';

export type ParcelRow = {
  parcel_pfi: string;
  state: string;
  parcel_spi: string | null;
  parcel_lot_number: string | null;
  parcel_plan_number: string | null;
  ezi_address: string | null;
  area_m2: number;
  geometry: GeoJSONGeometry;
  inside_lat: number;
  inside_lng: number;
  /** The attributes as a live state service published them (spec 2.3); absent for mirror rows. */
  upstream_attributes?: Record<string, unknown> | null;
};

/** Rows of a batched lookup come back tagged with the position of the key they answer. */
export type Indexed<T> = T & { i: number };

const PARCEL_COLUMNS = Prisma.sql`
  p.parcel_pfi, p.state, p.parcel_spi, p.parcel_lot_number, p.parcel_plan_number, p.ezi_address, p.area_m2,
  ST_AsGeoJSON(p.geom, 7)::json AS geometry,
  ST_Y(ST_PointOnSurface(p.geom)) AS inside_lat, ST_X(ST_PointOnSurface(p.geom)) AS inside_lng`;

/**
 * The parcel under each point of a batch. LATERAL keeps one index probe per point; a point on
 * a shared boundary touches two parcels, and the lowest PFI wins so the answer is stable.
 */
export const PARCELS_AT_POINTS = (dataset: string, states: string[], lngs: number[], lats: number[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, p.*
  FROM unnest(${states}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY AS k(state, lng, lat, i)
  JOIN LATERAL (
    SELECT ${PARCEL_COLUMNS}
    FROM cadastre.parcel p
    WHERE p.dataset = ${dataset} AND p.state = k.state
      AND ST_Intersects(p.geom, ST_SetSRID(ST_MakePoint(k.lng, k.lat), 4326))
    ORDER BY p.parcel_pfi
    LIMIT 1
  ) p ON true`;

export const PARCELS_BY_PFI = (dataset: string, states: string[], pfis: string[]) => Prisma.sql`
  SELECT ${PARCEL_COLUMNS}
  FROM unnest(${states}::text[], ${pfis}::text[]) AS k(state, parcel_pfi)
  JOIN cadastre.parcel p ON p.dataset = ${dataset} AND p.state = k.state AND p.parcel_pfi = k.parcel_pfi`;

/** Which points of a batch fall inside the cadastre's coverage (so "no parcel" means no_data, not not_covered). */
export const COVERED_POINTS = (dataset: string, states: string[], lngs: number[], lats: number[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i
  FROM unnest(${states}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY AS k(state, lng, lat, i)
  WHERE EXISTS (
    SELECT 1 FROM cadastre.coverage c
    WHERE c.dataset = ${dataset} AND c.state = k.state
      AND ST_Intersects(c.geom, ST_SetSRID(ST_MakePoint(k.lng, k.lat), 4326))
  )`;

/**
 * Parcels that truly intersect a window: `&&` narrows by index on bounding boxes, then the
 * exact test drops parcels whose box overlaps but whose shape does not. One row past the
 * limit is fetched so an over-full window is refused rather than cut short.
 */
export const PARCELS_IN_BBOX = (
  dataset: string,
  state: string,
  bbox: { west: number; south: number; east: number; north: number },
  limit: number,
) => Prisma.sql`
  SELECT ${PARCEL_COLUMNS}
  FROM cadastre.parcel p
  WHERE p.dataset = ${dataset} AND p.state = ${state}
    AND p.geom && ST_MakeEnvelope(${bbox.west}, ${bbox.south}, ${bbox.east}, ${bbox.north}, 4326)
    AND ST_Intersects(p.geom, ST_MakeEnvelope(${bbox.west}, ${bbox.south}, ${bbox.east}, ${bbox.north}, 4326))
  ORDER BY p.parcel_pfi
  LIMIT ${limit + 1}`;

/**
 * How far the coverage reaches over a window: `touches` (part of it) and `holds` (all of it,
 * so no other source need be asked). A window across two adjacent coverage areas is held by their union.
 */
export const BBOX_COVERAGE = (
  dataset: string,
  state: string,
  bbox: { west: number; south: number; east: number; north: number },
) => Prisma.sql`
  SELECT count(*) > 0 AS touches,
         coalesce(ST_Covers(ST_Union(c.geom), ST_MakeEnvelope(${bbox.west}, ${bbox.south}, ${bbox.east}, ${bbox.north}, 4326)), false) AS holds
  FROM cadastre.coverage c
  WHERE c.dataset = ${dataset} AND c.state = ${state}
    AND ST_Intersects(c.geom, ST_MakeEnvelope(${bbox.west}, ${bbox.south}, ${bbox.east}, ${bbox.north}, 4326))`;

/**
 * Parcels registered as a lot on a plan, by the state's SPI or by lot and plan number (the
 * whole plan when no lot is given). One row past the limit tells the caller there were more.
 */
export const PARCELS_BY_LOT_PLAN = (
  dataset: string,
  state: string,
  spi: string | null,
  lot: string | null,
  plan: string,
  limit: number,
) => Prisma.sql`
  SELECT ${PARCEL_COLUMNS}
  FROM cadastre.parcel p
  WHERE p.dataset = ${dataset} AND p.state = ${state}
    AND (p.parcel_spi = ${spi}::text
      OR (p.parcel_plan_number = ${plan} AND (${lot}::text IS NULL OR p.parcel_lot_number = ${lot}::text)))
  ORDER BY p.parcel_lot_number, p.parcel_pfi
  LIMIT ${limit + 1}`;

/** The parcels of the mirror under a point, a shared boundary touching several (Place.parcel_pfis). */
const PFIS_UNDER = (dataset: string, state: Prisma.Sql, pt: Prisma.Sql) => Prisma.sql`
  coalesce((SELECT array_agg(c.parcel_pfi) FROM cadastre.parcel c
    WHERE c.dataset = ${dataset} AND c.state = ${state} AND c.geom && ${pt} AND ST_Intersects(c.geom, ${pt})), '{}')`;

/** The PFIs of the parcels under each point of a batch. */
export const PARCELS_UNDER_POINTS = (dataset: string, states: string[], lngs: number[], lats: number[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, ${PFIS_UNDER(dataset, Prisma.sql`k.state`, Prisma.sql`k.pt`)} AS parcel_pfis
  FROM (SELECT u.i, u.state, ST_SetSRID(ST_MakePoint(u.lng, u.lat), 4326) AS pt
        FROM unnest(${states}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY AS u(state, lng, lat, i)) k`;

/**
 * The point each parcel of a batch is analysed at (ST_PointOnSurface, as PARCEL_COLUMNS'
 * inside_lat/inside_lng) with the parcels under that point, in one statement: what a lookup
 * around a parcel (placeOfParcel) needs of the cadastre.
 */
export const PLACES_OF_PARCELS = (dataset: string, states: string[], pfis: string[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, k.state, ST_Y(q.pt) AS lat, ST_X(q.pt) AS lng,
    ${PFIS_UNDER(dataset, Prisma.sql`k.state`, Prisma.sql`q.pt`)} AS parcel_pfis
  FROM unnest(${states}::text[], ${pfis}::text[]) WITH ORDINALITY AS k(state, parcel_pfi, i)
  JOIN cadastre.parcel p ON p.dataset = ${dataset} AND p.state = k.state AND p.parcel_pfi = k.parcel_pfi
  CROSS JOIN LATERAL (SELECT ST_PointOnSurface(p.geom) AS pt) q`;
