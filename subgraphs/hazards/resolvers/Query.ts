import { assertPoint, assertState } from '../../../core/validate.ts';
import type { HazardsContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { hazardsLayer } from './hazards-layer.ts';

export const Query: QueryResolvers<HazardsContext> = {
  hazardsAt(_parent, { lat, lng, state }, ctx) {
    assertPoint(lat, lng);
    return hazardsLayer({ parcel_pfi: null, state: assertState(state), location: { lat, lng } }, ctx);
  },
};
