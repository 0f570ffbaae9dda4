/**
 * Statements of the easement ingest. $1 is always the dataset and $2 the state; a batch travels
 * as one array per column (see planning-sql.ts).
 */

// As in planning-sql.ts: a valid polygon is kept, an invalid one mended to its polygons only.
const MENDED = `CASE WHEN (validity).valid THEN ST_Multi(raw)
    ELSE ST_Multi(ST_CollectionExtract(ST_MakeValid(raw), 3)) END`;

/**
 * Upserts a batch of easements, each cut into the part that lies on each parcel of the
 * dataset's cadastre it burdens ($8 the least area, m², a part must have: slivers where the
 * easement and the cadastre disagree by a hair are not burdens; a parcel drawn invalid is
 * mended first, as an intersection with it would abort the run). A part is written as
 * "<id>@<parcel pfi>" with that parcel as its parcel_pfi, so the easement answers on every lot
 * it crosses; an easement on no parcel is written whole, unlinked. The answer says per input
 * row whether its geometry was valid, whether it was usable, the parcels it reached, and the
 * convex hull of the batch together with $9, the hull of the batches before it.
 */
export const UPSERT_EASEMENTS = `WITH input AS (
  SELECT t.seq, t.id, t.easement_type, t.width_m, t.plan_number,
    ST_SetSRID(ST_GeomFromGeoJSON(t.geometry), 4326) AS raw
  FROM unnest($3::int[], $4::text[], $5::text[], $6::float8[], $7::text[], $10::text[])
    AS t(seq, id, easement_type, width_m, plan_number, geometry)
), checked AS (
  SELECT input.*, ST_IsValidDetail(raw) AS validity FROM input
), mended AS (
  SELECT checked.*, ${MENDED} AS geom FROM checked
), usable AS (
  SELECT * FROM mended WHERE NOT ST_IsEmpty(geom)
), parts AS (
  SELECT u.seq, p.parcel_pfi, ST_Multi(ST_CollectionExtract(ST_Intersection(u.geom,
      CASE WHEN ST_IsValid(p.geom) THEN p.geom ELSE ST_MakeValid(p.geom) END), 3)) AS geom
  FROM usable u
  JOIN cadastre.parcel p ON p.dataset = $1 AND p.state = $2 AND p.geom && u.geom AND ST_Intersects(p.geom, u.geom)
), burdens AS (
  SELECT * FROM parts WHERE NOT ST_IsEmpty(geom) AND ST_Area(geom::geography) >= $8::float8
), rows AS (
  SELECT u.id || '@' || b.parcel_pfi AS id, b.parcel_pfi, u.easement_type, u.width_m, u.plan_number, b.geom
  FROM usable u JOIN burdens b USING (seq)
  UNION ALL
  SELECT u.id, NULL, u.easement_type, u.width_m, u.plan_number, u.geom
  FROM usable u WHERE NOT EXISTS (SELECT 1 FROM burdens b WHERE b.seq = u.seq)
), written AS (
  INSERT INTO land.easement (dataset, id, state, parcel_pfi, easement_type, width_m, plan_number, geom)
  SELECT DISTINCT ON (id) $1::text, id, $2::text, parcel_pfi, easement_type, width_m, plan_number, geom FROM rows
  ORDER BY id
  ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, parcel_pfi = EXCLUDED.parcel_pfi,
    easement_type = EXCLUDED.easement_type, width_m = EXCLUDED.width_m, plan_number = EXCLUDED.plan_number,
    geom = EXCLUDED.geom
  RETURNING 1
), hull AS (
  SELECT ST_AsGeoJSON(ST_ConvexHull(ST_Collect(h.geom)))::text AS hull FROM (
    SELECT geom FROM usable
    UNION ALL SELECT ST_SetSRID(ST_GeomFromGeoJSON($9::text), 4326) WHERE $9::text IS NOT NULL
  ) h
)
SELECT m.seq, (m.validity).valid AS valid, (m.validity).reason AS reason, NOT ST_IsEmpty(m.geom) AS usable,
  coalesce((SELECT array_agg(b.parcel_pfi ORDER BY b.parcel_pfi) FROM burdens b WHERE b.seq = m.seq), '{}') AS parcels,
  (SELECT hull FROM hull) AS hull
FROM mended m ORDER BY m.seq`;

export type EasementBatchOutcome = {
  seq: number;
  valid: boolean;
  reason: string | null;
  usable: boolean;
  parcels: string[];
  hull: string | null;
};

/** Whether the dataset holds any parcel of the state, to say why nothing was linked. */
export const HAS_CADASTRE = `SELECT EXISTS (SELECT 1 FROM cadastre.parcel WHERE dataset = $1 AND state = $2) AS present`;
