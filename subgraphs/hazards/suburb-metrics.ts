/**
 * The hazards layer's part of the suburb bundle (spec 2.10): the share of each suburb's land
 * under flood, bushfire and contamination overlays.
 *
 * A suburb's land is the cadastre parcels addressed in it: the parcel_pfi of every G-NAF address
 * of the locality (address.address_detail), each parcel once per suburb. That reads the address
 * and cadastre tables, read-only, from a batch job: the rollup is not a request path and one
 * set-based statement per state beats asking two other subgraphs parcel by parcel
 * (docs/p8-notes-analytics.md). A parcel counts with its recorded area (cadastre.parcel.area_m2);
 * the part of it under a kind is that area times the fraction of its geometry inside the union of
 * the kind's overlays touching it (a ratio of two planar areas of one small parcel, where the
 * geodesic ratio differs in the sixth digit, at a fraction of the cost), so overlapping overlays
 * are not counted twice. A kind the state's hazard mirror does not cover (no
 * hazards.coverage row) is null, not 0.
 */
import type { Database } from '../../core/db.ts';
import type {
  SuburbContribution,
  SuburbCredit,
  SuburbMetricsProvider,
  SuburbState,
} from '../../core/suburb-metrics.ts';
import { SUBURB_METRIC_NAMES } from '../../core/suburb-metrics.ts';

const KINDS = ['flood', 'bushfire', 'contamination'] as const;
type Kind = (typeof KINDS)[number];

const SHARE_METRIC: Record<Kind, string> = {
  flood: SUBURB_METRIC_NAMES.floodSharePct,
  bushfire: SUBURB_METRIC_NAMES.bushfireSharePct,
  contamination: SUBURB_METRIC_NAMES.contaminationSharePct,
};

/** Per suburb: its land (parcels, m²) and, per overlay kind, the m² under it and the worst severity touching it. */
export const SUBURB_HAZARD_SHARES = `
WITH land AS (
  SELECT DISTINCT ON (upper(btrim(l.locality_name)), p.parcel_pfi)
    upper(btrim(l.locality_name)) AS suburb, p.parcel_pfi, p.geom, p.area_m2
  FROM address.address_detail a
  JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
  JOIN cadastre.parcel p ON p.dataset = a.dataset AND p.state = a.state AND p.parcel_pfi = a.parcel_pfi
  WHERE a.dataset = $1 AND a.state = $2 AND a.parcel_pfi IS NOT NULL
), parcel_area AS (
  SELECT suburb, count(*)::int AS parcels, sum(area_m2) AS land_m2 FROM land GROUP BY suburb
), covered AS (
  SELECT land.suburb, u.kind,
    sum(CASE WHEN ST_CoveredBy(land.geom, u.geom) THEN land.area_m2
             ELSE land.area_m2 * ST_Area(ST_Intersection(land.geom, u.geom)) / nullif(ST_Area(land.geom), 0) END) AS m2,
    count(*)::int AS parcels,
    max(u.severity_rank) AS severity_rank
  FROM land
  CROSS JOIN LATERAL (
    SELECT o.kind,
      -- most parcels touch one overlay of a kind: the union only where they touch several
      CASE WHEN count(*) = 1 THEN (array_agg(o.geom))[1] ELSE ST_Union(array_agg(o.geom)) END AS geom,
      max(CASE o.severity WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 ELSE 4 END) AS severity_rank
    FROM hazards.overlay o
    WHERE o.dataset = $1 AND o.state = $2 AND ST_Intersects(o.geom, land.geom)
    GROUP BY o.kind
  ) u
  GROUP BY land.suburb, u.kind
)
SELECT a.suburb, a.parcels, a.land_m2,
  coalesce(json_object_agg(c.kind, json_build_object('m2', c.m2, 'parcels', c.parcels, 'severity_rank', c.severity_rank))
    FILTER (WHERE c.kind IS NOT NULL), '{}'::json) AS kinds
FROM parcel_area a LEFT JOIN covered c ON c.suburb = a.suburb
GROUP BY a.suburb, a.parcels, a.land_m2`;

const COVERED_KINDS = `SELECT DISTINCT kind FROM hazards.coverage WHERE dataset = $1 AND state = $2`;

const CREDITS = `SELECT attribution, license FROM public.dataset_source WHERE dataset = $1 AND layer = 'hazards' AND state = $2`;

const SEVERITIES = [null, 'low', 'medium', 'high', 'extreme'] as const;

type Row = {
  suburb: string;
  parcels: number;
  land_m2: number;
  kinds: Partial<Record<Kind, { m2: number; parcels: number; severity_rank: number }>> | string;
};

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

export const hazardsSuburbMetrics: SuburbMetricsProvider = {
  section: 'hazards',

  async credits(db: Database, dataset: string, state: SuburbState): Promise<SuburbCredit[]> {
    const rows = await db.query<{ attribution: string; license: string }>(CREDITS, [dataset, state]);
    return rows.map((r) => ({ source: 'hazards', ...r }));
  },

  async contribute(db: Database, dataset: string, state: SuburbState): Promise<Map<string, SuburbContribution>> {
    const [rows, covered] = await Promise.all([
      db.query<Row>(SUBURB_HAZARD_SHARES, [dataset, state]),
      db.query<{ kind: Kind }>(COVERED_KINDS, [dataset, state]),
    ]);
    const coveredKinds = new Set(covered.map((c) => c.kind));
    const out = new Map<string, SuburbContribution>();
    if (coveredKinds.size === 0) return out;
    for (const row of rows) {
      const kinds =
        typeof row.kinds === 'string' ? (JSON.parse(row.kinds) as Exclude<Row['kinds'], string>) : row.kinds;
      const land = Number(row.land_m2);
      const metrics: Record<string, number | null> = {};
      const overlays: Record<string, unknown> = {};
      for (const kind of KINDS) {
        if (!coveredKinds.has(kind)) {
          metrics[SHARE_METRIC[kind]] = null;
          overlays[kind] = { covered: false, land_share_pct: null, area_m2: null, parcels: null, worst_severity: null };
          continue;
        }
        const hit = kinds[kind];
        const m2 = hit ? Math.min(Number(hit.m2), land) : 0;
        const share = land > 0 ? round((m2 / land) * 100, 2) : null;
        metrics[SHARE_METRIC[kind]] = share;
        overlays[kind] = {
          covered: true,
          land_share_pct: share,
          area_m2: round(m2, 1),
          parcels: hit?.parcels ?? 0,
          worst_severity: hit ? (SEVERITIES[hit.severity_rank] ?? null) : null,
        };
      }
      out.set(row.suburb, {
        metrics,
        section: {
          method: 'share of the recorded area of the parcels addressed in the suburb lying under each overlay kind',
          parcels: row.parcels,
          land_area_m2: round(land, 1),
          overlays,
        },
      });
    }
    return out;
  },
};
