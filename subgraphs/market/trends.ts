/**
 * The market trends math (docs/p8-notes-market.md):
 * - a quarter's median price needs MIN_SALES_PER_QUARTER sales, a trailing year's MIN_SALES_PER_YEAR;
 *   below, the median is null and a note says why;
 * - growth over 1/3/5 years compares the trailing-year median (the four quarters to the latest
 *   full quarter) with the median of the same four quarters 1, 3 or 5 years earlier: the total
 *   change in per cent, not annualised;
 * - gross yield = median weekly rent of the latest full quarter * 52 / trailing-year median price * 100,
 *   a house's price against a house's rent, a unit's against a unit's;
 * - the latest full quarter is the newest quarter that ends on or before the newest sale date of the state's data.
 */
import type { ApprovalRow, RentRow } from './sql.ts';

export const MIN_SALES_PER_QUARTER = 5;
export const MIN_SALES_PER_YEAR = 10;
export const GROWTH_YEARS = [1, 3, 5] as const;

/** The dwelling type of the rents a sale type's yield is taken against (land has no rent). */
export const RENT_DWELLING: Record<string, string | undefined> = { house: 'house', unit: 'unit' };

/** 2025-07-01 → 2025-Q3. Sliced rather than split: it labels every rent and sale row of a suburb's market. */
export function quarterLabel(date: string): string {
  const dash = date.indexOf('-');
  const month = Number(date.slice(dash + 1, dash + 3));
  return `${Number(date.slice(0, dash))}-Q${Math.floor((month - 1) / 3) + 1}`;
}

/** The first day of the quarter a date is in. */
export function quarterStart(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return `${y}-${String(Math.floor((m - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
}

/** The last day of the newest quarter that ends on or before `newest` (YYYY-MM-DD). */
export function latestFullQuarterEnd(newest: string): string {
  const start = new Date(`${quarterStart(newest)}T00:00:00Z`);
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + 3);
  end.setUTCDate(0);
  const endText = end.toISOString().slice(0, 10);
  if (endText === newest) return endText;
  const before = new Date(start.getTime() - 86_400_000);
  return before.toISOString().slice(0, 10);
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Change from `then` to `now` in per cent (one decimal); null when either is missing. */
export function growthPct(now: number | null, then: number | null): number | null {
  if (now === null || then === null || then <= 0) return null;
  return round((now / then - 1) * 100, 1);
}

/** Gross yield in per cent (two decimals): a year of the weekly rent over the price. */
export function grossYieldPct(weeklyRent: number | null, price: number | null): number | null {
  if (weeklyRent === null || price === null || price <= 0) return null;
  return round(((weeklyRent * 52) / price) * 100, 2);
}

export type QuarterRow = { property_type: string; quarter: string; sales: number; median_price: number | null };
export type WindowRow = { property_type: string; k: number; sales: number; median_price: number | null };

export type MarketQuarterModel = {
  period: string;
  property_type: string;
  median_price: number | null;
  sales: number;
  median_weekly_rent: number | null;
  new_bonds: number | null;
  bonds_held: number | null;
};

/** A quarter's rents and bonds of one dwelling type and bedroom count, as published. */
export type RentQuarterModel = {
  period: string;
  dwelling_type: string;
  bedrooms: string;
  median_weekly_rent: number | null;
  new_bonds: number | null;
  bonds_held: number | null;
};

export type BedroomRentModel = Omit<RentQuarterModel, 'period' | 'dwelling_type'>;

export type MarketTypeSummaryModel = {
  property_type: string;
  median_price_12m: number | null;
  sales_12m: number;
  growth_1y_pct: number | null;
  growth_3y_pct: number | null;
  growth_5y_pct: number | null;
  median_weekly_rent: number | null;
  gross_yield_pct: number | null;
  /** The latest full quarter's rents of the type's dwelling per bedroom count (no 'all' row). */
  rents_by_bedrooms: BedroomRentModel[];
  notes: string[];
};

export type SuburbMarketModel = {
  state: string;
  suburb: string;
  postcode: string | null;
  latest_quarter: string | null;
  summary: MarketTypeSummaryModel[];
  quarters: MarketQuarterModel[];
  /** Every dwelling type and bedroom count published, 'all' rows the totals; oldest first. */
  rents: RentQuarterModel[];
  sa2_code: string | null;
  sa2_name: string | null;
  approvals: Array<{ period: string; dwelling_type: string; value: number }>;
  approvals_12m: number | null;
};

/** The sum of the latest four quarters of a quarterly series (first days), up to its newest; null without any. */
export function trailingFourQuarters(points: Array<{ quarter: string; value: number }>): number | null {
  if (points.length === 0) return null;
  const newest = points
    .map((p) => p.quarter)
    .sort()
    .at(-1)!;
  const from = new Date(`${newest}T00:00:00Z`);
  from.setUTCMonth(from.getUTCMonth() - 9);
  const start = from.toISOString().slice(0, 10);
  return points.filter((p) => p.quarter >= start && p.quarter <= newest).reduce((sum, p) => sum + p.value, 0);
}

/** The rents to use: the suburb's own where it has any, else its postcode's (NSW publishes by postcode). */
export function rentsOfSuburb(rows: RentRow[]): RentRow[] {
  const own = rows.filter((r) => r.area_kind === 'suburb');
  return own.length > 0 ? own : rows.filter((r) => r.area_kind === 'postcode');
}

export interface SuburbMarketInput {
  state: string;
  suburb: string;
  postcode: string | null;
  /** End of the latest full quarter (YYYY-MM-DD); null when the state holds no dated sale. */
  end: string | null;
  quarters: QuarterRow[];
  windows: WindowRow[];
  rents: RentRow[];
  approvals: ApprovalRow[];
  /** Only this property type, where asked. */
  propertyType?: string | null;
}

/**
 * The orders of `String#localeCompare`, with their collators made once: `localeCompare` builds an ICU collator on
 * every call, and sorting a suburb's few hundred rent rows that way cost about 3 ms (docs/benchmarks.md).
 */
const byText = new Intl.Collator().compare;
/** Bedroom counts in reading order: 0, 1, 2, ... 10, then words (unknown, all). */
const byBedrooms = new Intl.Collator('en', { numeric: true }).compare;

/** A suburb's market from its rows: the series (sales and rents per quarter and type), the headline figures per type and the approvals. */
export function suburbMarket(input: SuburbMarketInput): SuburbMarketModel {
  const only = (type: string) => !input.propertyType || input.propertyType === type;
  const published = rentsOfSuburb(input.rents);
  // the series by property type and the yields stand on the totals of every bedroom count
  const rents = published.filter((r) => r.bedrooms === 'all');
  const rentOf = new Map(rents.map((r) => [`${r.dwelling_type}:${r.quarter}`, r]));
  const dwellingAsked = input.propertyType ? RENT_DWELLING[input.propertyType] : undefined;
  const rentSeries = published
    .filter((r) => !input.propertyType || r.dwelling_type === dwellingAsked)
    .map((r) => ({
      period: quarterLabel(r.quarter),
      dwelling_type: r.dwelling_type,
      bedrooms: r.bedrooms,
      median_weekly_rent: r.median_weekly_rent,
      new_bonds: r.new_bonds,
      bonds_held: r.bonds_held,
    }))
    .sort(
      (a, b) =>
        byText(a.period, b.period) || byText(a.dwelling_type, b.dwelling_type) || byBedrooms(a.bedrooms, b.bedrooms),
    );
  const quarters = new Map<string, MarketQuarterModel>();
  for (const q of input.quarters.filter((r) => only(r.property_type))) {
    const rent = RENT_DWELLING[q.property_type]
      ? rentOf.get(`${RENT_DWELLING[q.property_type]}:${q.quarter}`)
      : undefined;
    quarters.set(`${q.property_type}:${q.quarter}`, {
      period: quarterLabel(q.quarter),
      property_type: q.property_type,
      median_price: q.median_price,
      sales: q.sales,
      median_weekly_rent: rent?.median_weekly_rent ?? null,
      new_bonds: rent?.new_bonds ?? null,
      bonds_held: rent?.bonds_held ?? null,
    });
  }
  // quarters with rents but no sale of the type still carry their rent
  for (const r of rents) {
    const type = Object.keys(RENT_DWELLING).find((t) => RENT_DWELLING[t] === r.dwelling_type);
    if (!type || !only(type) || quarters.has(`${type}:${r.quarter}`)) continue;
    quarters.set(`${type}:${r.quarter}`, {
      period: quarterLabel(r.quarter),
      property_type: type,
      median_price: null,
      sales: 0,
      median_weekly_rent: r.median_weekly_rent,
      new_bonds: r.new_bonds,
      bonds_held: r.bonds_held,
    });
  }
  const series = [...quarters.values()].sort(
    (a, b) => byText(a.period, b.period) || byText(a.property_type, b.property_type),
  );
  const types = [...new Set(series.map((q) => q.property_type))].sort();
  const latestStart = input.end ? quarterStart(input.end) : null;
  const summary = types.map((type) => {
    const dwelling = RENT_DWELLING[type];
    const byBedroom = published
      .filter((r) => dwelling && r.dwelling_type === dwelling && r.quarter === latestStart && r.bedrooms !== 'all')
      .map((r) => ({
        bedrooms: r.bedrooms,
        median_weekly_rent: r.median_weekly_rent,
        new_bonds: r.new_bonds,
        bonds_held: r.bonds_held,
      }))
      .sort((a, b) => byBedrooms(a.bedrooms, b.bedrooms));
    return summarise(
      type,
      input.windows,
      latestStart ? rentOf.get(`${dwelling}:${latestStart}`) : undefined,
      byBedroom,
    );
  });
  const sa2 = input.approvals[0] ?? null;
  const sa2Approvals = input.approvals.filter((a) => a.sa2_code === sa2?.sa2_code);
  return {
    state: input.state,
    suburb: input.suburb,
    postcode: input.postcode,
    latest_quarter: input.end ? quarterLabel(input.end) : null,
    summary,
    quarters: series,
    rents: rentSeries,
    sa2_code: sa2?.sa2_code ?? null,
    sa2_name: sa2?.sa2_name ?? null,
    approvals: sa2Approvals.map((a) => ({
      period: quarterLabel(a.quarter),
      dwelling_type: a.dwelling_type,
      value: a.value,
    })),
    approvals_12m: trailingFourQuarters(sa2Approvals.map((a) => ({ quarter: a.quarter, value: a.value }))),
  };
}

function summarise(
  type: string,
  windows: WindowRow[],
  rent: RentRow | undefined,
  rentsByBedrooms: BedroomRentModel[],
): MarketTypeSummaryModel {
  const notes: string[] = [];
  const window = (k: number) => windows.find((w) => w.property_type === type && w.k === k);
  const median = (k: number): number | null => {
    const w = window(k);
    if (!w || w.sales < MIN_SALES_PER_YEAR) return null;
    return w.median_price;
  };
  const now = median(0);
  const sales = window(0)?.sales ?? 0;
  if (now === null)
    notes.push(`Fewer than ${MIN_SALES_PER_YEAR} sales in the trailing year (${sales}): no median price.`);
  const growth = (years: number) => {
    const then = median(years);
    if (now !== null && then === null) {
      notes.push(
        `Fewer than ${MIN_SALES_PER_YEAR} sales in the same year ${years} years earlier: no ${years}-year growth.`,
      );
    }
    return growthPct(now, then);
  };
  const rentWeekly = rent?.median_weekly_rent ?? null;
  if (!RENT_DWELLING[type]) notes.push(`No rent is published for ${type}: no gross yield.`);
  else if (rentWeekly === null)
    notes.push(`No median rent for ${RENT_DWELLING[type]}s in the latest full quarter: no gross yield.`);
  return {
    property_type: type,
    median_price_12m: now,
    sales_12m: sales,
    growth_1y_pct: growth(1),
    growth_3y_pct: growth(3),
    growth_5y_pct: growth(5),
    median_weekly_rent: rentWeekly,
    gross_yield_pct: grossYieldPct(rentWeekly, now),
    rents_by_bedrooms: rentsByBedrooms,
    notes,
  };
}
