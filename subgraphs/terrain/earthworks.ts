import type { Position } from '../../core/geojson.ts';
import type { ParcelGeometry } from '../../core/polygons.ts';
import { bboxOf, containsPoint, polygonsOf, signedArea } from '../../core/polygons.ts';
import type { CompassPoint } from '../../core/vocabulary.ts';
import type { Grid } from './dem.ts';
import { bilinear, cellSizeMetres, metresPerDegree } from './dem.ts';
import { centroid } from './polygon.ts';
import { compassPoint } from './stats.ts';

/**
 * Cut and fill of a level building pad (docs/notes-earthworks.md): the ground under the footprint
 * is sampled on a regular lattice of points, each standing for an equal share of the footprint's
 * area, with heights interpolated bilinearly between DEM nodes (exact on a plane). Volumes are
 * the sum of each point's depth above (cut) or below (fill) the pad level times its share.
 */

/** A batter rises 1 m for every BATTER_RUN_PER_RISE m across (1:2, vertical:horizontal). */
export const BATTER_RUN_PER_RISE = 2;
/** Clearance kept between the toe or top of a batter and the lot boundary. */
export const BOUNDARY_CLEARANCE_M = 1;
/** About this many lattice points at most over the footprint's bounding box, whatever its size or shape. */
const TARGET_SAMPLES = 10_000;
/** The lattice is never finer than this: a DEM cell holds no detail below it. */
const MIN_SPACING_M = 0.25;

export type EarthworksSide = {
  /** Index of the footprint's edge, from its first vertex. */
  edge: number;
  /** The way the edge faces, outward from the footprint. */
  facing: CompassPoint;
  facing_deg: number;
  /** cut: the ground stands above the pad along the edge; fill: below; none: level with it. */
  kind: 'cut' | 'fill' | 'none';
  /** The largest difference between pad and ground along the edge. */
  batter_height_m: number;
  batter_width_m: number;
  /** BOUNDARY_CLEARANCE_M plus the batter width. */
  required_setback_m: number;
  /** Shortest distance from the edge to the lot boundary. */
  available_m: number;
  complies: boolean;
};

export type EarthworksModel = {
  pad_level_m: number;
  pad_level_source: 'given' | 'balanced';
  balanced_pad_level_m: number;
  cut_m3: number;
  fill_m3: number;
  /** cut_m3 - fill_m3: positive leaves spoil to remove, negative needs fill brought in. */
  net_m3: number;
  max_cut_depth_m: number;
  max_fill_depth_m: number;
  footprint_area_m2: number;
  ground_min_m: number;
  ground_max_m: number;
  ground_mean_m: number;
  samples: number;
  sample_spacing_m: number;
  cell_size_m: number;
  batter_ratio: string;
  setbacks: EarthworksSide[];
  setbacks_comply: boolean;
};

/** Heights of the ground under a footprint: one per lattice point, each standing for an equal share of its area. */
export type GroundSamples = { heights: Float64Array; spacing_m: number; cell_size_m: number };

// `|| 0`: a sum that rounds to nothing reads 0, never -0
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits || 0;

/**
 * The lattice spacing for a footprint: about TARGET_SAMPLES points over its bounding box (not its
 * area, so a long diagonal sliver cannot ask for millions of points), never under MIN_SPACING_M.
 */
export function sampleSpacing(footprint: ParcelGeometry): number {
  const box = bboxOf(footprint);
  const m = metresPerDegree((box.south + box.north) / 2);
  const boxM2 = (box.east - box.west) * m.lng * (box.north - box.south) * m.lat;
  return Math.max(MIN_SPACING_M, Math.sqrt(boxM2 / TARGET_SAMPLES));
}

/**
 * The ground under the footprint at the midpoints of a lattice laid from the footprint's
 * south-west corner; null where the model has no height at some point (a hole, or its edge).
 */
export function groundUnder(grid: Grid, footprint: ParcelGeometry): GroundSamples | null {
  const box = bboxOf(footprint);
  const centre = centroid(footprint);
  const m = metresPerDegree(centre.lat);
  const spacing = sampleSpacing(footprint);
  const dLng = spacing / m.lng;
  const dLat = spacing / m.lat;
  const heights: number[] = [];
  for (let lat = box.south + dLat / 2; lat < box.north; lat += dLat) {
    for (let lng = box.west + dLng / 2; lng < box.east; lng += dLng) {
      if (!containsPoint(footprint, lng, lat)) continue;
      const sample = bilinear(grid, lng, lat);
      if (!sample) return null;
      heights.push(sample.z);
    }
  }
  // a sliver narrower than the lattice holds no midpoint: its centre stands for all of it
  if (heights.length === 0) {
    const sample = bilinear(grid, centre.lng, centre.lat);
    if (!sample) return null;
    heights.push(sample.z);
  }
  return { heights: Float64Array.from(heights), spacing_m: spacing, cell_size_m: cellSizeMetres(grid, centre.lat) };
}

export type Volumes = { cut: number; fill: number; maxCut: number; maxFill: number };

/** Cut and fill (m³) and the deepest of each (m) for a pad at `level` over equal-area samples. */
export function volumesAt(heights: Float64Array, areaM2: number, level: number): Volumes {
  const share = areaM2 / heights.length;
  let cut = 0;
  let fill = 0;
  let maxCut = 0;
  let maxFill = 0;
  for (const z of heights) {
    const depth = z - level;
    if (depth > 0) {
      cut += depth * share;
      maxCut = Math.max(maxCut, depth);
    } else {
      fill -= depth * share;
      maxFill = Math.max(maxFill, -depth);
    }
  }
  return { cut, fill, maxCut, maxFill };
}

/**
 * The pad level at which cut equals fill. cut - fill = share × Σ(z - level) falls linearly
 * with the level, so its one root is where Σ(z - level) = 0: the mean of the equal-area samples.
 * (Solved, not searched: a bisection on the same difference converges to this value.)
 */
export function balancedLevel(heights: Float64Array): number {
  let sum = 0;
  for (const z of heights) sum += z;
  return sum / heights.length;
}

type Metric = { x: (p: Position) => number; y: (p: Position) => number };

function metricAbout(lng0: number, lat0: number): Metric {
  const m = metresPerDegree(lat0);
  return { x: (p) => ((p[0] ?? 0) - lng0) * m.lng, y: (p) => ((p[1] ?? 0) - lat0) * m.lat };
}

function pointToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Shortest distance (m) from segment a-b to any ring of the lot; the footprint lies inside, so no edge crosses. */
function distanceToBoundary(a: Position, b: Position, lot: ParcelGeometry, metric: Metric): number {
  const [ax, ay, bx, by] = [metric.x(a), metric.y(a), metric.x(b), metric.y(b)];
  let best = Infinity;
  for (const rings of polygonsOf(lot)) {
    for (const ring of rings) {
      for (let i = 1; i < ring.length; i += 1) {
        const [c, d] = [ring[i - 1]!, ring[i]!];
        const [cx, cy, dx, dy] = [metric.x(c), metric.y(c), metric.x(d), metric.y(d)];
        best = Math.min(
          best,
          pointToSegment(ax, ay, cx, cy, dx, dy),
          pointToSegment(bx, by, cx, cy, dx, dy),
          pointToSegment(cx, cy, ax, ay, bx, by),
          pointToSegment(dx, dy, ax, ay, bx, by),
        );
      }
    }
  }
  return best;
}

/**
 * Slope-adjusted setbacks, one per edge of the footprint's outer ring: the batter that takes the
 * pad back to the ground along that edge is as tall as the largest pad-to-ground difference
 * along it and BATTER_RUN_PER_RISE times as wide; the edge needs BOUNDARY_CLEARANCE_M plus that
 * width between it and the lot boundary.
 */
export function batterSetbacks(
  grid: Grid,
  footprint: Extract<ParcelGeometry, { type: 'Polygon' }>,
  lot: ParcelGeometry,
  level: number,
  spacing: number,
): EarthworksSide[] | null {
  const ring = footprint.coordinates[0] ?? [];
  const centre = centroid(footprint);
  const metric = metricAbout(centre.lng, centre.lat);
  // outward is to the right of a counter-clockwise ring's edges, to the left of a clockwise one's
  const outward = signedArea(ring) > 0 ? 1 : -1;
  const sides: EarthworksSide[] = [];
  for (let i = 1; i < ring.length; i += 1) {
    const a = ring[i - 1]!;
    const b = ring[i]!;
    const ex = metric.x(b) - metric.x(a);
    const ey = metric.y(b) - metric.y(a);
    const length = Math.hypot(ex, ey);
    if (length === 0) continue;
    const steps = Math.max(1, Math.ceil(length / spacing));
    let height = 0;
    let signed = 0;
    for (let k = 0; k <= steps; k += 1) {
      const t = k / steps;
      const sample = bilinear(
        grid,
        (a[0] ?? 0) + t * ((b[0] ?? 0) - (a[0] ?? 0)),
        (a[1] ?? 0) + t * ((b[1] ?? 0) - (a[1] ?? 0)),
      );
      if (!sample) return null;
      const depth = sample.z - level;
      if (Math.abs(depth) > height) {
        height = Math.abs(depth);
        signed = depth;
      }
    }
    const [nx, ny] = [outward * ey, -outward * ex];
    const bearing = ((((Math.atan2(nx, ny) * 180) / Math.PI) % 360) + 360) % 360;
    const width = BATTER_RUN_PER_RISE * height;
    const required = BOUNDARY_CLEARANCE_M + width;
    const available = distanceToBoundary(a, b, lot, metric);
    const h = round(height, 2);
    sides.push({
      edge: i - 1,
      facing: compassPoint(bearing),
      facing_deg: round(bearing, 1),
      kind: h === 0 ? 'none' : signed > 0 ? 'cut' : 'fill',
      batter_height_m: h,
      batter_width_m: round(width, 2),
      required_setback_m: round(required, 2),
      available_m: round(available, 2),
      complies: available >= required,
    });
  }
  return sides;
}

/** The earthworks of a pad on the footprint at `padLevel`, or at the balancing level when none is given. */
export function earthworks(
  grid: Grid,
  footprint: Extract<ParcelGeometry, { type: 'Polygon' }>,
  lot: ParcelGeometry,
  areaM2: number,
  padLevel: number | null,
): EarthworksModel | null {
  const ground = groundUnder(grid, footprint);
  if (!ground) return null;
  const balanced = balancedLevel(ground.heights);
  const level = padLevel ?? balanced;
  const volumes = volumesAt(ground.heights, areaM2, level);
  const setbacks = batterSetbacks(grid, footprint, lot, level, ground.spacing_m);
  if (!setbacks) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const z of ground.heights) {
    min = Math.min(min, z);
    max = Math.max(max, z);
  }
  return {
    pad_level_m: round(level, 3),
    pad_level_source: padLevel === null ? 'balanced' : 'given',
    balanced_pad_level_m: round(balanced, 3),
    cut_m3: round(volumes.cut, 2),
    fill_m3: round(volumes.fill, 2),
    net_m3: round(volumes.cut - volumes.fill, 2),
    max_cut_depth_m: round(volumes.maxCut, 3),
    max_fill_depth_m: round(volumes.maxFill, 3),
    footprint_area_m2: round(areaM2, 2),
    ground_min_m: round(min, 3),
    ground_max_m: round(max, 3),
    ground_mean_m: round(balanced, 3),
    samples: ground.heights.length,
    sample_spacing_m: round(ground.spacing_m, 3),
    cell_size_m: round(ground.cell_size_m, 2),
    batter_ratio: `1:${BATTER_RUN_PER_RISE}`,
    setbacks,
    setbacks_comply: setbacks.every((s) => s.complies),
  };
}
