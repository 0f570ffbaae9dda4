/**
 * A bushfire attack level (BAL) estimate by AS 3959 Method 1, the simplified procedure: the
 * FDI of the region picks the table, the vegetation class and the effective slope under it pick
 * the row, and the distance to the classified vegetation picks the rating. Pure: the hazards
 * layer measures the inputs (vegetation, distance, slope from the DEM) and calls this.
 */
import { badRequest } from '../../core/errors.ts';
import type { StateCode } from '../../core/geo.ts';
import { BAL_TABLES, EDITION_CAVEAT, METHOD_1_REACH_M, TABLE_NAMES, type DistanceRow } from './bal-tables.ts';

export const VEGETATION_CLASSES = [
  'forest',
  'woodland',
  'shrubland',
  'scrub',
  'mallee_mulga',
  'rainforest',
  'grassland',
] as const;
export type VegetationClass = (typeof VEGETATION_CLASSES)[number];

export type BalRating = 'BAL-LOW' | 'BAL-12.5' | 'BAL-19' | 'BAL-29' | 'BAL-40' | 'BAL-FZ';

/** AS 3959 Table 2.1 uses four values: 40 for Queensland and the Northern Territory. */
export const FIRE_DANGER_INDICES = [100, 80, 50, 40] as const;
export type FireDangerIndex = (typeof FIRE_DANGER_INDICES)[number];

export type SlopeDirection = 'upslope' | 'flat' | 'downslope';

/** The rows of a Method 1 table: upslopes count as flat; downslopes in 5° steps up to 20°. */
export type SlopeBand = 'flat' | 'down_0_5' | 'down_5_10' | 'down_10_15' | 'down_15_20';

export type BalInput = {
  /** The class of the classified vegetation nearest the site, null when none was found. */
  vegetation: VegetationClass | null;
  /** Metres from the site to the edge of that vegetation, null when none was found. */
  distance_m: number | null;
  /** Effective slope of the land under the vegetation, in degrees, 0 to 90. */
  effective_slope_deg: number;
  slope_direction: SlopeDirection;
  fdi: FireDangerIndex;
};

export type BalEstimate = {
  rating: BalRating;
  method: 'AS 3959-2018 Method 1 (simplified procedure)';
  table: string;
  fdi: number;
  inputs: BalInput;
  /** The row of the table used, in the standard's words. */
  slope_band: string;
  /** The distance band the site fell in, metres, lower edge included; null upper edge = open. */
  distance_band_m: [number, number | null];
  indicative: true;
  note: string | null;
};

const METHOD = 'AS 3959-2018 Method 1 (simplified procedure)' as const;

const SLOPE_BAND_LABELS: Readonly<Record<SlopeBand, string>> = {
  flat: 'all upslopes and flat land (0°)',
  down_0_5: 'downslope >0° to 5°',
  down_5_10: 'downslope >5° to 10°',
  down_10_15: 'downslope >10° to 15°',
  down_15_20: 'downslope >15° to 20°',
};

const STEEP_LABEL = 'downslope >20° (outside Method 1)';

const DOWNSLOPE_BANDS: readonly [maxDeg: number, band: SlopeBand][] = [
  [5, 'down_0_5'],
  [10, 'down_5_10'],
  [15, 'down_10_15'],
  [20, 'down_15_20'],
];

/** The table row for a slope, or null beyond 20° downslope, where Method 1 does not apply. */
export function slopeBand(direction: SlopeDirection, degrees: number): SlopeBand | null {
  if (direction !== 'downslope' || degrees === 0) return 'flat';
  // the bands are closed above (">5° to 10°" holds 10°), so the first whose top is not passed
  return DOWNSLOPE_BANDS.find(([maxDeg]) => degrees <= maxDeg)?.[1] ?? null;
}

function assertInput(input: BalInput): void {
  const { vegetation, distance_m, effective_slope_deg, slope_direction, fdi } = input;
  if (vegetation !== null && !(VEGETATION_CLASSES as readonly string[]).includes(vegetation)) {
    throw badRequest(
      `Unknown vegetation class "${String(vegetation)}".`,
      `Use one of ${VEGETATION_CLASSES.join(', ')} (AS 3959 Table 2.3), or null when there is none.`,
    );
  }
  if ((vegetation === null) !== (distance_m === null)) {
    throw badRequest(
      'A vegetation class and a distance to it go together.',
      'Give both, or null for both when no classified vegetation was found.',
    );
  }
  if (distance_m !== null && !(Number.isFinite(distance_m) && distance_m >= 0)) {
    throw badRequest(
      `The distance to the classified vegetation must be a number of metres, 0 or more; got ${distance_m}.`,
      'Measure from the building (or site) to the nearest edge of the vegetation.',
    );
  }
  if (!(Number.isFinite(effective_slope_deg) && effective_slope_deg >= 0 && effective_slope_deg <= 90)) {
    throw badRequest(
      `The effective slope must be between 0 and 90 degrees; got ${effective_slope_deg}.`,
      'Give the slope as a magnitude and its sense in slope_direction.',
    );
  }
  if (!['upslope', 'flat', 'downslope'].includes(slope_direction)) {
    throw badRequest(
      `Unknown slope direction "${String(slope_direction)}".`,
      'Use upslope, flat or downslope (the land under the vegetation, seen from the site).',
    );
  }
  if (!(FIRE_DANGER_INDICES as readonly number[]).includes(fdi)) {
    throw badRequest(
      `AS 3959 Method 1 has no table for FDI ${fdi}.`,
      `Use one of ${FIRE_DANGER_INDICES.join(', ')} (AS 3959 Table 2.1; see fdiForState).`,
    );
  }
}

/** The rating and its distance band for a site `distance` metres from vegetation in one table row. */
function rateByDistance(row: DistanceRow, distance: number): { rating: BalRating; band: [number, number | null] } {
  const [fz, bal40, bal29, bal19] = row;
  const steps: readonly [below: number, rating: BalRating, from: number][] = [
    [fz, 'BAL-FZ', 0],
    [bal40, 'BAL-40', fz],
    [bal29, 'BAL-29', bal40],
    [bal19, 'BAL-19', bal29],
    [METHOD_1_REACH_M, 'BAL-12.5', bal19],
  ];
  for (const [below, rating, from] of steps) if (distance < below) return { rating, band: [from, below] };
  return { rating: 'BAL-LOW', band: [METHOD_1_REACH_M, null] };
}

/**
 * The BAL of a site by AS 3959 Method 1. Always indicative: the vegetation and slope come from
 * mapped data, not a site assessment, and the note says what the estimate rests on.
 * Throws BAD_REQUEST (AppError) on inputs no table can take.
 */
export function estimateBal(input: BalInput): BalEstimate {
  assertInput(input);
  const { vegetation, distance_m, effective_slope_deg, slope_direction, fdi } = input;
  const band = slopeBand(slope_direction, effective_slope_deg);
  const base = {
    method: METHOD,
    table: TABLE_NAMES[fdi],
    fdi,
    inputs: { ...input },
    slope_band: band ? SLOPE_BAND_LABELS[band] : STEEP_LABEL,
    indicative: true as const,
  };

  if (vegetation === null || distance_m === null) {
    return {
      ...base,
      rating: 'BAL-LOW',
      distance_band_m: [METHOD_1_REACH_M, null],
      note: `No classified vegetation was found within ${METHOD_1_REACH_M} m of the site. ${EDITION_CAVEAT}`,
    };
  }
  if (distance_m >= METHOD_1_REACH_M) {
    return {
      ...base,
      rating: 'BAL-LOW',
      distance_band_m: [METHOD_1_REACH_M, null],
      note: `The classified vegetation is ${METHOD_1_REACH_M} m or more from the site. ${EDITION_CAVEAT}`,
    };
  }
  if (band === null) {
    // Method 1 has no row for this slope, and using the 15-20° row would understate the
    // exposure: rate the worst case and send the caller to Method 2 (the GA toolbox does the same).
    return {
      ...base,
      rating: 'BAL-FZ',
      distance_band_m: [0, METHOD_1_REACH_M],
      note:
        `The effective slope under the vegetation is more than 20° downslope, outside AS 3959 Method 1: ` +
        `rated BAL-FZ as the worst case; a Method 2 (Appendix B) assessment is needed. ${EDITION_CAVEAT}`,
    };
  }
  const { rating, band: distanceBand } = rateByDistance(BAL_TABLES[fdi][band][vegetation], distance_m);
  return { ...base, rating, distance_band_m: distanceBand, note: EDITION_CAVEAT };
}

/** The states and territories AS 3959 Table 2.1 gives an FDI for (not the other territories). */
export type Table21State = Exclude<StateCode, 'OT'>;

export function hasTable21Fdi(state: StateCode): state is Table21State {
  return state !== 'OT';
}

/**
 * The NSW fire weather areas Table 2.1 rates FDI 100; the rest of NSW outside the alpine areas
 * is FDI 80.
 */
export const NSW_FDI_100_AREAS = [
  'Greater Hunter',
  'Greater Sydney',
  'Illawarra/Shoalhaven',
  'Far South Coast',
  'Southern Ranges',
] as const;

/**
 * The FDI of AS 3959 Table 2.1 for a state (values as published by CSIRO's bushfire research
 * pages for AS 3959:2018, and by Geoscience Australia for the 2009 edition: the two agree).
 * `alpine` is the NCC's alpine areas (NSW and VIC only). In NSW the FDI depends on the fire
 * weather area: without one the answer is the higher 100, so an unknown area never understates.
 */
export function fdiForState(state: Table21State, alpine = false, nswFireArea?: string): FireDangerIndex {
  switch (state) {
    case 'ACT':
    case 'VIC':
      return state === 'VIC' && alpine ? 50 : 100;
    case 'NSW':
      if (alpine) return 50;
      if (nswFireArea === undefined) return 100;
      return (NSW_FDI_100_AREAS as readonly string[]).includes(nswFireArea) ? 100 : 80;
    case 'QLD':
    case 'NT':
      return 40;
    case 'SA':
    case 'WA':
      return 80;
    case 'TAS':
      return 50;
  }
}
