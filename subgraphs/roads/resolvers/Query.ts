import { badRequest } from '../../../core/errors.ts';
import { assertPoint, assertState } from '../../../core/validate.ts';
import type { RoadsContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { DEFAULT_NEAREST, MAX_NEAREST, nearestRoadsLayer } from './roads-layer.ts';

export const Query: QueryResolvers<RoadsContext> = {
  roadsNear(_parent, { lat, lng, state, limit }, ctx) {
    assertPoint(lat, lng);
    const code = assertState(state);
    const count = limit ?? DEFAULT_NEAREST;
    if (!Number.isInteger(count) || count < 1 || count > MAX_NEAREST) {
      throw badRequest(
        `limit must be a whole number from 1 to ${MAX_NEAREST}.`,
        `Omit it for the ${DEFAULT_NEAREST} nearest.`,
      );
    }
    return nearestRoadsLayer(code, lat, lng, count, ctx);
  },
};
