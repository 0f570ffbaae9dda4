import type { BalRating, VegetationClass } from './bal.ts';
import { isStateCode } from '../../core/geo.ts';
import { estimateBal, fdiForState, hasTable21Fdi } from './bal.ts';
import type { BalEstimateModel, HazardSeverity } from './data.ts';
import type { EffectiveSlope, RequiredGroundProfile } from './slope.ts';
import { MIN_RUN_M, effectiveSlope } from './slope.ts';
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

type SlopeReading = {
  slope: EffectiveSlope | null;
  /** Where the slope came from: the terrain snapshot, null where it was not measured. */
  source: string | null;
  note: string;
};

const FLAT = 'rated as flat land';

function describe(slope: EffectiveSlope): string {
  const how = slope.direction === 'flat' ? 'flat' : `${slope.degrees}° ${slope.direction}`;
  return (
    `Effective slope from the terrain DEM along bearing ${slope.bearing_deg}°: ${how} ` +
    `(the land ${slope.from_m}-${slope.to_m} m from the site).`
  );
}

/** The effective slope under one vegetation hit, or why it was not measured. */
function slopeUnder(hit: VegetationHit, ground: RequiredGroundProfile | null): SlopeReading {
  if (!ground) {
    return {
      slope: null,
      source: null,
      note: `Effective slope under the vegetation was not measured (no ground profile from the terrain): ${FLAT}.`,
    };
  }
  if (ground.status !== 'ok' || !ground.data) {
    const why = ground.message ?? `the terrain layer answered ${ground.status}`;
    return {
      slope: null,
      source: null,
      note: `Effective slope under the vegetation was not measured (${why.replace(/\.$/, '')}): ${FLAT}.`,
    };
  }
  const slope = effectiveSlope(ground.data, hit.bearing_deg ?? null, hit.distance_m);
  if (!slope) {
    return {
      slope: null,
      source: null,
      note:
        `Effective slope under the vegetation was not measured (the terrain model holds less than ` +
        `${MIN_RUN_M} m of the land beyond it): ${FLAT}.`,
    };
  }
  return { slope, source: ground.source ?? null, note: describe(slope) };
}

/**
 * The BAL at a point: each classified vegetation within 100 m rated by AS 3959 Method 1 on the
 * effective slope under it (from the ground profile where the terrain has one, else flat, and
 * the note says which), the most severe kept (a near grassland can outrate a farther forest).
 */
export function balAt(
  state: string,
  vegetation: readonly VegetationHit[],
  ground: RequiredGroundProfile | null = null,
): BalEstimateModel {
  // AS 3959 Table 2.1 names no FDI for the other territories: rate them at the highest, 100
  const fdi = isStateCode(state) && hasTable21Fdi(state) ? fdiForState(state) : 100;
  const candidates = vegetation.length > 0 ? vegetation : [null];
  const rated = candidates.map((hit) => {
    const reading = hit ? slopeUnder(hit, ground) : null;
    return {
      hit,
      reading,
      estimate: estimateBal({
        vegetation: (hit?.vegetation_class as VegetationClass | undefined) ?? null,
        distance_m: hit?.distance_m ?? null,
        effective_slope_deg: reading?.slope?.degrees ?? 0,
        slope_direction: reading?.slope?.direction ?? 'flat',
        fdi,
      }),
    };
  });
  const worst = rated.reduce((a, b) => (ORDER.indexOf(b.estimate.rating) > ORDER.indexOf(a.estimate.rating) ? b : a));
  const { inputs, note, ...estimate } = worst.estimate;
  return {
    ...estimate,
    vegetation_class: worst.hit?.vegetation_class ?? null,
    distance_m: worst.hit?.distance_m ?? null,
    effective_slope_deg: inputs.effective_slope_deg,
    slope_direction: inputs.slope_direction,
    slope_bearing_deg: worst.reading?.slope?.bearing_deg ?? null,
    slope_source: worst.reading?.source ?? null,
    note: [note, worst.reading?.note].filter(Boolean).join(' '),
  };
}
