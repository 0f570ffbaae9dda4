import { badRequest } from './errors.ts';
import type { BBox, StateCode } from './geo.ts';
import { STATES, isInAustralia, isStateCode } from './geo.ts';

/**
 * Input rules shared by the graph and the REST facade, so a GraphQL caller is held to the
 * same limits as a REST caller and both get the same words back.
 */
export const MAX_BBOX_SPAN_DEGREES = 0.1;
export const MAX_BBOX_FEATURES = 1000;

export function assertState(value: string): StateCode {
  const state = value.trim().toUpperCase();
  if (!isStateCode(state)) {
    throw badRequest(`Unknown state '${value}'.`, `Use one of ${STATES.join(', ')}.`);
  }
  return state;
}

export function assertPoint(lat: number, lng: number): void {
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) {
    throw badRequest(
      'lat must be a number between -90 and 90.',
      'Pass WGS84 decimal degrees, e.g. lat=-36.66&lng=144.33.',
    );
  }
  if (!Number.isFinite(lng) || lng < -180 || lng > 180) {
    throw badRequest(
      'lng must be a number between -180 and 180.',
      'Pass WGS84 decimal degrees, e.g. lat=-36.66&lng=144.33.',
    );
  }
  if (!isInAustralia(lng, lat)) {
    throw badRequest(
      `The point (lat ${lat}, lng ${lng}) is outside Australia.`,
      'Check that lat and lng are not swapped: Australian latitudes are negative (about -9 to -44).',
    );
  }
}

export function assertBBox(bbox: BBox, maxSpan = MAX_BBOX_SPAN_DEGREES): void {
  const { west, south, east, north } = bbox;
  if (![west, south, east, north].every(Number.isFinite)) {
    throw badRequest(
      'bbox must be four numbers: west,south,east,north.',
      'For example bbox=144.32,-36.67,144.34,-36.65.',
    );
  }
  if (west >= east || south >= north) {
    throw badRequest(
      'bbox is inverted or empty: west must be less than east and south less than north.',
      'Order the values west,south,east,north (minLng,minLat,maxLng,maxLat).',
    );
  }
  if (east - west > maxSpan || north - south > maxSpan) {
    throw badRequest(
      `bbox spans ${(east - west).toFixed(4)} by ${(north - south).toFixed(4)} degrees; the limit is ${maxSpan} degrees per axis.`,
      'Split the window into smaller tiles.',
    );
  }
  if (
    !isInAustralia(west, south) &&
    !isInAustralia(east, north) &&
    !isInAustralia(west, north) &&
    !isInAustralia(east, south)
  ) {
    throw badRequest('bbox lies outside Australia.', 'Check the order: west,south,east,north with negative latitudes.');
  }
}
