import DataLoader from 'dataloader';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { RequestScope } from '../../core/context.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { OverlayRow, PlanningRow, ZoneRow } from './sql.ts';
import { PLANNING_AT_POINTS } from './sql.ts';

export type PointKey = { state: string; lat: number; lng: number };
export type PlanningAtPoint = { covered: boolean; zone: ZoneRow | null; overlays: OverlayRow[] };

export type PlanningProperty = {
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
  /** The parcel's boundary, from the cadastre through @requires; null off any parcel. */
  parcel_geometry: GeoJSONGeometry | null;
};

export type PlanningLayerModel = LayerResult<PlanningAtPoint>;

const pointKey = (k: PointKey) => `${k.state}:${k.lng}:${k.lat}`;

export class PlanningData {
  readonly atPoint: DataLoader<PointKey, PlanningAtPoint, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    this.atPoint = new DataLoader(
      async (keys) => {
        const rows = await deps.db.prisma.$queryRaw<PlanningRow[]>(
          PLANNING_AT_POINTS(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.lng),
            keys.map((k) => k.lat),
          ),
        );
        const byIndex = new Map(rows.map(({ i, ...row }) => [i, row]));
        return keys.map((_k, i) => byIndex.get(i) ?? { covered: false, zone: null, overlays: [] });
      },
      { cacheKeyFn: pointKey },
    );
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, 'planning', state);
  }
}

export type PlanningContext = RequestScope & { planning: PlanningData };
