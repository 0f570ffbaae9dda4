import { Prisma } from '../../generated/prisma/client.ts';

export type HazardKind = 'flood' | 'bushfire' | 'contamination';
export type Severity = 'low' | 'medium' | 'high' | 'extreme';

export type OverlayHit = {
  code: string;
  description: string;
  severity: Severity;
  source: string;
  snapshot_date: string;
};
/** `bearing_deg`: from the point to the vegetation's nearest edge; null where the point is inside it. */
export type VegetationHit = { vegetation_class: string; distance_m: number; bearing_deg?: number | null };
export type SiteHit = {
  name: string;
  status: string;
  register: string;
  snapshot_date: string;
  distance_m: number;
};

/** One point's answer from one hazard's source: `snapshot_date` is null where its coverage does not reach. */
export type HazardRow = {
  i: number;
  snapshot_date: string | null;
  overlays: OverlayHit[];
  vegetation: VegetationHit[];
  sites: SiteHit[];
};

/**
 * Every hazard at one point of a batch: the snapshot date of each kind's coverage over the point
 * (a kind whose coverage does not reach is absent), the overlays of every kind with their kind,
 * the classified vegetation within 100 m and the register sites within 200 m.
 */
export type HazardsRow = {
  i: number;
  coverage: Partial<Record<HazardKind, string>> | null;
  overlays: Array<OverlayHit & { kind: HazardKind }>;
  vegetation: VegetationHit[];
  sites: SiteHit[];
};

/** AS 3959 Method 1 rates fuel up to 100 m away; beyond, every class is BAL-LOW. */
export const VEGETATION_REACH_M = 100;
/** Register sites this close are reported as evidence of contamination at the property. */
export const SITE_REACH_M = 200;
// Degree prefilters a little wider than the reaches (at southern Australian latitudes), so the
// GiST indexes pick candidates before the exact distance on the ellipsoid decides.
const VEGETATION_PREFILTER_DEG = 0.0015;
const SITE_PREFILTER_DEG = 0.003;

/**
 * Every hazard at every point of a batch, in one statement: which kinds' coverage reaches each
 * point (and each one's snapshot date), the overlays of every kind over the point, the
 * classified vegetation within 100 m (bushfire's BAL) and the register sites within 200 m
 * (contamination). One statement per request for the layer, whatever the number of properties;
 * each subquery still finds its rows through its table's GiST index.
 */
export const HAZARDS_AT_POINTS = (dataset: string, states: string[], lngs: number[], lats: number[]) => Prisma.sql`
  WITH k AS (
    SELECT (i - 1)::int AS i, state, ST_SetSRID(ST_MakePoint(lng, lat), 4326) AS pt
    FROM unnest(${states}::text[], ${lngs}::float8[], ${lats}::float8[]) WITH ORDINALITY AS u(state, lng, lat, i)
  )
  SELECT k.i,
    (
      SELECT json_object_agg(c.kind, c.snapshot_date)
      FROM (
        SELECT c.kind, to_char(max(c.snapshot_date), 'YYYY-MM-DD') AS snapshot_date
        FROM hazards.coverage c
        WHERE c.dataset = ${dataset} AND c.state = k.state AND ST_Intersects(c.geom, k.pt)
        GROUP BY c.kind
      ) c
    ) AS coverage,
    COALESCE((
      SELECT json_agg(json_build_object('kind', o.kind, 'code', o.code, 'description', o.description,
                                        'severity', o.severity, 'source', o.source_name,
                                        'snapshot_date', to_char(o.snapshot_date, 'YYYY-MM-DD'))
                      ORDER BY o.kind, o.code, o.id)
      FROM hazards.overlay o
      WHERE o.dataset = ${dataset} AND o.state = k.state AND ST_Intersects(o.geom, k.pt)
    ), '[]'::json) AS overlays,
    COALESCE((
      SELECT json_agg(json_build_object('vegetation_class', v.vegetation_class, 'distance_m', v.d,
                                        'bearing_deg', v.bearing_deg) ORDER BY v.d, v.id)
      FROM (
        SELECT v.id, v.vegetation_class, round(ST_Distance(v.geom::geography, k.pt::geography)::numeric, 1)::float8 AS d,
          round(degrees(ST_Azimuth(k.pt::geography, ST_ClosestPoint(v.geom, k.pt)::geography))::numeric, 1)::float8
            AS bearing_deg
        FROM hazards.vegetation v
        WHERE v.dataset = ${dataset} AND v.state = k.state
          AND v.geom && ST_Expand(k.pt, ${VEGETATION_PREFILTER_DEG}::float8)
          AND ST_DWithin(v.geom::geography, k.pt::geography, ${VEGETATION_REACH_M})
      ) v
    ), '[]'::json) AS vegetation,
    COALESCE((
      SELECT json_agg(json_build_object('name', s.name, 'status', s.status, 'register', s.register,
                                        'snapshot_date', to_char(s.snapshot_date, 'YYYY-MM-DD'), 'distance_m', s.d)
                      ORDER BY s.d, s.id)
      FROM (
        SELECT s.*, round(ST_Distance(s.geom::geography, k.pt::geography)::numeric, 1)::float8 AS d
        FROM hazards.contamination_site s
        WHERE s.dataset = ${dataset} AND s.state = k.state
          AND s.geom && ST_Expand(k.pt, ${SITE_PREFILTER_DEG}::float8)
          AND ST_DWithin(s.geom::geography, k.pt::geography, ${SITE_REACH_M})
      ) s
    ), '[]'::json) AS sites
  FROM k`;

/** One kind's share of a point's row, in the shape the hazard's assessment reads. */
export function hazardRowOf(row: Omit<HazardsRow, 'i'>, kind: HazardKind): Omit<HazardRow, 'i'> {
  return {
    snapshot_date: row.coverage?.[kind] ?? null,
    overlays: row.overlays.filter((o) => o.kind === kind).map(({ kind: _kind, ...overlay }) => overlay),
    vegetation: kind === 'bushfire' ? row.vegetation : [],
    sites: kind === 'contamination' ? row.sites : [],
  };
}
