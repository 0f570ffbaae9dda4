/**
 * Which road a boundary faces. Rays go out from points along the boundary, square to it; a road
 * centreline they meet, running roughly parallel to the boundary and near enough to be the road
 * reserve the boundary abuts, is the road the boundary fronts.
 */
import type { Position } from '../geojson.ts';
import { roadCategory } from './road-class.ts';
import { add, closestPoint, cross, dot, norm, rayHit, rightNormal, scale, sub, unit } from './plane.ts';
import type { LocalFrame, Pt } from './projection.ts';
import type { RingEdge } from './ring.ts';

/** A road centreline (WGS84 LineString) with its name and the road layer's class. */
export type RoadLine = { name: string | null; road_class: string; coordinates: Position[] };

export type LocalRoad = { key: string; line: RoadLine; segments: Array<readonly [Pt, Pt]> };

export type RoadHit = { road: LocalRoad; distance_m: number };

/** No road centreline further than this from a boundary is taken as its road. */
export const MAX_REACH_M = 40;

// A centreline sits in the middle of its reserve: about half the reserve's width from the
// boundary. Half the widest reserve of each category, so a road beyond a neighbouring lot is
// not taken for one this boundary abuts.
const REACH_BY_CATEGORY = { arterial: MAX_REACH_M, collector: 22, local: 16 } as const;
const REACH_UNKNOWN_M = 20;

// Lanes, tracks and paths run behind and beside lots; they never make a lot's front.
const NOT_A_FRONTAGE = /\b(lane|laneway|track|path|pathway|footway|walkway|cycleway|trail|busway|rail(way)?|ferry)\b/i;

const SAMPLES = [0.1, 0.3, 0.5, 0.7, 0.9];
const MIN_HITS = 2;
// Within 30° of parallel.
const MAX_SIN_ANGLE = Math.sin(Math.PI / 6);

export function localRoads(roads: readonly RoadLine[], frame: LocalFrame): LocalRoad[] {
  return roads.flatMap((line, index) => {
    if (NOT_A_FRONTAGE.test(line.road_class) || line.coordinates.length < 2) return [];
    const points = line.coordinates.map((c) => frame.toLocal(c));
    const segments = points.slice(1).map((b, i) => [points[i]!, b] as const);
    // one street is often split at every intersection: its pieces are one road
    const key = line.name ? `${line.name.trim().toUpperCase()}|${line.road_class}` : `#${index}`;
    return [{ key, line, segments }];
  });
}

const reachFor = (road: LocalRoad): number => {
  const category = roadCategory(road.line.road_class);
  return category ? REACH_BY_CATEGORY[category] : REACH_UNKNOWN_M;
};

/** Points along a boundary at fractions of its length, each with the outward normal of its stretch. */
function samples(edge: RingEdge): Array<{ at: Pt; normal: Pt; direction: Pt }> {
  const stretches = edge
    .slice(1)
    .map((v, i) => ({ a: edge[i]!.local, b: v.local, length: norm(sub(v.local, edge[i]!.local)) }));
  const total = stretches.reduce((sum, s) => sum + s.length, 0);
  return SAMPLES.map((fraction) => {
    let remaining = fraction * total;
    for (const [i, { a, b, length }] of stretches.entries()) {
      if (remaining <= length || i === stretches.length - 1) {
        const t = length === 0 ? 0 : Math.min(1, remaining / length);
        const direction = unit(sub(b, a));
        return { at: add(a, scale(sub(b, a), t)), normal: rightNormal(direction), direction };
      }
      remaining -= length;
    }
    throw new Error('A boundary needs at least one stretch');
  });
}

/**
 * The road a boundary faces: the one most of its rays meet square-on within that road's reach,
 * at the median distance of those rays. `widen` gives every road the full MAX_REACH_M, for the
 * second pass when no boundary found a road within its road's own reach.
 */
export function facingRoad(edge: RingEdge, roads: readonly LocalRoad[], widen = false): RoadHit | null {
  const hits = new Map<LocalRoad, number[]>();
  for (const { at, normal, direction } of samples(edge)) {
    let best: { road: LocalRoad; distance: number } | null = null;
    for (const road of roads) {
      for (const [a, b] of road.segments) {
        if (Math.abs(cross(direction, unit(sub(b, a)))) > MAX_SIN_ANGLE) continue;
        const distance = rayHit(at, normal, widen ? MAX_REACH_M : reachFor(road), a, b);
        if (distance !== null && (!best || distance < best.distance)) best = { road, distance };
      }
    }
    if (best) hits.set(best.road, [...(hits.get(best.road) ?? []), best.distance]);
  }
  let answer: RoadHit | null = null;
  let answerHits = 0;
  for (const [road, distances] of hits) {
    const sorted = [...distances].sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    if (distances.length < MIN_HITS) continue;
    if (distances.length > answerHits || (distances.length === answerHits && answer && median < answer.distance_m)) {
      answer = { road, distance_m: median };
      answerHits = distances.length;
    }
  }
  return answer;
}

/**
 * The nearest road in front of a boundary at any angle, within MAX_REACH_M: the last resort for
 * a frontage no ray meets square-on (a cul-de-sac head whose centreline ends at the bulb).
 */
export function nearestRoadInFront(edge: RingEdge, roads: readonly LocalRoad[]): RoadHit | null {
  const mid = samples(edge)[2]!;
  let best: RoadHit | null = null;
  for (const road of roads) {
    for (const [a, b] of road.segments) {
      const nearest = closestPoint(mid.at, a, b);
      const distance = norm(sub(nearest, mid.at));
      const ahead = dot(sub(nearest, mid.at), mid.normal) > 0;
      if (ahead && distance <= MAX_REACH_M && (!best || distance < best.distance_m))
        best = { road, distance_m: distance };
    }
  }
  return best;
}
