import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { LayerResult } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { AddressRow } from './sql.ts';
import { ADDRESSES_BY_GNAF_PID, PRINCIPAL_ADDRESS_BY_PARCEL } from './sql.ts';

export type ParcelKey = { state: string; parcel_pfi: string };

/** The address layer's data source for one request: its loaders batch every entity lookup. */
export class AddressData {
  readonly byGnafPid: DataLoader<string, AddressRow | null>;
  readonly byParcel: DataLoader<ParcelKey, AddressRow | null, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    const prisma = deps.db.prisma;
    this.byGnafPid = new DataLoader(async (pids) => {
      const rows = await prisma.$queryRaw<AddressRow[]>(ADDRESSES_BY_GNAF_PID(scope.dataset, [...pids]));
      const byPid = new Map(rows.map((r) => [r.gnaf_pid, r]));
      return pids.map((pid) => byPid.get(pid) ?? null);
    });
    this.byParcel = new DataLoader(
      async (keys) => {
        const rows = await prisma.$queryRaw<AddressRow[]>(
          PRINCIPAL_ADDRESS_BY_PARCEL(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.parcel_pfi),
          ),
        );
        const byKey = new Map(rows.map((r) => [`${r.state}:${r.parcel_pfi ?? ''}`, r]));
        return keys.map((k) => byKey.get(`${k.state}:${k.parcel_pfi}`) ?? null);
      },
      { cacheKeyFn: (k) => `${k.state}:${k.parcel_pfi}` },
    );
  }

  provenance(state: string) {
    return this.deps.catalog.get(this.scope.dataset, 'address', state);
  }
}

export type AddressContext = RequestScope & { address: AddressData };

export type GeoPointModel = { lat: number; lng: number };

/** A Property as this subgraph resolves it: its keys, its address point and its address row. */
export type AddressProperty = {
  gnaf_pid: string | null;
  parcel_pfi: string | null;
  state: string;
  address_point: GeoPointModel | null;
  addressRow: AddressRow | null;
};

export type AddressLayerModel = LayerResult<AddressRow>;
