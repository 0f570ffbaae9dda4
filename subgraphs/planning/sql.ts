import { Prisma } from '../../generated/prisma/client.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';

export type ZoneRow = {
  code: string;
  description: string;
  scheme_code: string;
  lga_code: string | null;
  lga_name: string | null;
};
export type OverlayRow = ZoneRow;

export type PlanningRow = {
  i: number;
  covered: boolean;
  zone: ZoneRow | null;
  overlays: OverlayRow[];
};

/**
 * Zone, overlays and coverage for every point of a batch in one statement. Zones should not
 * overlap; where a published layer does, the smallest polygon (most specific) is taken.
 */
export const PLANNING_AT_POINTS = (dataset: string, states: string[], lngs: number[], lats: number[]) => Prisma.sql`
  WITH k AS (
    SELECT (i - 1)::int AS i, state, ST_SetSRID(ST_MakePoint(lng, lat), 4326) AS pt
    FROM unnest(${states}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY AS u(state, lng, lat, i)
  )
  SELECT k.i,
    EXISTS (
      SELECT 1 FROM planning.coverage c
      WHERE c.dataset = ${dataset} AND c.state = k.state AND ST_Intersects(c.geom, k.pt)
    ) AS covered,
    (
      SELECT json_build_object('code', z.zone_code, 'description', z.zone_description, 'scheme_code', z.scheme_code,
                               'lga_code', z.lga_code, 'lga_name', z.lga_name)
      FROM planning.zone z
      WHERE z.dataset = ${dataset} AND z.state = k.state AND ST_Intersects(z.geom, k.pt)
      ORDER BY ST_Area(z.geom), z.id
      LIMIT 1
    ) AS zone,
    COALESCE((
      SELECT json_agg(json_build_object('code', o.overlay_code, 'description', o.overlay_description,
                                        'scheme_code', o.scheme_code, 'lga_code', o.lga_code, 'lga_name', o.lga_name)
                      ORDER BY o.overlay_code, o.id)
      FROM planning.overlay o
      WHERE o.dataset = ${dataset} AND o.state = k.state AND ST_Intersects(o.geom, k.pt)
    ), '[]'::json) AS overlays
  FROM k`;

export type UgbPointRow = {
  i: number;
  inside: boolean;
  lga_code: string | null;
  lga_name: string | null;
  gaic_applies: boolean | null;
  zone_description: string | null;
  held: boolean;
};

/**
 * For each point: whether the dataset holds any UGB for its state, the UGB polygon containing it
 * (the smallest where published polygons nest) and the planning zone there.
 */
export const UGB_AT_POINTS = (dataset: string, states: string[], lngs: number[], lats: number[]) => Prisma.sql`
  WITH k AS (
    SELECT (i - 1)::int AS i, state, ST_SetSRID(ST_MakePoint(lng, lat), 4326) AS pt
    FROM unnest(${states}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY AS u(state, lng, lat, i)
  )
  SELECT k.i,
    EXISTS (SELECT 1 FROM planning.ugb h WHERE h.dataset = ${dataset} AND h.state = k.state) AS held,
    u.id IS NOT NULL AS inside, u.lga_code, u.lga_name, u.gaic_applies,
    (
      SELECT z.zone_description FROM planning.zone z
      WHERE z.dataset = ${dataset} AND z.state = k.state AND ST_Intersects(z.geom, k.pt)
      ORDER BY ST_Area(z.geom), z.id LIMIT 1
    ) AS zone_description
  FROM k
  LEFT JOIN LATERAL (
    SELECT g.id, g.lga_code, g.lga_name, g.gaic_applies FROM planning.ugb g
    WHERE g.dataset = ${dataset} AND g.state = k.state AND ST_Intersects(g.geom, k.pt)
    ORDER BY ST_Area(g.geom), g.id LIMIT 1
  ) u ON true`;

export type UgbFeatureRow = {
  id: string;
  lga_code: string | null;
  lga_name: string;
  gaic_applies: boolean;
  geometry: GeoJSONGeometry;
};

/** UGB polygons intersecting a window, whole (not clipped), as the cadastre's bbox answers are. */
export const UGB_IN_BBOX = (
  dataset: string,
  state: string,
  west: number,
  south: number,
  east: number,
  north: number,
  limit: number,
) => Prisma.sql`
  SELECT g.id, g.lga_code, g.lga_name, g.gaic_applies, ST_AsGeoJSON(g.geom, 7)::json AS geometry
  FROM planning.ugb g
  WHERE g.dataset = ${dataset} AND g.state = ${state}
    AND ST_Intersects(g.geom, ST_MakeEnvelope(${west}, ${south}, ${east}, ${north}, 4326))
  ORDER BY g.id
  LIMIT ${limit}`;

export type ClimateRow = { i: number; climate_zone: number | null };

/** The climate zone at each point of a batch (the lowest-numbered where two published polygons overlap). */
export const CLIMATE_AT_POINTS = (dataset: string, states: string[], lngs: number[], lats: number[]) => Prisma.sql`
  WITH k AS (
    SELECT (i - 1)::int AS i, state, ST_SetSRID(ST_MakePoint(lng, lat), 4326) AS pt
    FROM unnest(${states}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY AS u(state, lng, lat, i)
  )
  SELECT k.i, (
    SELECT c.climate_zone FROM planning.climate_zone c
    WHERE c.dataset = ${dataset} AND c.state = k.state AND ST_Intersects(c.geom, k.pt)
    ORDER BY c.climate_zone LIMIT 1
  ) AS climate_zone
  FROM k`;
