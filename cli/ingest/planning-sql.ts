/**
 * Statements of the planning ingest. $1 is always the dataset and $2 the state; a batch's rows
 * travel as one array per column and `unnest` turns them back into rows, so a batch costs one
 * round trip whatever its size. Geometry arrives as GeoJSON text in lng/lat.
 */

/** The credit Vicmap Planning's CC BY 4.0 licence asks for, in the words DTP publishes. */
export const VICMAP_PLANNING_ATTRIBUTION =
  'Vicmap Planning © State of Victoria (Department of Transport and Planning), CC BY 4.0';
export const VICMAP_PLANNING_LICENSE = 'CC BY 4.0';

// A valid polygon is kept as it is; an invalid one is mended by ST_MakeValid, whose result can
// hold stray lines and points (collapsed slivers) that a polygon column cannot: only its
// polygons are kept. Nothing left means the feature had no area to begin with.
export const MENDED = `CASE WHEN (validity).valid THEN ST_Multi(raw)
    ELSE ST_Multi(ST_CollectionExtract(ST_MakeValid(raw), 3)) END`;

/**
 * Upserts a batch of zones or overlays and answers, per input row (by `seq`), whether its
 * geometry was valid, why not, and whether anything usable was left to write. ST_IsValidDetail
 * rather than ST_IsValid: the latter raises a NOTICE per invalid shape, the former only answers.
 * A feature lives in one of the two tables: a rerun that sorts it into the other (a --layer
 * given this time) moves it rather than leaving its old row behind.
 */
function upsertPolygons(kind: 'zone' | 'overlay'): string {
  const table = `planning.${kind}`;
  const other = kind === 'zone' ? 'planning.overlay' : 'planning.zone';
  return `WITH input AS (
  SELECT t.seq, t.id, t.scheme_code, t.code, t.description, t.lga_code, t.lga_name,
    ST_SetSRID(ST_GeomFromGeoJSON(t.geometry), 4326) AS raw
  FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
    AS t(seq, id, scheme_code, code, description, lga_code, lga_name, geometry)
), checked AS (
  SELECT input.*, ST_IsValidDetail(raw) AS validity FROM input
), mended AS (
  SELECT checked.*, ${MENDED} AS geom FROM checked
), written AS (
  INSERT INTO ${table} (dataset, id, state, scheme_code, ${kind}_code, ${kind}_description, lga_code, lga_name, geom)
  SELECT $1::text, id, $2::text, scheme_code, code, description, lga_code, lga_name, geom
  FROM mended WHERE NOT ST_IsEmpty(geom)
  ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, scheme_code = EXCLUDED.scheme_code,
    ${kind}_code = EXCLUDED.${kind}_code, ${kind}_description = EXCLUDED.${kind}_description,
    lga_code = EXCLUDED.lga_code, lga_name = EXCLUDED.lga_name, geom = EXCLUDED.geom
  RETURNING 1
), moved AS (
  DELETE FROM ${other} WHERE dataset = $1 AND id IN (SELECT id FROM mended WHERE NOT ST_IsEmpty(geom))
  RETURNING 1
)
SELECT seq, (validity).valid AS valid, (validity).reason AS reason, NOT ST_IsEmpty(geom) AS usable
FROM mended ORDER BY seq`;
}

export const UPSERT_ZONES = upsertPolygons('zone');
export const UPSERT_OVERLAYS = upsertPolygons('overlay');

/** The UGB's batch upsert, answering per row as UPSERT_ZONES does. */
export const UPSERT_UGB = `WITH input AS (
  SELECT t.seq, t.id, t.lga_code, t.lga_name, t.gaic, ST_SetSRID(ST_GeomFromGeoJSON(t.geometry), 4326) AS raw
  FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::bool[], $8::text[])
    AS t(seq, id, lga_code, lga_name, gaic, geometry)
), checked AS (
  SELECT input.*, ST_IsValidDetail(raw) AS validity FROM input
), mended AS (
  SELECT checked.*, ${MENDED} AS geom FROM checked
), written AS (
  INSERT INTO planning.ugb (dataset, id, state, lga_code, lga_name, gaic_applies, geom)
  SELECT $1::text, id, $2::text, lga_code, lga_name, gaic, geom FROM mended WHERE NOT ST_IsEmpty(geom)
  ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, lga_code = EXCLUDED.lga_code,
    lga_name = EXCLUDED.lga_name, gaic_applies = EXCLUDED.gaic_applies, geom = EXCLUDED.geom
  RETURNING 1
)
SELECT seq, (validity).valid AS valid, (validity).reason AS reason, NOT ST_IsEmpty(geom) AS usable
FROM mended ORDER BY seq`;

export type BatchOutcome = { seq: number; valid: boolean; reason: string | null; usable: boolean };

/**
 * One coverage area ($3, its name) as the union of the polygons in $4, replacing the area of
 * that name. Each part is mended before the union, which GEOS refuses on invalid input.
 */
export const UPSERT_COVERAGE_AREA = `WITH parts AS (
  SELECT ST_CollectionExtract(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326)), 3) AS geom
  FROM unnest($4::text[]) AS g
), merged AS (
  SELECT ST_Multi(ST_CollectionExtract(ST_UnaryUnion(ST_Collect(geom)), 3)) AS geom
  FROM parts WHERE NOT ST_IsEmpty(geom)
)
INSERT INTO planning.coverage (dataset, state, name, geom)
SELECT $1::text, $2::text, $3::text, geom FROM merged WHERE geom IS NOT NULL AND NOT ST_IsEmpty(geom)
ON CONFLICT (dataset, state, name) DO UPDATE SET geom = EXCLUDED.geom
RETURNING name`;

/** Zones without an LGA still need an area to fall in; this name keeps them apart from any council's. */
export const UNNAMED_LGA = 'ZONES WITHOUT AN LGA';

/**
 * With no coverage file, where we hold zones is where we cover: each LGA named in $3 (upper
 * case, see coverageName) gets the union of every zone held for it, this run's and earlier
 * runs', replacing its earlier area.
 */
export const COVERAGE_FROM_ZONES = `INSERT INTO planning.coverage (dataset, state, name, geom)
SELECT $1::text, $2::text, area.name, ST_Multi(ST_CollectionExtract(ST_UnaryUnion(ST_Collect(area.geom)), 3))
FROM (
  SELECT upper(COALESCE(z.lga_name, '${UNNAMED_LGA}')) AS name, z.geom FROM planning.zone z
  WHERE z.dataset = $1 AND z.state = $2
) area
WHERE area.name = ANY($3::text[])
GROUP BY area.name
ON CONFLICT (dataset, state, name) DO UPDATE SET geom = EXCLUDED.geom
RETURNING name`;

export const COUNT_COVERAGE_AREAS = `SELECT count(*)::int AS n FROM planning.coverage WHERE dataset = $1 AND state = $2`;

/** The credit and licence every answer from these layers carries (see core/provenance.ts); $3 the layer. */
export const WRITE_DATASET_SOURCE = `INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
VALUES ($1, $3, $2, $4, $5, $6)
ON CONFLICT (dataset, layer, state) DO UPDATE
SET attribution = EXCLUDED.attribution, license = EXCLUDED.license, snapshot_id = EXCLUDED.snapshot_id, loaded_at = now()`;

export const ANALYZE_PLANNING_TABLES = 'ANALYZE planning.zone, planning.overlay, planning.coverage, planning.ugb';
