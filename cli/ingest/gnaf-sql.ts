/**
 * The set-based steps after a state's files are in, the bookkeeping of a resumable ingest, and
 * the reads the loader needs. $1 is always the dataset and $2 the state abbreviation.
 */

/** The words the credit must carry wherever G-NAF data is shown (the Open G-NAF EULA's own). */
export const GNAF_ATTRIBUTION =
  'Incorporates or developed using G-NAF © Geoscape Australia licensed by the Commonwealth of Australia under the Open Geo-coded National Address File (G-NAF) End User Licence Agreement.';
export const GNAF_LICENSE = 'Open G-NAF EULA (CC BY 4.0 based)';

export const COMPLETED_FILES = 'SELECT file FROM address.ingest_progress WHERE dataset = $1 AND release = $2';

export const MARK_FILE_COMPLETE = `INSERT INTO address.ingest_progress (dataset, release, file, rows) VALUES ($1, $2, $3, $4)
ON CONFLICT (dataset, release, file) DO UPDATE SET rows = EXCLUDED.rows, finished_at = now()`;

export const AUTHORITY_NAMES = 'SELECT authority, code, name FROM address.authority_code';

export const COUNT_STREET_TYPES = `SELECT count(*)::int AS n FROM address.authority_code WHERE authority = 'STREET_TYPE'`;

/** The state's streets and localities, held in memory while its addresses stream past. */
export const STATE_STREETS = `SELECT s.street_locality_pid, s.street_name, s.street_type_code, s.street_suffix_code
FROM address.street_locality s
JOIN address.locality l ON l.dataset = s.dataset AND l.locality_pid = s.locality_pid
WHERE s.dataset = $1 AND l.state = $2`;

export const STATE_LOCALITIES =
  'SELECT locality_pid, locality_name, state FROM address.locality WHERE dataset = $1 AND state = $2';

/**
 * The default geocode beside each address, where every lookup reads it. G-NAF gives an address
 * one default geocode; IS DISTINCT FROM leaves unchanged rows unwritten on a rerun.
 */
export const COPY_DEFAULT_GEOCODES = `UPDATE address.address_detail a
SET geom = g.geom, geocode_type = g.geocode_type_code
FROM address.address_default_geocode g
WHERE a.dataset = $1 AND a.state = $2 AND g.dataset = a.dataset AND g.address_detail_pid = a.gnaf_pid
  AND (a.geom IS DISTINCT FROM g.geom OR a.geocode_type IS DISTINCT FROM g.geocode_type_code)`;

/** A locality G-NAF gives no PRIMARY_POSTCODE takes the postcode most of its addresses carry. */
export const FILL_LOCALITY_POSTCODES = `UPDATE address.locality l
SET postcode = common.postcode
FROM (
  SELECT DISTINCT ON (locality_pid) locality_pid, postcode
  FROM address.address_detail
  WHERE dataset = $1 AND state = $2 AND postcode IS NOT NULL
  GROUP BY locality_pid, postcode
  ORDER BY locality_pid, count(*) DESC, postcode
) common
WHERE l.dataset = $1 AND l.state = $2 AND l.locality_pid = common.locality_pid AND l.postcode IS NULL`;

/**
 * Each address on the parcel of the same dataset and state that contains its point. Street,
 * locality and gap geocodes (STL, LOC, GG) sit in the road or at a centroid, not on the
 * address's land, so they link to nothing. The lowest PFI wins on a shared boundary, so the
 * link is stable from run to run.
 */
export const LINK_PARCELS = `UPDATE address.address_detail a
SET parcel_pfi = link.parcel_pfi
FROM (
  SELECT d.gnaf_pid,
    CASE WHEN d.geom IS NULL OR d.geocode_type IN ('STL', 'LOC', 'GG') THEN NULL ELSE (
      SELECT p.parcel_pfi FROM cadastre.parcel p
      WHERE p.dataset = d.dataset AND p.state = d.state AND ST_Intersects(p.geom, d.geom)
      ORDER BY p.parcel_pfi LIMIT 1) END AS parcel_pfi
  FROM address.address_detail d
  WHERE d.dataset = $1 AND d.state = $2
) link
WHERE a.dataset = $1 AND a.gnaf_pid = link.gnaf_pid AND a.parcel_pfi IS DISTINCT FROM link.parcel_pfi`;

export const COUNT_LINKED = `SELECT count(*)::int AS addresses, count(parcel_pfi)::int AS linked
FROM address.address_detail WHERE dataset = $1 AND state = $2`;

/** The credit and licence every answer from these addresses carries (see core/provenance.ts). */
export const WRITE_DATASET_SOURCE = `INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
VALUES ($1, 'address', $2, $3, $4, $5)
ON CONFLICT (dataset, layer, state) DO UPDATE
SET attribution = EXCLUDED.attribution, license = EXCLUDED.license, snapshot_id = EXCLUDED.snapshot_id, loaded_at = now()`;

export const ANALYZE_ADDRESS_TABLES = `ANALYZE address.authority_code, address.state, address.locality, address.locality_alias,
  address.street_locality, address.street_locality_alias, address.address_detail, address.address_default_geocode,
  address.address_alias`;
