import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { BalEstimate } from './bal.ts';
import type { RequiredGroundProfile } from './slope.ts';
import type { HazardKind, HazardRow } from './sql.ts';
import { HAZARD_AT_POINTS } from './sql.ts';

export type PointKey = { state: string; lat: number; lng: number };

export type HazardsProperty = {
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
  /** The ground around the point, from the terrain subgraph through @requires; null when not asked or not answered. */
  ground_profile?: RequiredGroundProfile | null;
};

export type HazardSeverity = 'none' | 'low' | 'medium' | 'high' | 'extreme';
export type HazardCoverage = 'found' | 'clear' | 'not_mapped' | 'unavailable';

export type HazardEvidenceModel = {
  type: 'overlay' | 'register' | 'vegetation';
  code: string | null;
  description: string;
  severity: Exclude<HazardSeverity, 'none'>;
  source: string;
  distance_m: number;
  status: string | null;
  snapshot_date: string;
};

/** The BAL estimate as the graph shows it: the calculator's answer with its inputs spread out. */
export type BalEstimateModel = Omit<BalEstimate, 'inputs'> & {
  vegetation_class: string | null;
  distance_m: number | null;
  effective_slope_deg: number;
  slope_direction: string;
  /** The bearing the slope was measured along; null where it was not measured. */
  slope_bearing_deg: number | null;
  /** The terrain snapshot the slope came from; null where it was not measured. */
  slope_source: string | null;
};

export type HazardModel = {
  severity: HazardSeverity | null;
  coverage: HazardCoverage;
  freshness: string | null;
  evidence: HazardEvidenceModel[];
  message: string | null;
  bal: BalEstimateModel | null;
};

export type HazardsModel = Record<HazardKind, HazardModel>;
export type HazardsLayerModel = LayerResult<HazardsModel> & { freshness: string | null };

const pointKey = (k: PointKey) => `${k.state}:${k.lng}:${k.lat}`;

/** The hazards subgraph's data source for one request: each hazard's points in one statement. */
export class HazardsData {
  readonly atPoint: Record<HazardKind, DataLoader<PointKey, Omit<HazardRow, 'i'> | null, string>>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    const loader = (kind: HazardKind) =>
      new DataLoader<PointKey, Omit<HazardRow, 'i'> | null, string>(
        async (keys) => {
          const rows = await deps.db.sql<HazardRow>(
            HAZARD_AT_POINTS(
              scope.dataset,
              kind,
              keys.map((k) => k.state),
              keys.map((k) => k.lng),
              keys.map((k) => k.lat),
            ),
          );
          const byIndex = new Map(rows.map(({ i, ...row }) => [i, row]));
          return keys.map((_k, i) => byIndex.get(i) ?? null);
        },
        { cacheKeyFn: pointKey },
      );
    this.atPoint = { flood: loader('flood'), bushfire: loader('bushfire'), contamination: loader('contamination') };
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, 'hazards', state);
  }
}

export type HazardsContext = RequestScope & { hazards: HazardsData };
