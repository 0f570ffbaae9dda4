import type { DemographicsContext } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import { propertyDemographics } from './layers.ts';

export const Property: PropertyResolvers<DemographicsContext> = {
  __resolveReference(reference) {
    return {
      parcel_pfi: reference.parcel_pfi ?? null,
      state: reference.state ?? '',
      location: reference.location ?? null,
    };
  },
  demographics: (property, _args, ctx) => propertyDemographics(property, ctx),
};
