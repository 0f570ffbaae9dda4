import type { SoilContext } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import { propertySoil } from './soil-layer.ts';

export const Property: PropertyResolvers<SoilContext> = {
  __resolveReference(reference) {
    return {
      parcel_pfi: reference.parcel_pfi ?? null,
      state: reference.state ?? '',
      location: reference.location ?? null,
      parcel_geometry: 'parcel_geometry' in reference ? (reference.parcel_geometry ?? null) : null,
    };
  },
  soil: (property, _args, ctx) => propertySoil(property, ctx),
};
