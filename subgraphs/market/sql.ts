import { Prisma } from '../../generated/prisma/client.ts';

/** The market layers as dataset_source names them. */
export type MarketLayerName = 'market-sales' | 'market-rents' | 'market-approvals';

export type SaleRow = {
  id: string;
  state: string;
  contract_date: string | null;
  settlement_date: string | null;
  price: number;
  property_type: string;
  nature_of_property: string | null;
  primary_purpose: string | null;
  area: number | null;
  area_unit: string | null;
  area_m2: number | null;
  address: string | null;
  locality: string | null;
  postcode: string | null;
  zoning: string | null;
  strata_lot_number: string | null;
  dealing_number: string | null;
  legal_description: string | null;
  gnaf_pid: string | null;
  parcel_pfi: string | null;
  location: { lat: number; lng: number } | null;
  distance_m: number | null;
  attribution: string;
  license: string;
};

export type ComparableRow = SaleRow & {
  score: number;
  distance_score: number;
  recency_score: number;
  size_score: number;
};

/** The date a sale is dated by: its contract date, else (archive records) its settlement date. */
const SALE_DATE = Prisma.sql`coalesce(s.contract_date, s.settlement_date)`;

const SALE_COLUMNS = Prisma.sql`s.source || ':' || s.source_record_id AS id, s.state,
  s.contract_date::text AS contract_date, s.settlement_date::text AS settlement_date, s.price, s.property_type,
  s.nature_of_property, s.primary_purpose, s.area, s.area_unit, s.area_m2, s.address, s.locality, s.postcode,
  s.zoning, s.strata_lot_number, s.dealing_number, s.legal_description, s.gnaf_pid, s.parcel_pfi,
  CASE WHEN s.geom IS NULL THEN NULL ELSE json_build_object('lat', ST_Y(s.geom), 'lng', ST_X(s.geom)) END AS location,
  s.attribution, s.license`;

export type SalesFilter =
  | { kind: 'near'; lng: number; lat: number; radius_m: number; state: string | null }
  | { kind: 'parcel'; state: string; parcel_pfi: string }
  | { kind: 'address'; gnaf_pid: string };

const point = (lng: number, lat: number) => Prisma.sql`ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326)`;

/** Sales of a place (a circle, a parcel or an address), newest first, one past the limit so the caller knows it was reached. */
export function SALES(
  dataset: string,
  where: SalesFilter,
  since: string | null,
  until: string | null,
  propertyType: string | null,
  limit: number,
) {
  const place =
    where.kind === 'near'
      ? Prisma.sql`s.geom IS NOT NULL AND ST_DWithin(s.geom::geography, ${point(where.lng, where.lat)}::geography, ${where.radius_m})
          ${where.state ? Prisma.sql`AND s.state = ${where.state}` : Prisma.empty}`
      : where.kind === 'parcel'
        ? Prisma.sql`s.state = ${where.state} AND s.parcel_pfi = ${where.parcel_pfi}`
        : Prisma.sql`s.gnaf_pid = ${where.gnaf_pid}`;
  const distance =
    where.kind === 'near'
      ? Prisma.sql`ST_Distance(s.geom::geography, ${point(where.lng, where.lat)}::geography)`
      : Prisma.sql`NULL::float8`;
  return Prisma.sql`
    SELECT ${SALE_COLUMNS}, ${distance} AS distance_m FROM market.sale s
    WHERE s.dataset = ${dataset} AND ${place}
      ${since ? Prisma.sql`AND ${SALE_DATE} >= ${since}::date` : Prisma.empty}
      ${until ? Prisma.sql`AND ${SALE_DATE} <= ${until}::date` : Prisma.empty}
      ${propertyType ? Prisma.sql`AND s.property_type = ${propertyType}` : Prisma.empty}
    ORDER BY ${SALE_DATE} DESC NULLS LAST, s.source_record_id
    LIMIT ${limit + 1}`;
}

/** The sales of one property of a batch (SALES_OF_PROPERTIES), by the index of its key. */
export type PropertySalesRow = { i: number; sales: Array<Omit<SaleRow, 'distance_m'> & { distance_m: null }> };

/**
 * The sales of every property of a batch in one statement: those matched to its parcel (state and
 * parcel_pfi) or to its address (gnaf_pid), newest first, at most one past its limit (so the
 * caller knows it was reached). A sale matched to both is listed once.
 */
export const SALES_OF_PROPERTIES = (
  dataset: string,
  states: string[],
  pfis: Array<string | null>,
  gnafPids: Array<string | null>,
  limits: number[],
) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, coalesce((
    SELECT json_agg(x.sale ORDER BY x.n)
    FROM (
      SELECT json_build_object('id', s.source || ':' || s.source_record_id, 'state', s.state,
          'contract_date', s.contract_date::text, 'settlement_date', s.settlement_date::text, 'price', s.price,
          'property_type', s.property_type, 'nature_of_property', s.nature_of_property,
          'primary_purpose', s.primary_purpose, 'area', s.area, 'area_unit', s.area_unit, 'area_m2', s.area_m2,
          'address', s.address, 'locality', s.locality, 'postcode', s.postcode, 'zoning', s.zoning,
          'strata_lot_number', s.strata_lot_number, 'dealing_number', s.dealing_number,
          'legal_description', s.legal_description, 'gnaf_pid', s.gnaf_pid, 'parcel_pfi', s.parcel_pfi,
          'location', CASE WHEN s.geom IS NULL THEN NULL ELSE json_build_object('lat', ST_Y(s.geom), 'lng', ST_X(s.geom)) END,
          'distance_m', NULL, 'attribution', s.attribution, 'license', s.license) AS sale,
        row_number() OVER (ORDER BY ${SALE_DATE} DESC NULLS LAST, s.source_record_id) AS n
      FROM market.sale s
      WHERE s.dataset = ${dataset}
        AND ((k.pfi IS NOT NULL AND s.state = k.state AND s.parcel_pfi = k.pfi) OR (k.gnaf IS NOT NULL AND s.gnaf_pid = k.gnaf))
      ORDER BY n
      LIMIT k.lim + 1
    ) x
  ), '[]'::json) AS sales
  FROM unnest(${states}::text[], ${pfis}::text[], ${gnafPids}::text[], ${limits}::int[])
    WITH ORDINALITY AS k(state, pfi, gnaf, lim, i)
  ORDER BY k.i`;

/** The newest sale of a parcel: the type and size a comparable search compares by default. */
export const LAST_SALE_OF_PARCEL = (dataset: string, state: string, pfi: string) => Prisma.sql`
  SELECT s.property_type, s.area_m2 FROM market.sale s
  WHERE s.dataset = ${dataset} AND s.state = ${state} AND s.parcel_pfi = ${pfi}
  ORDER BY ${SALE_DATE} DESC NULLS LAST LIMIT 1`;

/** The newest sale date of a state's data: recency and the latest full quarter are measured from it. */
export const NEWEST_SALE = (dataset: string, state: string) => Prisma.sql`
  SELECT max(${SALE_DATE})::text AS newest FROM market.sale s WHERE s.dataset = ${dataset} AND s.state = ${state}`;

/**
 * Sales of one type within radius_m of a point and `months` of asOf, other than the subject
 * parcel's own, scored (see ComparableSale in schema.graphql) and ranked best first.
 */
export const COMPARABLES = (
  dataset: string,
  state: string,
  lng: number,
  lat: number,
  propertyType: string,
  areaM2: number | null,
  radiusM: number,
  months: number,
  asOf: string,
  excludePfi: string | null,
  limit: number,
) => Prisma.sql`
  WITH c AS (
    SELECT ${SALE_COLUMNS}, ST_Distance(s.geom::geography, ${point(lng, lat)}::geography) AS distance_m,
      (${asOf}::date - ${SALE_DATE}) / 30.4375 AS months_ago
    FROM market.sale s
    WHERE s.dataset = ${dataset} AND s.state = ${state} AND s.property_type = ${propertyType} AND s.geom IS NOT NULL
      AND ST_DWithin(s.geom::geography, ${point(lng, lat)}::geography, ${radiusM})
      AND ${SALE_DATE} > (${asOf}::date - make_interval(months => ${months}::int)) AND ${SALE_DATE} <= ${asOf}::date
      ${excludePfi ? Prisma.sql`AND s.parcel_pfi IS DISTINCT FROM ${excludePfi}` : Prisma.empty}
  ), scored AS (
    SELECT c.*, greatest(0, 1 - c.distance_m / ${radiusM}::float8) AS distance_score,
      greatest(0, 1 - c.months_ago / ${months}::float8) AS recency_score,
      CASE WHEN c.area_m2 IS NULL OR ${areaM2}::float8 IS NULL THEN 0.5
        ELSE least(c.area_m2, ${areaM2}::float8) / greatest(c.area_m2, ${areaM2}::float8) END AS size_score
    FROM c
  )
  SELECT scored.*, 0.5 * distance_score + 0.3 * recency_score + 0.2 * size_score AS score
  FROM scored ORDER BY score DESC, distance_m, id LIMIT ${limit}`;

export type RentRow = {
  area_kind: 'suburb' | 'postcode';
  dwelling_type: string;
  /** The bedroom count as published ('0' a bedsit), 'unknown', or 'all' (every count). */
  bedrooms: string;
  quarter: string;
  median_weekly_rent: number | null;
  new_bonds: number | null;
  bonds_held: number | null;
};

export type ApprovalRow = {
  sa2_code: string;
  sa2_name: string | null;
  quarter: string;
  dwelling_type: string;
  value: number;
};

/** One suburb's rows of SUBURB_MARKETS, by the index of its key, as decodeSuburbMarket gives them. */
export type SuburbMarketRow = {
  i: number;
  /** The caller's postcode, else the one most of its sales carry, else its G-NAF locality's. */
  postcode: string | null;
  /** The end of the state's latest full quarter (YYYY-MM-DD); null when the state holds no dated sale. */
  end: string | null;
  quarters: Array<{ property_type: string; quarter: string; sales: number; median_price: number | null }>;
  windows: Array<{ property_type: string; k: number; sales: number; median_price: number | null }>;
  rents: RentRow[];
  approvals: ApprovalRow[];
};

/**
 * A row of SUBURB_MARKETS as the statement sends it: each series item a JSON array of its columns
 * (in the order decodeSuburbMarket reads them) rather than an object. A suburb carries a few
 * hundred rent rows; naming every column of every row cost PostgreSQL about a third more to build
 * and the facade more to parse (docs/benchmarks.md).
 */
export type SuburbMarketWire = {
  i: number;
  postcode: string | null;
  end: string | null;
  quarters: Array<[string, string, number, number | null]>;
  windows: Array<[string, number, number, number | null]>;
  rents: Array<[RentRow['area_kind'], string, string, string, number | null, number | null, number | null]>;
  approvals: Array<[string, string | null, string, string, number]>;
};

/** A SUBURB_MARKETS row with its series as objects. */
export function decodeSuburbMarket(wire: SuburbMarketWire): SuburbMarketRow {
  return {
    i: wire.i,
    postcode: wire.postcode,
    end: wire.end,
    quarters: wire.quarters.map(([property_type, quarter, sales, median_price]) => ({
      property_type,
      quarter,
      sales,
      median_price,
    })),
    windows: wire.windows.map(([property_type, k, sales, median_price]) => ({ property_type, k, sales, median_price })),
    rents: wire.rents.map(
      ([area_kind, dwelling_type, bedrooms, quarter, median_weekly_rent, new_bonds, bonds_held]) => ({
        area_kind,
        dwelling_type,
        bedrooms,
        quarter,
        median_weekly_rent,
        new_bonds,
        bonds_held,
      }),
    ),
    approvals: wire.approvals.map(([sa2_code, sa2_name, quarter, dwelling_type, value]) => ({
      sa2_code,
      sa2_name,
      quarter,
      dwelling_type,
      value,
    })),
  };
}

/**
 * The approvals of the SA2s a suburb names, as the export named them (`named`) or, where it carried
 * only the code, as market.sa2_name names it: the name is the suburb's, or starts with it and
 * " - " or " (". The two prefixes are ranges of the name in byte order (COLLATE "C"), so each is
 * a range of the name index (migration 0031) in a generic plan too, where a LIKE of a parameter
 * would read every row of the state.
 */
const namesSuburb = (name: Prisma.Sql) => Prisma.sql`(upper(${name}) COLLATE "C" = kp.suburb
  OR (upper(${name}) COLLATE "C" >= kp.suburb || ' - ' AND upper(${name}) COLLATE "C" < kp.suburb || ' -!')
  OR (upper(${name}) COLLATE "C" >= kp.suburb || ' (' AND upper(${name}) COLLATE "C" < kp.suburb || ' )'))`;

/**
 * Everything the market trends of a batch of suburbs are built from, in one statement, one row
 * per key (state, suburb as suburbKey has it, the caller's postcode or null, the postcode of its
 * G-NAF locality as the address subgraph gave it, or null), by its index. The sales figures come
 * from their rollup (migration 0027: market.sale_suburb_quarter, sale_suburb, sale_state, kept by
 * the writers' own transactions), not from the sales:
 * - the postcode: the caller's, else the one most of the suburb's sales carry, else its G-NAF locality's;
 * - the end of the state's latest full quarter: the newest sale date of the state where it is the
 *   last day of its quarter, else the day before its quarter (trends.ts latestFullQuarterEnd);
 * - quarterly sale counts and medians per type (a median only from `min` sales up);
 * - trailing-year windows per type: k = 0 is the year to the end, k = 1, 3, 5 the same four
 *   quarters k years earlier: each the rollup's year to the quarter that ends k years before the end;
 * - quarterly rents and bonds per dwelling type and bedroom count ('all' rows the totals), by the
 *   suburb's name or its postcode;
 * - dwelling units approved in the suburb's SA2 (the SA2 whose name is the suburb's or starts with
 *   it, "Castle Hill - North"; the name the export carried, else the ASGS name of its code from
 *   market.sa2_name), dwelling units (measure 1), all sectors, summed per quarter.
 * (kp is MATERIALIZED: each suburb's postcode and end worked out once, not again in every subquery.)
 */
export const SUBURB_MARKETS = (
  dataset: string,
  states: string[],
  suburbs: string[],
  postcodes: Array<string | null>,
  localityPostcodes: Array<string | null>,
  min: number,
) => Prisma.sql`
  WITH k AS (
    SELECT (u.i - 1)::int AS i, u.state, u.suburb, u.postcode, u.locality_postcode
    FROM unnest(${states}::text[], ${suburbs}::text[], ${postcodes}::text[], ${localityPostcodes}::text[])
      WITH ORDINALITY AS u(state, suburb, postcode, locality_postcode, i)
  ), ends AS (
    SELECT st.state, CASE
      WHEN n.newest = (date_trunc('quarter', n.newest::timestamp) + interval '3 months' - interval '1 day')::date THEN n.newest
      ELSE (date_trunc('quarter', n.newest::timestamp) - interval '1 day')::date END AS d
    FROM (SELECT DISTINCT k.state FROM k) st
    LEFT JOIN market.sale_state n ON n.dataset = ${dataset} AND n.state = st.state
  ), kp AS MATERIALIZED (
    SELECT k.i, k.state, k.suburb, e.d AS end_date, date_trunc('quarter', e.d::timestamp)::date AS end_quarter,
      coalesce(k.postcode,
        (SELECT p.postcode FROM market.sale_suburb p
         WHERE p.dataset = ${dataset} AND p.state = k.state AND p.suburb = k.suburb),
        k.locality_postcode) AS postcode
    FROM k LEFT JOIN ends e ON e.state = k.state
  )
  SELECT kp.i, kp.postcode, kp.end_date::text AS "end",
    coalesce((
      SELECT json_agg(json_build_array(q.property_type, q.quarter::text, q.sales,
        CASE WHEN q.sales >= ${min}::int THEN q.median_price END) ORDER BY q.quarter, q.property_type)
      FROM market.sale_suburb_quarter q
      WHERE q.dataset = ${dataset} AND q.state = kp.state AND q.suburb = kp.suburb AND q.sales > 0
    ), '[]'::json) AS quarters,
    coalesce((
      SELECT json_agg(json_build_array(q.property_type, w.k, q.year_sales, q.year_median_price)
        ORDER BY q.property_type, w.k)
      FROM unnest(ARRAY[0, 1, 3, 5]) AS w(k)
      JOIN market.sale_suburb_quarter q ON q.dataset = ${dataset} AND q.state = kp.state AND q.suburb = kp.suburb
        AND q.quarter = (kp.end_quarter - make_interval(years => w.k))::date
    ), '[]'::json) AS windows,
    coalesce((
      SELECT json_agg(json_build_array(r.area_kind, r.dwelling_type, r.bedrooms, r.quarter::text,
        r.median_weekly_rent, r.new_bonds, r.bonds_held) ORDER BY r.quarter, r.dwelling_type, r.bedrooms)
      FROM market.rent_bond r
      WHERE r.dataset = ${dataset} AND r.state = kp.state
        AND ((r.area_kind = 'suburb' AND upper(r.area) = kp.suburb) OR (r.area_kind = 'postcode' AND r.area = kp.postcode))
    ), '[]'::json) AS rents,
    coalesce((
      SELECT json_agg(json_build_array(a.sa2_code, a.sa2_name, a.quarter, a.dwelling_type, a.value)
        ORDER BY a.sa2_code, a.quarter, a.dwelling_type)
      FROM (
        SELECT m.sa2_code, min(m.sa2_name) AS sa2_name, date_trunc('quarter', m.period)::date::text AS quarter,
          m.dwelling_type, sum(m.value)::float8 AS value
        FROM (
          SELECT a.sa2_code, a.sa2_name, a.period, a.dwelling_type, a.value, a.measure, a.sector
          FROM market.building_approval a
          WHERE a.dataset = ${dataset} AND a.state = kp.state AND ${namesSuburb(Prisma.sql`a.sa2_name`)}
          UNION ALL
          SELECT a.sa2_code, n.sa2_name, a.period, a.dwelling_type, a.value, a.measure, a.sector
          FROM market.sa2_name n
          JOIN market.building_approval a ON a.dataset = n.dataset AND a.sa2_code = n.sa2_code
          WHERE n.dataset = ${dataset} AND n.state = kp.state AND ${namesSuburb(Prisma.sql`n.sa2_name`)}
            AND a.state = kp.state AND a.sa2_name IS NULL
        ) m
        WHERE m.measure = '1' AND m.sector = '9'
        GROUP BY m.sa2_code, date_trunc('quarter', m.period), m.dwelling_type
      ) a
    ), '[]'::json) AS approvals
  FROM kp ORDER BY kp.i`;

/**
 * A suburb's supply pipeline: the development subgraph's application counts and the supply
 * subgraph's lot counts (Suburb.supply_pipeline reads them through the graph; the analytics
 * rollup counts them per state itself).
 */
export type PipelineRow = {
  das_pending: number;
  dwellings_pending: number;
  das_approved: number;
  dwellings_approved: number;
  lots_available: number;
  estates_selling: number;
};
