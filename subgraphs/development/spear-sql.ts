import { Prisma } from '../../generated/prisma/client.ts';
import type { BBox } from '../../core/geo.ts';

export type SpearRow = {
  source: string;
  spear_reference: string;
  application_type: string;
  responsible_authority: string;
  council_reference: string | null;
  lga_code: string | null;
  state: string;
  status: string;
  description: string | null;
  lodged_date: string | null;
  decided_date: string | null;
  parcel_pfis: string[];
  address: string | null;
  location: { lat: number; lng: number } | null;
  source_url: string | null;
  attribution: string;
  license: string;
  updated_at: string;
  distance_m?: number | null;
};

/** What one statement finds: the newest receipt of the layer (null: it holds no application) and the applications. */
export type SpearFound = { i: number; freshness: string | null; features: SpearRow[] };

const COLUMNS = Prisma.sql`s.source, s.spear_reference, s.application_type, s.responsible_authority,
  s.council_reference, s.lga_code, 'VIC' AS state, s.status, s.description, s.lodged_date::text AS lodged_date,
  s.decided_date::text AS decided_date, s.parcel_pfis, s.address,
  CASE WHEN s.geom IS NULL THEN NULL ELSE json_build_object('lat', ST_Y(s.geom), 'lng', ST_X(s.geom)) END AS location,
  s.source_url, s.attribution, s.license,
  to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at`;

const freshness = (dataset: string) => Prisma.sql`
  (SELECT max(f.received_at)::date::text FROM development.spear_application f WHERE f.dataset = ${dataset})`;

/**
 * The SPEAR applications touching each parcel of a batch, newest lodged first: one statement for
 * every property of a request. Every key is a VIC parcel (the caller answers others not_covered).
 */
export const SPEAR_OF_PARCELS = (dataset: string, pfis: string[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, ${freshness(dataset)} AS freshness,
    coalesce((SELECT json_agg(f) FROM (
      SELECT ${COLUMNS} FROM development.spear_application s
      WHERE s.dataset = ${dataset} AND s.parcel_pfis @> ARRAY[k.pfi]
      ORDER BY s.lodged_date DESC NULLS LAST, s.spear_reference) f), '[]'::json) AS features
  FROM unnest(${pfis}::text[]) WITH ORDINALITY AS k(pfi, i)`;

/**
 * Applications within a radius of a point, nearest first, one row past the limit (an over-full
 * radius is refused). An application touching a lot under the point (`lots`, the cadastre's
 * Place.parcel_pfis, read through the graph) is at 0 m whatever the radius: its own point may lie
 * on another of its lots.
 */
export const SPEAR_NEAR = (
  dataset: string,
  lng: number,
  lat: number,
  radiusM: number,
  box: BBox,
  limit: number,
  lots: string[],
) => Prisma.sql`
  SELECT 0 AS i, ${freshness(dataset)} AS freshness,
    coalesce((SELECT json_agg(f) FROM (
      SELECT ${COLUMNS},
        CASE WHEN s.parcel_pfis && ${lots}::text[] THEN 0 ELSE ST_Distance(s.geom::geography, p.pt::geography) END AS distance_m
      FROM development.spear_application s, (SELECT ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326) AS pt) p
      WHERE s.dataset = ${dataset}
        AND ((s.geom && ST_MakeEnvelope(${box.west}, ${box.south}, ${box.east}, ${box.north}, 4326)
            AND ST_DWithin(s.geom::geography, p.pt::geography, ${radiusM}))
          OR s.parcel_pfis && ${lots}::text[])
      ORDER BY distance_m, s.lodged_date DESC NULLS LAST, s.spear_reference
      LIMIT ${limit + 1}) f), '[]'::json) AS features`;

/** Applications whose point lies in a window, newest lodged first, one row past the limit. */
export const SPEAR_IN_BOX = (dataset: string, box: BBox, limit: number) => Prisma.sql`
  SELECT 0 AS i, ${freshness(dataset)} AS freshness,
    coalesce((SELECT json_agg(f) FROM (
      SELECT ${COLUMNS} FROM development.spear_application s
      WHERE s.dataset = ${dataset}
        AND s.geom && ST_MakeEnvelope(${box.west}, ${box.south}, ${box.east}, ${box.north}, 4326)
      ORDER BY s.lodged_date DESC NULLS LAST, s.spear_reference
      LIMIT ${limit + 1}) f), '[]'::json) AS features`;
