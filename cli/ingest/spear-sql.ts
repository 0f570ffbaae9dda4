/**
 * Statements of the SPEAR ingest. $1 is always the dataset; a batch travels as one array per
 * column, the touched PFIs of a row as one comma-joined text.
 */

/**
 * Upserts a batch keyed by SPEAR reference. A row given only its point touches the VIC parcel
 * under it; a row given only its lots gets a point on its first lot, where the dataset's cadastre
 * holds them. A row is rewritten (and its received_at moved on) only when something but the
 * source's own timestamp differs. The answer lists the written rows.
 */
export const UPSERT_SPEAR = `WITH input AS (
  SELECT * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    $10::date[], $11::date[], $12::text[], $13::text[], $14::text[], $15::timestamptz[], $16::float8[], $17::float8[])
    AS t(seq, spear_reference, application_type, responsible_authority, council_reference, lga_code, status,
      description, lodged_date, decided_date, pfis, address, source_url, updated_at, lng, lat)
), placed AS (
  SELECT i.*, CASE WHEN lng IS NULL OR lat IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lng, lat), 4326) END AS point,
    CASE WHEN pfis = '' THEN '{}'::text[] ELSE string_to_array(pfis, ',') END AS given
  FROM input i
), matched AS (
  SELECT p.*,
    CASE WHEN cardinality(p.given) > 0 THEN p.given
      ELSE coalesce((SELECT ARRAY[c.parcel_pfi] FROM cadastre.parcel c
        WHERE p.point IS NOT NULL AND c.dataset = $1 AND c.state = 'VIC' AND c.geom && p.point
          AND ST_Intersects(c.geom, p.point) ORDER BY c.parcel_pfi LIMIT 1), '{}'::text[]) END AS parcel_pfis,
    coalesce(p.point, (SELECT ST_PointOnSurface(c.geom) FROM cadastre.parcel c
      WHERE c.dataset = $1 AND c.state = 'VIC' AND c.parcel_pfi = p.given[1] LIMIT 1)) AS geom
  FROM placed p
), written AS (
  INSERT INTO development.spear_application AS s (dataset, source, spear_reference, application_type,
    responsible_authority, council_reference, lga_code, status, description, lodged_date, decided_date, parcel_pfis,
    address, source_url, attribution, license, updated_at, received_at, geom)
  -- a reference twice in one file: the later row stands
  SELECT DISTINCT ON (spear_reference) $1::text, 'spear-export', spear_reference, application_type,
    responsible_authority, council_reference, lga_code, status, description, lodged_date, decided_date, parcel_pfis,
    address, source_url, $18::text, $19::text, updated_at, clock_timestamp(), geom
  FROM matched ORDER BY spear_reference, seq DESC
  ON CONFLICT (dataset, spear_reference) DO UPDATE SET
    application_type = EXCLUDED.application_type, responsible_authority = EXCLUDED.responsible_authority,
    council_reference = EXCLUDED.council_reference, lga_code = EXCLUDED.lga_code, status = EXCLUDED.status,
    description = EXCLUDED.description, lodged_date = EXCLUDED.lodged_date, decided_date = EXCLUDED.decided_date,
    parcel_pfis = EXCLUDED.parcel_pfis, address = EXCLUDED.address, source_url = EXCLUDED.source_url,
    attribution = EXCLUDED.attribution, license = EXCLUDED.license, updated_at = EXCLUDED.updated_at,
    received_at = EXCLUDED.received_at, geom = EXCLUDED.geom
  WHERE (s.application_type, s.responsible_authority, s.council_reference, s.lga_code, s.status, s.description,
      s.lodged_date, s.decided_date, s.parcel_pfis, s.address, s.source_url, s.attribution, s.license,
      ST_AsEWKB(s.geom))
    IS DISTINCT FROM (EXCLUDED.application_type, EXCLUDED.responsible_authority, EXCLUDED.council_reference,
      EXCLUDED.lga_code, EXCLUDED.status, EXCLUDED.description, EXCLUDED.lodged_date, EXCLUDED.decided_date,
      EXCLUDED.parcel_pfis, EXCLUDED.address, EXCLUDED.source_url, EXCLUDED.attribution, EXCLUDED.license,
      ST_AsEWKB(EXCLUDED.geom))
  RETURNING (s.xmax = 0) AS inserted, cardinality(s.parcel_pfis) > 0 AS on_lot
)
SELECT inserted, on_lot FROM written`;

export const ANALYZE_SPEAR_TABLES = 'ANALYZE development.spear_application';
