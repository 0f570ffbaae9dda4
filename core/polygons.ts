import type { GeoJSONGeometry, Position } from './geojson.ts';
import type { BBox } from './geo.ts';

/**
 * Exact planar tests on WGS84 lng/lat for parcels that come from outside the database (live
 * services, object-store tiles), so they are held to the same rules as the mirror's PostGIS
 * queries: a point on a boundary is on the parcel, holes are not.
 */
export type Ring = Position[];
export type PolygonRings = Ring[];
export type ParcelGeometry = Extract<GeoJSONGeometry, { type: 'Polygon' | 'MultiPolygon' }>;

const x = (p: Position) => p[0] ?? NaN;
const y = (p: Position) => p[1] ?? NaN;

export function polygonsOf(geometry: ParcelGeometry): PolygonRings[] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** Twice the signed area in degrees² (shoelace): positive counter-clockwise, negative clockwise. */
export function signedArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
    sum += (x(ring[j]!) - x(ring[i]!)) * (y(ring[j]!) + y(ring[i]!));
  }
  return sum;
}

function onSegment(px: number, py: number, a: Position, b: Position): boolean {
  const cross = (x(b) - x(a)) * (py - y(a)) - (y(b) - y(a)) * (px - x(a));
  if (Math.abs(cross) > 1e-18) return false;
  return (
    px >= Math.min(x(a), x(b)) && px <= Math.max(x(a), x(b)) && py >= Math.min(y(a), y(b)) && py <= Math.max(y(a), y(b))
  );
}

/** Where a point lies against one ring (crossing number, with the boundary told apart). */
export function pointInRing(px: number, py: number, ring: Ring): 'inside' | 'outside' | 'boundary' {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
    const a = ring[j]!;
    const b = ring[i]!;
    if (onSegment(px, py, a, b)) return 'boundary';
    if (y(b) > py !== y(a) > py && px < ((x(a) - x(b)) * (py - y(b))) / (y(a) - y(b)) + x(b)) inside = !inside;
  }
  return inside ? 'inside' : 'outside';
}

/** Whether a point is on a polygon (its boundary included, its holes excluded). */
function pointOnPolygon(px: number, py: number, rings: PolygonRings): boolean {
  const [outer, ...holes] = rings;
  if (!outer || pointInRing(px, py, outer) === 'outside') return false;
  return holes.every((hole) => pointInRing(px, py, hole) !== 'inside');
}

export function containsPoint(geometry: ParcelGeometry, lng: number, lat: number): boolean {
  return polygonsOf(geometry).some((rings) => pointOnPolygon(lng, lat, rings));
}

export function bboxOf(geometry: ParcelGeometry): BBox {
  const box = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  for (const rings of polygonsOf(geometry)) {
    for (const p of rings[0] ?? []) {
      box.west = Math.min(box.west, x(p));
      box.east = Math.max(box.east, x(p));
      box.south = Math.min(box.south, y(p));
      box.north = Math.max(box.north, y(p));
    }
  }
  return box;
}

export const boxesTouch = (a: BBox, b: BBox) =>
  a.west <= b.east && b.west <= a.east && a.south <= b.north && b.south <= a.north;

const orientation = (a: Position, b: Position, c: Position) =>
  Math.sign((x(b) - x(a)) * (y(c) - y(a)) - (y(b) - y(a)) * (x(c) - x(a)));

/** Whether two closed segments share a point (collinear overlaps included). */
function segmentsMeet(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(x(c), y(c), a, b)) ||
    (o2 === 0 && onSegment(x(d), y(d), a, b)) ||
    (o3 === 0 && onSegment(x(a), y(a), c, d)) ||
    (o4 === 0 && onSegment(x(b), y(b), c, d))
  );
}

function boxEdges(box: BBox): Array<[Position, Position]> {
  const sw = [box.west, box.south];
  const se = [box.east, box.south];
  const ne = [box.east, box.north];
  const nw = [box.west, box.north];
  return [
    [sw, se],
    [se, ne],
    [ne, nw],
    [nw, sw],
  ];
}

const inBox = (p: Position, box: BBox) =>
  x(p) >= box.west && x(p) <= box.east && y(p) >= box.south && y(p) <= box.north;

/** Whether any ring of a polygon reaches into the window: a vertex inside it or an edge across its border. */
function boundaryMeetsBox(rings: PolygonRings, box: BBox): boolean {
  const edges = boxEdges(box);
  for (const ring of rings) {
    for (let i = 0; i < ring.length; i += 1) {
      const a = ring[i]!;
      if (inBox(a, box)) return true;
      const b = ring[(i + 1) % ring.length]!;
      if (edges.some(([c, d]) => segmentsMeet(a, b, c, d))) return true;
    }
  }
  return false;
}

/** The exact test of the mirror's `ST_Intersects(geom, envelope)`: touching counts. */
export function intersectsBox(geometry: ParcelGeometry, box: BBox): boolean {
  if (!boxesTouch(bboxOf(geometry), box)) return false;
  return polygonsOf(geometry).some(
    (rings) => boundaryMeetsBox(rings, box) || pointOnPolygon(box.west, box.south, rings),
  );
}

/** Whether a window lies wholly inside one polygon of an area (a coverage outline); conservative at shared edges. */
export function boxWithin(box: BBox, area: ParcelGeometry): boolean {
  return polygonsOf(area).some((rings) => !boundaryMeetsBox(rings, box) && pointOnPolygon(box.west, box.south, rings));
}

// WGS84, for areas on the ellipsoid through the authalic sphere (equal-area latitude).
const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const E = Math.sqrt(E2);
const q = (sinPhi: number) =>
  (1 - E2) * (sinPhi / (1 - E2 * sinPhi * sinPhi) - (1 / (2 * E)) * Math.log((1 - E * sinPhi) / (1 + E * sinPhi)));
const Q_POLE = q(1);
const AUTHALIC_RADIUS = A * Math.sqrt(Q_POLE / 2);
const sinAuthalic = (lat: number) => q(Math.sin((lat * Math.PI) / 180)) / Q_POLE;

function ringAreaM2(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
    const dLng = ((x(ring[i]!) - x(ring[j]!)) * Math.PI) / 180;
    sum += dLng * (sinAuthalic(y(ring[i]!)) + sinAuthalic(y(ring[j]!)));
  }
  return Math.abs(sum / 2) * AUTHALIC_RADIUS * AUTHALIC_RADIUS;
}

/**
 * Area in square metres on the WGS84 ellipsoid, as the mirror's `ST_Area(geography)`: each
 * ring is measured on the authalic sphere, where areas equal the ellipsoid's, holes subtracted.
 */
export function areaM2(geometry: ParcelGeometry): number {
  return polygonsOf(geometry).reduce(
    (total, [outer, ...holes]) =>
      total + (outer ? ringAreaM2(outer) : 0) - holes.reduce((sum, hole) => sum + ringAreaM2(hole), 0),
    0,
  );
}

/**
 * A point certainly on the parcel (like `ST_PointOnSurface`): on the largest part, the middle
 * of the widest stretch of a horizontal line through the middle of that part.
 */
export function interiorPoint(geometry: ParcelGeometry): { lat: number; lng: number } {
  const parts = polygonsOf(geometry);
  const largest = parts.reduce((best, rings) =>
    Math.abs(signedArea(rings[0] ?? [])) > Math.abs(signedArea(best[0] ?? [])) ? rings : best,
  );
  const outer = largest[0] ?? [];
  const ys = outer.map(y);
  const lat = (Math.min(...ys) + Math.max(...ys)) / 2;
  const crossings: number[] = [];
  for (const ring of largest) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
      const a = ring[j]!;
      const b = ring[i]!;
      if (y(a) <= lat !== y(b) <= lat) crossings.push(x(a) + ((lat - y(a)) * (x(b) - x(a))) / (y(b) - y(a)));
    }
  }
  crossings.sort((p, r) => p - r);
  let best = { lng: x(outer[0] ?? []), lat: y(outer[0] ?? []), width: -1 };
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const width = crossings[i + 1]! - crossings[i]!;
    if (width > best.width) best = { lng: (crossings[i]! + crossings[i + 1]!) / 2, lat, width };
  }
  return { lat: best.lat, lng: best.lng };
}
