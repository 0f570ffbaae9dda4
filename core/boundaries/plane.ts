/** Plane geometry in a lot's local metric frame: vectors, rings, segments and rays. */
import type { GeoJSONGeometry, Position } from '../geojson.ts';
import type { Pt } from './projection.ts';

export const sub = (a: Pt, b: Pt): Pt => [a[0] - b[0], a[1] - b[1]];
export const add = (a: Pt, b: Pt): Pt => [a[0] + b[0], a[1] + b[1]];
export const scale = (a: Pt, k: number): Pt => [a[0] * k, a[1] * k];
export const dot = (a: Pt, b: Pt): number => a[0] * b[0] + a[1] * b[1];
export const cross = (a: Pt, b: Pt): number => a[0] * b[1] - a[1] * b[0];
export const norm = (a: Pt): number => Math.hypot(a[0], a[1]);
export const unit = (a: Pt): Pt => {
  const n = norm(a);
  return n === 0 ? [0, 0] : [a[0] / n, a[1] / n];
};
/** The outward normal of an edge of a counter-clockwise ring: its right-hand side. */
export const rightNormal = (direction: Pt): Pt => unit([direction[1], -direction[0]]);

/** Shoelace area of an open or closed ring: positive when counter-clockwise. */
export function signedArea(ring: readonly Pt[]): number {
  let twice = 0;
  for (let i = 0; i < ring.length; i += 1) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    twice += cross(a, b);
  }
  return twice / 2;
}

/** Area of a polygon (outer ring less its holes), in square metres. */
export const polygonArea = (rings: readonly (readonly Pt[])[]): number =>
  rings.reduce((sum, ring, i) => sum + (i === 0 ? 1 : -1) * Math.abs(signedArea(ring)), 0);

/** The point of segment ab nearest to p. */
export function closestPoint(p: Pt, a: Pt, b: Pt): Pt {
  const ab = sub(b, a);
  const len2 = dot(ab, ab);
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, dot(sub(p, a), ab) / len2));
  return add(a, scale(ab, t));
}

export const pointSegmentDistance = (p: Pt, a: Pt, b: Pt): number => norm(sub(p, closestPoint(p, a, b)));

/** Where a ray from `origin` along the unit `direction` first meets segment ab within `reach`, as a distance. */
export function rayHit(origin: Pt, direction: Pt, reach: number, a: Pt, b: Pt): number | null {
  const r = scale(direction, reach);
  const q = sub(b, a);
  const denom = cross(r, q);
  if (Math.abs(denom) < 1e-12) return null;
  const ap = sub(a, origin);
  const s = cross(ap, q) / denom;
  const u = cross(ap, r) / denom;
  return s > 0 && s <= 1 && u >= 0 && u <= 1 ? s * reach : null;
}

/** The polygons of a Polygon or MultiPolygon; anything else has none. */
export function polygonsOf(geometry: GeoJSONGeometry): Position[][][] {
  if (geometry.type === 'Polygon') return [geometry.coordinates];
  if (geometry.type === 'MultiPolygon') return geometry.coordinates;
  return [];
}

/**
 * The polygon of a parcel with the largest outer ring. Sizes are compared in degrees, which is
 * fair between the parts of one parcel (they share a latitude to within metres).
 */
export function largestPolygon(geometry: GeoJSONGeometry): Position[][] | null {
  let best: Position[][] | null = null;
  let bestArea = -1;
  for (const polygon of polygonsOf(geometry)) {
    const outer = polygon[0];
    if (!outer) continue;
    const area = Math.abs(signedArea(outer.map(([x = 0, y = 0]): Pt => [x, y])));
    if (area > bestArea) {
      best = polygon;
      bestArea = area;
    }
  }
  return best;
}
