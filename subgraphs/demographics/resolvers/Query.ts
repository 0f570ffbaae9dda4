import { AppError } from '../../../core/errors.ts';
import { assertPoint, assertState } from '../../../core/validate.ts';
import type { DemographicsContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { demographicsLayer, suburbDemographicsLayer } from './layers.ts';

/** The longest suburb name asked for: the longest ABS SAL name is well under it. */
const MAX_SUBURB_LENGTH = 80;

export const Query: QueryResolvers<DemographicsContext> = {
  demographicsAt(_parent, { lat, lng, state }, ctx) {
    assertPoint(lat, lng);
    return demographicsLayer(assertState(state), { lat, lng }, ctx);
  },
  suburbDemographics(_parent, { state, suburb }, ctx) {
    const name = suburb.trim();
    if (name.length === 0 || name.length > MAX_SUBURB_LENGTH) {
      throw new AppError(
        'BAD_REQUEST',
        `suburb must be 1 to ${MAX_SUBURB_LENGTH} characters.`,
        'Give the suburb or locality name, e.g. suburb=Richmond.',
      );
    }
    return suburbDemographicsLayer(assertState(state), name, ctx);
  },
};
