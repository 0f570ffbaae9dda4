import type { HazardsContext } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import { hazardsLayer } from './hazards-layer.ts';

export const Property: PropertyResolvers<HazardsContext> = {
  __resolveReference(reference) {
    return {
      parcel_pfi: reference.parcel_pfi ?? null,
      state: reference.state ?? '',
      location: reference.location ?? null,
      ground_profile: 'ground_profile' in reference ? (reference.ground_profile ?? null) : null,
    };
  },
  hazards: (property, _args, ctx) => hazardsLayer(property, ctx),
};
