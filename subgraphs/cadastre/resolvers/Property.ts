import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import type { CadastreContext, CadastreLayerModel, CadastreProperty } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import type { Resolution } from '../sources/fallbacks.ts';

/** A lookup's answer as the cadastre layer: the parcel with its source's credit, or why there is none. */
export function layerOf(resolution: Resolution): CadastreLayerModel {
  switch (resolution.status) {
    case 'ok':
      return layerOk(resolution.parcel, resolution.provenance);
    case 'error':
      // The source that failed is named; nothing was served, so there is nothing to credit.
      return {
        status: 'error',
        data: null,
        message: resolution.message,
        source: resolution.source,
        attribution: null,
        license: null,
      };
    default:
      return layerEmpty(resolution.status, resolution.message, resolution.provenance ?? undefined);
  }
}

/** The cadastre layer of a property: its parcel, or why there is none. */
export function cadastreLayer(property: CadastreProperty, ctx: CadastreContext): Promise<CadastreLayerModel> {
  return guardLayer('cadastre', async () => {
    if (property.resolution) return layerOf(property.resolution);
    const { state, parcel_pfi, location } = property;
    if (parcel_pfi) return layerOf(await ctx.cadastre.resolvePfi({ state, parcel_pfi }));
    if (location) return layerOf(await ctx.cadastre.resolvePoint({ state, ...location }));
    const provenance = await ctx.cadastre.provenance(state);
    return layerEmpty('skipped', 'The property has neither a parcel nor a point to look up.', provenance);
  });
}

export const Property: PropertyResolvers<CadastreContext> = {
  async __resolveReference(reference, ctx) {
    const state = reference.state ?? '';
    const parcel_pfi = reference.parcel_pfi ?? null;
    if (!parcel_pfi) return { parcel_pfi, state, location: null };
    const resolution = await ctx.cadastre.resolvePfi({ state, parcel_pfi });
    const parcel = resolution.status === 'ok' ? resolution.parcel : null;
    return {
      parcel_pfi,
      state,
      resolution,
      location: parcel ? { lat: parcel.inside_lat, lng: parcel.inside_lng } : null,
    };
  },
  cadastre: (property, _args, ctx) => cadastreLayer(property, ctx),
  async parcel_geometry(property, _args, ctx) {
    const layer = await cadastreLayer(property, ctx);
    return layer.status === 'ok' && layer.data ? layer.data.geometry : null;
  },
};
