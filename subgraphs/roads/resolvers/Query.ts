import { badRequest } from '../../../core/errors.ts';
import { assertPoint, assertState } from '../../../core/validate.ts';
import type { RoadsContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { nearestRoadsLayer } from './roads-layer.ts';
import { DEFAULT_NEAREST_ROADS, MAX_NEAREST_ROADS } from '../../../core/limits.ts';

export const Query: QueryResolvers<RoadsContext> = {
  roadsNear(_parent, { lat, lng, state, limit }, ctx) {
    assertPoint(lat, lng);
    const code = assertState(state);
    const count = limit ?? DEFAULT_NEAREST_ROADS;
    if (!Number.isInteger(count) || count < 1 || count > MAX_NEAREST_ROADS) {
      throw badRequest(
        `limit must be a whole number from 1 to ${MAX_NEAREST_ROADS}.`,
        `Omit it for the ${DEFAULT_NEAREST_ROADS} nearest.`,
      );
    }
    return nearestRoadsLayer(code, lat, lng, count, ctx);
  },
};
