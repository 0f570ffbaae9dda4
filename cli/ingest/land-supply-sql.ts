/**
 * Statements of the land-supply ingest. $1 is always the dataset; a batch travels as one array
 * per column. A row is rewritten (and its updated_at moved on) only when something differs.
 */

/** Upserts estates keyed by estate_id; the answer lists the written rows. */
export const UPSERT_ESTATES = `INSERT INTO supply.estate AS e (dataset, estate_id, name, developer, state, lga_code,
  lga_name, suburb, status, source, attribution, license, geom)
SELECT DISTINCT ON (estate_id) $1::text, estate_id, name, developer, state, lga_code, lga_name, suburb, status,
  'operator-list', $13::text, $14::text,
  coalesce(CASE WHEN lng IS NULL OR lat IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lng, lat), 4326) END,
    ST_PointOnSurface(ST_SetSRID(ST_GeomFromGeoJSON(outline), 4326)))
FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
  $10::text[], $11::float8[], $12::float8[], $15::text[])
  AS t(seq, estate_id, name, developer, state, lga_code, lga_name, suburb, status, lng, lat, outline)
-- an estate twice in one file: the later row stands
ORDER BY estate_id, seq DESC
ON CONFLICT (dataset, estate_id) DO UPDATE SET name = EXCLUDED.name, developer = EXCLUDED.developer,
  state = EXCLUDED.state, lga_code = EXCLUDED.lga_code, lga_name = EXCLUDED.lga_name, suburb = EXCLUDED.suburb,
  status = EXCLUDED.status, source = EXCLUDED.source, attribution = EXCLUDED.attribution,
  license = EXCLUDED.license, geom = EXCLUDED.geom
WHERE (e.name, e.developer, e.state, e.lga_code, e.lga_name, e.suburb, e.status, e.source, e.attribution,
    e.license, ST_AsEWKB(e.geom))
  IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.developer, EXCLUDED.state, EXCLUDED.lga_code, EXCLUDED.lga_name,
    EXCLUDED.suburb, EXCLUDED.status, EXCLUDED.source, EXCLUDED.attribution, EXCLUDED.license,
    ST_AsEWKB(EXCLUDED.geom))
RETURNING (e.xmax = 0) AS inserted`;

/** The estates of the dataset among the ids given, with their state. */
export const KNOWN_ESTATES = `SELECT estate_id, state FROM supply.estate WHERE dataset = $1 AND estate_id = ANY ($2::text[])`;

/**
 * Upserts lots keyed by lot_id; each takes its state and suburb from its estate, its point from
 * the row or its drawn boundary. `listed_week` is the week it was first loaded and stays.
 */
export const UPSERT_LOTS = `WITH input AS (
  SELECT * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[],
    $9::float8[], $10::float8[], $11::float8[], $12::text[], $13::text[], $14::text[], $15::float8[], $16::float8[],
    $17::text[], $18::text[])
    AS t(seq, lot_id, estate_id, lot_number, sales_status, title_status, asking_price, area_m2, frontage_m, depth_m,
      listing_text, aspect, aspect_source, lng, lat, boundary, frontage_edge)
), placed AS (
  SELECT i.*, e.state, e.suburb,
    CASE WHEN i.boundary IS NULL THEN NULL ELSE ST_SetSRID(ST_GeomFromGeoJSON(i.boundary), 4326) END AS drawn,
    CASE WHEN i.frontage_edge IS NULL THEN NULL ELSE ST_SetSRID(ST_GeomFromGeoJSON(i.frontage_edge), 4326) END AS edge
  FROM input i JOIN supply.estate e ON e.dataset = $1 AND e.estate_id = i.estate_id
)
INSERT INTO supply.lot AS l (dataset, lot_id, estate_id, lot_number, state, suburb, asking_price, area_m2,
  frontage_m, depth_m, title_status, sales_status, aspect, aspect_source, listing_text, listed_week, updated_at, geom,
  boundary, frontage_edge)
SELECT DISTINCT ON (lot_id) $1::text, lot_id, estate_id, lot_number, state, suburb, asking_price, area_m2, frontage_m,
  depth_m, title_status, sales_status, aspect, aspect_source, listing_text, $19::date, clock_timestamp(),
  coalesce(CASE WHEN lng IS NULL OR lat IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lng, lat), 4326) END,
    ST_PointOnSurface(drawn)), drawn, edge
FROM placed ORDER BY lot_id, seq DESC
ON CONFLICT (dataset, lot_id) DO UPDATE SET estate_id = EXCLUDED.estate_id, lot_number = EXCLUDED.lot_number,
  state = EXCLUDED.state, suburb = EXCLUDED.suburb, asking_price = EXCLUDED.asking_price, area_m2 = EXCLUDED.area_m2,
  frontage_m = EXCLUDED.frontage_m, depth_m = EXCLUDED.depth_m, title_status = EXCLUDED.title_status,
  sales_status = EXCLUDED.sales_status, aspect = EXCLUDED.aspect, aspect_source = EXCLUDED.aspect_source,
  listing_text = EXCLUDED.listing_text, updated_at = EXCLUDED.updated_at, geom = EXCLUDED.geom,
  boundary = EXCLUDED.boundary, frontage_edge = EXCLUDED.frontage_edge
WHERE (l.estate_id, l.lot_number, l.state, l.suburb, l.asking_price, l.area_m2, l.frontage_m, l.depth_m,
    l.title_status, l.sales_status, l.aspect, l.aspect_source, l.listing_text, ST_AsEWKB(l.geom),
    ST_AsEWKB(l.boundary), ST_AsEWKB(l.frontage_edge))
  IS DISTINCT FROM (EXCLUDED.estate_id, EXCLUDED.lot_number, EXCLUDED.state, EXCLUDED.suburb, EXCLUDED.asking_price,
    EXCLUDED.area_m2, EXCLUDED.frontage_m, EXCLUDED.depth_m, EXCLUDED.title_status, EXCLUDED.sales_status,
    EXCLUDED.aspect, EXCLUDED.aspect_source, EXCLUDED.listing_text, ST_AsEWKB(EXCLUDED.geom),
    ST_AsEWKB(EXCLUDED.boundary), ST_AsEWKB(EXCLUDED.frontage_edge))
RETURNING (l.xmax = 0) AS inserted`;

/** The week's snapshot of the listed lots (their price and status this week); a rerun replaces it. */
export const WRITE_LOT_SNAPSHOTS = `INSERT INTO supply.lot_snapshot (dataset, lot_id, week, asking_price, sales_status)
SELECT DISTINCT ON (lot_id) $1::text, lot_id, $2::date, asking_price, sales_status
FROM unnest($3::int[], $4::text[], $5::float8[], $6::text[]) AS t(seq, lot_id, asking_price, sales_status)
ORDER BY lot_id, seq DESC
ON CONFLICT (dataset, lot_id, week) DO UPDATE SET asking_price = EXCLUDED.asking_price,
  sales_status = EXCLUDED.sales_status
RETURNING lot_id`;

export const ANALYZE_SUPPLY_TABLES = 'ANALYZE supply.estate, supply.lot, supply.lot_snapshot';
