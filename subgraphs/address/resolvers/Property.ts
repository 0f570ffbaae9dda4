import { layerEmpty, layerOk, guardLayer } from '../../../core/layer.ts';
import type { AddressContext, AddressProperty } from '../data.ts';
import type { AddressRow } from '../sql.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';

function fromRow(row: AddressRow): AddressProperty {
  return {
    gnaf_pid: row.gnaf_pid,
    parcel_pfi: row.parcel_pfi,
    state: row.state,
    address_point: { lat: row.lat, lng: row.lng },
    addressRow: row,
  };
}

export async function resolvePropertyByGnafPid(gnafPid: string, ctx: AddressContext): Promise<AddressProperty | null> {
  const row = await ctx.address.byGnafPid.load(gnafPid);
  return row ? fromRow(row) : null;
}

export const Property: PropertyResolvers<AddressContext> = {
  async __resolveReference(reference, ctx) {
    if ('gnaf_pid' in reference) {
      const row = reference.gnaf_pid ? await ctx.address.byGnafPid.load(reference.gnaf_pid) : null;
      if (row) return fromRow(row);
      return {
        gnaf_pid: reference.gnaf_pid ?? null,
        parcel_pfi: null,
        state: '',
        address_point: null,
        addressRow: null,
      };
    }
    const { parcel_pfi, state } = reference;
    const row = parcel_pfi ? await ctx.address.byParcel.load({ state, parcel_pfi }) : null;
    if (row) return fromRow(row);
    // A parcel (or a bare point) with no address: keep the keys the caller gave.
    return { gnaf_pid: null, parcel_pfi: parcel_pfi ?? null, state, address_point: null, addressRow: null };
  },
  address(property, _args, ctx) {
    return guardLayer('address', async () => {
      const provenance = await ctx.address.provenance(property.state);
      if (!provenance)
        return layerEmpty('not_covered', `No address data is held for ${property.state || 'this state'}.`);
      if (!property.addressRow) return layerEmpty('no_data', 'No address is recorded for this property.', provenance);
      return layerOk(property.addressRow, provenance);
    });
  },
};
