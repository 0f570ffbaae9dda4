import { badRequest } from './errors.ts';
import type { BBox, StateCode } from './geo.ts';
import { STATES, decimalSpan, isInAustralia, isStateCode } from './geo.ts';

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
  const across = decimalSpan(west, east, maxSpan);
  const up = decimalSpan(south, north, maxSpan);
  if (across.exceeds || up.exceeds) {
    throw badRequest(
      `bbox spans ${across.span} by ${up.span} degrees; the limit is ${maxSpan} degrees per axis.`,
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

/**
 * Why caller text cannot be taken as text, or null when it can. PostgreSQL refuses a NUL in
 * text (22021) and a lone surrogate has no UTF-8 form, so either would fail deep in a query.
 */
export function textDefect(value: string): string | null {
  if (value.includes('\0')) return 'contains a NUL byte';
  if (LONE_SURROGATE.test(value)) return 'is not valid UTF-8';
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first string inside a parameter value (or object of them) that is not text, with its name. */
export function findTextDefect(value: unknown, name: string): { name: string; defect: string } | null {
  if (typeof value === 'string') {
    const defect = textDefect(value);
    return defect ? { name, defect } : null;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findTextDefect(item, `${name}[${i}]`);
      if (found) return found;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const keyDefect = textDefect(key);
      if (keyDefect) return { name: name ? `${name}.<key>` : 'a parameter name', defect: keyDefect };
      const found = findTextDefect(item, name ? `${name}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}

/** Refuses input holding anything that is not text: one rule for the REST facade and /graphql variables. */
export function assertTextInput(value: unknown, name = ''): void {
  const found = findTextDefect(value, name);
  if (found) throw badTextError(found.name, found.defect);
}

export function badTextError(name: string, defect: string) {
  return badRequest(
    `${name} ${defect}.`,
    'Send parameters as UTF-8 text without control characters (percent-encode each byte of UTF-8).',
  );
}

/**
 * The lot figures a caller may give, each within the range where it still describes a lot a
 * dwelling could stand on: outside it the envelope arithmetic answers nonsense (1e-300 m²)
 * rather than failing.
 */
export const LOT_FIGURE_RANGES = {
  lot_area_m2: { min: 10, max: 1_000_000, unit: 'm²' },
  frontage_m: { min: 1, max: 10_000, unit: 'm' },
  depth_m: { min: 1, max: 10_000, unit: 'm' },
  wall_height_m: { min: 0.5, max: 200, unit: 'm' },
} as const;

export type LotFigure = keyof typeof LOT_FIGURE_RANGES;

/** Why a lot figure is refused, naming its accepted range, or null when it is within it. */
export function lotFigureProblem(name: LotFigure, value: number): string | null {
  const { min, max, unit } = LOT_FIGURE_RANGES[name];
  if (Number.isFinite(value) && value >= min && value <= max) return null;
  return `${name} must be from ${min} to ${max} ${unit}; got ${value}.`;
}

/** The lot figures of a GraphQL LotCharacteristicsInput, held to the REST facade's ranges. */
export function assertLotFigures(lot: Partial<Record<LotFigure, number | null>> | null | undefined): void {
  for (const name of Object.keys(LOT_FIGURE_RANGES) as LotFigure[]) {
    const value = lot?.[name];
    if (value === null || value === undefined) continue;
    const problem = lotFigureProblem(name, value);
    if (problem) throw badRequest(problem, 'Leave a figure out to use the one measured from the parcel.');
  }
}
