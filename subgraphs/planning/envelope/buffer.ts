/**
 * The ground within a distance of a boundary segment, as a polygon: a capsule (the segment's
 * strip with a half-disc at each end). The half-discs are polygons drawn outside the true circle,
 * so an envelope cut by them is never larger than the exact one.
 */
import { norm, sub } from '../../../core/boundaries/plane.ts';
import type { Pt } from '../../../core/boundaries/projection.ts';

// Vertices per half-disc: the polygon strays at most 0.3% of the radius (2 cm at 6 m) outside the circle.
const ARC_STEPS = 16;

/**
 * An open capsule ring (counter-clockwise, its first vertex not repeated) around segment ab with the
 * given radius, or null for a zero-length segment or radius.
 */
export function capsule(a: Pt, b: Pt, radius: number): Pt[] | null {
  const length = norm(sub(b, a));
  if (length === 0 || radius <= 0) return null;
  const heading = Math.atan2(b[1] - a[1], b[0] - a[0]);
  const step = Math.PI / ARC_STEPS;
  // a vertex halfway between tangent points sits on both tangents, so the polygon circumscribes the arc
  const outer = radius / Math.cos(step / 2);
  const ring: Pt[] = [];
  const halfDisc = (centre: Pt, from: number) => {
    ring.push([centre[0] + radius * Math.cos(from), centre[1] + radius * Math.sin(from)]);
    for (let k = 0; k < ARC_STEPS; k += 1) {
      const angle = from + (k + 0.5) * step;
      ring.push([centre[0] + outer * Math.cos(angle), centre[1] + outer * Math.sin(angle)]);
    }
    ring.push([centre[0] + radius * Math.cos(from + Math.PI), centre[1] + radius * Math.sin(from + Math.PI)]);
  };
  halfDisc(b, heading - Math.PI / 2);
  halfDisc(a, heading + Math.PI / 2);
  return ring;
}
