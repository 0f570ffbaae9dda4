/**
 * Statements of the land ingests (building footprints, land values). $1 is always the dataset
 * and $2 the state; a batch travels as one array per column (see planning-sql.ts).
 */

// As in planning-sql.ts: a valid polygon is kept, an invalid one mended to its polygons only.
const MENDED = `CASE WHEN (validity).valid THEN ST_Multi(raw)
    ELSE ST_Multi(ST_CollectionExtract(ST_MakeValid(raw), 3)) END`;

/**
 * Upserts a batch of footprints ($3 their source, osm or state) and answers per input row
 * whether its geometry was valid, why not, and whether anything usable was left to write;
 * each row also carries the convex hull of the batch's footprints together with $9, the hull
 * of the batches before it, so the run knows the area it spans without keeping every id.
 */
export const UPSERT_BUILDINGS = `WITH input AS (
  SELECT t.seq, t.id, t.height_m, t.storeys, ST_SetSRID(ST_GeomFromGeoJSON(t.geometry), 4326) AS raw
  FROM unnest($4::int[], $5::text[], $6::float8[], $7::int[], $8::text[]) AS t(seq, id, height_m, storeys, geometry)
), checked AS (
  SELECT input.*, ST_IsValidDetail(raw) AS validity FROM input
), mended AS (
  SELECT checked.*, ${MENDED} AS geom FROM checked
), written AS (
  INSERT INTO land.building_footprint (dataset, id, state, source, height_m, storeys, geom)
  SELECT $1::text, id, $2::text, $3::text, height_m, storeys, geom FROM mended WHERE NOT ST_IsEmpty(geom)
  ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, source = EXCLUDED.source,
    height_m = EXCLUDED.height_m, storeys = EXCLUDED.storeys, geom = EXCLUDED.geom
  RETURNING 1
), hull AS (
  SELECT ST_AsGeoJSON(ST_ConvexHull(ST_Collect(h.geom)))::text AS hull FROM (
    SELECT geom FROM mended WHERE NOT ST_IsEmpty(geom)
    UNION ALL SELECT ST_SetSRID(ST_GeomFromGeoJSON($9::text), 4326) WHERE $9::text IS NOT NULL
  ) h
)
SELECT seq, (validity).valid AS valid, (validity).reason AS reason, NOT ST_IsEmpty(geom) AS usable,
  (SELECT hull FROM hull) AS hull
FROM mended ORDER BY seq`;

export type BuildingBatchOutcome = {
  seq: number;
  valid: boolean;
  reason: string | null;
  usable: boolean;
  hull: string | null;
};

/**
 * A layer's coverage area ($3 the layer, $4 its name) at the snapshot date $5, replacing the
 * area of that name. $6 is a hull, point or line as GeoJSON; it is widened by $7 metres so a
 * footprint on its edge (or a file of one building) still covers the land it stands on.
 */
export const UPSERT_LAND_COVERAGE = `INSERT INTO land.coverage (dataset, layer, state, name, snapshot_date, geom)
SELECT $1::text, $3::text, $2::text, $4::text, $5::date,
  ST_Multi(ST_CollectionExtract(ST_Buffer(ST_SetSRID(ST_GeomFromGeoJSON($6::text), 4326)::geography, $7::float8)::geometry, 3))
ON CONFLICT (dataset, layer, state, name) DO UPDATE SET snapshot_date = EXCLUDED.snapshot_date, geom = EXCLUDED.geom
RETURNING name`;

/** The credit of a layer as it stands, so a second source's load adds its credit rather than replacing the first's. */
export const READ_DATASET_SOURCE = `SELECT attribution, license FROM public.dataset_source
WHERE dataset = $1 AND state = $2 AND layer = $3`;

/**
 * Land values of a batch of valuer-general rows, each linked to the parcel whose SPI ($5) the
 * row's lot/plan gives, in the same dataset and state. Rows whose lot is not in the cadastre
 * are not written; the answer says, per input row, which parcel it reached (null: none).
 */
export const UPSERT_LAND_VALUES = `WITH input AS (
  SELECT t.seq, t.spi, t.site_value, t.base_date
  FROM unnest($4::int[], $5::text[], $6::float8[], $7::date[]) AS t(seq, spi, site_value, base_date)
), linked AS (
  SELECT DISTINCT ON (input.seq) input.*, p.parcel_pfi
  FROM input JOIN cadastre.parcel p ON p.dataset = $1 AND p.state = $2 AND p.parcel_spi = input.spi
  ORDER BY input.seq, p.parcel_pfi
), written AS (
  INSERT INTO land.land_value (dataset, state, parcel_pfi, site_value, capital_improved_value, base_date, valuer)
  SELECT DISTINCT ON (parcel_pfi) $1::text, $2::text, parcel_pfi, site_value, NULL, base_date, $3::text
  FROM linked ORDER BY parcel_pfi, seq DESC
  ON CONFLICT (dataset, state, parcel_pfi) DO UPDATE SET site_value = EXCLUDED.site_value,
    capital_improved_value = EXCLUDED.capital_improved_value, base_date = EXCLUDED.base_date, valuer = EXCLUDED.valuer
  RETURNING 1
)
SELECT input.seq, linked.parcel_pfi FROM input LEFT JOIN linked USING (seq) ORDER BY input.seq`;

/**
 * The hull of the parcels a district's values reached ($3 their PFIs) together with $4, the
 * district's hull so far, for that district's coverage.
 */
export const HULL_OF_PARCELS = `SELECT ST_AsGeoJSON(ST_ConvexHull(ST_Collect(h.geom)))::text AS hull FROM (
  SELECT geom FROM cadastre.parcel WHERE dataset = $1 AND state = $2 AND parcel_pfi = ANY($3::text[])
  UNION ALL SELECT ST_SetSRID(ST_GeomFromGeoJSON($4::text), 4326) WHERE $4::text IS NOT NULL
) h`;

export const ANALYZE_LAND_TABLES = 'ANALYZE land.building_footprint, land.land_value, land.coverage';
