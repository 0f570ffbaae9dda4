import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { BBox } from '../../core/geo.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type {
  DevelopmentRow,
  FeedFilter,
  FeedRow,
  Found,
  LgaPageRow,
  StatisticsPlace,
  StatisticsRow,
  SuburbApplicationCountsRow,
} from './sql.ts';
import {
  SUBURB_APPLICATION_COUNTS,
  APPLICATION_STATISTICS,
  APPLICATIONS_IN_LGA,
  APPLICATIONS_NEAR,
  APPLICATIONS_OF_PARCELS,
  FEED_PAGE,
} from './sql.ts';

import type { SpearFound, SpearRow } from './spear-sql.ts';
import { SPEAR_IN_BOX, SPEAR_NEAR, SPEAR_OF_PARCELS } from './spear-sql.ts';
import { foldedSql } from '../../core/folded-sql.ts';

/** The SPEAR layer's name in dataset_source (VIC only). */
export const SPEAR_LAYER = 'spear';

/** The layer's name in dataset_source (its credit and snapshot, per state). */
export const DEVELOPMENT_LAYER = 'development-applications';

export type DevelopmentProperty = { parcel_pfi: string | null; state: string };

/** Every answer of the layer reports the day the newest application of its state was received (its freshness). */
export type WithFreshness<T> = T & { freshness: string | null };
type Header = WithFreshness<Omit<LayerResult<never>, 'data'>>;

export type DevelopmentLayerModel = WithFreshness<LayerResult<DevelopmentRow[]>>;
export type NearModel = Header & { radius_m: number; applications: DevelopmentRow[] };
export type PageModel = Header & {
  total: number;
  offset: number;
  next_offset: number | null;
  applications: DevelopmentRow[];
};
export type StatisticsModel = Header &
  Omit<StatisticsRow, 'states' | 'place'> & {
    lga_code: string | null;
    lga_name: string | null;
    suburb: string | null;
    state: string | null;
  };
export type CreditModel = { state: string; attribution: string; license: string };
export type FeedPageModel = {
  applications: DevelopmentRow[];
  next_cursor: string | null;
  has_more: boolean;
  credits: CreditModel[];
};

export type SpearLayerModel = WithFreshness<LayerResult<SpearRow[]>>;
export type SpearListModel = Header & { applications: SpearRow[] };

type ParcelKey = { state: string; parcel_pfi: string };
/**
 * A point in a state as the graph keys it, with the PFIs of the cadastre's parcels under it
 * (Place.parcel_pfis, required; null when the cadastre could not read them).
 */
export type PlaceEntity = { lat: number; lng: number; state: string; parcel_pfis: string[] | null };
/** A suburb as the graph keys it: its state and its name as suburbKey writes it. */
export type SuburbEntity = { state: string; name: string };
export type SuburbApplicationCountsModel = Omit<SuburbApplicationCountsRow, 'i'>;

/**
 * The development subgraph's data source for one request: the applications of every parcel of
 * the request in one statement, and the lookups by point, LGA, place and change.
 */
export class DevelopmentData {
  readonly applicationsOf: DataLoader<ParcelKey, Found, string>;
  /** The SPEAR applications touching each VIC parcel of the request, in one statement. */
  readonly spearOf: DataLoader<string, SpearFound, string>;
  /** Every suburb's application counts of the request in one statement (Suburb.development_pipeline). */
  readonly suburbCounts: DataLoader<SuburbEntity, SuburbApplicationCountsModel, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    this.suburbCounts = new DataLoader<SuburbEntity, SuburbApplicationCountsModel, string>(
      async (keys) => {
        // folded with the land-supply counts the planner asks in the same turn
        const rows = await foldedSql<SuburbApplicationCountsRow>(
          deps.db,
          SUBURB_APPLICATION_COUNTS(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.name),
          ),
        );
        const byIndex = new Map(rows.map(({ i, ...counts }) => [i, counts]));
        const none = { das_pending: 0, dwellings_pending: 0, das_approved: 0, dwellings_approved: 0 };
        return keys.map((_k, i) => byIndex.get(i) ?? none);
      },
      { cacheKeyFn: (k) => `${k.state}:${k.name}` },
    );
    this.applicationsOf = new DataLoader<ParcelKey, Found, string>(
      async (keys) => {
        const rows = await foldedSql<Found>(
          deps.db,
          APPLICATIONS_OF_PARCELS(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.parcel_pfi),
          ),
        );
        const byIndex = new Map(rows.map((row) => [row.i, row]));
        return keys.map((_k, i) => byIndex.get(i) ?? { i, freshness: null, features: [] });
      },
      { cacheKeyFn: (k) => `${k.state}:${k.parcel_pfi}` },
    );
    this.spearOf = new DataLoader<string, SpearFound, string>(async (pfis) => {
      const rows = await foldedSql<SpearFound>(deps.db, SPEAR_OF_PARCELS(scope.dataset, [...pfis]));
      const byIndex = new Map(rows.map((row) => [row.i, row]));
      return pfis.map((_p, i) => byIndex.get(i) ?? { i, freshness: null, features: [] });
    });
  }

  spearProvenance(): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, SPEAR_LAYER, 'VIC');
  }

  /** The applications near a point, `lots` the parcels under it (the cadastre's, through the graph). */
  async spearNear(
    lng: number,
    lat: number,
    radiusM: number,
    box: BBox,
    limit: number,
    lots: string[],
  ): Promise<SpearFound> {
    const [row] = await this.deps.db.sql<SpearFound>(
      SPEAR_NEAR(this.scope.dataset, lng, lat, radiusM, box, limit, lots),
    );
    return row ?? { i: 0, freshness: null, features: [] };
  }

  async spearInBox(box: BBox, limit: number): Promise<SpearFound> {
    const [row] = await this.deps.db.sql<SpearFound>(SPEAR_IN_BOX(this.scope.dataset, box, limit));
    return row ?? { i: 0, freshness: null, features: [] };
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, DEVELOPMENT_LAYER, state);
  }

  async near(state: string, lng: number, lat: number, radiusM: number, box: BBox, limit: number): Promise<Found> {
    const [row] = await this.deps.db.sql<Found>(
      APPLICATIONS_NEAR(this.scope.dataset, state, lng, lat, radiusM, box, limit),
    );
    return row ?? { i: 0, freshness: null, features: [] };
  }

  async inLga(lgaCode: string, state: string | null, limit: number, offset: number): Promise<LgaPageRow> {
    const [row] = await this.deps.db.sql<LgaPageRow>(
      APPLICATIONS_IN_LGA(this.scope.dataset, lgaCode, state, limit, offset),
    );
    return row ?? { total: 0, states: [], features: [] };
  }

  async statistics(place: StatisticsPlace, months: number): Promise<StatisticsRow> {
    const [row] = await this.deps.db.sql<StatisticsRow>(APPLICATION_STATISTICS(this.scope.dataset, place, months));
    if (!row) throw new Error('The statistics statement returned no row.');
    return row;
  }

  feed(filter: FeedFilter, limit: number): Promise<FeedRow[]> {
    return this.deps.db.sql<FeedRow>(FEED_PAGE(this.scope.dataset, filter, limit));
  }
}

export type DevelopmentContext = RequestScope & { development: DevelopmentData };
