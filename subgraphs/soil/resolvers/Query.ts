import { assertPoint, assertState } from '../../../core/validate.ts';
import type { SoilContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { soilLayer } from './soil-layer.ts';

export const Query: QueryResolvers<SoilContext> = {
  soilAt(_parent, { lat, lng, state }, ctx) {
    assertPoint(lat, lng);
    return soilLayer(assertState(state), { geometry: { type: 'Point', coordinates: [lng, lat] }, what: 'point' }, ctx);
  },
};
