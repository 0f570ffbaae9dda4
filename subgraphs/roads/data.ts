import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { RoadLine } from '../../core/boundaries/boundaries.ts';
import type { NearbyRoadRow, RoadLineRow } from './sql.ts';
import { ROADS_NEAREST, ROADS_NEAR_PARCELS } from './sql.ts';
import { foldedSql } from '../../core/folded-sql.ts';

/** A centreline as the boundary classifier reads it. */
export type RoadLineModel = RoadLine;

export type RoadsProperty = {
  parcel_pfi: string | null;
  state: string;
  /** The parcel's boundary, from the cadastre through @requires; null off any parcel. */
  parcel_geometry: GeoJSONGeometry | null;
};

export type FrontingRoadModel = {
  name: string | null;
  road_class: string;
  frontage_m: number;
  distance_m: number;
  front: boolean;
};

export type NearbyRoadModel = Omit<RoadLine, 'coordinates'> & {
  distance_m: number;
  coordinates: RoadLine['coordinates'];
};

export type RoadsLayerModel = LayerResult<FrontingRoadModel[]>;
export type RoadLinesLayerModel = LayerResult<RoadLine[]>;
export type NearbyRoadsLayerModel = LayerResult<NearbyRoadModel[]>;

type ParcelShapeKey = { state: string; geometry: GeoJSONGeometry };

/** The roads subgraph's data source for one request: every parcel's nearby centrelines in one statement. */
export class RoadsData {
  readonly linesNear: DataLoader<ParcelShapeKey, RoadLine[], string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    this.linesNear = new DataLoader(
      async (keys) => {
        const rows = await foldedSql<RoadLineRow>(
          deps.db,
          ROADS_NEAR_PARCELS(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => JSON.stringify(k.geometry)),
          ),
        );
        const byIndex = keys.map((): RoadLine[] => []);
        for (const row of rows) {
          byIndex[row.i]?.push({ name: row.road_name, road_class: row.road_class, coordinates: row.coordinates });
        }
        return byIndex;
      },
      { cacheKeyFn: (k) => `${k.state}:${JSON.stringify(k.geometry)}` },
    );
  }

  async nearest(state: string, lat: number, lng: number, limit: number, reachM: number): Promise<NearbyRoadModel[]> {
    const rows = await this.deps.db.sql<NearbyRoadRow>(
      ROADS_NEAREST(this.scope.dataset, state, lng, lat, limit, reachM),
    );
    return rows.map((row) => ({
      name: row.road_name,
      road_class: row.road_class,
      distance_m: Math.round(row.distance_m * 100) / 100,
      coordinates: row.coordinates,
    }));
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, 'roads', state);
  }
}

export type RoadsContext = RequestScope & { roads: RoadsData };
