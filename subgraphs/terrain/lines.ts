import type { BBox } from '../../core/geo.ts';
import type { Position } from '../../core/geojson.ts';
import { metresPerDegree } from './dem.ts';

const X = (p: Position) => p[0] ?? Number.NaN;
const Y = (p: Position) => p[1] ?? Number.NaN;

/** Liang–Barsky: the part of segment a→b inside the box, as parameters t0 ≤ t1 along it, or null. */
function clipSegment(a: Position, b: Position, box: BBox): [number, number] | null {
  const dx = X(b) - X(a);
  const dy = Y(b) - Y(a);
  let t0 = 0;
  let t1 = 1;
  const sides: Array<[number, number]> = [
    [-dx, X(a) - box.west],
    [dx, box.east - X(a)],
    [-dy, Y(a) - box.south],
    [dy, box.north - Y(a)],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return null;
  }
  return [t0, t1];
}

const along = (a: Position, b: Position, t: number): Position =>
  t === 0 ? a : t === 1 ? b : [X(a) + t * (X(b) - X(a)), Y(a) + t * (Y(b) - Y(a))];

/**
 * The pieces of a line inside a window: the line is cut where it leaves and starts again where
 * it comes back. A closed ring cut by the window rejoins across its start, so no piece ends at
 * an arbitrary point where the ring happened to begin.
 */
export function clipLine(coordinates: Position[], closed: boolean, box: BBox): Position[][] {
  const pieces: Position[][] = [];
  let current: Position[] | null = null;
  for (let i = 1; i < coordinates.length; i += 1) {
    const a = coordinates[i - 1]!;
    const b = coordinates[i]!;
    const clipped = clipSegment(a, b, box);
    if (!clipped) {
      if (current) pieces.push(current);
      current = null;
      continue;
    }
    const [t0, t1] = clipped;
    if (!current || t0 > 0) {
      if (current) pieces.push(current);
      current = [along(a, b, t0)];
    }
    current.push(along(a, b, t1));
    if (t1 < 1) {
      pieces.push(current);
      current = null;
    }
  }
  if (current) pieces.push(current);
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  if (
    closed &&
    pieces.length > 1 &&
    first &&
    last &&
    first[0] === coordinates[0] &&
    last.at(-1) === coordinates.at(-1)
  ) {
    pieces.pop();
    pieces[0] = [...last, ...first.slice(1)];
  }
  return pieces.filter(
    (piece) => piece.length >= 2 && piece.some((p) => X(p) !== X(piece[0]!) || Y(p) !== Y(piece[0]!)),
  );
}

/** Distance in metres from p to segment a–b, all given in local metres. */
function distanceToSegment(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.min(1, Math.max(0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/**
 * Douglas–Peucker with the tolerance in metres (the line is measured in local metres around
 * its first point, so the tolerance means the same east–west as north–south). Ends are kept.
 */
export function simplify(coordinates: Position[], toleranceM: number): Position[] {
  if (coordinates.length <= 2 || toleranceM <= 0) return coordinates;
  const m = metresPerDegree(Y(coordinates[0]!));
  const local = coordinates.map((p): [number, number] => [X(p) * m.lng, Y(p) * m.lat]);
  const keep = new Uint8Array(coordinates.length);
  keep[0] = 1;
  keep[coordinates.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, coordinates.length - 1]];
  for (let span = stack.pop(); span; span = stack.pop()) {
    const [from, to] = span;
    let farthest = -1;
    let distance = toleranceM;
    for (let i = from + 1; i < to; i += 1) {
      const d = distanceToSegment(local[i]!, local[from]!, local[to]!);
      if (d > distance) {
        distance = d;
        farthest = i;
      }
    }
    if (farthest >= 0) {
      keep[farthest] = 1;
      stack.push([from, farthest], [farthest, to]);
    }
  }
  return coordinates.filter((_p, i) => keep[i] === 1);
}
