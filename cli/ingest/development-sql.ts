/**
 * Statements of the development-application ingest. $1 is always the dataset; a batch travels
 * as one array per column (see planning-sql.ts).
 */

/**
 * The one lock every writer of development.application takes before it writes: writers run one
 * at a time, and each stamps received_at after taking it, so a row not yet committed is always
 * newer than every committed one and the feed's keyset never passes a row a reader cannot see
 * yet. Transaction-scoped; the sandbox load uses 727275 and migrations 727274.
 */
export const LOCK_DEVELOPMENT_WRITES = 'SELECT pg_advisory_xact_lock(727276)';

const COLUMNS = `source, authority, council_reference, state, lga_code, lga_name, suburb, address, description, category,
  status, lodged_date, decided_date, estimated_cost, dwellings_proposed, source_url, attribution, license, updated_at,
  lng, lat`;

/**
 * Upserts a batch keyed by (source, authority, council reference): the parcel and address under
 * each application's point are matched where the cadastre and G-NAF of the dataset hold them, and
 * fill its LGA and suburb where the source gives none. A row is rewritten, and its received_at
 * moved on, only when something but the source's own timestamp differs: a republication of the
 * same record is not a change. The answer lists the written rows (inserted or updated) and, per
 * input row, the parcel matched.
 */
export const UPSERT_APPLICATIONS = `WITH input AS (
  SELECT * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    $10::text[], $11::text[], $12::text[], $13::text[], $14::date[], $15::date[], $16::float8[], $17::int4[], $18::text[],
    $19::text[], $20::text[], $21::timestamptz[], $22::float8[], $23::float8[])
    AS t(seq, ${COLUMNS})
), placed AS (
  SELECT input.*, CASE WHEN lng IS NULL OR lat IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint(lng, lat), 4326) END AS geom
  FROM input
), matched AS (
  SELECT p.*, parcel.parcel_pfi, addr.gnaf_pid, addr.locality_name, addr.lga_code AS matched_lga_code,
    addr.lga_name AS matched_lga_name
  FROM placed p
  LEFT JOIN LATERAL (
    SELECT c.parcel_pfi FROM cadastre.parcel c
    WHERE p.geom IS NOT NULL AND c.dataset = $1 AND c.state = p.state AND c.geom && p.geom AND ST_Intersects(c.geom, p.geom)
    ORDER BY c.parcel_pfi LIMIT 1
  ) parcel ON true
  LEFT JOIN LATERAL (
    SELECT a.gnaf_pid, l.locality_name, l.lga_code, l.lga_name
    FROM address.address_detail a JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
    WHERE parcel.parcel_pfi IS NOT NULL AND a.dataset = $1 AND a.state = p.state AND a.parcel_pfi = parcel.parcel_pfi
    ORDER BY a.geom <-> p.geom, a.gnaf_pid LIMIT 1
  ) addr ON true
), written AS (
  INSERT INTO development.application AS d (dataset, source, authority, council_reference, state, lga_code, lga_name,
    suburb, address, gnaf_pid, parcel_pfi, description, category, status, lodged_date, decided_date, estimated_cost,
    dwellings_proposed, source_url, attribution, license, updated_at, received_at, geom)
  -- a record twice in one batch: the later one in the file stands
  SELECT DISTINCT ON (source, authority, council_reference) $1::text, source, authority, council_reference, state,
    coalesce(lga_code, matched_lga_code), coalesce(lga_name, matched_lga_name), coalesce(suburb, locality_name),
    address, gnaf_pid, parcel_pfi, description, category, status, lodged_date, decided_date, estimated_cost,
    dwellings_proposed, source_url, attribution, license, updated_at, clock_timestamp(), geom
  FROM matched ORDER BY source, authority, council_reference, seq DESC
  ON CONFLICT (dataset, source, authority, council_reference) DO UPDATE SET
    state = EXCLUDED.state, lga_code = EXCLUDED.lga_code, lga_name = EXCLUDED.lga_name, suburb = EXCLUDED.suburb,
    address = EXCLUDED.address, gnaf_pid = EXCLUDED.gnaf_pid, parcel_pfi = EXCLUDED.parcel_pfi,
    description = EXCLUDED.description, category = EXCLUDED.category, status = EXCLUDED.status,
    lodged_date = EXCLUDED.lodged_date, decided_date = EXCLUDED.decided_date, estimated_cost = EXCLUDED.estimated_cost,
    dwellings_proposed = EXCLUDED.dwellings_proposed, source_url = EXCLUDED.source_url,
    attribution = EXCLUDED.attribution, license = EXCLUDED.license, updated_at = EXCLUDED.updated_at,
    received_at = EXCLUDED.received_at, geom = EXCLUDED.geom
  WHERE (d.state, d.lga_code, d.lga_name, d.suburb, d.address, d.gnaf_pid, d.parcel_pfi, d.description, d.category,
      d.status, d.lodged_date, d.decided_date, d.estimated_cost, d.dwellings_proposed, d.source_url, d.attribution,
      d.license, ST_AsEWKB(d.geom))
    IS DISTINCT FROM (EXCLUDED.state, EXCLUDED.lga_code, EXCLUDED.lga_name, EXCLUDED.suburb, EXCLUDED.address,
      EXCLUDED.gnaf_pid, EXCLUDED.parcel_pfi, EXCLUDED.description, EXCLUDED.category, EXCLUDED.status,
      EXCLUDED.lodged_date, EXCLUDED.decided_date, EXCLUDED.estimated_cost, EXCLUDED.dwellings_proposed,
      EXCLUDED.source_url, EXCLUDED.attribution, EXCLUDED.license, ST_AsEWKB(EXCLUDED.geom))
  RETURNING d.source, d.authority, d.council_reference, (d.xmax = 0) AS inserted, d.state, d.lga_code, d.status,
    d.updated_at, ST_X(d.geom) AS lng, ST_Y(d.geom) AS lat
)
SELECT 'written' AS kind, w.source, w.authority, w.council_reference, w.inserted, NULL::text AS parcel_pfi, NULL::int AS seq,
  w.state, w.lga_code, w.status, w.updated_at, w.lng, w.lat
FROM written w
UNION ALL
SELECT 'input', NULL, NULL, NULL, NULL, m.parcel_pfi, m.seq, NULL, NULL, NULL, NULL, NULL, NULL FROM matched m`;

export type UpsertOutcome = {
  kind: 'written' | 'input';
  source: string | null;
  authority: string | null;
  council_reference: string | null;
  inserted: boolean | null;
  parcel_pfi: string | null;
  seq: number | null;
  /** Of a written row: what development_application.updated says of it (platform/webhooks). */
  state: string | null;
  lga_code: string | null;
  status: string | null;
  updated_at: Date | string | null;
  lng: number | null;
  lat: number | null;
};

export const ANALYZE_DEVELOPMENT_TABLES = 'ANALYZE development.application';
