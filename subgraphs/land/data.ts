import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { BBox } from '../../core/geo.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { BuildingRow, EasementRow, Found, LandLayerName, LandValueRow } from './sql.ts';
import {
  BUILDINGS_AT_POINT,
  BUILDINGS_IN_BBOX,
  BUILDINGS_ON_PARCELS,
  EASEMENTS_IN_BBOX,
  EASEMENTS_OF_PARCELS,
  LAND_VALUES_OF_PARCELS,
} from './sql.ts';
import { foldedSql } from '../../core/folded-sql.ts';

export type LandProperty = {
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
  /** The parcel's boundary, from the cadastre through @requires; null off any parcel. */
  parcel_geometry: GeoJSONGeometry | null;
};

/** Every land layer reports the date of the snapshot that reaches the land (its freshness). */
export type WithFreshness<T> = T & { freshness: string | null };

export type EasementLayerModel = WithFreshness<LayerResult<EasementRow[]>>;
export type BuildingLayerModel = WithFreshness<LayerResult<BuildingRow[]>>;
export type LandValueLayerModel = WithFreshness<LayerResult<LandValueRow>>;
export type EasementCollectionModel = WithFreshness<Omit<LayerResult<never>, 'data'>> & { features: EasementRow[] };
export type BuildingCollectionModel = WithFreshness<Omit<LayerResult<never>, 'data'>> & { features: BuildingRow[] };

/** A parcel placed by the point it is analysed at (the coverage is asked there). */
export type ParcelKey = { state: string; parcel_pfi: string; lat: number; lng: number };
export type BoundaryKey = { state: string; parcel_pfi: string; geometry: GeoJSONGeometry; lat: number; lng: number };

const parcelKey = (k: { state: string; parcel_pfi: string }) => `${k.state}:${k.parcel_pfi}`;

/** Rows of a batched statement back in the order of its keys. */
function inKeyOrder<T>(keys: readonly unknown[], rows: Found<T>[]): Found<T>[] {
  const byIndex = new Map(rows.map((row) => [row.i, row]));
  return keys.map((_k, i) => byIndex.get(i) ?? { i, freshness: null, features: [] });
}

/**
 * The land subgraph's data source for one request: each layer's lookups for every property of
 * the request in one statement (one per layer, whatever the number of properties).
 */
export class LandData {
  readonly easementsOf: DataLoader<ParcelKey, Found<EasementRow>, string>;
  readonly landValueOf: DataLoader<ParcelKey, Found<LandValueRow>, string>;
  readonly buildingsOn: DataLoader<BoundaryKey, Found<BuildingRow>, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    const { dataset } = scope;
    const columns = (keys: readonly ParcelKey[]) =>
      [
        dataset,
        keys.map((k) => k.state),
        keys.map((k) => k.parcel_pfi),
        keys.map((k) => k.lng),
        keys.map((k) => k.lat),
      ] as const;
    this.easementsOf = new DataLoader<ParcelKey, Found<EasementRow>, string>(
      async (keys) =>
        inKeyOrder(keys, await foldedSql<Found<EasementRow>>(deps.db, EASEMENTS_OF_PARCELS(...columns(keys)))),
      { cacheKeyFn: parcelKey },
    );
    this.landValueOf = new DataLoader<ParcelKey, Found<LandValueRow>, string>(
      async (keys) =>
        inKeyOrder(keys, await foldedSql<Found<LandValueRow>>(deps.db, LAND_VALUES_OF_PARCELS(...columns(keys)))),
      { cacheKeyFn: parcelKey },
    );
    this.buildingsOn = new DataLoader<BoundaryKey, Found<BuildingRow>, string>(
      async (keys) =>
        inKeyOrder(
          keys,
          await foldedSql<Found<BuildingRow>>(
            deps.db,
            BUILDINGS_ON_PARCELS(
              dataset,
              keys.map((k) => k.state),
              keys.map((k) => JSON.stringify(k.geometry)),
              keys.map((k) => k.lng),
              keys.map((k) => k.lat),
            ),
          ),
        ),
      { cacheKeyFn: parcelKey },
    );
  }

  provenance(layer: LandLayerName | 'buildings-state', state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, layer, state);
  }

  async easementsInBBox(state: string, bbox: BBox, limit: number): Promise<Found<EasementRow>> {
    const [row] = await this.deps.db.sql<Found<EasementRow>>(EASEMENTS_IN_BBOX(this.scope.dataset, state, bbox, limit));
    return row ?? { i: 0, freshness: null, features: [] };
  }

  async buildingsInBBox(state: string, bbox: BBox, limit: number): Promise<Found<BuildingRow>> {
    const [row] = await this.deps.db.sql<Found<BuildingRow>>(BUILDINGS_IN_BBOX(this.scope.dataset, state, bbox, limit));
    return row ?? { i: 0, freshness: null, features: [] };
  }

  async buildingsAt(state: string, lng: number, lat: number): Promise<Found<BuildingRow>> {
    const [row] = await this.deps.db.sql<Found<BuildingRow>>(BUILDINGS_AT_POINT(this.scope.dataset, state, lng, lat));
    return row ?? { i: 0, freshness: null, features: [] };
  }
}

export type LandContext = RequestScope & { land: LandData };
