import type { RequestScope } from '../../core/context.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { Box, EstateRow, LotRow, StateLatestRow, TileFeatureRow, WeekRow } from './sql.ts';
import {
  ESTATES_NEAR,
  ESTATES_WHERE,
  LOTS_NEAR,
  PLACE_KNOWN,
  SERIES,
  STATE_CREDITS,
  STATES_LATEST,
  TILE_FEATURES,
  TILE_MVT,
} from './sql.ts';

export type Credit = { state: string; attribution: string; license: string };

/** The supply subgraph's data source for one request. */
export class SupplyData {
  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {}

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
