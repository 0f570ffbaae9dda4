/**
 * The building envelope: the parcel less, for every boundary, the ground within that boundary's
 * setback of it, at each wall-height tier up to the height limit. Cutting by distance from each
 * boundary (rather than offsetting the outline) keeps concave lots right: the inside corner of an
 * L-shaped lot is rounded, as a setback measured from both boundaries makes it.
 */
import type { PathD, PolyPathD } from '@countertype/clipper2-ts';
import { Clipper, ClipType, FillRule, PolyTreeD } from '@countertype/clipper2-ts';
import type { GeoJSONGeometry, Position } from '../../../core/geojson.ts';
import { SINGLE_STOREY_WALL_M, TWO_STOREY_WALL_M, setbackAt } from '../provisions/formulas.ts';
import type { Boundary, Provisions } from '../provisions/types.ts';
import type { ClassifiedEdge } from '../../../core/boundaries/boundaries.ts';
import { capsule } from './buffer.ts';
import { largestPolygon, norm, polygonArea, polygonsOf, signedArea, sub } from '../../../core/boundaries/plane.ts';
import { LocalFrame, type Pt } from '../../../core/boundaries/projection.ts';

export type EnvelopeLevel = {
  wall_height_m: number;
  setbacks: { front: number; side: number; rear: number; side_street: number };
  geometry: GeoJSONGeometry | null;
  area_m2: number;
};

export type Envelope = {
  /** One per wall-height tier: a single storey (3.6 m), two storeys (6.9 m) and the height limit, none above the limit. */
  levels: EnvelopeLevel[];
  /** The ground level (the first level). */
  geometry: GeoJSONGeometry | null;
  area_m2: number;
  parcel_area_m2: number;
  /** The smaller of the ground envelope and the site coverage allowance. */
  max_footprint_m2: number | null;
  gap: null | { code: 'setbacks_consume_lot'; message: string };
};

/** Less buildable ground than this (a small shed) is no envelope at all. */
export const MIN_BUILDABLE_M2 = 10;

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The wall-height tiers: single storey, two storeys and the height limit, capped at the limit. */
export function wallHeightTiers(heightLimitM: number): number[] {
  const tiers = [SINGLE_STOREY_WALL_M, TWO_STOREY_WALL_M, heightLimitM].map((h) => Math.min(h, heightLimitM));
  return [...new Set(tiers)].sort((a, b) => a - b);
}

/** Which setback a boundary takes: a side boundary facing a road is a corner lot's side street. */
export const boundaryOf = (edge: ClassifiedEdge): Boundary =>
  edge.kind === 'side' && edge.road !== null ? 'side_street' : edge.kind;

/** A polygon in the lot's local metric frame: open rings, the outer one first. */
type LocalPolygon = Pt[][];

/**
 * Decimal places of the clipping grid in the local frame, in metres: 0.1 mm. Clipper2 clips on integers (the
 * coordinates times 10^4), exactly; its products stay exact for coordinates within about 400 km of the frame's
 * origin (the lot), far beyond any lot.
 */
const CLIP_PRECISION = 4;

/** A ring wound the given way: counter-clockwise (positive area) for an outer ring, clockwise for a hole. */
function wound(ring: Pt[], counterClockwise: boolean): Pt[] {
  return signedArea(ring) > 0 === counterClockwise ? ring : ring.reverse();
}

/** An open local ring (the closing repeat of the first position dropped). */
function localRing(ring: readonly Position[], frame: LocalFrame): Pt[] {
  const points = ring.map((p) => frame.toLocal(p));
  const first = points[0];
  const end = points[points.length - 1];
  if (points.length > 1 && first && end && first[0] === end[0] && first[1] === end[1]) points.pop();
  return points;
}

const pathOf = (ring: readonly Pt[]): PathD => ring.map(([x, y]) => ({ x, y }));
const ringOf = (path: PathD | null): Pt[] => (path ?? []).map(({ x, y }): Pt => [x, y]);

/** The outer polygons under a node of Clipper2's tree, each with its holes; islands inside a hole are polygons too. */
function polygonsUnder(node: PolyPathD, out: LocalPolygon[]): LocalPolygon[] {
  for (let i = 0; i < node.count; i += 1) {
    const outer = node.child(i);
    const rings = [wound(ringOf(outer.poly), true)];
    for (let j = 0; j < outer.count; j += 1) {
      const hole = outer.child(j);
      rings.push(wound(ringOf(hole.poly), false));
      polygonsUnder(hole, out);
    }
    out.push(rings);
  }
  return out;
}

/**
 * The parcel (its rings wound as `wound` makes them) less the union of the cuts (capsules, counter-clockwise by
 * construction): under the non-zero rule overlapping cuts add up and a hole of the parcel stays a hole.
 */
function difference(parcel: LocalPolygon, cuts: readonly Pt[][]): LocalPolygon[] {
  const subject = parcel.map(pathOf);
  const clip = cuts.map(pathOf);
  const tree = new PolyTreeD();
  Clipper.booleanOpDWithPolyTree(ClipType.Difference, subject, clip, tree, FillRule.NonZero, CLIP_PRECISION);
  return polygonsUnder(tree, []);
}

function toGeoJSON(result: readonly LocalPolygon[], frame: LocalFrame): GeoJSONGeometry | null {
  const polygons = result
    .map((polygon) =>
      polygon
        .map((ring) => {
          const out: Position[] = [];
          if (ring.length === 0) return out;
          for (const point of [...ring, ring[0]!]) {
            const position = frame.toLngLat(point);
            const prev = out[out.length - 1];
            if (!prev || prev[0] !== position[0] || prev[1] !== position[1]) out.push(position);
          }
          return out;
        })
        // rounding to 7 decimals can collapse a sliver ring to fewer than 4 positions
        .filter((ring) => ring.length >= 4),
    )
    .filter((polygon) => polygon.length > 0);
  if (polygons.length === 0) return null;
  return polygons.length === 1
    ? { type: 'Polygon', coordinates: polygons[0]! }
    : { type: 'MultiPolygon', coordinates: polygons };
}

const areaOf = (result: readonly LocalPolygon[]): number =>
  result.reduce((sum, polygon) => sum + polygonArea(polygon), 0);

function level(
  parcel: LocalPolygon,
  edges: readonly ClassifiedEdge[],
  provisions: Provisions,
  wallHeightM: number,
  frame: LocalFrame,
): EnvelopeLevel {
  const setbacks = {
    front: setbackAt(provisions, 'front', wallHeightM).metres,
    side: setbackAt(provisions, 'side', wallHeightM).metres,
    rear: setbackAt(provisions, 'rear', wallHeightM).metres,
    side_street: setbackAt(provisions, 'side_street', wallHeightM).metres,
  };
  const cuts: Pt[][] = edges.flatMap((edge) => {
    const radius = setbacks[boundaryOf(edge)];
    const points = edge.path.map((p) => frame.toLocal(p));
    return points.slice(1).flatMap((b, i) => {
      const a = points[i]!;
      const ring = norm(sub(b, a)) > 0 ? capsule(a, b, radius) : null;
      return ring ? [ring] : [];
    });
  });
  const result = cuts.length > 0 ? difference(parcel, cuts) : [parcel];
  return {
    wall_height_m: wallHeightM,
    setbacks,
    geometry: toGeoJSON(result, frame),
    area_m2: round2(areaOf(result)),
  };
}

/**
 * The envelope of a parcel whose boundaries `classifyBoundaries` has classified. Uses the
 * parcel's largest polygon (the one the boundaries come from); the parcel area counts all parts.
 */
export function buildEnvelope(
  parcel: GeoJSONGeometry,
  edges: readonly ClassifiedEdge[],
  provisions: Provisions,
): Envelope {
  const polygon = largestPolygon(parcel);
  const outer = polygon?.[0];
  if (!polygon || !outer) throw new RangeError(`A ${parcel.type} has no polygon to build an envelope in`);
  const frame = LocalFrame.around(outer);
  // wound once for every tier's clipping: the outer ring counter-clockwise, the holes clockwise
  const subject: LocalPolygon = polygon.map((ring, i) => wound(localRing(ring, frame), i === 0));
  const parcelArea = round2(
    polygonsOf(parcel).reduce((sum, p) => sum + polygonArea(p.map((ring) => ring.map((q) => frame.toLocal(q)))), 0),
  );

  const levels = wallHeightTiers(provisions.height.max_m).map((h) => level(subject, edges, provisions, h, frame));
  const ground = levels[0]!;
  const coverageAllowance = round2((provisions.site_coverage.max_pct / 100) * parcelArea);
  const consumed = ground.area_m2 < MIN_BUILDABLE_M2;
  return {
    levels,
    geometry: ground.geometry,
    area_m2: ground.area_m2,
    parcel_area_m2: parcelArea,
    max_footprint_m2: round2(Math.min(ground.area_m2, coverageAllowance)),
    gap: consumed
      ? {
          code: 'setbacks_consume_lot',
          message: `Setbacks of ${ground.setbacks.front} m (front), ${ground.setbacks.side} m (side) and ${ground.setbacks.rear} m (rear) leave ${ground.area_m2} m² of this ${parcelArea} m² lot, less than the ${MIN_BUILDABLE_M2} m² a building needs`,
        }
      : null,
  };
}
