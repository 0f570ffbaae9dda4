import type { DevelopmentContext, PlaceEntity } from '../data.ts';
import type { PlaceResolvers } from '../generated/resolvers-types.ts';
import { spearApplicationsNear } from './spear.ts';

export const Place: PlaceResolvers<DevelopmentContext> = {
  __resolveReference(reference) {
    return {
      lat: reference.lat ?? NaN,
      lng: reference.lng ?? NaN,
      state: reference.state ?? '',
      // required by spear_applications_near: the planner sends it with the key
      parcel_pfis: 'parcel_pfis' in reference ? (reference.parcel_pfis ?? null) : null,
    } satisfies PlaceEntity;
  },
  spear_applications_near: (place, { radius_m }, ctx) => spearApplicationsNear(place, radius_m, ctx),
};
