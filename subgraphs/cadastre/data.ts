import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { Indexed, ParcelRow } from './sql.ts';
import { BBOX_COVERED, COVERED_POINTS, PARCELS_AT_POINTS, PARCELS_BY_PFI, PARCELS_IN_BBOX } from './sql.ts';

export type PointKey = { state: string; lat: number; lng: number };
export type ParcelKey = { state: string; parcel_pfi: string };
export type GeoPointModel = { lat: number; lng: number };

/** A Property as the cadastre resolves it; `parcel` is filled when the lookup already found it. */
export type CadastreProperty = {
  parcel_pfi: string | null;
  state: string;
  location: GeoPointModel | null;
  parcel?: ParcelRow | null;
};

export type CadastreLayerModel = LayerResult<ParcelRow>;
export type ParcelCollectionModel = Omit<LayerResult<never>, 'data'> & { features: ParcelRow[] };

const pointKey = (k: PointKey) => `${k.state}:${k.lng}:${k.lat}`;
const parcelKey = (k: ParcelKey) => `${k.state}:${k.parcel_pfi}`;

/** The cadastre's data source for one request: every lookup of a request is one batched query. */
export class CadastreData {
  readonly parcelByKey: DataLoader<ParcelKey, ParcelRow | null, string>;
  readonly parcelAtPoint: DataLoader<PointKey, ParcelRow | null, string>;
  readonly coveredAt: DataLoader<PointKey, boolean, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    const prisma = deps.db.prisma;
    const { dataset } = scope;
    this.parcelByKey = new DataLoader(
      async (keys) => {
        const rows = await prisma.$queryRaw<ParcelRow[]>(
          PARCELS_BY_PFI(
            dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.parcel_pfi),
          ),
        );
        const byKey = new Map(rows.map((r) => [parcelKey(r), r]));
        return keys.map((k) => byKey.get(parcelKey(k)) ?? null);
      },
      { cacheKeyFn: parcelKey },
    );
    this.parcelAtPoint = new DataLoader(
      async (keys) => {
        const rows = await prisma.$queryRaw<Indexed<ParcelRow>[]>(
          PARCELS_AT_POINTS(
            dataset,
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
    this.coveredAt = new DataLoader(
      async (keys) => {
        const rows = await prisma.$queryRaw<{ i: number }[]>(
          COVERED_POINTS(
            dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.lng),
            keys.map((k) => k.lat),
          ),
        );
        const covered = new Set(rows.map((r) => r.i));
        return keys.map((_k, i) => covered.has(i));
      },
      { cacheKeyFn: pointKey },
    );
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, 'cadastre', state);
  }

  /** Parcels in a window, with one row past the limit so the caller can refuse an over-full window. */
  parcelsInBBox(state: string, bbox: { west: number; south: number; east: number; north: number }, limit: number) {
    return this.deps.db.prisma.$queryRaw<ParcelRow[]>(PARCELS_IN_BBOX(this.scope.dataset, state, bbox, limit));
  }

  async bboxCovered(state: string, bbox: { west: number; south: number; east: number; north: number }) {
    const [row] = await this.deps.db.prisma.$queryRaw<{ covered: boolean }[]>(
      BBOX_COVERED(this.scope.dataset, state, bbox),
    );
    return row?.covered === true;
  }
}

export type CadastreContext = RequestScope & { cadastre: CadastreData };
