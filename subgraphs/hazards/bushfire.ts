import type { BalRating, VegetationClass } from './bal.ts';
import { isStateCode } from '../../core/geo.ts';
import { estimateBal, fdiForState, hasTable21Fdi } from './bal.ts';
import type { BalEstimateModel, HazardSeverity } from './data.ts';
import type { VegetationHit } from './sql.ts';

const ORDER: readonly BalRating[] = ['BAL-LOW', 'BAL-12.5', 'BAL-19', 'BAL-29', 'BAL-40', 'BAL-FZ'];

/** How a BAL reads on the hazard severity scale; BAL-LOW adds nothing to a bushfire overlay's own. */
export const BAL_SEVERITY: Readonly<Record<BalRating, Exclude<HazardSeverity, 'none'> | null>> = {
  'BAL-LOW': null,
  'BAL-12.5': 'low',
  'BAL-19': 'medium',
  'BAL-29': 'high',
  'BAL-40': 'extreme',
  'BAL-FZ': 'extreme',
};

// The terrain layer is VIC only and measures the lot, not the land under the vegetation, so no
// effective slope is taken from it yet: every estimate is on flat land and says so.
const FLAT_NOTE = 'Effective slope under the vegetation was not measured: rated as flat land.';

/**
 * The BAL at a point: each classified vegetation within 100 m rated by AS 3959 Method 1, the
 * most severe kept (a near grassland can outrate a farther forest).
 */
export function balAt(state: string, vegetation: readonly VegetationHit[]): BalEstimateModel {
  // AS 3959 Table 2.1 names no FDI for the other territories: rate them at the highest, 100
  const fdi = isStateCode(state) && hasTable21Fdi(state) ? fdiForState(state) : 100;
  const candidates = vegetation.length > 0 ? vegetation : [null];
  const rated = candidates.map((hit) => ({
    hit,
    estimate: estimateBal({
      vegetation: (hit?.vegetation_class as VegetationClass | undefined) ?? null,
      distance_m: hit?.distance_m ?? null,
      effective_slope_deg: 0,
      slope_direction: 'flat',
      fdi,
    }),
  }));
  const worst = rated.reduce((a, b) => (ORDER.indexOf(b.estimate.rating) > ORDER.indexOf(a.estimate.rating) ? b : a));
  const { inputs: _inputs, note, ...estimate } = worst.estimate;
  return {
    ...estimate,
    vegetation_class: worst.hit?.vegetation_class ?? null,
    distance_m: worst.hit?.distance_m ?? null,
    effective_slope_deg: 0,
    slope_direction: 'flat',
    note: [note, FLAT_NOTE].filter(Boolean).join(' '),
  };
}
