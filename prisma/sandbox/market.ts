/**
 * Synthetic market data for the sandbox, labelled demo: about six years of property sales tied to
 * the sandbox's own addresses and parcels, quarterly median rents and rental bonds per suburb and
 * dwelling type, and monthly building approvals per suburb (the sandbox's SA2-like grouping: one
 * area per suburb, a made-up nine-digit code).
 *
 * Written set-based, after the generator's rows are in (like the land-supply rollup): a few
 * INSERT ... SELECT statements over the sandbox's addresses and localities, each random draw a
 * hash of the seed and the row's identifiers, so the same seed gives the same rows and the seed
 * stays fast (one statement per table, whatever the number of parcels).
 */
import type { QueryFn } from '../../core/db.ts';
import type { SandboxState } from './suburbs.ts';

/** The sandbox's market history: the six years of sales up to the end of its last full quarter. */
export const MARKET_FIRST_DAY = '2019-10-01';
export const MARKET_LAST_DAY = '2025-09-30';
const DAYS = 2191; // MARKET_FIRST_DAY .. MARKET_LAST_DAY inclusive

export const MARKET_MODELLED_ON: Record<
  'market-sales' | 'market-rents' | 'market-approvals',
  Record<SandboxState, string>
> = {
  'market-sales': {
    VIC: 'Valuer-General Victoria property sales',
    NSW: 'NSW Valuer General bulk Property Sales Information',
    QLD: 'Queensland Valuer-General property sales',
  },
  'market-rents': {
    VIC: 'Homes Victoria rental report',
    NSW: 'NSW Fair Trading rental bond data',
    QLD: 'Residential Tenancies Authority bond data',
  },
  'market-approvals': {
    VIC: 'ABS building approvals by SA2',
    NSW: 'ABS building approvals by SA2',
    QLD: 'ABS building approvals by SA2',
  },
};

/** A uniform draw in [0, 1) from the seed and a key: the first 32 bits of an md5. */
const draw = (key: string) => `(('x' || substr(md5($2::text || ':' || ${key}), 1, 8))::bit(32)::bigint / 4294967296.0)`;

/**
 * Prices of a state's house in the sandbox's first quarter (2019-Q4), and the yearly growth its
 * suburbs trend at (each suburb varies both by its own draw).
 */
const STATE_MODEL = `(VALUES ('VIC', 560000.0, 0.035, 0.032), ('NSW', 980000.0, 0.055, 0.027),
  ('QLD', 610000.0, 0.075, 0.041)) AS m(state, house_base, growth, house_yield)`;

const CREDIT = (
  layer: keyof typeof MARKET_MODELLED_ON,
) => `'Landgraph sandbox: synthetic demo data, not real ' || a.state ||
  ' ${layer === 'market-sales' ? 'property sales' : layer === 'market-rents' ? 'rents and bonds' : 'building approvals'} (modelled on ' ||
  CASE a.state ${(['VIC', 'NSW', 'QLD'] as const).map((s) => `WHEN '${s}' THEN '${MARKET_MODELLED_ON[layer][s]}'`).join(' ')} END ||
  ' formats). Do not rely on it.'`;

/** Up to three sales per address over the six years: about one address in three sells once. */
const INSERT_SALES = `
WITH addr AS (
  SELECT d.gnaf_pid, d.state, d.parcel_pfi, d.formatted_address, d.postcode, d.geom, d.flat_type_code,
    l.locality_name, p.area_m2
  FROM address.address_detail d
  JOIN address.locality l ON l.dataset = d.dataset AND l.locality_pid = d.locality_pid
  LEFT JOIN cadastre.parcel p ON p.dataset = d.dataset AND p.state = d.state AND p.parcel_pfi = d.parcel_pfi
  WHERE d.dataset = $1 AND d.parcel_pfi IS NOT NULL AND d.state IN ('VIC', 'NSW', 'QLD')
), draws AS (
  SELECT a.*, k,
    ${draw("a.gnaf_pid || ':' || k || ':sells'")} AS sells,
    ${draw("a.gnaf_pid || ':' || k || ':day'")} AS day_draw,
    ${draw("a.gnaf_pid || ':' || k || ':noise'")} AS noise,
    ${draw("a.gnaf_pid || ':type'")} AS type_draw,
    ${draw("a.locality_name || ':suburb'")} AS suburb_draw,
    ${draw("a.locality_name || ':trend'")} AS trend_draw
  FROM addr a CROSS JOIN generate_series(0, 2) AS k
), sold AS (
  SELECT d.*, (DATE '${MARKET_FIRST_DAY}' + floor(d.day_draw * ${DAYS})::int) AS contract_date,
    CASE WHEN d.flat_type_code IS NOT NULL THEN 'unit' WHEN d.type_draw < 0.07 THEN 'land' ELSE 'house' END AS property_type
  FROM draws d WHERE d.sells < 0.12
)
INSERT INTO market.sale (dataset, source, source_record_id, state, contract_date, settlement_date, price, property_type,
  nature_of_property, primary_purpose, area, area_unit, area_m2, address, locality, postcode, gnaf_pid, parcel_pfi,
  geom, attribution, license)
SELECT $1, 'sandbox', a.gnaf_pid || ':' || a.k, a.state, a.contract_date, a.contract_date + 42,
  round((m.house_base * (0.8 + 0.5 * a.suburb_draw)
    * CASE a.property_type WHEN 'unit' THEN 0.55 WHEN 'land' THEN 0.45 ELSE 1 END
    * CASE WHEN a.property_type = 'unit' OR a.area_m2 IS NULL THEN 1 ELSE power(greatest(least(a.area_m2, 4000), 150) / 600.0, 0.35) END
    * power(1 + m.growth + (a.trend_draw - 0.5) * 0.04, (a.contract_date - DATE '${MARKET_FIRST_DAY}') / 365.25)
    * (0.88 + 0.24 * a.noise)) / 1000) * 1000,
  a.property_type,
  CASE a.property_type WHEN 'land' THEN 'V' ELSE 'R' END,
  CASE a.property_type WHEN 'land' THEN 'VACANT LAND' ELSE 'RESIDENCE' END,
  CASE WHEN a.property_type = 'unit' THEN NULL ELSE round(a.area_m2::numeric, 1)::float8 END,
  CASE WHEN a.property_type = 'unit' THEN NULL ELSE 'm2' END,
  CASE WHEN a.property_type = 'unit' THEN NULL ELSE round(a.area_m2::numeric, 1)::float8 END,
  a.formatted_address, a.locality_name, a.postcode, a.gnaf_pid, a.parcel_pfi, a.geom,
  ${CREDIT('market-sales')}, 'CC BY 4.0'
FROM sold a JOIN ${STATE_MODEL} ON m.state = a.state`;

/**
 * Quarterly rents and bonds per suburb and dwelling type (house, unit): a rent that keeps the
 * state's gross yield near its model, new bonds and bonds held; each dwelling type also split by
 * bedrooms, as the NSW bond lodgements are (houses 2, 3, 4; units 1, 2, 3), each count's rent a
 * step from the type's and its share of the bonds, so `rents_by_bedrooms` has rows to show.
 */
const INSERT_RENTS = `
WITH a AS (
  SELECT l.state, l.locality_name, l.postcode, q.quarter, t.dwelling_type,
    ${draw("l.locality_name || ':suburb'")} AS suburb_draw,
    ${draw("l.locality_name || ':rent:' || t.dwelling_type || ':' || q.quarter")} AS noise,
    ${draw("l.locality_name || ':bonds:' || t.dwelling_type || ':' || q.quarter")} AS bonds_draw
  FROM address.locality l
  CROSS JOIN generate_series(DATE '${MARKET_FIRST_DAY}', DATE '${MARKET_LAST_DAY}', interval '3 months') AS q(quarter)
  CROSS JOIN (VALUES ('house'), ('unit')) AS t(dwelling_type)
  WHERE l.dataset = $1 AND l.state IN ('VIC', 'NSW', 'QLD')
), typed AS (
  SELECT a.*,
    round(m.house_base * (0.8 + 0.5 * a.suburb_draw) * CASE a.dwelling_type WHEN 'unit' THEN 0.55 * 1.3 ELSE 1 END
      * m.house_yield / 52 * power(1 + m.growth * 0.8, (a.quarter::date - DATE '${MARKET_FIRST_DAY}') / 365.25)
      * (0.96 + 0.08 * a.noise) / 5) * 5 AS rent,
    CASE a.dwelling_type WHEN 'unit' THEN 18 ELSE 24 END + floor(a.bonds_draw * 20)::int AS new_bonds
  FROM a JOIN ${STATE_MODEL} ON m.state = a.state
), split AS (
  SELECT t.*, b.bedrooms, b.rent_factor, b.share,
    ${draw("t.locality_name || ':rent:' || t.dwelling_type || ':' || b.bedrooms || ':' || t.quarter")} AS bedroom_noise
  FROM typed t
  JOIN (VALUES ('house', 'all', 1.0, 1.0), ('house', '2', 0.82, 0.25), ('house', '3', 1.0, 0.5), ('house', '4', 1.22, 0.25),
               ('unit', 'all', 1.0, 1.0), ('unit', '1', 0.78, 0.3), ('unit', '2', 1.0, 0.55), ('unit', '3', 1.3, 0.15))
    AS b(dwelling_type, bedrooms, rent_factor, share) ON b.dwelling_type = t.dwelling_type
)
INSERT INTO market.rent_bond (dataset, source, state, area_kind, area, dwelling_type, bedrooms, quarter,
  median_weekly_rent, new_bonds, bonds_held, attribution, license)
SELECT $1, 'sandbox', a.state, 'suburb', a.locality_name, a.dwelling_type, a.bedrooms, a.quarter::date,
  CASE a.bedrooms WHEN 'all' THEN a.rent ELSE round(a.rent * a.rent_factor * (0.97 + 0.06 * a.bedroom_noise) / 5) * 5 END,
  round(a.new_bonds * a.share)::int,
  round(a.new_bonds * 9 * a.share)::int,
  ${CREDIT('market-rents')}, 'CC BY 4.0'
FROM split a`;

/** Monthly approvals per suburb (its SA2-like area) for new houses and other residential. */
const INSERT_APPROVALS = `
WITH a AS (
  SELECT l.state, l.locality_name, p.period, t.building_type, t.dwelling_type,
    CASE l.state WHEN 'NSW' THEN '1' WHEN 'VIC' THEN '2' ELSE '3' END
      || lpad((('x' || substr(md5(l.locality_pid), 1, 8))::bit(32)::bigint % 100000000)::text, 8, '0') AS sa2_code,
    ${draw("l.locality_name || ':approvals:' || t.building_type || ':' || p.period")} AS n_draw,
    ${draw("l.locality_name || ':growth-area'")} AS growth_draw
  FROM address.locality l
  CROSS JOIN generate_series(DATE '${MARKET_FIRST_DAY}', DATE '${MARKET_LAST_DAY}', interval '1 month') AS p(period)
  CROSS JOIN (VALUES ('110', 'house'), ('120', 'unit')) AS t(building_type, dwelling_type)
  WHERE l.dataset = $1 AND l.state IN ('VIC', 'NSW', 'QLD')
)
INSERT INTO market.building_approval (dataset, source, state, sa2_code, sa2_name, period, freq, measure, sector,
  work_type, building_type, dwelling_type, value, attribution, license)
SELECT $1, 'sandbox', a.state, a.sa2_code, initcap(a.locality_name), a.period::date, 'M', '1', '9', 'TOT',
  a.building_type, a.dwelling_type,
  floor(a.n_draw * CASE a.dwelling_type WHEN 'house' THEN 6 + 14 * a.growth_draw ELSE 12 * (1 - a.growth_draw) END),
  ${CREDIT('market-approvals')}, 'CC BY 4.0'
FROM a`;

export const DELETE_MARKET = [
  'DELETE FROM market.sale WHERE dataset = $1',
  'DELETE FROM market.bond_lodgement WHERE dataset = $1',
  'DELETE FROM market.rent_bond WHERE dataset = $1',
  'DELETE FROM market.building_approval WHERE dataset = $1',
];

/** Writes the sandbox's market rows from its addresses and localities (already written in this transaction). */
export async function seedMarketIn(query: QueryFn, dataset: string, seed: number): Promise<void> {
  for (const sql of [INSERT_SALES, INSERT_RENTS, INSERT_APPROVALS]) await query(sql, [dataset, String(seed)]);
}
