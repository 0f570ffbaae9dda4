import type { BBox } from '../../core/geo.ts';
import type { Grid } from './dem.ts';
import { bilinear, cellSizeMetres, metresPerDegree } from './dem.ts';

/**
 * How far the ground profile reaches: AS 3959 rates classified vegetation up to 100 m from the
 * site, and its effective slope is the land under it out to 100 m beyond its near edge.
 */
export const PROFILE_REACH_M = 200;
/** Sample spacing along each ray: about one cell of a 10 m state DEM. */
export const PROFILE_STEP_M = 10;
/** Sixteen bearings, 22.5° apart: the compass points the terrain layer names aspects by. */
export const PROFILE_BEARINGS = 16;

export type GroundRayModel = { bearing_deg: number; heights_m: number[] };

export type GroundProfileModel = {
  step_m: number;
  reach_m: number;
  origin_m: number;
  cell_size_m: number;
  rays: GroundRayModel[];
};

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The window a profile around a point reads: the reach on every side, in degrees at its latitude. */
export function profileWindow(lng: number, lat: number, reach = PROFILE_REACH_M): BBox {
  const m = metresPerDegree(lat);
  const dLng = reach / m.lng;
  const dLat = reach / m.lat;
  return { west: lng - dLng, south: lat - dLat, east: lng + dLng, north: lat + dLat };
}

/**
 * Ground heights along PROFILE_BEARINGS rays from a point, every PROFILE_STEP_M out to
 * PROFILE_REACH_M, interpolated bilinearly in the DEM (exact on a plane). A ray's list stops at
 * the first step the model has no height for, so a height is never read across a hole. Null
 * when the model has no height at the point itself.
 */
export function groundProfile(grid: Grid, lng: number, lat: number): GroundProfileModel | null {
  const origin = bilinear(grid, lng, lat);
  if (!origin) return null;
  const m = metresPerDegree(lat);
  const rays: GroundRayModel[] = [];
  for (let k = 0; k < PROFILE_BEARINGS; k += 1) {
    const bearing = (360 / PROFILE_BEARINGS) * k;
    const east = Math.sin((bearing * Math.PI) / 180);
    const north = Math.cos((bearing * Math.PI) / 180);
    const heights: number[] = [];
    for (let d = PROFILE_STEP_M; d <= PROFILE_REACH_M + 1e-9; d += PROFILE_STEP_M) {
      const sample = bilinear(grid, lng + (d * east) / m.lng, lat + (d * north) / m.lat);
      if (!sample) break;
      heights.push(round2(sample.z));
    }
    rays.push({ bearing_deg: bearing, heights_m: heights });
  }
  return {
    step_m: PROFILE_STEP_M,
    reach_m: PROFILE_REACH_M,
    origin_m: round2(origin.z),
    cell_size_m: round2(cellSizeMetres(grid, lat)),
    rays,
  };
}
