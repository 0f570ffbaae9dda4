/**
 * Statements of the soil ingest. $1 is always the dataset and $2 the state; a batch travels as
 * one array per column (see planning-sql.ts).
 */

// As in planning-sql.ts: a valid polygon is kept, an invalid one mended to its polygons only.
const MENDED = `CASE WHEN (validity).valid THEN ST_Multi(raw)
    ELSE ST_Multi(ST_CollectionExtract(ST_MakeValid(raw), 3)) END`;

/**
 * Upserts a batch of soil polygons ($3 the product, $4 its date) and answers per input row
 * whether its geometry was valid, why not, and whether anything usable was left to write; each
 * row also carries the convex hull of the batch's polygons together with $11, the hull of the
 * batches before it, for the coverage of the run.
 */
export const UPSERT_SOIL = `WITH input AS (
  SELECT t.seq, t.id, t.clay, t.depth, t.reactivity, ST_SetSRID(ST_GeomFromGeoJSON(t.geometry), 4326) AS raw
  FROM unnest($5::int[], $6::text[], $7::float8[], $8::float8[], $9::text[], $10::text[])
    AS t(seq, id, clay, depth, reactivity, geometry)
), checked AS (
  SELECT input.*, ST_IsValidDetail(raw) AS validity FROM input
), mended AS (
  SELECT checked.*, ${MENDED} AS geom FROM checked
), written AS (
  INSERT INTO soil.polygon (dataset, id, state, clay_percent, depth_m, reactivity, source, source_date, geom)
  SELECT $1::text, id, $2::text, clay, depth, reactivity, $3::text, $4::date, geom FROM mended WHERE NOT ST_IsEmpty(geom)
  ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, clay_percent = EXCLUDED.clay_percent,
    depth_m = EXCLUDED.depth_m, reactivity = EXCLUDED.reactivity, source = EXCLUDED.source,
    source_date = EXCLUDED.source_date, geom = EXCLUDED.geom
  RETURNING 1
), hull AS (
  SELECT ST_AsGeoJSON(ST_ConvexHull(ST_Collect(h.geom)))::text AS hull FROM (
    SELECT geom FROM mended WHERE NOT ST_IsEmpty(geom)
    UNION ALL SELECT ST_SetSRID(ST_GeomFromGeoJSON($11::text), 4326) WHERE $11::text IS NOT NULL
  ) h
)
SELECT seq, (validity).valid AS valid, (validity).reason AS reason, NOT ST_IsEmpty(geom) AS usable,
  (SELECT hull FROM hull) AS hull
FROM mended ORDER BY seq`;

export type SoilBatchOutcome = {
  seq: number;
  valid: boolean;
  reason: string | null;
  usable: boolean;
  hull: string | null;
};

/**
 * The area the file's polygons span ($3 its name, $4 the hull as GeoJSON), replacing the area
 * of that name: inside it a point no polygon holds is unmapped ("no data"), outside it the
 * source does not reach ("not covered").
 */
export const UPSERT_SOIL_COVERAGE = `INSERT INTO soil.coverage (dataset, state, name, geom)
SELECT $1::text, $2::text, $3::text, ST_Multi(ST_CollectionExtract(ST_SetSRID(ST_GeomFromGeoJSON($4::text), 4326), 3))
ON CONFLICT (dataset, state, name) DO UPDATE SET geom = EXCLUDED.geom
RETURNING name`;

export const ANALYZE_SOIL_TABLES = 'ANALYZE soil.polygon, soil.coverage';
