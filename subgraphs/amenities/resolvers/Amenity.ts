import type { AmenityResolvers } from '../generated/resolvers-types.ts';
import type { AmenitiesContext } from '../data.ts';

// The rows carry the category as stored; the graph's enum has the same names.
export const Amenity: AmenityResolvers<AmenitiesContext> = {
  category: (a) => a.category as never,
};
