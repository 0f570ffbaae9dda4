import { assertLotFigures, assertPoint, assertState } from '../../../core/validate.ts';
import type { PlanningContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { climateZoneLayer } from './climate.ts';
import { planningLayer } from './planning-layer.ts';
import { provisionsLayer } from './provisions.ts';
import { serviceHealthQueries } from './service-health.ts';
import { ugbAtPoint, ugbInBBox } from './ugb.ts';

export const Query: QueryResolvers<PlanningContext> = {
  planningAt(_parent, { lat, lng, state }, ctx) {
    assertPoint(lat, lng);
    return planningLayer(
      { parcel_pfi: null, state: assertState(state), location: { lat, lng }, parcel_geometry: null, road_lines: null },
      ctx,
    );
  },
  provisionsAt(_parent, { lat, lng, state, lot }, ctx) {
    assertPoint(lat, lng);
    assertLotFigures(lot);
    const property = {
      parcel_pfi: null,
      state: assertState(state),
      location: { lat, lng },
      parcel_geometry: null,
      road_lines: null,
    };
    return provisionsLayer(property, lot ?? null, ctx);
  },
  ugbAt: (_parent, { lat, lng, state }, ctx) => ugbAtPoint(lat, lng, state, ctx),
  ugbInBBox: (_parent, { bbox, state }, ctx) => ugbInBBox(bbox, state, ctx),
  climateZoneAt(_parent, { lat, lng, state }, ctx) {
    assertPoint(lat, lng);
    return climateZoneLayer(assertState(state), { lat, lng }, ctx);
  },
  ...serviceHealthQueries,
};
