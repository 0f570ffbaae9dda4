import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { BalEstimate } from './bal.ts';
import type { RequiredGroundProfile } from './slope.ts';
import type { LiveHazardAnswer, LiveHazardService } from './sources/live.ts';
import type { HazardLiveSources } from './sources/registry.ts';
import type { HazardKind, HazardsRow } from './sql.ts';
import { HAZARDS_AT_POINTS } from './sql.ts';
import { foldedSql } from '../../core/folded-sql.ts';

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

/** A live service's answer at a point, or its failure (never thrown: the hazard reports it). */
export type LiveResolution = { status: 'ok'; answer: LiveHazardAnswer } | { status: 'error'; error: unknown };

type LiveKey = PointKey & { service: LiveHazardService };

/**
 * The hazards subgraph's data source for one request: every hazard at every point of the batch
 * in one statement, and the state's live services (live keys only) where the mirror does not reach.
 */
export class HazardsData {
  readonly atPoint: DataLoader<PointKey, Omit<HazardsRow, 'i'> | null, string>;
  /** Live services answer one point per call; a request's points are asked side by side, each once per service. */
  readonly liveAtPoint: DataLoader<LiveKey, LiveResolution, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
    /** The process's live hazard services: their circuits, counters and caches. */
    private readonly live: HazardLiveSources,
  ) {
    this.atPoint = new DataLoader<PointKey, Omit<HazardsRow, 'i'> | null, string>(
      async (keys) => {
        const rows = await foldedSql<HazardsRow>(
          deps.db,
          HAZARDS_AT_POINTS(
            scope.dataset,
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
    this.liveAtPoint = new DataLoader<LiveKey, LiveResolution, string>(
      (keys) =>
        Promise.all(
          keys.map(({ service, lng, lat }) =>
            service.atPoint(lng, lat).then(
              (answer): LiveResolution => ({ status: 'ok', answer }),
              (error: unknown): LiveResolution => ({ status: 'error', error }),
            ),
          ),
        ),
      { cacheKeyFn: (k) => `${k.service.label}:${pointKey(k)}` },
    );
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, 'hazards', state);
  }

  /** The state's live services this request may ask (live keys only: the sandbox is frozen). */
  liveServices(state: string): LiveHazardService[] {
    return this.live.servicesFor(this.scope.dataset, state);
  }
}

export type HazardsContext = RequestScope & { hazards: HazardsData };
