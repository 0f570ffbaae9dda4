/**
 * The market's part of the suburb analytics bundle (core/suburb-metrics.ts): for every suburb of a
 * state, median prices with 1/3/5-year growth, median rents and gross yields, new bonds and bonds
 * held, building approvals, as flat metrics, a `market` section and the prices/rents/approvals/bonds
 * series. A handful of set-based statements per state; the per-suburb figures are then the same
 * math as Property.market_trends and /api/suburb-trends (trends.ts), on the state's rows grouped
 * by suburb.
 */
import { Prisma } from '../../generated/prisma/client.ts';
import type { Database } from '../../core/db.ts';
import type {
  SuburbContribution,
  SuburbCredit,
  SuburbMetricsProvider,
  SuburbSeriesPoint,
  SuburbState,
} from '../../core/suburb-metrics.ts';
import { SUBURB_METRIC_NAMES, suburbKey } from '../../core/suburb-metrics.ts';
import type { ApprovalRow, PipelineRow, RentRow } from './sql.ts';
import { NEWEST_SALE } from './sql.ts';
import type { QuarterRow, SuburbMarketModel, WindowRow } from './trends.ts';
import { MIN_SALES_PER_QUARTER, latestFullQuarterEnd, quarterLabel, suburbMarket } from './trends.ts';

const SALE_DATE = Prisma.sql`coalesce(s.contract_date, s.settlement_date)`;

/** Quarterly counts and medians of every suburb of a state, per type. */
const STATE_QUARTERS = (dataset: string, state: string) => Prisma.sql`
  SELECT upper(s.locality) AS suburb, s.property_type, date_trunc('quarter', ${SALE_DATE})::date::text AS quarter,
    count(*)::int AS sales,
    CASE WHEN count(*) >= ${MIN_SALES_PER_QUARTER} THEN percentile_cont(0.5) WITHIN GROUP (ORDER BY s.price) END AS median_price
  FROM market.sale s
  WHERE s.dataset = ${dataset} AND s.state = ${state} AND s.locality IS NOT NULL AND ${SALE_DATE} IS NOT NULL
  GROUP BY upper(s.locality), s.property_type, date_trunc('quarter', ${SALE_DATE})`;

/** The trailing-year windows (k = 0, 1, 3, 5 years back from `end`) of every suburb of a state. */
const STATE_WINDOWS = (dataset: string, state: string, end: string) => Prisma.sql`
  SELECT upper(s.locality) AS suburb, s.property_type, w.k, count(*)::int AS sales,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY s.price) AS median_price
  FROM market.sale s
  JOIN unnest(ARRAY[0, 1, 3, 5]) AS w(k)
    ON ${SALE_DATE} > ${end}::date - make_interval(years => w.k + 1) AND ${SALE_DATE} <= ${end}::date - make_interval(years => w.k)
  WHERE s.dataset = ${dataset} AND s.state = ${state} AND s.locality IS NOT NULL
  GROUP BY upper(s.locality), s.property_type, w.k`;

/** Each suburb's postcode: the one most of its sales carry, else its G-NAF locality's. */
const STATE_POSTCODES = (dataset: string, state: string) => Prisma.sql`
  SELECT suburb, (array_agg(postcode ORDER BY rank))[1] AS postcode FROM (
    SELECT upper(s.locality) AS suburb, mode() WITHIN GROUP (ORDER BY s.postcode) AS postcode, 0 AS rank
    FROM market.sale s WHERE s.dataset = ${dataset} AND s.state = ${state} AND s.locality IS NOT NULL AND s.postcode IS NOT NULL
    GROUP BY upper(s.locality)
    UNION ALL
    SELECT upper(l.locality_name), min(l.postcode), 1 FROM address.locality l
    WHERE l.dataset = ${dataset} AND l.state = ${state} AND l.postcode IS NOT NULL GROUP BY upper(l.locality_name)
  ) p GROUP BY suburb`;

const STATE_RENTS = (dataset: string, state: string) => Prisma.sql`
  SELECT r.area_kind, upper(r.area) AS area, r.dwelling_type, r.bedrooms, r.quarter::text AS quarter, r.median_weekly_rent,
    r.new_bonds, r.bonds_held
  FROM market.rent_bond r WHERE r.dataset = ${dataset} AND r.state = ${state} AND r.bedrooms = 'all'
  ORDER BY r.quarter, r.dwelling_type`;

const STATE_APPROVALS = (dataset: string, state: string) => Prisma.sql`
  SELECT a.sa2_code, min(coalesce(a.sa2_name, n.sa2_name)) AS sa2_name, date_trunc('quarter', a.period)::date::text AS quarter,
    a.dwelling_type, sum(a.value)::float8 AS value
  FROM market.building_approval a
  -- a code-only export is named by the ASGS names table, as SUBURB_MARKETS names it
  LEFT JOIN market.sa2_name n ON n.dataset = a.dataset AND n.sa2_code = a.sa2_code
  WHERE a.dataset = ${dataset} AND a.state = ${state} AND a.measure = '1' AND a.sector = '9'
    AND coalesce(a.sa2_name, n.sa2_name) IS NOT NULL
  GROUP BY a.sa2_code, date_trunc('quarter', a.period), a.dwelling_type
  ORDER BY a.sa2_code, 3, 4`;

/** Every suburb's development applications in assessment and approved, and its land-supply lots and estates. */
const STATE_PIPELINE = (dataset: string, state: string) => Prisma.sql`
  SELECT suburb, sum(das_pending)::int AS das_pending, sum(dwellings_pending)::int AS dwellings_pending,
    sum(das_approved)::int AS das_approved, sum(dwellings_approved)::int AS dwellings_approved,
    sum(lots_available)::int AS lots_available, sum(estates_selling)::int AS estates_selling
  FROM (
    SELECT upper(d.suburb) AS suburb,
      count(*) FILTER (WHERE d.status IN ('lodged', 'under_assessment')) AS das_pending,
      coalesce(sum(d.dwellings_proposed) FILTER (WHERE d.status IN ('lodged', 'under_assessment')), 0) AS dwellings_pending,
      count(*) FILTER (WHERE d.status = 'approved') AS das_approved,
      coalesce(sum(d.dwellings_proposed) FILTER (WHERE d.status = 'approved'), 0) AS dwellings_approved,
      0 AS lots_available, 0 AS estates_selling
    FROM development.application d WHERE d.dataset = ${dataset} AND d.state = ${state} AND d.suburb IS NOT NULL
    GROUP BY upper(d.suburb)
    UNION ALL
    SELECT upper(l.suburb), 0, 0, 0, 0, count(*), 0 FROM supply.lot l
    WHERE l.dataset = ${dataset} AND l.state = ${state} AND l.suburb IS NOT NULL AND l.sales_status = 'available'
    GROUP BY upper(l.suburb)
    UNION ALL
    SELECT upper(e.suburb), 0, 0, 0, 0, 0, count(*) FROM supply.estate e
    WHERE e.dataset = ${dataset} AND e.state = ${state} AND e.suburb IS NOT NULL AND e.status = 'selling'
    GROUP BY upper(e.suburb)
  ) p GROUP BY suburb`;

/** The suburb an SA2 is named for: its name, or the part before " - " or " (" ("Castle Hill - North"). */
export const suburbOfSa2 = (name: string) => suburbKey(name.split(/ - | \(/)[0] ?? name);

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/** The sum of the last four quarters of a series up to (and with) the newest; null without any. */
function trailingYear(points: Array<{ quarter: string; value: number | null }>): number | null {
  const present = points.filter((p) => p.value !== null);
  if (present.length === 0) return null;
  const newest = present
    .map((p) => p.quarter)
    .sort()
    .at(-1)!;
  const from = new Date(`${newest}T00:00:00Z`);
  from.setUTCMonth(from.getUTCMonth() - 9);
  const start = from.toISOString().slice(0, 10);
  return present.filter((p) => p.quarter >= start && p.quarter <= newest).reduce((sum, p) => sum + p.value!, 0);
}

/** The flat metrics, section and series of one suburb's market (exported for the test). */
export function contributionOf(
  market: SuburbMarketModel,
  rents: RentRow[],
  approvals: ApprovalRow[],
  pipeline: PipelineRow | null = null,
): SuburbContribution {
  const N = SUBURB_METRIC_NAMES;
  const type = (t: string) => market.summary.find((s) => s.property_type === t);
  const house = type('house');
  const unit = type('unit');
  // bonds: the 'all' rows where published, else the dwelling types summed
  const byQuarter = new Map<string, { lodged: number | null; held: number | null }>();
  const all = rents.filter((r) => r.dwelling_type === 'all');
  for (const r of all.length > 0 ? all : rents) {
    const q = byQuarter.get(r.quarter) ?? { lodged: null, held: null };
    if (r.new_bonds !== null) q.lodged = (q.lodged ?? 0) + r.new_bonds;
    if (r.bonds_held !== null) q.held = (q.held ?? 0) + r.bonds_held;
    byQuarter.set(r.quarter, q);
  }
  const quarters = [...byQuarter.keys()].sort();
  const approvalQuarters = new Map<string, number>();
  for (const a of approvals) approvalQuarters.set(a.quarter, (approvalQuarters.get(a.quarter) ?? 0) + a.value);
  const bondsHeld =
    quarters
      .map((q) => byQuarter.get(q)!.held)
      .filter((v): v is number => v !== null)
      .at(-1) ?? null;
  const metrics: Record<string, number | null> = {
    [N.medianPriceHouse]: house?.median_price_12m ?? null,
    [N.medianPriceUnit]: unit?.median_price_12m ?? null,
    [N.growth1yHouse]: house?.growth_1y_pct ?? null,
    [N.growth3yHouse]: house?.growth_3y_pct ?? null,
    [N.growth5yHouse]: house?.growth_5y_pct ?? null,
    growth_1y_unit_pct: unit?.growth_1y_pct ?? null,
    growth_3y_unit_pct: unit?.growth_3y_pct ?? null,
    growth_5y_unit_pct: unit?.growth_5y_pct ?? null,
    [N.medianRentHouse]: house?.median_weekly_rent ?? null,
    [N.medianRentUnit]: unit?.median_weekly_rent ?? null,
    [N.grossYieldHouse]: house?.gross_yield_pct ?? null,
    [N.grossYieldUnit]: unit?.gross_yield_pct ?? null,
    sales_12m_house: house ? house.sales_12m : null,
    sales_12m_unit: unit ? unit.sales_12m : null,
    [N.bondLodgements12m]: trailingYear(quarters.map((q) => ({ quarter: q, value: byQuarter.get(q)!.lodged }))),
    bonds_held: bondsHeld,
    [N.buildingApprovals12m]: trailingYear([...approvalQuarters].map(([quarter, value]) => ({ quarter, value }))),
  };
  const prices: SuburbSeriesPoint[] = market.quarters
    .filter((q) => q.sales > 0)
    .map((q) => ({ period: q.period, property_type: q.property_type, value: q.median_price, count: q.sales }));
  const rentSeries: SuburbSeriesPoint[] = market.quarters
    .filter((q) => q.median_weekly_rent !== null)
    .map((q) => ({
      period: q.period,
      property_type: q.property_type,
      value: q.median_weekly_rent,
      count: q.new_bonds,
    }));
  const bonds: SuburbSeriesPoint[] = quarters.map((q) => ({
    period: quarterLabel(q),
    value: byQuarter.get(q)!.lodged,
  }));
  return {
    metrics,
    section: {
      latest_quarter: market.latest_quarter,
      postcode: market.postcode,
      summary: market.summary,
      bonds_held: bondsHeld,
      sa2_code: market.sa2_code,
      sa2_name: market.sa2_name,
      approvals_12m: market.approvals_12m,
      pipeline,
    },
    series: {
      prices,
      rents: rentSeries,
      approvals: market.approvals.map((a) => ({ period: a.period, property_type: a.dwelling_type, value: a.value })),
      bonds,
    },
  };
}

export const marketSuburbMetrics: SuburbMetricsProvider = {
  section: 'market',

  async credits(db: Database, dataset: string, state: SuburbState): Promise<SuburbCredit[]> {
    const rows = await db.query<SuburbCredit & { layer: string; snapshot_id: string }>(
      `SELECT layer, state, attribution, license, snapshot_id FROM public.dataset_source
       WHERE dataset = $1 AND state = $2 AND layer IN ('market-sales', 'market-rents', 'market-approvals') ORDER BY layer`,
      [dataset, state],
    );
    return rows.map((r) => ({
      source: `mirror:${state.toLowerCase()}/${r.layer}@${r.snapshot_id}`,
      attribution: r.attribution,
      license: r.license,
    }));
  },

  async contribute(db: Database, dataset: string, state: SuburbState): Promise<Map<string, SuburbContribution>> {
    const [newest] = await db.sql<{ newest: string | null }>(NEWEST_SALE(dataset, state));
    const end = newest?.newest ? latestFullQuarterEnd(newest.newest) : null;
    const [quarters, windows, postcodes, rents, approvals, pipelines] = await Promise.all([
      db.sql<QuarterRow & { suburb: string }>(STATE_QUARTERS(dataset, state)),
      end ? db.sql<WindowRow & { suburb: string }>(STATE_WINDOWS(dataset, state, end)) : Promise.resolve([]),
      db.sql<{ suburb: string; postcode: string | null }>(STATE_POSTCODES(dataset, state)),
      db.sql<RentRow & { area: string }>(STATE_RENTS(dataset, state)),
      db.sql<ApprovalRow>(STATE_APPROVALS(dataset, state)),
      db.sql<PipelineRow & { suburb: string }>(STATE_PIPELINE(dataset, state)),
    ]);
    const pipelineOf = new Map(pipelines.map((p) => [p.suburb, p] as const));
    const quartersOf = new Map<string, QuarterRow[]>();
    for (const q of quarters) push(quartersOf, q.suburb, q);
    const windowsOf = new Map<string, WindowRow[]>();
    for (const w of windows) push(windowsOf, w.suburb, w);
    const postcodeOf = new Map(postcodes.map((p) => [p.suburb, p.postcode] as const));
    const rentsBySuburb = new Map<string, RentRow[]>();
    const rentsByPostcode = new Map<string, RentRow[]>();
    for (const r of rents) push(r.area_kind === 'suburb' ? rentsBySuburb : rentsByPostcode, suburbKey(r.area), r);
    // an SA2 goes to the suburb it is named for; of several (North, South), the first code's
    const approvalsOf = new Map<string, ApprovalRow[]>();
    for (const a of approvals) {
      const suburb = suburbOfSa2(a.sa2_name ?? '');
      const held = approvalsOf.get(suburb);
      if (!held || held[0]!.sa2_code === a.sa2_code) push(approvalsOf, suburb, a);
    }
    const suburbs = new Set([
      ...quartersOf.keys(),
      ...rentsBySuburb.keys(),
      ...approvalsOf.keys(),
      ...pipelineOf.keys(),
    ]);
    const out = new Map<string, SuburbContribution>();
    for (const suburb of suburbs) {
      const postcode = postcodeOf.get(suburb) ?? null;
      const ownRents = rentsBySuburb.get(suburb) ?? [];
      const suburbRents = ownRents.length > 0 ? ownRents : postcode ? (rentsByPostcode.get(postcode) ?? []) : [];
      const market = suburbMarket({
        state,
        suburb,
        postcode,
        end,
        quarters: (quartersOf.get(suburb) ?? []).sort((a, b) => a.quarter.localeCompare(b.quarter)),
        windows: windowsOf.get(suburb) ?? [],
        rents: suburbRents,
        approvals: approvalsOf.get(suburb) ?? [],
      });
      out.set(
        suburb,
        contributionOf(market, suburbRents, approvalsOf.get(suburb) ?? [], pipelineOf.get(suburb) ?? null),
      );
    }
    return out;
  },
};
