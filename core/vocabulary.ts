/*
 * Closed lists of values that both a subgraph and the facade rely on: here rather than in the
 * subgraph, so the facade reads no subgraph's internals.
 */

/** The sixteen points of the compass, clockwise from north: the terrain's aspect names. */
export const COMPASS_16 = [
  'N',
  'NNE',
  'NE',
  'ENE',
  'E',
  'ESE',
  'SE',
  'SSE',
  'S',
  'SSW',
  'SW',
  'WSW',
  'W',
  'WNW',
  'NW',
  'NNW',
] as const;
export type CompassPoint = (typeof COMPASS_16)[number];

/**
 * G-NAF geocode types that do not stand on the address's own parcel: a point for the whole street in the locality,
 * for the locality, or interpolated between neighbours. A match resting on one of these has no parcel to report.
 */
export const NON_PARCEL_GEOCODE_TYPES = ['STL', 'LOC', 'GG'] as const;

/** The roads layer's message for a property on no parcel; the REST routes answer it with 404. */
export const NO_PARCEL_FOR_ROADS = 'The property has no parcel whose roads could be found.';
