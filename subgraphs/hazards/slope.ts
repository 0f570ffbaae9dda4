/**
 * The effective slope under classified vegetation (AS 3959 clause 2.2.5), from the ground
 * profile the terrain subgraph gives the property through @requires: heights along rays from the
 * site's point. The land from the vegetation's near edge to 100 m beyond, along the bearing of
 * that edge, is fitted by least squares; land falling away from the site is downslope.
 */
import type { LayerStatus } from '../../core/layer.ts';
import type { SlopeDirection } from './bal.ts';

/** The terrain subgraph's GroundProfileLayer, as far as the BAL reads it. */
export type RequiredGroundProfile = {
  status: LayerStatus;
  source?: string | null;
  message?: string | null;
  data?: {
    step_m: number;
    origin_m: number;
    rays: ReadonlyArray<{ bearing_deg: number; heights_m: readonly number[] }>;
  } | null;
};

export type GroundProfile = NonNullable<RequiredGroundProfile['data']>;

export type EffectiveSlope = {
  /** Magnitude, degrees, to 0.1°. */
  degrees: number;
  direction: SlopeDirection;
  /** The bearing measured along, degrees clockwise from north, to 0.1°. */
  bearing_deg: number;
  /** The stretch of land measured, metres from the site. */
  from_m: number;
  to_m: number;
};

/** AS 3959 takes the slope under the vegetation out to 100 m from its edge. */
export const SLOPE_RUN_M = 100;
/** Less land than this under the vegetation is too little to call a slope: the run is not measured. */
export const MIN_RUN_M = 50;

const DEG = 180 / Math.PI;
const round1 = (value: number) => Math.round(value * 10) / 10;
const norm = (bearing: number) => ((bearing % 360) + 360) % 360;

/** Height `d` metres out along one ray: linear between its samples, the point itself at 0. */
function alongRay(profile: GroundProfile, heights: readonly number[], d: number): number | null {
  const at = (i: number) => (i === 0 ? profile.origin_m : heights[i - 1]);
  const f = d / profile.step_m;
  const i = Math.floor(f + 1e-9);
  const lower = at(i);
  if (lower === undefined) return null;
  const t = f - i;
  if (t < 1e-9) return lower;
  const upper = at(i + 1);
  return upper === undefined ? null : lower + t * (upper - lower);
}

/** Height `d` metres out along any bearing: linear between the two rays either side of it. */
export function heightAt(profile: GroundProfile, bearing: number, d: number): number | null {
  const rays = [...profile.rays].sort((a, b) => a.bearing_deg - b.bearing_deg);
  if (rays.length === 0) return null;
  const b = norm(bearing);
  const after = rays.findIndex((r) => r.bearing_deg >= b);
  const hi = rays[after === -1 ? 0 : after]!;
  const lo = rays[after === -1 ? rays.length - 1 : (after - 1 + rays.length) % rays.length]!;
  const span = norm(hi.bearing_deg - lo.bearing_deg) || 360;
  const t = hi === lo ? 0 : norm(b - lo.bearing_deg) / span;
  const zLo = alongRay(profile, lo.heights_m, d);
  const zHi = alongRay(profile, hi.heights_m, d);
  if (t < 1e-9) return zLo;
  if (t > 1 - 1e-9) return zHi;
  return zLo === null || zHi === null ? null : zLo + t * (zHi - zLo);
}

/**
 * The slope of the land `from` to `from + SLOPE_RUN_M` metres out along a bearing: the least
 * squares line through the heights at each step (exact on a plane, steady on a noisy model).
 * Null where the profile holds less than MIN_RUN_M of it.
 */
export function slopeAlong(profile: GroundProfile, bearing: number, from: number): EffectiveSlope | null {
  const points: Array<[d: number, z: number]> = [];
  for (let d = from; d <= from + SLOPE_RUN_M + 1e-9; d += profile.step_m) {
    const z = heightAt(profile, bearing, d);
    if (z === null) break;
    points.push([d, z]);
  }
  const last = points.at(-1);
  if (!last || points.length < 2 || last[0] - from < MIN_RUN_M - 1e-9) return null;
  const meanD = points.reduce((s, [d]) => s + d, 0) / points.length;
  const meanZ = points.reduce((s, [, z]) => s + z, 0) / points.length;
  let num = 0;
  let den = 0;
  for (const [d, z] of points) {
    num += (d - meanD) * (z - meanZ);
    den += (d - meanD) ** 2;
  }
  // the land falls away from the site where the height drops outward
  const fall = -num / den;
  const degrees = round1(Math.atan(Math.abs(fall)) * DEG);
  const direction: SlopeDirection = degrees === 0 ? 'flat' : fall > 0 ? 'downslope' : 'upslope';
  return { degrees, direction, bearing_deg: round1(norm(bearing)), from_m: round1(from), to_m: round1(last[0]) };
}

/** Downslopes steeper first, then upslopes gentler first: the order of AS 3959's severity. */
const severity = (s: EffectiveSlope) =>
  s.direction === 'downslope' ? s.degrees : s.direction === 'flat' ? 0 : -s.degrees;

/**
 * The effective slope under vegetation whose near edge is `distance` metres away on `bearing`.
 * A site inside the vegetation (no bearing to its edge) takes the steepest downslope of every ray,
 * the worst the fire could come up. Null where the profile does not hold enough of the land.
 */
export function effectiveSlope(
  profile: GroundProfile,
  bearing: number | null,
  distance: number,
): EffectiveSlope | null {
  if (bearing !== null) return slopeAlong(profile, bearing, distance);
  const slopes = profile.rays
    .map((ray) => slopeAlong(profile, ray.bearing_deg, 0))
    .filter((s): s is EffectiveSlope => s !== null);
  return slopes.reduce<EffectiveSlope | null>((a, b) => (a === null || severity(b) > severity(a) ? b : a), null);
}
