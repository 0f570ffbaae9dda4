import { assertLotFigures } from '../../../core/validate.ts';
import type { PlanningContext } from '../data.ts';
import type { PropertyResolvers } from '../generated/resolvers-types.ts';
import { climateZoneLayer } from './climate.ts';
import { envelopeLayer } from './envelope.ts';
import { planningLayer } from './planning-layer.ts';
import { provisionsLayer } from './provisions.ts';
import { ugbOfProperty } from './ugb.ts';

export const Property: PropertyResolvers<PlanningContext> = {
  __resolveReference(reference) {
    return {
      parcel_pfi: reference.parcel_pfi ?? null,
      state: reference.state ?? '',
      location: reference.location ?? null,
      parcel_geometry: 'parcel_geometry' in reference ? (reference.parcel_geometry ?? null) : null,
      road_lines: 'road_lines' in reference ? (reference.road_lines ?? null) : null,
    };
  },
  planning: (property, _args, ctx) => planningLayer(property, ctx),
  provisions(property, { lot }, ctx) {
    assertLotFigures(lot);
    return provisionsLayer(property, lot ?? null, ctx);
  },
  envelope(property, { lot }, ctx) {
    assertLotFigures(lot);
    return envelopeLayer(property, lot ?? null, ctx);
  },
  climate_zone: (property, _args, ctx) => climateZoneLayer(property.state, property.location, ctx),
  ugb: (property, _args, ctx) => ugbOfProperty(property.state, property.location, ctx),
};
