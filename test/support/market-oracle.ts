/**
 * The market trends statement as it was before the sales rollup (migration 0027): every figure
 * aggregated from market.sale on each call, the G-NAF locality read from address.locality. Kept
 * here, and only here, as the oracle the rolled-up path must equal (test/market-rollup.test.ts,
 * test/ingest-market.test.ts).
 */
import { Prisma } from '../../generated/prisma/client.ts';
import type { Database } from '../../core/db.ts';
import { SUBURB_LOCALITIES, type SuburbLocalityRow } from '../../subgraphs/address/sql.ts';
import {
  decodeSuburbMarket,
  SUBURB_MARKETS,
  type SuburbMarketRow,
  type SuburbMarketWire,
} from '../../subgraphs/market/sql.ts';
import { MIN_SALES_PER_QUARTER } from '../../subgraphs/market/trends.ts';

const SALE_DATE = Prisma.sql`coalesce(s.contract_date, s.settlement_date)`;

export type OracleRow = SuburbMarketRow & { known_locality: boolean };

export const ORACLE_SUBURB_MARKETS = (
  dataset: string,
  states: string[],
  suburbs: string[],
  postcodes: Array<string | null>,
  min: number,
) => Prisma.sql`
  WITH k AS (
    SELECT (u.i - 1)::int AS i, u.state, u.suburb, u.postcode
    FROM unnest(${states}::text[], ${suburbs}::text[], ${postcodes}::text[]) WITH ORDINALITY AS u(state, suburb, postcode, i)
  ), newest AS MATERIALIZED (
    SELECT st.state, (SELECT max(${SALE_DATE}) FROM market.sale s WHERE s.dataset = ${dataset} AND s.state = st.state) AS d
    FROM (SELECT DISTINCT k.state FROM k) st
  ), ends AS (
    SELECT n.state, CASE
      WHEN n.d = (date_trunc('quarter', n.d::timestamp) + interval '3 months' - interval '1 day')::date THEN n.d
      ELSE (date_trunc('quarter', n.d::timestamp) - interval '1 day')::date END AS d
    FROM newest n
  ), kp AS MATERIALIZED (
    SELECT k.i, k.state, k.suburb, e.d AS end_date,
      coalesce(k.postcode,
        (SELECT mode() WITHIN GROUP (ORDER BY s.postcode) FROM market.sale s
         WHERE s.dataset = ${dataset} AND s.state = k.state AND upper(s.locality) = k.suburb AND s.postcode IS NOT NULL),
        (SELECT l.postcode FROM address.locality l
         WHERE l.dataset = ${dataset} AND l.state = k.state AND upper(l.locality_name) = k.suburb AND l.postcode IS NOT NULL
         ORDER BY l.locality_pid LIMIT 1)) AS postcode,
      EXISTS (SELECT 1 FROM address.locality l
        WHERE l.dataset = ${dataset} AND l.state = k.state AND upper(l.locality_name) = k.suburb) AS known_locality
    FROM k LEFT JOIN ends e ON e.state = k.state
  )
  SELECT kp.i, kp.postcode, kp.known_locality, kp.end_date::text AS "end",
    coalesce((
      SELECT json_agg(json_build_object('property_type', q.property_type, 'quarter', q.quarter, 'sales', q.sales,
        'median_price', q.median_price) ORDER BY q.quarter, q.property_type)
      FROM (
        SELECT s.property_type, date_trunc('quarter', ${SALE_DATE}::timestamp)::date::text AS quarter, count(*)::int AS sales,
          CASE WHEN count(*) >= ${min} THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY s.price) END AS median_price
        FROM market.sale s
        WHERE s.dataset = ${dataset} AND s.state = kp.state AND upper(s.locality) = kp.suburb AND ${SALE_DATE} IS NOT NULL
        GROUP BY s.property_type, date_trunc('quarter', ${SALE_DATE}::timestamp)
      ) q
    ), '[]'::json) AS quarters,
    coalesce((
      SELECT json_agg(json_build_object('property_type', w.property_type, 'k', w.k, 'sales', w.sales,
        'median_price', w.median_price) ORDER BY w.property_type, w.k)
      FROM (
        SELECT s.property_type, w.k, count(*)::int AS sales, percentile_cont(0.5) WITHIN GROUP (ORDER BY s.price) AS median_price
        FROM market.sale s
        JOIN (SELECT w.k, (kp.end_date - make_interval(years => w.k + 1))::date AS after,
            (kp.end_date - make_interval(years => w.k))::date AS upto
          FROM unnest(ARRAY[0, 1, 3, 5]) AS w(k) OFFSET 0) w
          ON ${SALE_DATE} > w.after AND ${SALE_DATE} <= w.upto
        WHERE kp.end_date IS NOT NULL AND s.dataset = ${dataset} AND s.state = kp.state AND upper(s.locality) = kp.suburb
        GROUP BY s.property_type, w.k
      ) w
    ), '[]'::json) AS windows,
    coalesce((
      SELECT json_agg(json_build_object('area_kind', r.area_kind, 'dwelling_type', r.dwelling_type,
        'bedrooms', r.bedrooms, 'quarter', r.quarter::text, 'median_weekly_rent', r.median_weekly_rent,
        'new_bonds', r.new_bonds, 'bonds_held', r.bonds_held) ORDER BY r.quarter, r.dwelling_type, r.bedrooms)
      FROM market.rent_bond r
      WHERE r.dataset = ${dataset} AND r.state = kp.state
        AND ((r.area_kind = 'suburb' AND upper(r.area) = kp.suburb) OR (r.area_kind = 'postcode' AND r.area = kp.postcode))
    ), '[]'::json) AS rents,
    coalesce((
      SELECT json_agg(json_build_object('sa2_code', a.sa2_code, 'sa2_name', a.sa2_name, 'quarter', a.quarter,
        'dwelling_type', a.dwelling_type, 'value', a.value) ORDER BY a.sa2_code, a.quarter, a.dwelling_type)
      FROM (
        SELECT a.sa2_code, min(coalesce(a.sa2_name, n.sa2_name)) AS sa2_name,
          date_trunc('quarter', a.period)::date::text AS quarter, a.dwelling_type, sum(a.value)::float8 AS value
        FROM market.building_approval a
        LEFT JOIN market.sa2_name n ON n.dataset = a.dataset AND n.sa2_code = a.sa2_code
        WHERE a.dataset = ${dataset} AND a.state = kp.state AND a.measure = '1' AND a.sector = '9'
          AND (upper(coalesce(a.sa2_name, n.sa2_name)) = kp.suburb
            OR upper(coalesce(a.sa2_name, n.sa2_name)) LIKE kp.suburb || ' - %'
            OR upper(coalesce(a.sa2_name, n.sa2_name)) LIKE kp.suburb || ' (%')
        GROUP BY a.sa2_code, date_trunc('quarter', a.period), a.dwelling_type
      ) a
    ), '[]'::json) AS approvals
  FROM kp ORDER BY kp.i`;

export type MarketKey = { state: string; suburb: string; postcode: string | null };

/** The old statement's rows for a batch of suburbs. */
export function oracleMarkets(db: Database, dataset: string, keys: MarketKey[]): Promise<OracleRow[]> {
  return db.sql<OracleRow>(
    ORACLE_SUBURB_MARKETS(
      dataset,
      keys.map((k) => k.state),
      keys.map((k) => k.suburb),
      keys.map((k) => k.postcode),
      MIN_SALES_PER_QUARTER,
    ),
  );
}

/**
 * The same rows by today's path: the G-NAF locality as the address subgraph gives it
 * (Suburb.gnaf_locality), then the market statement over the rollup with its postcode.
 */
export async function rolledUpMarkets(db: Database, dataset: string, keys: MarketKey[]): Promise<OracleRow[]> {
  const localities = await db.sql<SuburbLocalityRow>(
    SUBURB_LOCALITIES(
      dataset,
      keys.map((k) => k.state),
      keys.map((k) => k.suburb),
    ),
  );
  const wires = await db.sql<SuburbMarketWire>(
    SUBURB_MARKETS(
      dataset,
      keys.map((k) => k.state),
      keys.map((k) => k.suburb),
      keys.map((k) => k.postcode),
      localities.map((l) => l.postcode),
      MIN_SALES_PER_QUARTER,
    ),
  );
  const rows = wires.map(decodeSuburbMarket);
  // in the old row's column order, so the two compare as JSON text too
  return rows.map(({ i, postcode, end, quarters, windows, rents, approvals }) => ({
    i,
    postcode,
    known_locality: localities[i]!.known,
    end,
    quarters,
    windows,
    rents,
    approvals,
  }));
}
