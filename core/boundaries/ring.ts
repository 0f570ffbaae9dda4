/**
 * A parcel's outer ring as boundaries: cleaned of repeated vertices, turned counter-clockwise,
 * and cut into boundaries at its real corners, so a straight boundary digitised with several
 * vertices (or gently bent by a survey) is one boundary.
 */
import type { Position } from '../geojson.ts';
import { cross, dot, norm, pointSegmentDistance, signedArea, sub } from './plane.ts';
import type { LocalFrame, Pt } from './projection.ts';

/** A vertex in both frames: the parcel's own coordinates and local metres. */
export type Vertex = { position: Position; local: Pt };

/** A boundary: the run of ring vertices from one corner to the next. */
export type RingEdge = readonly Vertex[];

// Vertices closer than this are one (a ring's closing vertex, doubled digitising).
const SAME_POINT_M = 0.01;
// A turn sharper than this is a corner between two boundaries.
const CORNER_TURN_DEG = 12;
// A run stays one boundary while no vertex strays further than this from the chord.
const straightTolerance = (chordM: number): number => Math.max(0.2, 0.02 * chordM);

// Below these a ring is no lot: too small, or a sliver (its mean width, twice its area over its
// perimeter, is under what 7-decimal coordinates can resolve).
const MIN_AREA_M2 = 1;
const MIN_MEAN_WIDTH_M = 0.1;

export type Ring = { vertices: Vertex[]; area_m2: number } | { degenerate: string };

/** The outer ring in the frame, counter-clockwise, without repeats; or why it is not a lot. */
export function prepareRing(outer: readonly Position[], frame: LocalFrame): Ring {
  const vertices: Vertex[] = [];
  for (const position of outer) {
    const local = frame.toLocal(position);
    const prev = vertices[vertices.length - 1];
    if (!prev || norm(sub(local, prev.local)) >= SAME_POINT_M) vertices.push({ position, local });
  }
  const first = vertices[0];
  const end = vertices[vertices.length - 1];
  if (first && end && vertices.length > 1 && norm(sub(first.local, end.local)) < SAME_POINT_M) vertices.pop();
  if (vertices.length < 3) return { degenerate: `the parcel's outer ring has ${vertices.length} distinct vertices` };
  const area = signedArea(vertices.map((v) => v.local));
  const perimeter = vertices.reduce(
    (sum, v, i) => sum + norm(sub(vertices[(i + 1) % vertices.length]!.local, v.local)),
    0,
  );
  if (Math.abs(area) < MIN_AREA_M2 || (2 * Math.abs(area)) / perimeter < MIN_MEAN_WIDTH_M) {
    return { degenerate: `the parcel has no area to speak of (${Math.abs(area).toFixed(2)} m²)` };
  }
  if (area < 0) vertices.reverse();
  return { vertices, area_m2: Math.abs(area) };
}

function turnDegrees(prev: Pt, at: Pt, next: Pt): number {
  const a = sub(at, prev);
  const b = sub(next, at);
  return Math.abs((Math.atan2(cross(a, b), dot(a, b)) * 180) / Math.PI);
}

function staysStraight(run: readonly Vertex[]): boolean {
  const a = run[0]!.local;
  const b = run[run.length - 1]!.local;
  const tolerance = straightTolerance(norm(sub(b, a)));
  for (let i = 1; i < run.length - 1; i += 1) {
    if (turnDegrees(run[i - 1]!.local, run[i]!.local, run[i + 1]!.local) > CORNER_TURN_DEG) return false;
    if (pointSegmentDistance(run[i]!.local, a, b) > tolerance) return false;
  }
  return true;
}

/**
 * The ring cut into boundaries. The walk starts at the sharpest turn, which is always a real
 * corner (a ring turns 360° in all, so its sharpest turn is at least 360°/n), and extends each
 * boundary while it stays straight.
 */
export function ringEdges(vertices: readonly Vertex[]): RingEdge[] {
  const n = vertices.length;
  const at = (i: number): Vertex => vertices[((i % n) + n) % n]!;
  let start = 0;
  let sharpest = -1;
  for (let i = 0; i < n; i += 1) {
    const turn = turnDegrees(at(i - 1).local, at(i).local, at(i + 1).local);
    if (turn > sharpest) {
      sharpest = turn;
      start = i;
    }
  }
  const edges: RingEdge[] = [];
  let run: Vertex[] = [at(start), at(start + 1)];
  for (let k = 2; k <= n; k += 1) {
    const next = at(start + k);
    const extended = [...run, next];
    if (staysStraight(extended)) {
      run = extended;
    } else {
      edges.push(run);
      run = [run[run.length - 1]!, next];
    }
  }
  edges.push(run);
  return edges;
}

/** The length of a boundary along its vertices, in metres. */
export const edgeLength = (edge: RingEdge): number =>
  edge.slice(1).reduce((sum, v, i) => sum + norm(sub(v.local, edge[i]!.local)), 0);
