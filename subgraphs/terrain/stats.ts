import { areaM2, bboxOf, containsPoint } from '../../core/polygons.ts';
import type { CompassPoint } from '../../core/vocabulary.ts';
import { COMPASS_16 } from '../../core/vocabulary.ts';
import type { Grid, Sample } from './dem.ts';
import { bilinear, cellSizeMetres, hornGradient, metresPerDegree } from './dem.ts';
import type { TerrainPolygon } from './polygon.ts';
import { centroid } from './polygon.ts';

/** Below this mean gradient (0.5 %) the land faces no way in particular: no aspect. */
export const FLAT_GRADIENT = 0.005;

export type TerrainStatsModel = {
  min_m: number;
  max_m: number;
  mean_m: number;
  fall_m: number;
  slope_mean_percent: number;
  slope_max_percent: number;
  slope_mean_deg: number;
  slope_max_deg: number;
  aspect: CompassPoint | null;
  aspect_deg: number | null;
  samples: number;
  /** cells: every DEM cell centre inside the polygon; centroid: one bilinear sample, the polygon holding none. */
  sampling: 'cells' | 'centroid';
  cell_size_m: number;
  area_m2: number;
};

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The compass point (of 16) nearest a bearing in degrees. */
export function compassPoint(bearing: number): CompassPoint {
  return COMPASS_16[Math.round(bearing / 22.5) % 16] ?? 'N';
}

/** The DEM nodes whose centre lies inside the polygon (its boundary included), as height and gradient. */
function cellSamples(grid: Grid, polygon: TerrainPolygon): { inside: number; samples: Sample[] } {
  const box = bboxOf(polygon);
  const colFrom = Math.max(0, Math.ceil((box.west - grid.lng0) / grid.dLng));
  const colTo = Math.min(grid.cols - 1, Math.floor((box.east - grid.lng0) / grid.dLng));
  const rowFrom = Math.max(0, Math.ceil((grid.lat0 - box.north) / grid.dLat));
  const rowTo = Math.min(grid.rows - 1, Math.floor((grid.lat0 - box.south) / grid.dLat));
  const samples: Sample[] = [];
  let inside = 0;
  for (let row = rowFrom; row <= rowTo; row += 1) {
    for (let col = colFrom; col <= colTo; col += 1) {
      if (!containsPoint(polygon, grid.lng0 + col * grid.dLng, grid.lat0 - row * grid.dLat)) continue;
      inside += 1;
      const sample = hornGradient(grid, row, col);
      if (sample) samples.push(sample);
    }
  }
  return { inside, samples };
}

/**
 * Elevation, fall, slope and aspect of the land inside a polygon, from the DEM cells whose
 * centre it holds (or, when it holds none, one bilinear sample at its centroid). Slopes are
 * Horn's, in metres at the polygon's latitude; the aspect is where the mean gradient points
 * downhill. Null when the DEM has no height there.
 */
export function terrainStats(grid: Grid, polygon: TerrainPolygon): TerrainStatsModel | null {
  const centre = centroid(polygon);
  const cells = cellSamples(grid, polygon);
  let samples = cells.samples;
  let sampling: TerrainStatsModel['sampling'] = 'cells';
  if (cells.inside === 0) {
    const sample = bilinear(grid, centre.lng, centre.lat);
    samples = sample ? [sample] : [];
    sampling = 'centroid';
  }
  if (samples.length === 0) return null;
  const m = metresPerDegree(centre.lat);
  let min = Infinity;
  let max = -Infinity;
  let sumZ = 0;
  let sumPercent = 0;
  let sumDeg = 0;
  let maxSlope = 0;
  let sumEast = 0;
  let sumNorth = 0;
  for (const s of samples) {
    const east = s.dzdLng / m.lng;
    const north = s.dzdLat / m.lat;
    const slope = Math.hypot(east, north);
    min = Math.min(min, s.z);
    max = Math.max(max, s.z);
    sumZ += s.z;
    sumPercent += slope * 100;
    sumDeg += (Math.atan(slope) * 180) / Math.PI;
    maxSlope = Math.max(maxSlope, slope);
    sumEast += east;
    sumNorth += north;
  }
  const n = samples.length;
  const meanEast = sumEast / n;
  const meanNorth = sumNorth / n;
  const flat = Math.hypot(meanEast, meanNorth) < FLAT_GRADIENT;
  // downhill is against the gradient; bearings run clockwise from north
  const bearing = ((((Math.atan2(-meanEast, -meanNorth) * 180) / Math.PI) % 360) + 360) % 360;
  return {
    min_m: round(min, 2),
    max_m: round(max, 2),
    mean_m: round(sumZ / n, 2),
    fall_m: round(max - min, 2),
    slope_mean_percent: round(sumPercent / n, 2),
    slope_max_percent: round(maxSlope * 100, 2),
    slope_mean_deg: round(sumDeg / n, 2),
    slope_max_deg: round((Math.atan(maxSlope) * 180) / Math.PI, 2),
    aspect: flat ? null : compassPoint(bearing),
    aspect_deg: flat ? null : round(bearing, 1),
    samples: n,
    sampling,
    cell_size_m: round(cellSizeMetres(grid, centre.lat), 2),
    area_m2: round(areaM2(polygon), 2),
  };
}
