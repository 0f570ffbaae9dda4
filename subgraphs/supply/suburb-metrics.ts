/**
 * The land-supply layer's part of the suburb bundle (spec 2.10, the supply pipeline): the
 * suburb's estates (selling, coming soon, sold out), its lots as last listed (available, under
 * offer, sold) with the median asking price of the available ones, and from the weekly rollup
 * (core/land-supply.ts) the lots newly listed and sold or delisted over the latest 13 weeks.
 */
import type { Database } from '../../core/db.ts';
import type {
  SuburbContribution,
  SuburbCredit,
  SuburbMetricsProvider,
  SuburbState,
} from '../../core/suburb-metrics.ts';

const RECENT_WEEKS = 13;

export const SUBURB_SUPPLY = `
WITH estates AS (
  SELECT upper(btrim(e.suburb)) AS suburb,
    count(*)::int AS estates,
    count(*) FILTER (WHERE e.status = 'selling')::int AS selling,
    count(*) FILTER (WHERE e.status = 'coming_soon')::int AS coming_soon,
    count(*) FILTER (WHERE e.status = 'sold_out')::int AS sold_out
  FROM supply.estate e
  WHERE e.dataset = $1 AND e.state = $2 AND e.suburb IS NOT NULL
  GROUP BY 1
), lots AS (
  SELECT upper(btrim(e.suburb)) AS suburb,
    count(*) FILTER (WHERE l.sales_status = 'available')::int AS available,
    count(*) FILTER (WHERE l.sales_status = 'under_offer')::int AS under_offer,
    count(*) FILTER (WHERE l.sales_status = 'sold')::int AS sold,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY l.asking_price) FILTER (WHERE l.sales_status = 'available') AS median_price,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY l.area_m2) FILTER (WHERE l.sales_status = 'available') AS median_area
  FROM supply.lot l JOIN supply.estate e ON e.dataset = l.dataset AND e.estate_id = l.estate_id
  WHERE l.dataset = $1 AND e.state = $2 AND e.suburb IS NOT NULL
  GROUP BY 1
), latest AS (
  SELECT max(week) AS week FROM supply.weekly_rollup WHERE dataset = $1 AND level = 'state' AND state = $2
), recent AS (
  SELECT upper(btrim(r.suburb)) AS suburb, sum(r.new_lots)::int AS new_lots, sum(r.sold_or_delisted_lots)::int AS gone_lots,
    min(r.week)::text AS from_week, max(r.week)::text AS to_week
  FROM supply.weekly_rollup r CROSS JOIN latest
  WHERE r.dataset = $1 AND r.level = 'suburb' AND r.state = $2
    AND r.week > latest.week - ${RECENT_WEEKS * 7} AND r.week <= latest.week
  GROUP BY 1
)
SELECT e.suburb, e.estates, e.selling, e.coming_soon, e.sold_out,
  coalesce(l.available, 0) AS available, coalesce(l.under_offer, 0) AS under_offer, coalesce(l.sold, 0) AS sold,
  l.median_price, l.median_area, r.new_lots, r.gone_lots, (SELECT week::text FROM latest) AS latest_week
FROM estates e LEFT JOIN lots l ON l.suburb = e.suburb LEFT JOIN recent r ON r.suburb = e.suburb`;

const CREDITS = `SELECT attribution, license FROM public.dataset_source WHERE dataset = $1 AND layer = 'land-supply' AND state = $2`;

type Row = {
  suburb: string;
  estates: number;
  selling: number;
  coming_soon: number;
  sold_out: number;
  available: number;
  under_offer: number;
  sold: number;
  median_price: number | null;
  median_area: number | null;
  new_lots: number | null;
  gone_lots: number | null;
  latest_week: string | null;
};

const rounded = (value: number | null) => (value === null ? null : Math.round(Number(value)));

export const supplySuburbMetrics: SuburbMetricsProvider = {
  section: 'supply',

  async credits(db: Database, dataset: string, state: SuburbState): Promise<SuburbCredit[]> {
    const rows = await db.query<{ attribution: string; license: string }>(CREDITS, [dataset, state]);
    return rows.map((r) => ({ source: 'land-supply', ...r }));
  },

  async contribute(db: Database, dataset: string, state: SuburbState): Promise<Map<string, SuburbContribution>> {
    const rows = await db.query<Row>(SUBURB_SUPPLY, [dataset, state]);
    const out = new Map<string, SuburbContribution>();
    for (const r of rows) {
      const rolled = r.latest_week !== null && r.new_lots !== null;
      out.set(r.suburb, {
        metrics: {
          supply_estates_selling: r.selling,
          supply_available_lots: r.available,
          supply_median_lot_price: rounded(r.median_price),
          supply_new_lots_13w: rolled ? r.new_lots : null,
          supply_sold_or_delisted_lots_13w: rolled ? r.gone_lots : null,
        },
        section: {
          estates: { total: r.estates, selling: r.selling, coming_soon: r.coming_soon, sold_out: r.sold_out },
          lots_now: {
            available: r.available,
            under_offer: r.under_offer,
            sold: r.sold,
            median_asking_price: rounded(r.median_price),
            median_area_m2: rounded(r.median_area),
          },
          recent: rolled
            ? { weeks: RECENT_WEEKS, to_week: r.latest_week, new_lots: r.new_lots, sold_or_delisted_lots: r.gone_lots }
            : null,
        },
      });
    }
    return out;
  },
};
