import { assertPoint, assertState } from '../../../core/validate.ts';
import type { PlanningContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { planningLayer } from './planning-layer.ts';

export const Query: QueryResolvers<PlanningContext> = {
  planningAt(_parent, { lat, lng, state }, ctx) {
    assertPoint(lat, lng);
    return planningLayer(
      { parcel_pfi: null, state: assertState(state), location: { lat, lng }, parcel_geometry: null },
      ctx,
    );
  },
};
