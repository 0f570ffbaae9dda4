import { badRequest } from '../../../core/errors.ts';
import { MAX_BBOX_FEATURES, assertBBox, assertPoint, assertState } from '../../../core/validate.ts';
import type { CadastreContext, CadastreProperty } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { cadastreLayer } from './Property.ts';

async function propertyAt(
  lat: number,
  lng: number,
  stateInput: string,
  ctx: CadastreContext,
): Promise<CadastreProperty> {
  assertPoint(lat, lng);
  const state = assertState(stateInput);
  const parcel = await ctx.cadastre.parcelAtPoint.load({ state, lat, lng });
  return { parcel_pfi: parcel?.parcel_pfi ?? null, state, parcel, location: { lat, lng } };
}

export const Query: QueryResolvers<CadastreContext> = {
  async parcelAt(_parent, { lat, lng, state }, ctx) {
    return cadastreLayer(await propertyAt(lat, lng, state, ctx), ctx);
  },
  async parcelByPfi(_parent, { parcel_pfi, state }, ctx) {
    return cadastreLayer({ parcel_pfi: parcel_pfi.trim(), state: assertState(state), location: null }, ctx);
  },
  propertyAt: (_parent, { lat, lng, state }, ctx) => propertyAt(lat, lng, state, ctx),
  async propertyByParcel(_parent, { parcel_pfi, state }, ctx) {
    const key = { parcel_pfi: parcel_pfi.trim(), state: assertState(state) };
    const parcel = await ctx.cadastre.parcelByKey.load(key);
    if (!parcel) return null;
    return { ...key, parcel, location: { lat: parcel.inside_lat, lng: parcel.inside_lng } };
  },
  async parcelsInBBox(_parent, { bbox, state: stateInput }, ctx) {
    assertBBox(bbox);
    const state = assertState(stateInput);
    const provenance = await ctx.cadastre.provenance(state);
    if (!provenance) {
      return {
        status: 'not_covered',
        message: `The cadastre does not cover ${state} yet.`,
        attribution: null,
        license: null,
        source: null,
        features: [],
      };
    }
    const features = await ctx.cadastre.parcelsInBBox(state, bbox, MAX_BBOX_FEATURES);
    if (features.length > MAX_BBOX_FEATURES) {
      throw badRequest(
        `The window holds more than ${MAX_BBOX_FEATURES} parcels.`,
        'Request a smaller bbox (split it into tiles); results are never truncated.',
      );
    }
    if (features.length > 0) return { status: 'ok', message: null, ...provenance, features };
    const covered = await ctx.cadastre.bboxCovered(state, bbox);
    return {
      status: covered ? 'no_data' : 'not_covered',
      message: covered
        ? 'No parcels intersect this window.'
        : `The ${state} cadastre mirror does not reach this window.`,
      ...provenance,
      features,
    };
  },
};
