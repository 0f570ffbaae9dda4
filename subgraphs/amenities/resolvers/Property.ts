import { WALKING_SPEED_M_PER_MIN } from '../../../core/amenities.ts';
import type { AmenitiesContext, AmenitiesProperty, CatchmentModel } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import { assertMinutes, catchmentLayer } from './Query.ts';

export const Property: PropertyResolvers<AmenitiesContext> = {
  __resolveReference(reference) {
    return {
      parcel_pfi: reference.parcel_pfi ?? null,
      state: reference.state ?? '',
      location: 'location' in reference ? (reference.location ?? null) : null,
    } satisfies AmenitiesProperty;
  },
  // every entity's catchment of one request goes through the request's batch (AmenitiesData.catchment)
  walking_catchment: (property, { minutes }, ctx): Promise<CatchmentModel> => {
    const asked = assertMinutes(minutes);
    if (!property.location) {
      const budget = asked * WALKING_SPEED_M_PER_MIN;
      return Promise.resolve({
        status: 'skipped',
        source: null,
        attribution: null,
        license: null,
        freshness: null,
        message: 'The property has no point to walk from.',
        minutes: asked,
        walking_speed_m_per_min: WALKING_SPEED_M_PER_MIN,
        budget_m: budget,
        approximate: false,
        reason: null,
        origin_node: null,
        origin_access_m: null,
        reached_nodes: 0,
        reached_edges: 0,
        polygon: null,
        amenities: [],
      });
    }
    return catchmentLayer(ctx, property.state, property.location.lat, property.location.lng, asked);
  },
};
