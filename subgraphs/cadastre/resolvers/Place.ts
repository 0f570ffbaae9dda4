import { DatabaseUnavailableError } from '../../../core/errors.ts';
import { logger } from '../../../core/logger.ts';
import type { CadastreContext, PlaceModel } from '../data.ts';
import type { PlaceResolvers } from '../generated/resolvers-types.ts';

/**
 * A point in a state and the parcels under it. The layers that answer what lies around a point
 * (the development layer's SPEAR applications) require Place.parcel_pfis rather than read the
 * cadastre's tables (docs/decisions.md, "Subgraphs read only their own tables").
 */
export const Place: PlaceResolvers<CadastreContext> = {
  __resolveReference(reference) {
    return { lat: reference.lat ?? NaN, lng: reference.lng ?? NaN, state: reference.state ?? '' } satisfies PlaceModel;
  },
  async parcel_pfis(place, _args, ctx) {
    if (place.parcel_pfis) return place.parcel_pfis;
    try {
      return await ctx.cadastre.pfisUnder.load({ state: place.state, lat: place.lat, lng: place.lng });
    } catch (error) {
      // the layer that requires them reports the failure as its own (status error), as when it read them itself
      if (error instanceof DatabaseUnavailableError) throw error;
      logger.error('the parcels under a point could not be read', { error: (error as Error).message });
      return null;
    }
  },
};
