import type { TerrainContext } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import { groundProfileLayer, propertyTerrain } from './terrain-layer.ts';

export const Property: PropertyResolvers<TerrainContext> = {
  __resolveReference(reference) {
    return {
      parcel_pfi: reference.parcel_pfi ?? null,
      state: reference.state ?? '',
      location: reference.location ?? null,
      parcel_geometry: 'parcel_geometry' in reference ? (reference.parcel_geometry ?? null) : null,
    };
  },
  terrain: (property, _args, ctx) => propertyTerrain(property, ctx),
  ground_profile: (property, _args, ctx) => groundProfileLayer(property, ctx),
};
