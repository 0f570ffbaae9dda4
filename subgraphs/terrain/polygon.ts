import { badRequest } from '../../core/errors.ts';
import type { BBox } from '../../core/geo.ts';
import { isInAustralia } from '../../core/geo.ts';
import type { GeoJSONGeometry, Position } from '../../core/geojson.ts';
import { MAX_TERRAIN_AREA_M2, MAX_TERRAIN_VERTICES } from '../../core/limits.ts';
import type { ParcelGeometry } from '../../core/polygons.ts';
import { areaM2, polygonsOf } from '../../core/polygons.ts';

export type TerrainPolygon = ParcelGeometry;

const HINT = 'Send a GeoJSON Polygon or MultiPolygon in WGS84 [lng, lat] order, each ring closed.';

const isPosition = (value: unknown): value is Position =>
  Array.isArray(value) &&
  value.length >= 2 &&
  value.length <= 3 &&
  value.every((n) => typeof n === 'number' && Number.isFinite(n));

function assertRing(ring: unknown, name: string): Position[] {
  if (!Array.isArray(ring) || !ring.every(isPosition)) {
    throw badRequest(`polygon ${name} must be an array of [lng, lat] positions.`, HINT);
  }
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (ring.length < 4 || !first || !last) {
    throw badRequest(`polygon ${name} has ${ring.length} positions; a closed ring needs at least 4.`, HINT);
  }
  if (first[0] !== last[0] || first[1] !== last[1]) {
    throw badRequest(`polygon ${name} is not closed: its last position must repeat its first.`, HINT);
  }
  return ring;
}

function assertRings(rings: unknown, name: string): Position[][] {
  if (!Array.isArray(rings) || rings.length === 0) {
    throw badRequest(`polygon ${name} must be a non-empty array of rings.`, HINT);
  }
  return rings.map((ring, i) => assertRing(ring, `${name}ring ${i}`));
}

/**
 * The polygon terrain statistics are asked for, held to the rules every caller meets: a
 * Polygon or MultiPolygon of closed rings, in Australia, with an area of at most 1 km².
 * `what` names it in the messages (polygon, bbox, lot).
 */
export function assertTerrainPolygon(geometry: GeoJSONGeometry, what = 'polygon'): TerrainPolygon {
  let polygon: TerrainPolygon;
  if (geometry.type === 'Polygon') {
    polygon = { type: 'Polygon', coordinates: assertRings(geometry.coordinates, '') };
  } else if (geometry.type === 'MultiPolygon') {
    const parts: unknown = geometry.coordinates;
    if (!Array.isArray(parts) || parts.length === 0) {
      throw badRequest('polygon must hold at least one polygon.', HINT);
    }
    polygon = { type: 'MultiPolygon', coordinates: parts.map((part, i) => assertRings(part, `part ${i} `)) };
  } else {
    throw badRequest(`polygon must be a GeoJSON Polygon or MultiPolygon; got ${String(geometry.type)}.`, HINT);
  }
  const positions = polygonsOf(polygon).flat(2);
  if (positions.length > MAX_TERRAIN_VERTICES) {
    throw badRequest(
      `polygon has ${positions.length} positions; the limit is ${MAX_TERRAIN_VERTICES}.`,
      'Simplify the outline first.',
    );
  }
  const outside = positions.find((p) => !isInAustralia(p[0] ?? NaN, p[1] ?? NaN));
  if (outside) {
    throw badRequest(
      `polygon reaches outside Australia, at [${outside.join(', ')}].`,
      'Positions are [lng, lat]: Australian latitudes are negative (about -9 to -44).',
    );
  }
  const area = areaM2(polygon);
  if (!(area > 0)) throw badRequest(`${what} has no area.`, HINT);
  if (area > MAX_TERRAIN_AREA_M2) {
    throw badRequest(
      `${what} covers ${Math.round(area).toLocaleString('en-AU')} m²; the limit is ${MAX_TERRAIN_AREA_M2.toLocaleString('en-AU')} m² (1 km²).`,
      'Split the area into smaller polygons.',
    );
  }
  return polygon;
}

export function bboxPolygon(bbox: BBox): TerrainPolygon {
  const { west, south, east, north } = bbox;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [west, south],
        [east, south],
        [east, north],
        [west, north],
        [west, south],
      ],
    ],
  };
}

/**
 * The area-weighted centre of the polygon (holes subtracted), in lng/lat: where a polygon too
 * small to hold a DEM cell's centre is sampled.
 */
export function centroid(polygon: TerrainPolygon): { lng: number; lat: number } {
  // measured from the first vertex: lng·lat products of nearby points would cancel to noise
  const [ox = 0, oy = 0] = polygonsOf(polygon)[0]?.[0]?.[0] ?? [];
  let area = 0;
  let cx = 0;
  let cy = 0;
  for (const rings of polygonsOf(polygon)) {
    rings.forEach((ring, i) => {
      // holes count against the outer ring whichever way they are wound
      let ringArea = 0;
      let rx = 0;
      let ry = 0;
      for (let k = 1; k < ring.length; k += 1) {
        const x0 = (ring[k - 1]![0] ?? ox) - ox;
        const y0 = (ring[k - 1]![1] ?? oy) - oy;
        const x1 = (ring[k]![0] ?? ox) - ox;
        const y1 = (ring[k]![1] ?? oy) - oy;
        const cross = x0 * y1 - x1 * y0;
        ringArea += cross;
        rx += (x0 + x1) * cross;
        ry += (y0 + y1) * cross;
      }
      const sign = (i === 0 ? 1 : -1) * Math.sign(ringArea);
      area += (sign * ringArea) / 2;
      cx += (sign * rx) / 6;
      cy += (sign * ry) / 6;
    });
  }
  return { lng: ox + cx / area, lat: oy + cy / area };
}
