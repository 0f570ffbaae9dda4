/**
 * Statements of the market ingests (NSW property sales, NSW rental bonds, ABS building
 * approvals). $1 is always the dataset; a batch travels as one JSON array of rows.
 */

/**
 * Upserts a batch of sales ($6, JSON rows) of source $2 in state $3 with credit $4/$5, each
 * matched to the parcel its SPI names and to the address on that parcel that best fits its unit
 * and house number; answers, per row, the parcel and address it reached (null: none).
 */
export const UPSERT_SALES = `WITH input AS (
  SELECT * FROM jsonb_to_recordset($6::jsonb) AS t(seq int, source_record_id text, district_code text,
    property_id text, contract_date date, settlement_date date, price float8, property_type text,
    nature_of_property text, primary_purpose text, area float8, area_unit text, area_m2 float8, address text,
    unit_number text, house_number text, locality text, postcode text, zoning text, strata_lot_number text,
    dealing_number text, legal_description text, spi text)
), parcel AS (
  SELECT DISTINCT ON (i.seq) i.seq, p.parcel_pfi, ST_PointOnSurface(p.geom) AS pt
  FROM input i JOIN cadastre.parcel p ON p.dataset = $1 AND p.state = $3 AND p.parcel_spi = i.spi
  ORDER BY i.seq, p.parcel_pfi
), addr AS (
  SELECT DISTINCT ON (i.seq) i.seq, a.gnaf_pid, a.geom
  FROM input i JOIN parcel USING (seq)
  JOIN address.address_detail a ON a.dataset = $1 AND a.state = $3 AND a.parcel_pfi = parcel.parcel_pfi
  ORDER BY i.seq, (a.flat_number::text IS NOT DISTINCT FROM i.unit_number) DESC,
    (a.number_first::text = substring(i.house_number FROM '^[0-9]+')) DESC, a.gnaf_pid
), written AS (
  INSERT INTO market.sale (dataset, source, source_record_id, state, contract_date, settlement_date, price,
    property_type, nature_of_property, primary_purpose, area, area_unit, area_m2, address, locality, postcode, zoning,
    strata_lot_number, dealing_number, legal_description, district_code, property_id, gnaf_pid, parcel_pfi, geom,
    attribution, license, loaded_at)
  SELECT $1, $2, i.source_record_id, $3, i.contract_date, i.settlement_date, i.price, i.property_type,
    i.nature_of_property, i.primary_purpose, i.area, i.area_unit, i.area_m2, i.address, i.locality, i.postcode, i.zoning,
    i.strata_lot_number, i.dealing_number, i.legal_description, i.district_code, i.property_id, addr.gnaf_pid,
    parcel.parcel_pfi, coalesce(addr.geom, parcel.pt), $4, $5, now()
  FROM input i LEFT JOIN parcel USING (seq) LEFT JOIN addr USING (seq)
  ON CONFLICT (dataset, source, source_record_id) DO UPDATE SET contract_date = EXCLUDED.contract_date,
    settlement_date = EXCLUDED.settlement_date, price = EXCLUDED.price, property_type = EXCLUDED.property_type,
    nature_of_property = EXCLUDED.nature_of_property, primary_purpose = EXCLUDED.primary_purpose, area = EXCLUDED.area,
    area_unit = EXCLUDED.area_unit, area_m2 = EXCLUDED.area_m2, address = EXCLUDED.address,
    locality = EXCLUDED.locality, postcode = EXCLUDED.postcode, zoning = EXCLUDED.zoning,
    strata_lot_number = EXCLUDED.strata_lot_number, dealing_number = EXCLUDED.dealing_number,
    legal_description = EXCLUDED.legal_description, district_code = EXCLUDED.district_code,
    property_id = EXCLUDED.property_id, gnaf_pid = EXCLUDED.gnaf_pid, parcel_pfi = EXCLUDED.parcel_pfi,
    geom = EXCLUDED.geom, attribution = EXCLUDED.attribution, license = EXCLUDED.license, loaded_at = now()
  RETURNING 1
)
SELECT i.seq, parcel.parcel_pfi, addr.gnaf_pid, (SELECT count(*) FROM written)::int AS written
FROM input i LEFT JOIN parcel USING (seq) LEFT JOIN addr USING (seq) ORDER BY i.seq`;

/**
 * Sets the address a sale's text matched ($3, JSON rows of source_record_id and gnaf_pid) on sales
 * of source $2 still without one: the address, its parcel where the sale had none, and its point.
 */
export const SET_SALE_ADDRESSES = `UPDATE market.sale s
SET gnaf_pid = a.gnaf_pid, parcel_pfi = coalesce(s.parcel_pfi, a.parcel_pfi), geom = a.geom
FROM jsonb_to_recordset($3::jsonb) AS m(source_record_id text, gnaf_pid text)
JOIN address.address_detail a ON a.dataset = $1 AND a.gnaf_pid = m.gnaf_pid
WHERE s.dataset = $1 AND s.source = $2 AND s.source_record_id = m.source_record_id AND s.gnaf_pid IS NULL`;

/** A file's lodgements are replaced whole: $2 the file's name. */
export const DELETE_LODGEMENTS_OF_FILE = 'DELETE FROM market.bond_lodgement WHERE dataset = $1 AND source_file = $2';

/** A batch of lodgements ($4, JSON rows) of file $2 in state $3. */
export const INSERT_LODGEMENTS = `INSERT INTO market.bond_lodgement (dataset, source_file, line, state, lodgement_date,
  postcode, dwelling_type, bedrooms, weekly_rent)
SELECT $1, $2, t.line, $3, t.lodgement_date, t.postcode, t.dwelling_type, t.bedrooms, t.weekly_rent
FROM jsonb_to_recordset($4::jsonb) AS t(line int, lodgement_date date, postcode text, dwelling_type text,
  bedrooms text, weekly_rent float8)`;

/**
 * Rolls the lodgements of the quarters $4 (first days) of state $3 up into market.rent_bond (source
 * $2, credit $5/$6): per postcode, dwelling type (and 'all') and bedrooms (and 'all'), the number
 * of new bonds and the median weekly rent, a median only from $7 lodgements with a rent up. The
 * quarters' earlier figures are cleared first, so a rerun with fewer lodgements leaves none stale;
 * bonds held (from the holdings files) are kept.
 */
export const ROLLUP_LODGEMENTS = [
  `UPDATE market.rent_bond SET median_weekly_rent = NULL, new_bonds = NULL
   WHERE dataset = $1 AND source = $2 AND state = $3 AND area_kind = 'postcode' AND quarter = ANY($4::date[])`,
  `INSERT INTO market.rent_bond (dataset, source, state, area_kind, area, dwelling_type, bedrooms, quarter,
     median_weekly_rent, new_bonds, attribution, license)
   SELECT $1, $2, $3, 'postcode', l.postcode, coalesce(l.dwelling_type, 'all'), coalesce(l.bedrooms, 'all'),
     date_trunc('quarter', l.lodgement_date)::date,
     CASE WHEN count(l.weekly_rent) >= $7 THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY l.weekly_rent) END,
     count(*)::int, $5, $6
   FROM market.bond_lodgement l
   WHERE l.dataset = $1 AND l.state = $3 AND date_trunc('quarter', l.lodgement_date)::date = ANY($4::date[])
   GROUP BY GROUPING SETS ((l.postcode, date_trunc('quarter', l.lodgement_date), l.dwelling_type, l.bedrooms),
     (l.postcode, date_trunc('quarter', l.lodgement_date), l.dwelling_type),
     (l.postcode, date_trunc('quarter', l.lodgement_date)))
   ON CONFLICT (dataset, state, area_kind, area, dwelling_type, bedrooms, quarter) DO UPDATE
   SET median_weekly_rent = EXCLUDED.median_weekly_rent, new_bonds = EXCLUDED.new_bonds,
     attribution = EXCLUDED.attribution, license = EXCLUDED.license`,
];

/**
 * Bonds held at the end of a month in quarter $4, per postcode, dwelling type and bedrooms ($7,
 * JSON rows), with the 'all' totals: written as the quarter's bonds held (a later month of the
 * quarter replaces an earlier one's).
 */
export const UPSERT_HOLDINGS = `WITH input AS (
  SELECT * FROM jsonb_to_recordset($7::jsonb) AS t(postcode text, dwelling_type text, bedrooms text, bonds_held int)
)
INSERT INTO market.rent_bond (dataset, source, state, area_kind, area, dwelling_type, bedrooms, quarter, bonds_held,
  attribution, license)
SELECT $1, $2, $3, 'postcode', postcode, coalesce(dwelling_type, 'all'), coalesce(bedrooms, 'all'), $4::date,
  sum(bonds_held)::int, $5, $6
FROM input
GROUP BY GROUPING SETS ((postcode, dwelling_type, bedrooms), (postcode, dwelling_type), (postcode))
ON CONFLICT (dataset, state, area_kind, area, dwelling_type, bedrooms, quarter) DO UPDATE
SET bonds_held = EXCLUDED.bonds_held, attribution = EXCLUDED.attribution, license = EXCLUDED.license`;

/** Upserts a batch of ABS observations ($4, JSON rows) of source $2 with credit $3 (attribution) / $5 (licence). */
export const UPSERT_APPROVALS = `INSERT INTO market.building_approval (dataset, source, state, sa2_code, sa2_name, period,
  freq, measure, sector, work_type, building_type, dwelling_type, value, attribution, license)
SELECT $1, $2, t.state, t.sa2_code, t.sa2_name, t.period, t.freq, t.measure, t.sector, t.work_type, t.building_type,
  t.dwelling_type, t.value, $3, $5
FROM jsonb_to_recordset($4::jsonb) AS t(state text, sa2_code text, sa2_name text, period date, freq text, measure text,
  sector text, work_type text, building_type text, dwelling_type text, value float8)
ON CONFLICT (dataset, sa2_code, period, freq, measure, sector, work_type, building_type) DO UPDATE
SET sa2_name = coalesce(EXCLUDED.sa2_name, market.building_approval.sa2_name), value = EXCLUDED.value,
  dwelling_type = EXCLUDED.dwelling_type, state = EXCLUDED.state, attribution = EXCLUDED.attribution,
  license = EXCLUDED.license`;

/** Upserts a batch of SA2 names ($5, JSON rows) of ASGS edition $2 with credit $3/$4. */
export const UPSERT_SA2_NAMES = `INSERT INTO market.sa2_name (dataset, sa2_code, sa2_name, state, asgs_edition, attribution, license)
SELECT $1, t.sa2_code, t.sa2_name, t.state, $2, $3, $4
FROM jsonb_to_recordset($5::jsonb) AS t(sa2_code text, sa2_name text, state text)
ON CONFLICT (dataset, sa2_code) DO UPDATE SET sa2_name = EXCLUDED.sa2_name, state = EXCLUDED.state,
  asgs_edition = EXCLUDED.asgs_edition, attribution = EXCLUDED.attribution, license = EXCLUDED.license`;

export const ANALYZE_MARKET_TABLES =
  'ANALYZE market.sale, market.sale_suburb_quarter, market.sale_suburb, market.sale_state, market.bond_lodgement, market.rent_bond, market.building_approval';
