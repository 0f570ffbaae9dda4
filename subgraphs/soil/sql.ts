import { Prisma } from '../../generated/prisma/client.ts';
import type { Reactivity } from './site-class.ts';

/** One soil polygon a place touches, as the source gives it. */
export type SoilPolygonRow = {
  id: string;
  clay_percent: number;
  depth_m: number;
  /** Null where the source maps no shrink-swell class. */
  reactivity: Reactivity | null;
  source: string;
  /** ISO date. */
  source_date: string;
};

/** Whether the soil source was mapped at the place, and every soil polygon the place touches. */
export type SoilAtRow = { i: number; covered: boolean; polygons: SoilPolygonRow[] };

/**
 * The soil of every place of a batch (a point or a parcel, as GeoJSON) in one statement: the
 * coverage test and the polygons it touches, both through the GiST indexes.
 */
export const SOIL_AT_PLACES = (dataset: string, states: string[], places: string[]) => Prisma.sql`
  WITH k AS (
    SELECT (i - 1)::int AS i, state, ST_SetSRID(ST_GeomFromGeoJSON(place), 4326) AS geom
    FROM unnest(${states}::text[], ${places}::text[]) WITH ORDINALITY AS u(state, place, i)
  )
  SELECT k.i,
    EXISTS (
      SELECT 1 FROM soil.coverage c
      WHERE c.dataset = ${dataset} AND c.state = k.state AND ST_Intersects(c.geom, k.geom)
    ) AS covered,
    COALESCE((
      SELECT json_agg(json_build_object('id', s.id, 'clay_percent', s.clay_percent, 'depth_m', s.depth_m,
                                        'reactivity', s.reactivity, 'source', s.source,
                                        'source_date', to_char(s.source_date, 'YYYY-MM-DD'))
                      ORDER BY s.id)
      FROM soil.polygon s
      WHERE s.dataset = ${dataset} AND s.state = k.state AND ST_Intersects(s.geom, k.geom)
    ), '[]'::json) AS polygons
  FROM k`;
