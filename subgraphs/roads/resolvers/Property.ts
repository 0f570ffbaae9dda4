import type { RoadsContext } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import { frontingRoadsLayer, roadLinesLayer } from './roads-layer.ts';

export const Property: PropertyResolvers<RoadsContext> = {
  __resolveReference(reference) {
    return {
      parcel_pfi: reference.parcel_pfi ?? null,
      state: reference.state ?? '',
      parcel_geometry: 'parcel_geometry' in reference ? (reference.parcel_geometry ?? null) : null,
    };
  },
  roads: (property, _args, ctx) => frontingRoadsLayer(property, ctx),
  road_lines: (property, _args, ctx) => roadLinesLayer(property, ctx),
};
