import { Prisma } from '../../generated/prisma/client.ts';

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
