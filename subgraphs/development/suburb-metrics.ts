/**
 * The development layer's part of the suburb bundle (spec 2.10): development-application
 * activity over the last 12 months, by status and category, a monthly series of lodgements and
 * the median days from lodgement to decision.
 *
 * "The last 12 months" are the 12 calendar months to the latest lodgement the state's record
 * holds: from the first of the month 11 months before its month. They end there, not at the clock, so
 * a record loaded once gives the same figures tomorrow and the sandbox's do not age away; for a
 * live record refreshed daily that is today. An application counts in the window by its lodged
 * date; its suburb is the one the publisher names (development.application.suburb).
 */
import type { Database } from '../../core/db.ts';
import type {
  SuburbContribution,
  SuburbCredit,
  SuburbMetricsProvider,
  SuburbState,
} from '../../core/suburb-metrics.ts';

const WINDOW_MONTHS = 12;
const DECIDED = `('approved', 'refused', 'determined')`;

/** One GROUPING SETS pass: per suburb, per suburb and status, per suburb and category, per suburb and month. */
export const SUBURB_DA_ACTIVITY = `
WITH anchor AS (
  SELECT max(lodged_date) AS day FROM development.application WHERE dataset = $1 AND state = $2
), apps AS (
  SELECT upper(btrim(a.suburb)) AS suburb, a.status, a.category, to_char(a.lodged_date, 'YYYY-MM') AS month,
    a.dwellings_proposed,
    CASE WHEN a.status IN ${DECIDED} AND a.decided_date IS NOT NULL AND a.decided_date >= a.lodged_date
      THEN (a.decided_date - a.lodged_date) END AS decision_days
  FROM development.application a CROSS JOIN anchor
  WHERE a.dataset = $1 AND a.state = $2 AND a.suburb IS NOT NULL AND btrim(a.suburb) <> ''
    AND a.lodged_date >= date_trunc('month', anchor.day) - make_interval(months => ${WINDOW_MONTHS - 1})
    AND a.lodged_date <= anchor.day
)
SELECT suburb, status, category, month,
  GROUPING(status) AS no_status, GROUPING(category) AS no_category, GROUPING(month) AS no_month,
  count(*)::int AS n,
  coalesce(sum(dwellings_proposed), 0)::int AS dwellings,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY decision_days) AS median_decision_days,
  count(decision_days)::int AS decided,
  (SELECT to_char(day, 'YYYY-MM-DD') FROM anchor) AS anchor
FROM apps
GROUP BY GROUPING SETS ((suburb), (suburb, status), (suburb, category), (suburb, month))`;

const CREDITS = `SELECT attribution, license FROM public.dataset_source
  WHERE dataset = $1 AND layer = 'development-applications' AND state = $2`;

type Row = {
  suburb: string;
  status: string | null;
  category: string | null;
  month: string | null;
  no_status: number;
  no_category: number;
  no_month: number;
  n: number;
  dwellings: number;
  median_decision_days: number | null;
  decided: number;
  anchor: string;
};

/** The `WINDOW_MONTHS` months (YYYY-MM) ending with the anchor's, oldest first. */
export function windowMonths(anchor: string): string[] {
  const [y, m] = anchor.split('-').map(Number) as [number, number];
  return Array.from({ length: WINDOW_MONTHS }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (WINDOW_MONTHS - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
}

export const developmentSuburbMetrics: SuburbMetricsProvider = {
  section: 'development',

  async credits(db: Database, dataset: string, state: SuburbState): Promise<SuburbCredit[]> {
    const rows = await db.query<{ attribution: string; license: string }>(CREDITS, [dataset, state]);
    return rows.map((r) => ({ source: 'development-applications', ...r }));
  },

  async contribute(db: Database, dataset: string, state: SuburbState): Promise<Map<string, SuburbContribution>> {
    const rows = await db.query<Row>(SUBURB_DA_ACTIVITY, [dataset, state]);
    type Acc = {
      total?: Row;
      status: Record<string, number>;
      category: Record<string, number>;
      month: Map<string, number>;
    };
    const bySuburb = new Map<string, Acc>();
    for (const row of rows) {
      let acc = bySuburb.get(row.suburb);
      if (!acc) bySuburb.set(row.suburb, (acc = { status: {}, category: {}, month: new Map() }));
      if (row.no_status === 0) acc.status[row.status!] = row.n;
      else if (row.no_category === 0) acc.category[row.category!] = row.n;
      else if (row.no_month === 0) acc.month.set(row.month!, row.n);
      else acc.total = row;
    }
    const out = new Map<string, SuburbContribution>();
    for (const [suburb, acc] of bySuburb) {
      const total = acc.total!;
      const median =
        total.median_decision_days === null ? null : Math.round(Number(total.median_decision_days) * 10) / 10;
      const months = windowMonths(total.anchor.slice(0, 7));
      const from = `${months[0]}-01`;
      out.set(suburb, {
        metrics: {
          da_lodged_12m: total.n,
          da_approved_12m: acc.status.approved ?? 0,
          da_refused_12m: acc.status.refused ?? 0,
          da_dwellings_proposed_12m: total.dwellings,
          da_subdivisions_12m: acc.category.subdivision ?? 0,
          da_median_decision_days: median,
        },
        section: {
          window: { months: WINDOW_MONTHS, from, to: total.anchor, anchored_on: 'the latest lodgement in the state' },
          lodged: total.n,
          by_status: acc.status,
          by_category: acc.category,
          dwellings_proposed: total.dwellings,
          decided: total.decided,
          median_decision_days: median,
          monthly: months.map((month) => ({ month, lodged: acc.month.get(month) ?? 0 })),
        },
      });
    }
    return out;
  },
};
