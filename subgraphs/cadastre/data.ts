import { GENERIC_PLAN } from '../../core/db.ts';
import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { BBox, StateCode } from '../../core/geo.ts';
import { isStateCode } from '../../core/geo.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { CadastreFallbacks, CollectionResolution, Resolution } from './sources/fallbacks.ts';
import type { Indexed, ParcelRow } from './sql.ts';
import {
  BBOX_COVERAGE,
  COVERED_POINTS,
  PARCELS_AT_POINTS,
  PARCELS_BY_PFI,
  PARCELS_IN_BBOX,
  PARCELS_BY_LOT_PLAN,
  PARCELS_UNDER_POINTS,
  PLACES_OF_PARCELS,
} from './sql.ts';

export type PointKey = { state: string; lat: number; lng: number };
export type ParcelKey = { state: string; parcel_pfi: string };
export type GeoPointModel = { lat: number; lng: number };
type StatePointKey = PointKey & { state: StateCode };
type StateParcelKey = ParcelKey & { state: StateCode };

/**
 * A Property as the cadastre resolves it; `resolution` is filled when the lookup that made
 * it already found the parcel (or why there is none), so the cadastre layer need not ask again.
 */
export type CadastreProperty = {
  parcel_pfi: string | null;
  state: string;
  location: GeoPointModel | null;
  resolution?: Resolution;
};

/**
 * A point in a state (the Place entity). `parcel_pfis` is filled when the lookup that made it
 * already read the parcels under the point; otherwise Place.parcel_pfis reads them.
 */
export type PlaceModel = { lat: number; lng: number; state: string; parcel_pfis?: string[] };

export type CadastreLayerModel = LayerResult<ParcelRow>;
export type ParcelCollectionModel = Omit<LayerResult<never>, 'data'> & { features: ParcelRow[] };

const pointKey = (k: PointKey) => `${k.state}:${k.lng}:${k.lat}`;
const parcelKey = (k: ParcelKey) => `${k.state}:${k.parcel_pfi}`;

/** Why nothing answered where no source reaches. */
function notReached(state: string, mirror: Provenance | undefined, where: string): Resolution {
  return mirror
    ? { status: 'not_covered', message: `The ${state} cadastre mirror does not reach ${where}.`, provenance: mirror }
    : { status: 'not_covered', message: `The cadastre does not cover ${state || 'this state'} yet.`, provenance: null };
}

/**
 * The cadastre's data source for one request. The database mirror answers first, every lookup
 * of a request in one batched query; only where it does not reach are the sources behind it
 * (object store, live service) asked, through loaders of their own so each place is asked once.
 */
export class CadastreData {
  readonly parcelByKey: DataLoader<ParcelKey, ParcelRow | null, string>;
  readonly parcelAtPoint: DataLoader<PointKey, ParcelRow | null, string>;
  readonly coveredAt: DataLoader<PointKey, boolean, string>;
  /** The PFIs of the mirror's parcels under each point of the request (Place.parcel_pfis), in one statement. */
  readonly pfisUnder: DataLoader<PointKey, string[], string>;
  private readonly placeByParcel: DataLoader<ParcelKey, Required<PlaceModel> | null, string>;
  private readonly fallbackAtPoint: DataLoader<StatePointKey, Resolution | null, string>;
  private readonly fallbackByPfi: DataLoader<StateParcelKey, Resolution | null, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
    private readonly fallbacks: CadastreFallbacks,
  ) {
    const db = deps.db;
    const { dataset } = scope;
    this.parcelByKey = new DataLoader(
      async (keys) => {
        const rows = await db.sql<ParcelRow>(
          PARCELS_BY_PFI(
            dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.parcel_pfi),
          ),
          GENERIC_PLAN,
        );
        const byKey = new Map(rows.map((r) => [parcelKey(r), r]));
        return keys.map((k) => byKey.get(parcelKey(k)) ?? null);
      },
      { cacheKeyFn: parcelKey },
    );
    this.parcelAtPoint = new DataLoader(
      async (keys) => {
        const rows = await db.sql<Indexed<ParcelRow>>(
          PARCELS_AT_POINTS(
            dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.lng),
            keys.map((k) => k.lat),
          ),
          GENERIC_PLAN,
        );
        const byIndex = new Map(rows.map(({ i, ...row }) => [i, row]));
        return keys.map((_k, i) => byIndex.get(i) ?? null);
      },
      { cacheKeyFn: pointKey },
    );
    this.coveredAt = new DataLoader(
      async (keys) => {
        const rows = await db.sql<{ i: number }>(
          COVERED_POINTS(
            dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.lng),
            keys.map((k) => k.lat),
          ),
          GENERIC_PLAN,
        );
        const covered = new Set(rows.map((r) => r.i));
        return keys.map((_k, i) => covered.has(i));
      },
      { cacheKeyFn: pointKey },
    );
    this.pfisUnder = new DataLoader(
      async (keys) => {
        const rows = await db.sql<{ i: number; parcel_pfis: string[] }>(
          PARCELS_UNDER_POINTS(
            dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.lng),
            keys.map((k) => k.lat),
          ),
          GENERIC_PLAN,
        );
        const byIndex = new Map(rows.map((r) => [r.i, r.parcel_pfis]));
        return keys.map((_k, i) => byIndex.get(i) ?? []);
      },
      { cacheKeyFn: pointKey },
    );
    this.placeByParcel = new DataLoader(
      async (keys) => {
        const rows = await db.sql<Indexed<Required<PlaceModel>>>(
          PLACES_OF_PARCELS(
            dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.parcel_pfi),
          ),
          GENERIC_PLAN,
        );
        const byIndex = new Map(rows.map(({ i, ...place }) => [i, place]));
        return keys.map((_k, i) => byIndex.get(i) ?? null);
      },
      { cacheKeyFn: parcelKey },
    );
    // Live services answer one point per call; a batch of points is asked side by side.
    this.fallbackAtPoint = new DataLoader<StatePointKey, Resolution | null, string>(
      (keys) => Promise.all(keys.map((k) => fallbacks.atPoint(dataset, k.state, k.lng, k.lat))),
      { cacheKeyFn: pointKey },
    );
    // PFIs batch: one `where <id> IN (...)` per state.
    this.fallbackByPfi = new DataLoader<StateParcelKey, Resolution | null, string>(
      async (keys) => {
        const states = [...new Set(keys.map((k) => k.state))];
        const answers = await Promise.all(
          states.map(async (state) => {
            const pfis = keys.filter((k) => k.state === state).map((k) => k.parcel_pfi);
            return [state, await fallbacks.byPfis(dataset, state, pfis)] as const;
          }),
        );
        const byState = new Map(answers);
        return keys.map((k) => byState.get(k.state)?.get(k.parcel_pfi) ?? null);
      },
      { cacheKeyFn: parcelKey, maxBatchSize: 100 },
    );
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, 'cadastre', state);
  }

  /** The state, if any source behind the mirror may answer for it. */
  private fallbackState(state: string): StateCode | undefined {
    return isStateCode(state) && this.fallbacks.serves(this.scope.dataset, state) ? state : undefined;
  }

  /** The parcel under a point: the mirror, then (where it does not reach) the sources behind it. */
  async resolvePoint(key: PointKey): Promise<Resolution> {
    const parcel = await this.parcelAtPoint.load(key);
    const mirror = await this.provenance(key.state);
    if (mirror && parcel) return { status: 'ok', parcel, provenance: mirror };
    if (mirror && (await this.coveredAt.load(key))) {
      return {
        status: 'no_data',
        message: 'No parcel at this point: it falls on a road reserve, water or unparcelled land.',
        provenance: mirror,
      };
    }
    const state = this.fallbackState(key.state);
    const answer = state ? await this.fallbackAtPoint.load({ ...key, state }) : null;
    return answer ?? notReached(key.state, mirror, 'this point');
  }

  /** A parcel by PFI: the mirror, then the sources behind it. */
  async resolvePfi(key: ParcelKey): Promise<Resolution> {
    const parcel = await this.parcelByKey.load(key);
    const mirror = await this.provenance(key.state);
    if (mirror && parcel) return { status: 'ok', parcel, provenance: mirror };
    const state = this.fallbackState(key.state);
    const answer = state ? await this.fallbackByPfi.load({ ...key, state }) : null;
    if (answer) return answer;
    return mirror
      ? { status: 'no_data', message: `No parcel with PFI ${key.parcel_pfi} in ${key.state}.`, provenance: mirror }
      : notReached(key.state, mirror, 'this parcel');
  }

  /**
   * The point a parcel is analysed at (the property's location, as resolvePfi gives it), with the
   * parcels under it: from the mirror, point and parcels in one statement; a parcel only the
   * sources behind the mirror hold gets their point (its parcels read by Place.parcel_pfis).
   * Null where no source has the parcel, or its source failed.
   */
  async placeOfParcel(key: ParcelKey): Promise<PlaceModel | null> {
    if (await this.provenance(key.state)) {
      const place = await this.placeByParcel.load(key);
      if (place) return place;
      // the mirror has no such parcel: resolvePfi need not ask it again
      this.parcelByKey.prime(key, null);
    }
    const resolution = await this.resolvePfi(key);
    if (resolution.status !== 'ok') return null;
    return { lat: resolution.parcel.inside_lat, lng: resolution.parcel.inside_lng, state: key.state };
  }

  /** Parcels of a lot on a plan (or of the whole plan), with one row past the limit. */
  parcelsByLotPlan(state: string, ref: { spi: string | null; lot: string | null; plan: string }, limit: number) {
    return this.deps.db.sql<ParcelRow>(
      PARCELS_BY_LOT_PLAN(this.scope.dataset, state, ref.spi, ref.lot, ref.plan, limit),
    );
  }

  /** Parcels in a window, with one row past the limit so the caller can refuse an over-full window. */
  parcelsInBBox(state: string, bbox: BBox, limit: number) {
    return this.deps.db.sql<ParcelRow>(PARCELS_IN_BBOX(this.scope.dataset, state, bbox, limit));
  }

  async bboxCoverage(state: string, bbox: BBox): Promise<{ touches: boolean; holds: boolean }> {
    const [row] = await this.deps.db.sql<{ touches: boolean; holds: boolean }>(
      BBOX_COVERAGE(this.scope.dataset, state, bbox),
    );
    return { touches: row?.touches === true, holds: row?.holds === true };
  }

  /** Whether a window the mirror does not wholly hold may be asked of the sources behind it. */
  hasFallback(state: string): boolean {
    return this.fallbackState(state) !== undefined;
  }

  /** The window from the sources behind the mirror; null when none reaches it. */
  async fallbackInBBox(state: string, bbox: BBox, limit: number): Promise<CollectionResolution | null> {
    const served = this.fallbackState(state);
    return served ? this.fallbacks.inBBox(this.scope.dataset, served, bbox, limit) : null;
  }
}

export type CadastreContext = RequestScope & { cadastre: CadastreData };

export type { LotReference as LotReferenceModel } from './lot-reference.ts';
