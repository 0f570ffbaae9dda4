import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { ProfileModel } from './profile.ts';
import type { AtPointRow, ProfileRow, SalBoundaryRow } from './sql.ts';
import { AREAS_AT_POINTS, SAL_BOUNDARIES, SUBURB_PROFILES } from './sql.ts';
import { suburbKey } from '../../core/suburb-metrics.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import { withoutAbsSuffix } from './profile.ts';
import { foldedSql } from '../../core/folded-sql.ts';

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

/** A suburb entity as the graph keys it. */
export type SuburbEntity = { state: string; name: string };

export type SalBoundaryModel = {
  code: string;
  name: string;
  geometry: GeoJSONGeometry;
  attribution: string;
  license: string;
};

/** The demographics subgraph's data source for one request: every point's areas in one statement. */
export class DemographicsData {
  readonly atPoint: DataLoader<PointKey, Omit<AtPointRow, 'i'>, string>;
  /** The SAL boundary of every suburb entity of a request, in one statement. */
  readonly salBoundary: DataLoader<SuburbEntity, Omit<SalBoundaryRow, 'i'>, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    this.atPoint = new DataLoader(
      async (keys) => {
        const rows = await foldedSql<AtPointRow>(
          deps.db,
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
    this.salBoundary = new DataLoader(
      async (keys) => {
        // folded with the address hull the planner asks of the address layer in the same turn (Suburb.amenities)
        const rows = await foldedSql<SalBoundaryRow>(
          deps.db,
          SAL_BOUNDARIES(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => suburbKey(withoutAbsSuffix(k.name))),
            keys.map((k) => suburbKey(k.name)),
          ),
        );
        const byIndex = new Map(rows.map(({ i, ...row }) => [i, row]));
        return keys.map((_k, i) => byIndex.get(i) ?? { code: null, name: null, geometry: null });
      },
      { cacheKeyFn: (k) => `${k.state}:${k.name}` },
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
