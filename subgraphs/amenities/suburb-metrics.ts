/**
 * The amenities layer's part of the suburb analytics bundle (core/suburb-metrics.ts): per suburb,
 * how many of each category lie inside it and how far its centre is from the nearest of each.
 *
 * A suburb's extent is drawn as the locality route draws it: its ABS SAL boundary where the
 * state's Census boundaries are held (credited), else the convex hull of its G-NAF address points
 * widened 25 m. The route reads the boundary through the graph; this batch job reads the address
 * and Census tables itself, set-based (the exception the hazards provider makes, for the same
 * reason: one statement per state, not a graph call per suburb). Two statements per state: the
 * counts, and the nearest of each category to every suburb's centre (GiST KNN per pair).
 */
import { Prisma } from '../../generated/prisma/client.ts';
import { AMENITIES_LAYER, AMENITY_CATEGORIES, type AmenityCategory } from '../../core/amenities.ts';
import type { Database } from '../../core/db.ts';
import {
  SUBURB_METRIC_NAMES,
  suburbKey,
  type SuburbContribution,
  type SuburbCredit,
  type SuburbMetricsProvider,
  type SuburbState,
} from '../../core/suburb-metrics.ts';
import { SUBURB_EXTENT_MARGIN_M } from './data.ts';

/** The metric each category's count is published under (the names the rollup reads). */
export const COUNT_METRICS: Record<AmenityCategory, string> = {
  school: SUBURB_METRIC_NAMES.schools,
  childcare: SUBURB_METRIC_NAMES.childcare,
  supermarket: SUBURB_METRIC_NAMES.supermarkets,
  transport: SUBURB_METRIC_NAMES.transportStops,
  hospital: SUBURB_METRIC_NAMES.hospitals,
  recreation: SUBURB_METRIC_NAMES.recreation,
  cafe: SUBURB_METRIC_NAMES.cafes,
  retail: SUBURB_METRIC_NAMES.retail,
};
/** The distance from the suburb's centre to the nearest of a category: `<count metric>_nearest_m`. */
export const nearestMetric = (category: AmenityCategory) => `${COUNT_METRICS[category]}_nearest_m`;

const extents = (dataset: string, state: string) => Prisma.sql`
  hull AS (
    SELECT upper(l.locality_name) AS suburb,
      ST_Buffer(ST_ConvexHull(ST_Collect(d.geom))::geography, ${SUBURB_EXTENT_MARGIN_M}::float8)::geometry AS g
    FROM address.locality l
    JOIN address.address_detail d ON d.dataset = l.dataset AND d.locality_pid = l.locality_pid
    WHERE l.dataset = ${dataset} AND l.state = ${state}
    GROUP BY upper(l.locality_name)
  ),
  -- the SAL of the name as the demographics layer picks it (full name first, then the most populous)
  extent AS MATERIALIZED (
    SELECT h.suburb, coalesce(s.geom, h.g) AS g, s.code AS sal_code
    FROM hull h
    LEFT JOIN LATERAL (
      SELECT b.code, b.geom FROM census.boundary b
      LEFT JOIN census.profile p ON p.dataset = b.dataset AND p.geography = b.geography AND p.code = b.code
      WHERE b.dataset = ${dataset} AND b.geography = 'SAL' AND b.state = ${state} AND b.name_key = h.suburb
        AND b.geom IS NOT NULL
        AND EXISTS (SELECT 1 FROM public.dataset_source ds
          WHERE ds.dataset = ${dataset} AND ds.layer = 'demographics' AND ds.state = ${state})
      ORDER BY (upper(b.name) = h.suburb) DESC, p.population DESC NULLS LAST, b.code
      LIMIT 1
    ) s ON true
  )`;

type CountRow = { suburb: string; category: string; n: number };
type NearestRow = {
  suburb: string;
  sal_code: string | null;
  category: string;
  nearest_m: number | null;
  nearest_name: string | null;
};

export const amenitiesSuburbMetrics: SuburbMetricsProvider = {
  section: 'amenities',

  async credits(db: Database, dataset: string, state: SuburbState): Promise<SuburbCredit[]> {
    const rows = await db.query<{ snapshot_id: string; attribution: string; license: string }>(
      'SELECT snapshot_id, attribution, license FROM public.dataset_source WHERE dataset = $1 AND layer = $2 AND state = $3',
      [dataset, AMENITIES_LAYER, state],
    );
    return rows.map((r) => ({
      source: `mirror:${state.toLowerCase()}/${AMENITIES_LAYER}@${r.snapshot_id}`,
      attribution: r.attribution,
      license: r.license,
    }));
  },

  async contribute(db: Database, dataset: string, state: SuburbState): Promise<Map<string, SuburbContribution>> {
    const out = new Map<string, SuburbContribution>();
    // a state without the layer holds nothing: no suburb gets amenity metrics, not zeros
    if ((await this.credits(db, dataset, state)).length === 0) return out;
    const counts = await db.sql<CountRow>(Prisma.sql`
      WITH ${extents(dataset, state)}
      SELECT e.suburb, a.category, count(*)::int AS n
      FROM extent e
      JOIN amenities.amenity a ON a.dataset = ${dataset} AND a.state = ${state} AND a.geom && e.g AND ST_Intersects(a.geom, e.g)
      GROUP BY e.suburb, a.category`);
    const nearest = await db.sql<NearestRow>(Prisma.sql`
      WITH ${extents(dataset, state)}, centre AS (SELECT suburb, sal_code, ST_Centroid(g) AS g FROM extent)
      SELECT c.suburb, c.sal_code, k.category, n.nearest_m, n.name AS nearest_name
      FROM centre c
      CROSS JOIN unnest(${[...AMENITY_CATEGORIES]}::text[]) AS k(category)
      LEFT JOIN LATERAL (
        SELECT a.name, ST_Distance(a.geom::geography, c.g::geography)::float8 AS nearest_m
        FROM amenities.amenity a
        WHERE a.dataset = ${dataset} AND a.state = ${state} AND a.category = k.category
        ORDER BY a.geom <-> c.g
        LIMIT 1
      ) n ON true`);
    const entry = (suburb: string) => {
      const key = suburbKey(suburb);
      let c = out.get(key);
      if (!c) {
        const metrics: Record<string, number | null> = {};
        const section: Record<string, { count: number; nearest_m: number | null; nearest_name: string | null }> = {};
        for (const category of AMENITY_CATEGORIES) {
          metrics[COUNT_METRICS[category]] = 0;
          metrics[nearestMetric(category)] = null;
          section[category] = { count: 0, nearest_m: null, nearest_name: null };
        }
        c = { metrics, section: { extent_method: 'address-hull', categories: section } };
        out.set(key, c);
      }
      return c;
    };
    const sectionOf = (c: SuburbContribution) =>
      c.section.categories as Record<string, { count: number; nearest_m: number | null; nearest_name: string | null }>;
    for (const row of nearest) {
      const c = entry(row.suburb);
      if (row.sal_code) Object.assign(c.section, { extent_method: 'sal-boundary', sal_code: row.sal_code });
      const category = row.category as AmenityCategory;
      const metres = row.nearest_m === null ? null : Math.round(row.nearest_m);
      c.metrics[nearestMetric(category)] = metres;
      Object.assign(sectionOf(c)[category]!, { nearest_m: metres, nearest_name: row.nearest_name });
    }
    for (const row of counts) {
      const c = entry(row.suburb);
      const category = row.category as AmenityCategory;
      c.metrics[COUNT_METRICS[category]] = row.n;
      sectionOf(c)[category]!.count = row.n;
    }
    return out;
  },
};
