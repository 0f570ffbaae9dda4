import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { ProfileModel } from './profile.ts';
import type { AtPointRow, ProfileRow } from './sql.ts';
import { AREAS_AT_POINTS, SUBURB_PROFILES } from './sql.ts';

export type { ProfileModel } from './profile.ts';

export type DemographicsProperty = {
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
};

export type DemographicsModel = { census_year: number; sa1: ProfileModel | null; sal: ProfileModel | null };
export type DemographicsLayerModel = LayerResult<DemographicsModel> & { freshness: string | null };
export type SuburbDemographicsLayerModel = LayerResult<ProfileModel[]> & { freshness: string | null };

/** The layer name of the Census figures in public.dataset_source (credit, snapshot, freshness). */
export const DEMOGRAPHICS_LAYER = 'demographics';

type PointKey = { state: string; lat: number; lng: number };

/** The demographics subgraph's data source for one request: every point's areas in one statement. */
export class DemographicsData {
  readonly atPoint: DataLoader<PointKey, Omit<AtPointRow, 'i'>, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    this.atPoint = new DataLoader(
      async (keys) => {
        const rows = await deps.db.sql<AtPointRow>(
          AREAS_AT_POINTS(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.lng),
            keys.map((k) => k.lat),
          ),
        );
        const byIndex = new Map(rows.map(({ i, ...row }) => [i, row]));
        return keys.map((_k, i) => byIndex.get(i) ?? { sa1: null, sal: null });
      },
      { cacheKeyFn: (k) => `${k.state}:${k.lng},${k.lat}` },
    );
  }

  async suburb(state: string, nameKey: string): Promise<ProfileRow[]> {
    const rows = await this.deps.db.sql<{ profile: ProfileRow }>(SUBURB_PROFILES(this.scope.dataset, state, nameKey));
    return rows.map((r) => r.profile);
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, DEMOGRAPHICS_LAYER, state);
  }
}

export type DemographicsContext = RequestScope & { demographics: DemographicsData };
