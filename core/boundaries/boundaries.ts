/**
 * Boundary classification: which of a parcel's boundaries is its front (facing the road), which
 * its rear (facing away from the front) and which its sides, from the parcel's geometry and the
 * road centrelines around it. The envelope and the provisions both read it.
 */
import type { GeoJSONGeometry, Position } from '../geojson.ts';
import { roadCategory } from './road-class.ts';
import { add, dot, largestPolygon, rightNormal, scale, sub, unit } from './plane.ts';
import { LocalFrame, type Pt } from './projection.ts';
import { edgeLength, prepareRing, ringEdges, type RingEdge } from './ring.ts';
import { facingRoad, localRoads, nearestRoadInFront, type LocalRoad, type RoadHit, type RoadLine } from './roads.ts';

export type { RoadLine } from './roads.ts';

export type ClassifiedEdge = {
  index: number;
  kind: 'front' | 'side' | 'rear';
  start: Position;
  end: Position;
  /** Every vertex of the boundary from start to end, as the parcel has them. */
  path: Position[];
  length_m: number;
  /** Compass bearing (0–360, 0 = north) of the edge's outward normal. */
  facing_deg: number;
  /** The road this boundary faces (a side boundary of a corner lot has one too), or null. */
  road: { name: string | null; road_class: string; distance_m: number } | null;
};

export type BoundaryClassification =
  | {
      ok: true;
      edges: ClassifiedEdge[];
      frontage_m: number;
      depth_m: number;
      corner: boolean;
      front_road_class: string | null;
    }
  | { ok: false; gap: 'degenerate_parcel' | 'no_front_boundary'; message: string };

// A rear boundary faces within 45° of straight away from the front.
const REAR_COS = Math.cos(Math.PI / 4);
// Road-facing boundaries of one road are one frontage while they face within 60° of each other.
const SAME_FRONTAGE_COS = Math.cos(Math.PI / 3);
// Two frontages facing more than 135° apart are a through lot's front and back, not a corner.
const OPPOSITE_COS = Math.cos((3 * Math.PI) / 4);
// A short boundary between two road-facing ones is a corner splay, facing the road too.
const SPLAY_MAX_M = 10;

type Measured = { edge: RingEdge; length: number; normal: Pt; hit: RoadHit | null; splay: boolean };
type Frontage = { road: LocalRoad; members: Measured[]; length: number; normal: Pt; distance: number };

const cm = (metres: number): number => Math.round(metres * 100) / 100;

const outwardNormal = (edge: RingEdge): Pt => rightNormal(sub(edge[edge.length - 1]!.local, edge[0]!.local));

const weightedNormal = (members: readonly Measured[]): Pt =>
  unit(members.reduce<Pt>((sum, m) => add(sum, scale(m.normal, m.length)), [0, 0]));

function frontages(measured: readonly Measured[]): Frontage[] {
  const groups: Frontage[] = [];
  for (const m of measured) {
    // a splay belongs to neither frontage it joins
    if (!m.hit || m.splay) continue;
    const group = groups.find((g) => g.road.key === m.hit!.road.key && dot(g.normal, m.normal) >= SAME_FRONTAGE_COS);
    if (group) {
      group.members.push(m);
      group.length += m.length;
      group.normal = weightedNormal(group.members);
      group.distance = Math.min(group.distance, m.hit.distance_m);
    } else {
      groups.push({ road: m.hit.road, members: [m], length: m.length, normal: m.normal, distance: m.hit.distance_m });
    }
  }
  return groups;
}

const classRank = (road: LocalRoad): number =>
  ({ local: 0, collector: 1, arterial: 2 })[roadCategory(road.line.road_class) ?? 'arterial'];

/**
 * The front among a lot's frontages. ResCode's convention for a corner lot: the shorter frontage
 * is the front. A through lot (two frontages facing opposite ways) fronts its quieter road.
 */
function chooseFront(groups: readonly Frontage[]): Frontage {
  const byLength = [...groups].sort((a, b) => a.length - b.length || a.distance - b.distance);
  const [a, b] = byLength;
  if (groups.length === 2 && a && b && dot(a.normal, b.normal) <= OPPOSITE_COS) {
    return classRank(a.road) <= classRank(b.road) ? a : b;
  }
  return byLength[0]!;
}

/** Road hits for every boundary: first each road within its own reach, then any road within 40 m. */
function measure(edges: readonly RingEdge[], roads: readonly LocalRoad[]): Measured[] {
  const measured = edges.map((edge) => ({
    edge,
    length: edgeLength(edge),
    normal: outwardNormal(edge),
    hit: facingRoad(edge, roads),
    splay: false,
  }));
  if (measured.some((m) => m.hit)) return measured;
  const widened = measured.map((m) => ({ ...m, hit: facingRoad(m.edge, roads, true) }));
  if (widened.some((m) => m.hit)) return widened;
  // no boundary meets a road square-on: the one nearest a road in front of it fronts that road
  const nearest = measured
    .map((m) => ({ m, hit: nearestRoadInFront(m.edge, roads) }))
    .filter((x) => x.hit !== null)
    .sort((x, y) => x.hit!.distance_m - y.hit!.distance_m)[0];
  return measured.map((m) => (nearest && m === nearest.m ? { ...m, hit: nearest.hit } : m));
}

/** A short boundary between two road-facing boundaries (a corner splay) faces the nearer of their roads. */
function withSplays(measured: Measured[]): Measured[] {
  return measured.map((m, i) => {
    const prev = measured[(i - 1 + measured.length) % measured.length]!;
    const next = measured[(i + 1) % measured.length]!;
    if (m.hit || m.length > SPLAY_MAX_M || !prev.hit || !next.hit) return m;
    return { ...m, hit: prev.hit.distance_m <= next.hit.distance_m ? prev.hit : next.hit, splay: true };
  });
}

const bearing = ([east, north]: Pt): number =>
  Math.round((((Math.atan2(east, north) * 180) / Math.PI + 360) % 360) * 10) / 10;

/** Mean distance from the front to the rear boundaries, along the front's normal. */
function depth(measured: readonly Measured[], front: Frontage, rear: readonly Measured[]): number {
  const offset = (p: Pt) => dot(p, front.normal);
  const meanOffset = (members: readonly Measured[]) => {
    const total = members.reduce((sum, m) => sum + m.length, 0);
    return (
      members.reduce(
        (sum, m) => sum + (m.length * (offset(m.edge[0]!.local) + offset(m.edge[m.edge.length - 1]!.local))) / 2,
        0,
      ) / total
    );
  };
  const frontOffset = meanOffset(front.members);
  if (rear.length > 0) return frontOffset - meanOffset(rear);
  // a lot with no rear boundary (a triangle) reaches back to its furthest corner
  return frontOffset - Math.min(...measured.flatMap((m) => m.edge.map((v) => offset(v.local))));
}

/**
 * Classify a parcel's boundaries against the road centrelines near it. Uses the outer ring of the
 * parcel's largest polygon. A gap says why no classification is possible: too few distinct
 * vertices or no area (`degenerate_parcel`), or no road within 40 m (`no_front_boundary`).
 */
export function classifyBoundaries(parcel: GeoJSONGeometry, roads: readonly RoadLine[]): BoundaryClassification {
  const outer = largestPolygon(parcel)?.[0];
  if (!outer || outer.length === 0) {
    return { ok: false, gap: 'degenerate_parcel', message: `A ${parcel.type} has no polygon to classify` };
  }
  const frame = LocalFrame.around(outer);
  const ring = prepareRing(outer, frame);
  if ('degenerate' in ring)
    return { ok: false, gap: 'degenerate_parcel', message: `Degenerate parcel: ${ring.degenerate}` };

  const measured = withSplays(measure(ringEdges(ring.vertices), localRoads(roads, frame)));
  const groups = frontages(measured);
  if (groups.length === 0) {
    return {
      ok: false,
      gap: 'no_front_boundary',
      message:
        'No road centreline lies within 40 m in front of any boundary of the parcel, so its front cannot be told',
    };
  }
  const front = chooseFront(groups);
  const kindOf = (m: Measured): ClassifiedEdge['kind'] =>
    front.members.includes(m) ? 'front' : !m.splay && dot(m.normal, front.normal) <= -REAR_COS ? 'rear' : 'side';
  const rear = measured.filter((m) => kindOf(m) === 'rear');

  // number the boundaries from the front, going round the lot anticlockwise
  const first = measured.findIndex(
    (m, i) => kindOf(m) === 'front' && kindOf(measured[(i - 1 + measured.length) % measured.length]!) !== 'front',
  );
  const ordered = [...measured.slice(Math.max(0, first)), ...measured.slice(0, Math.max(0, first))];
  const edges = ordered.map((m, index): ClassifiedEdge => ({
    index,
    kind: kindOf(m),
    start: m.edge[0]!.position,
    end: m.edge[m.edge.length - 1]!.position,
    path: m.edge.map((v) => v.position),
    length_m: cm(m.length),
    facing_deg: bearing(m.normal),
    road: m.hit
      ? { name: m.hit.road.line.name, road_class: m.hit.road.line.road_class, distance_m: cm(m.hit.distance_m) }
      : null,
  }));
  const frontEdge = [...front.members].sort((a, b) => b.length - a.length)[0]!;
  return {
    ok: true,
    edges,
    frontage_m: cm(front.length),
    depth_m: cm(depth(measured, front, rear)),
    corner: edges.some((e) => e.kind === 'side' && e.road !== null),
    front_road_class: frontEdge.hit?.road.line.road_class ?? null,
  };
}
