import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import { foldedSql } from '../../core/folded-sql.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { Box, EstateRow, LotRow, StateLatestRow, SuburbLotCountsRow, TileFeatureRow, WeekRow } from './sql.ts';
import {
  ESTATES_NEAR,
  ESTATES_WHERE,
  LOTS_NEAR,
  PLACE_KNOWN,
  SERIES,
  STATE_CREDITS,
  STATES_LATEST,
  SUBURB_LOT_COUNTS,
  TILE_FEATURES,
  TILE_MVT,
} from './sql.ts';

export type Credit = { state: string; attribution: string; license: string };
/** A suburb as the graph keys it: its state and its name as suburbKey writes it. */
export type SuburbEntity = { state: string; name: string };
export type SuburbLotCountsModel = Omit<SuburbLotCountsRow, 'i'>;

/** The supply subgraph's data source for one request. */
export class SupplyData {
  /** Every suburb's lot and estate counts of the request in one statement (Suburb.land_supply_pipeline). */
  readonly suburbCounts: DataLoader<SuburbEntity, SuburbLotCountsModel, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    this.suburbCounts = new DataLoader<SuburbEntity, SuburbLotCountsModel, string>(
      async (keys) => {
        // folded with the development-application counts the planner asks in the same turn
        const rows = await foldedSql<SuburbLotCountsRow>(
          deps.db,
          SUBURB_LOT_COUNTS(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.name),
          ),
        );
        const byIndex = new Map(rows.map(({ i, ...counts }) => [i, counts]));
        return keys.map((_k, i) => byIndex.get(i) ?? { lots_available: 0, estates_selling: 0 });
      },
      { cacheKeyFn: (k) => `${k.state}:${k.name}` },
    );
  }

  get kind() {
    return this.deps.db.kind;
  }

  credits(): Promise<Credit[]> {
    return this.deps.db.sql<Credit>(STATE_CREDITS(this.scope.dataset));
  }

  estatesNear(lng: number, lat: number, radiusM: number, box: Box, limit: number): Promise<EstateRow[]> {
    return this.deps.db.sql<EstateRow>(ESTATES_NEAR(this.scope.dataset, lng, lat, radiusM, box, limit));
  }

  lotsNear(lng: number, lat: number, radiusM: number, box: Box, available: boolean, limit: number): Promise<LotRow[]> {
    return this.deps.db.sql<LotRow>(LOTS_NEAR(this.scope.dataset, lng, lat, radiusM, box, available, limit));
  }

  series(level: 'estate' | 'suburb' | 'state', place: string, weeks: number): Promise<WeekRow[]> {
    return this.deps.db.sql<WeekRow>(SERIES(this.scope.dataset, level, place, weeks));
  }

  estates(where: { estateId: string } | { state: string; suburb: string; selling: boolean }): Promise<EstateRow[]> {
    return this.deps.db.sql<EstateRow>(ESTATES_WHERE(this.scope.dataset, where));
  }

  async placeKnown(where: { state: string; suburb?: string }): Promise<{ known: boolean; suburb: string | null }> {
    const [row] = await this.deps.db.sql<{ known: boolean; suburb: string | null }>(
      PLACE_KNOWN(this.scope.dataset, where),
    );
    return row ?? { known: false, suburb: null };
  }

  statesLatest(): Promise<StateLatestRow[]> {
    return this.deps.db.sql<StateLatestRow>(STATES_LATEST(this.scope.dataset));
  }

  async tileByPostgis(z: number, x: number, y: number): Promise<{ mvt: Uint8Array; features: number }> {
    const [row] = await this.deps.db.sql<{ mvt: Uint8Array; features: number }>(TILE_MVT(this.scope.dataset, z, x, y));
    return row ?? { mvt: new Uint8Array(0), features: 0 };
  }

  tileFeatures(z: number, x: number, y: number): Promise<TileFeatureRow[]> {
    return this.deps.db.sql<TileFeatureRow>(TILE_FEATURES(this.scope.dataset, z, x, y));
  }
}

export type SupplyContext = RequestScope & { supply: SupplyData };
