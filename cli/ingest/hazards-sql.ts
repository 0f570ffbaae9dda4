/**
 * Statements of the hazards ingest, in the planning ingest's manner: $1 the dataset, $2 the
 * state, a batch's rows as one array per column, geometry as GeoJSON text in lng/lat.
 */
import { MENDED } from './planning-sql.ts';

export const EPA_VIC_REGISTER = 'EPA Victoria Priority Sites Register';
export const EPA_VIC_ATTRIBUTION =
  'EPA Victoria Priority Sites Register © State of Victoria (Environment Protection Authority Victoria), CC BY 4.0';

/** A batch of hazard overlays, answering per row as the planning upserts do (see planning-sql.ts). */
export const UPSERT_OVERLAYS = `WITH input AS (
  SELECT t.seq, t.id, t.kind, t.code, t.description, t.severity, t.source_name, t.snapshot_date,
    ST_SetSRID(ST_GeomFromGeoJSON(t.geometry), 4326) AS raw
  FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
    AS t(seq, id, kind, code, description, severity, source_name, snapshot_date, geometry)
), checked AS (
  SELECT input.*, ST_IsValidDetail(raw) AS validity FROM input
), mended AS (
  SELECT checked.*, ${MENDED} AS geom FROM checked
), written AS (
  INSERT INTO hazards.overlay (dataset, id, state, kind, code, description, severity, source_name, snapshot_date, geom)
  SELECT $1::text, id, $2::text, kind, code, description, severity, source_name, snapshot_date::date, geom
  FROM mended WHERE NOT ST_IsEmpty(geom)
  ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, kind = EXCLUDED.kind, code = EXCLUDED.code,
    description = EXCLUDED.description, severity = EXCLUDED.severity, source_name = EXCLUDED.source_name,
    snapshot_date = EXCLUDED.snapshot_date, geom = EXCLUDED.geom
  RETURNING 1
)
SELECT seq, (validity).valid AS valid, (validity).reason AS reason, NOT ST_IsEmpty(geom) AS usable
FROM mended ORDER BY seq`;

/**
 * Classified vegetation for the BAL from overlays this run wrote ($3 their ids, $4 each one's
 * AS 3959 class): the overlay's mended geometry, under the overlay's id with ':vegetation', so
 * a rerun replaces it. Answers one row per polygon written.
 */
export const UPSERT_VEGETATION_FROM_OVERLAYS = `INSERT INTO hazards.vegetation (dataset, id, state, vegetation_class, geom)
SELECT o.dataset, o.id || ':vegetation', $2::text, v.vegetation_class, o.geom
FROM unnest($3::text[], $4::text[]) AS v(id, vegetation_class)
JOIN hazards.overlay o ON o.dataset = $1::text AND o.id = v.id
ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, vegetation_class = EXCLUDED.vegetation_class,
  geom = EXCLUDED.geom
RETURNING 1`;

/** Register sites, one point each, replacing the row of the same id. */
export const UPSERT_SITES = `INSERT INTO hazards.contamination_site (dataset, id, state, name, status, register, snapshot_date, geom)
SELECT $1::text, t.id, $2::text, t.name, t.status, t.register, t.snapshot_date::date, ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326)
FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[], $9::float8[])
  AS t(id, name, status, register, snapshot_date, lng, lat)
ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, name = EXCLUDED.name, status = EXCLUDED.status,
  register = EXCLUDED.register, snapshot_date = EXCLUDED.snapshot_date, geom = EXCLUDED.geom`;

/**
 * One coverage area ($4, its name, dated $5) for each hazard kind in $3, as the union of the
 * polygons in $6 (a --coverage file), replacing the area of that name and kind.
 */
export const COVERAGE_FROM_POLYGONS = `WITH parts AS (
  SELECT ST_CollectionExtract(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(g), 4326)), 3) AS geom
  FROM unnest($6::text[]) AS g
), merged AS (
  SELECT ST_Multi(ST_CollectionExtract(ST_UnaryUnion(ST_Collect(geom)), 3)) AS geom
  FROM parts WHERE NOT ST_IsEmpty(geom)
)
INSERT INTO hazards.coverage (dataset, state, kind, name, snapshot_date, geom)
SELECT $1::text, $2::text, k.kind, $4::text, $5::date, merged.geom
FROM merged, unnest($3::text[]) AS k(kind)
WHERE merged.geom IS NOT NULL AND NOT ST_IsEmpty(merged.geom)
ON CONFLICT (dataset, state, kind, name) DO UPDATE SET snapshot_date = EXCLUDED.snapshot_date, geom = EXCLUDED.geom
RETURNING name`;

/**
 * Without a coverage file, an LGA's overlays cover ($4, the LGA's name upper case): the area of
 * that name a planning ingest of the same dataset holds (the council's boundary) where there
 * is one, else the bounding box of this run's overlays of that LGA (ids in $6). Answers where
 * the area came from.
 */
export const COVERAGE_FROM_OVERLAYS = `WITH area AS (
  SELECT COALESCE(
    (SELECT ST_Multi(ST_CollectionExtract(pc.geom, 3)) FROM planning.coverage pc
     WHERE pc.dataset = $1 AND pc.state = $2 AND pc.name = $4),
    (SELECT ST_Multi(ST_Envelope(ST_Collect(o.geom))) FROM hazards.overlay o
     WHERE o.dataset = $1 AND o.id = ANY($6::text[]))
  ) AS geom,
  EXISTS (SELECT 1 FROM planning.coverage pc WHERE pc.dataset = $1 AND pc.state = $2 AND pc.name = $4) AS planning
)
INSERT INTO hazards.coverage (dataset, state, kind, name, snapshot_date, geom)
SELECT $1::text, $2::text, k.kind, $4::text, $5::date, area.geom
FROM area, unnest($3::text[]) AS k(kind)
WHERE area.geom IS NOT NULL
ON CONFLICT (dataset, state, kind, name) DO UPDATE SET snapshot_date = EXCLUDED.snapshot_date, geom = EXCLUDED.geom
RETURNING name, (SELECT planning FROM area) AS planning`;

/**
 * Without a coverage file, a register covers the box around its sites ($6 ids), widened by
 * 0.002° (about the 200 m a site counts as evidence), so a lone site still has an area.
 */
export const COVERAGE_FROM_SITES = `WITH area AS (
  SELECT ST_Multi(ST_Envelope(ST_Expand(ST_Collect(s.geom), 0.002))) AS geom
  FROM hazards.contamination_site s WHERE s.dataset = $1 AND s.id = ANY($6::text[])
)
INSERT INTO hazards.coverage (dataset, state, kind, name, snapshot_date, geom)
SELECT $1::text, $2::text, k.kind, $4::text, $5::date, area.geom
FROM area, unnest($3::text[]) AS k(kind)
WHERE area.geom IS NOT NULL
ON CONFLICT (dataset, state, kind, name) DO UPDATE SET snapshot_date = EXCLUDED.snapshot_date, geom = EXCLUDED.geom
RETURNING name`;

/**
 * The hazards layer has one credit row per state, and its sources differ (Vicmap Planning for
 * the overlays, the EPA for the register): each load adds its credit and licence to the row
 * unless already there, so loading one source never drops the other's.
 */
export const WRITE_HAZARDS_SOURCE = `INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
VALUES ($1, 'hazards', $2, $3, $4, $5)
ON CONFLICT (dataset, layer, state) DO UPDATE SET
  attribution = CASE WHEN position(EXCLUDED.attribution IN dataset_source.attribution) > 0 THEN dataset_source.attribution
    ELSE dataset_source.attribution || '; ' || EXCLUDED.attribution END,
  license = CASE WHEN position(EXCLUDED.license IN dataset_source.license) > 0 THEN dataset_source.license
    ELSE dataset_source.license || '; ' || EXCLUDED.license END,
  snapshot_id = EXCLUDED.snapshot_id, loaded_at = now()`;

export const COUNT_COVERAGE = `SELECT kind, count(*)::int AS n FROM hazards.coverage WHERE dataset = $1 AND state = $2 GROUP BY kind ORDER BY kind`;

export const ANALYZE_HAZARDS_TABLES =
  'ANALYZE hazards.overlay, hazards.contamination_site, hazards.vegetation, hazards.coverage';
