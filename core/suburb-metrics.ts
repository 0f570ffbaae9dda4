/**
 * The contract between the data layers and the suburb analytics rollup (spec 2.10).
 *
 * A suburb bundle crosses every layer: market (prices, rents, bonds, approvals), demographics,
 * amenities, hazards, development applications, land supply. The rollup is a batch job, not a
 * request path, so it does not fan out through the graph: each layer that owns a part of the
 * bundle exports one `SuburbMetricsProvider` from `subgraphs/<layer>/suburb-metrics.ts`, which
 * reads that layer's own tables, and the rollup merges what the providers return. No provider
 * imports another layer's code; the rollup only knows this interface.
 */
import type { Database } from './db.ts';

/** States the bundles are computed for. */
export type SuburbState = 'VIC' | 'NSW' | 'QLD';

/** A suburb is named by its state and its locality name, upper-cased and trimmed (G-NAF style). */
export function suburbKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toUpperCase();
}

/** The four series `/v1/suburb-analytics/timeseries` serves (`metric=`). */
export type SuburbSeriesMetric = 'prices' | 'rents' | 'approvals' | 'bonds';

/** One point of a quarterly series; `period` is `YYYY-Qn`. */
export interface SuburbSeriesPoint {
  period: string;
  /** house, unit, land, all, ... where the series is split by type; otherwise omitted. */
  property_type?: string;
  value: number | null;
  /** How many observations the value stands on (sales, lodgements), where that is known. */
  count?: number | null;
}

export interface SuburbCredit {
  source: string;
  attribution: string;
  license: string;
}

/** What one provider knows about one suburb. */
export interface SuburbContribution {
  /**
   * Flat numeric metrics, screenable by name with `<name>_min` / `<name>_max`
   * (`/v1/suburb-analytics/screen`). Names are snake_case and unit-suffixed where a unit helps:
   * see `SUBURB_METRIC_NAMES` for the ones the livability score and the screen rely on.
   * `null` means the layer holds nothing for the suburb; never invent a value.
   */
  metrics: Record<string, number | null>;
  /** The structured part of the bundle this layer owns, under its section name (e.g. `market`). */
  section: Record<string, unknown>;
  /** Quarterly series this layer owns, oldest first. */
  series?: Partial<Record<SuburbSeriesMetric, SuburbSeriesPoint[]>>;
}

export interface SuburbMetricsProvider {
  /** The bundle section this provider fills: `market`, `demographics`, `amenities`, ... */
  readonly section: string;
  /** The credits the section carries (the rollup joins them into the bundle's attribution). */
  credits(db: Database, dataset: string, state: SuburbState): Promise<SuburbCredit[]>;
  /**
   * Everything this layer knows about every suburb of one state, keyed by `suburbKey(name)`.
   * One or a few set-based statements for the whole state, never one query per suburb.
   */
  contribute(db: Database, dataset: string, state: SuburbState): Promise<Map<string, SuburbContribution>>;
}

/**
 * Metric names the rollup's derived figures (livability score, screen defaults) read. A provider
 * that owns one of these must use exactly this name; other metrics may be added freely.
 */
export const SUBURB_METRIC_NAMES = {
  // market (sales, rents)
  medianPriceHouse: 'median_price_house',
  medianPriceUnit: 'median_price_unit',
  growth1yHouse: 'growth_1y_house_pct',
  growth3yHouse: 'growth_3y_house_pct',
  growth5yHouse: 'growth_5y_house_pct',
  medianRentHouse: 'median_rent_house_weekly',
  medianRentUnit: 'median_rent_unit_weekly',
  grossYieldHouse: 'gross_yield_house_pct',
  grossYieldUnit: 'gross_yield_unit_pct',
  bondLodgements12m: 'bond_lodgements_12m',
  buildingApprovals12m: 'building_approvals_12m',
  // demographics (Census 2021, SAL)
  population: 'population',
  medianAge: 'median_age',
  medianHouseholdIncomeWeekly: 'median_household_income_weekly',
  // amenities (counts inside the suburb, and distance from its centroid to the nearest)
  schools: 'amenity_schools',
  childcare: 'amenity_childcare',
  supermarkets: 'amenity_supermarkets',
  transportStops: 'amenity_transport_stops',
  hospitals: 'amenity_hospitals',
  recreation: 'amenity_recreation',
  cafes: 'amenity_cafes',
  retail: 'amenity_retail',
  // hazards (share of the suburb's land under each overlay, 0..100)
  floodSharePct: 'flood_land_share_pct',
  bushfireSharePct: 'bushfire_land_share_pct',
  contaminationSharePct: 'contamination_land_share_pct',
} as const;
