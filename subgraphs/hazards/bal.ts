/**
 * Bushfire Attack Level by AS 3959-2018 Method 1 (simplified procedure). A minimal version:
 * the FDI 100 rows for forest and grassland on flat land or upslope (Table 2.6). Any other
 * input is rated by the forest row, the most severe, and says so in the note; the full tables
 * for every class, slope band and FDI replace this file.
 */
export type VegetationClass =
  'forest' | 'woodland' | 'shrubland' | 'scrub' | 'mallee_mulga' | 'rainforest' | 'grassland';
export type BalRating = 'BAL-LOW' | 'BAL-12.5' | 'BAL-19' | 'BAL-29' | 'BAL-40' | 'BAL-FZ';
export type BalInput = {
  vegetation: VegetationClass | null;
  distance_m: number | null;
  effective_slope_deg: number;
  slope_direction: 'upslope' | 'flat' | 'downslope';
  fdi: 100 | 80 | 50;
};
export type BalEstimate = {
  rating: BalRating;
  method: string;
  table: string;
  fdi: number;
  inputs: object;
  slope_band: string;
  distance_band_m: [number, number | null];
  indicative: true;
  note: string | null;
};

/** Upper bounds (exclusive, metres) of BAL-FZ, 40, 29, 19 and 12.5; beyond the last, BAL-LOW. */
const FDI_100_FLAT: Readonly<Record<'forest' | 'grassland', readonly [number, number, number, number, number]>> = {
  forest: [19, 25, 35, 48, 100],
  grassland: [6, 8, 12, 17, 50],
};
const RATINGS: readonly BalRating[] = ['BAL-FZ', 'BAL-40', 'BAL-29', 'BAL-19', 'BAL-12.5'];

export function estimateBal(input: BalInput): BalEstimate {
  const base = {
    method: 'AS 3959-2018 Method 1',
    table: 'Table 2.6 (FDI 100)',
    fdi: input.fdi,
    inputs: input,
    slope_band: 'all upslopes and flat land',
    indicative: true as const,
  };
  if (input.vegetation === null || input.distance_m === null) {
    return { ...base, rating: 'BAL-LOW', distance_band_m: [100, null], note: 'No classified vegetation within 100 m.' };
  }
  const exact =
    (input.vegetation === 'forest' || input.vegetation === 'grassland') &&
    input.fdi === 100 &&
    input.slope_direction !== 'downslope';
  const bounds = FDI_100_FLAT[input.vegetation === 'grassland' && exact ? 'grassland' : 'forest'];
  const band = bounds.findIndex((upper) => input.distance_m! < upper);
  const note = exact ? null : 'Rated by the FDI 100 forest row on flat land, the most severe held here.';
  if (band === -1) return { ...base, rating: 'BAL-LOW', distance_band_m: [bounds[4], null], note };
  return {
    ...base,
    rating: RATINGS[band]!,
    distance_band_m: [band === 0 ? 0 : bounds[band - 1]!, bounds[band]!],
    note,
  };
}

/** The fire danger index AS 3959 Table 2.1 sets for a state (QLD's 40 is rated at 50, the nearest held). */
export function fdiForState(state: string): 100 | 80 | 50 {
  switch (state) {
    case 'VIC':
    case 'NSW':
    case 'ACT':
      return 100;
    case 'SA':
    case 'WA':
    case 'NT':
      return 80;
    default:
      return 50;
  }
}
