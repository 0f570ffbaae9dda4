import { Prisma } from '../../generated/prisma/client.ts';

/** The named statements of the analytics subgraph: reads of the rollup's tables (core/suburb-analytics/rollup.ts). */

export type Credit = { section: string; source: string; attribution: string; license: string };

export type BundleRow = { bundle: Record<string, unknown> };

export type ListRow = {
  suburb: string;
  suburb_key: string;
  lga_code: string | null;
  lga_name: string | null;
  livability_score: number | null;
  computed_at: string;
  total: number;
};

export type SeriesRow = {
  period: string;
  property_type: string;
  value: number | null;
  count: number | null;
  section: string;
};

export type ScreenRow = {
  suburb: string;
  suburb_key: string;
  lga_code: string | null;
  lga_name: string | null;
  metrics: Record<string, number | null>;
  total: number;
};

export type StateRunRow = { credits: Credit[]; computed_at: string; suburbs: number };

export type CatalogRow = { metric: string; suburbs: number };

export type Range = { metric: string; min: number | null; max: number | null };

export const BUNDLE = (dataset: string, state: string, suburb: string) => Prisma.sql`
  SELECT bundle FROM analytics.suburb_bundle WHERE dataset = ${dataset} AND state = ${state} AND suburb = ${suburb}`;

/** A bundle's credits alone (the timeseries answer's), without reading the rest of it out. */
export const BUNDLE_CREDITS = (dataset: string, state: string, suburb: string) => Prisma.sql`
  SELECT bundle->'credits' AS credits FROM analytics.suburb_bundle
  WHERE dataset = ${dataset} AND state = ${state} AND suburb = ${suburb}`;

export const STATE_RUN = (dataset: string, state: string) => Prisma.sql`
  SELECT credits, to_char(computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS computed_at, suburbs
  FROM analytics.rollup_run WHERE dataset = ${dataset} AND state = ${state}`;

export const LIST = (dataset: string, state: string, limit: number, offset: number) => Prisma.sql`
  SELECT name AS suburb, suburb AS suburb_key, lga_code, lga_name, livability_score,
    to_char(computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS computed_at,
    count(*) OVER ()::int AS total
  FROM analytics.suburb_bundle WHERE dataset = ${dataset} AND state = ${state}
  ORDER BY suburb LIMIT ${limit} OFFSET ${offset}`;

export const SERIES = (dataset: string, state: string, suburb: string, metric: string) => Prisma.sql`
  SELECT period, property_type, value, count, section FROM analytics.suburb_series
  WHERE dataset = ${dataset} AND state = ${state} AND suburb = ${suburb} AND metric = ${metric}
  ORDER BY period, property_type`;

export const CATALOG = (dataset: string, state: string) => Prisma.sql`
  SELECT metric, suburbs FROM analytics.metric_catalog WHERE dataset = ${dataset} AND state = ${state} ORDER BY metric`;

/**
 * The suburbs whose metrics lie in every range, by suburb key (unique, so pages never overlap or
 * skip). The filters read the narrow `metrics` jsonb of the state's rows; only the keys are sorted
 * and counted, and only the page's rows are read again for their metrics. A suburb without the
 * metric (null or absent) never passes a range on it.
 */
export const SCREEN = (dataset: string, state: string, ranges: readonly Range[], limit: number, offset: number) => {
  // the rollup writes only numbers and nulls; ->> of a null or an absent key is NULL, which no bound passes
  const filters = ranges.flatMap((r) => {
    const value = Prisma.sql`(b.metrics->>(${r.metric}::text))::float8`;
    if (r.min === null && r.max === null) return [Prisma.sql`AND ${value} IS NOT NULL`];
    return [
      ...(r.min === null ? [] : [Prisma.sql`AND ${value} >= ${r.min}`]),
      ...(r.max === null ? [] : [Prisma.sql`AND ${value} <= ${r.max}`]),
    ];
  });
  return Prisma.sql`
  WITH page AS (
    SELECT b.suburb, count(*) OVER ()::int AS total FROM analytics.suburb_bundle b
    WHERE b.dataset = ${dataset} AND b.state = ${state} ${filters.length ? Prisma.join(filters, ' ') : Prisma.empty}
    ORDER BY b.suburb LIMIT ${limit} OFFSET ${offset}
  )
  SELECT b.name AS suburb, b.suburb AS suburb_key, b.lga_code, b.lga_name, b.metrics, page.total
  FROM page JOIN analytics.suburb_bundle b ON b.dataset = ${dataset} AND b.state = ${state} AND b.suburb = page.suburb
  ORDER BY b.suburb`;
};
