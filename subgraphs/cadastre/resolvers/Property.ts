import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import type { CadastreContext, CadastreLayerModel, CadastreProperty } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';

/** The cadastre layer of a property: its parcel, or why there is none. */
export function cadastreLayer(property: CadastreProperty, ctx: CadastreContext): Promise<CadastreLayerModel> {
  return guardLayer('cadastre', async () => {
    const provenance = await ctx.cadastre.provenance(property.state);
    if (!provenance) {
      return layerEmpty('not_covered', `The cadastre does not cover ${property.state || 'this state'} yet.`);
    }
    if (property.parcel_pfi) {
      const parcel =
        property.parcel ??
        (await ctx.cadastre.parcelByKey.load({ state: property.state, parcel_pfi: property.parcel_pfi }));
      return parcel
        ? layerOk(parcel, provenance)
        : layerEmpty('no_data', `No parcel with PFI ${property.parcel_pfi} in ${property.state}.`, provenance);
    }
    if (!property.location) {
      return layerEmpty('skipped', 'The property has neither a parcel nor a point to look up.', provenance);
    }
    const covered = await ctx.cadastre.coveredAt.load({ state: property.state, ...property.location });
    return covered
      ? layerEmpty(
          'no_data',
          'No parcel at this point: it falls on a road reserve, water or unparcelled land.',
          provenance,
        )
      : layerEmpty('not_covered', `The ${property.state} cadastre mirror does not reach this point.`, provenance);
  });
}

export const Property: PropertyResolvers<CadastreContext> = {
  async __resolveReference(reference, ctx) {
    const state = reference.state ?? '';
    const parcel_pfi = reference.parcel_pfi ?? null;
    const parcel = parcel_pfi ? await ctx.cadastre.parcelByKey.load({ state, parcel_pfi }) : null;
    return {
      parcel_pfi,
      state,
      parcel,
      location: parcel ? { lat: parcel.inside_lat, lng: parcel.inside_lng } : null,
    };
  },
  cadastre: (property, _args, ctx) => cadastreLayer(property, ctx),
};
