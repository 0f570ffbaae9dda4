/**
 * A feature's geometry as the MultiPolygon the planning tables hold, checked before it reaches
 * PostGIS: a shape PostGIS would reject outright (a ring of two points, a coordinate that is
 * not a number) would otherwise abort the whole run's transaction. What can be mended here
 * is (a ring left open is closed, a degenerate ring dropped) and counted as a repair;
 * self-intersections and the like are PostGIS's to mend (ST_MakeValid, see planning-sql.ts).
 */
import { checkLngLat } from './planning-crs.ts';

type Position = [number, number];
type Ring = Position[];
type Polygon = Ring[];

export type CleanGeometry = {
  /** GeoJSON MultiPolygon text, two dimensions. */
  readonly geojson: string;
  /** What was mended here, for the repair report; empty when nothing was. */
  readonly repairs: readonly string[];
};

/** Where the feature is, so a refusal of the whole file can name it. */
export type GeometryContext = { readonly file: string; readonly crs: string; readonly feature: number };

export class RefusedGeometry extends Error {}

function position(value: unknown, at: GeometryContext): Position {
  if (!Array.isArray(value) || value.length < 2) throw new RefusedGeometry('a position has fewer than two numbers');
  const [x, y] = value as unknown[];
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) {
    throw new RefusedGeometry('a coordinate is not a number');
  }
  checkLngLat(at.file, at.crs, at.feature, x, y);
  return [x, y];
}

const samePosition = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

/** The ring closed, or null when fewer than three distinct corners leave nothing to enclose. */
function ring(value: unknown, at: GeometryContext, repairs: string[]): Ring | null {
  if (!Array.isArray(value)) throw new RefusedGeometry('a ring is not a list of positions');
  const points = value.map((p) => position(p, at));
  const first = points[0];
  const last = points.at(-1);
  if (first && last && !samePosition(first, last)) {
    points.push(first);
    repairs.push('closed a ring left open');
  }
  if (points.length < 4) {
    repairs.push(`dropped a ring of ${Math.max(0, points.length - 1)} corners`);
    return null;
  }
  return points;
}

function polygon(value: unknown, at: GeometryContext, repairs: string[]): Polygon | null {
  if (!Array.isArray(value)) throw new RefusedGeometry('a polygon is not a list of rings');
  const rings = value.map((r) => ring(r, at, repairs));
  const [outer, ...holes] = rings;
  // Without its outer ring a polygon's holes have nothing to be holes in.
  if (!outer) return null;
  return [outer, ...holes.filter((hole): hole is Ring => hole !== null)];
}

const typeOf = (geometry: unknown): unknown =>
  typeof geometry === 'object' && geometry !== null && 'type' in geometry ? geometry.type : undefined;

const coordinatesOf = (geometry: unknown): unknown =>
  typeof geometry === 'object' && geometry !== null && 'coordinates' in geometry ? geometry.coordinates : undefined;

/**
 * The geometry as a clean two-dimensional MultiPolygon. Throws RefusedGeometry with the reason
 * for a feature that cannot be a polygon, and IngestError (from checkLngLat) for a coordinate
 * that shows the whole file is not longitude/latitude.
 */
export function cleanPolygons(geometry: unknown, at: GeometryContext): CleanGeometry {
  if (geometry === null || geometry === undefined) throw new RefusedGeometry('it has no geometry');
  const type = typeOf(geometry);
  const coordinates = coordinatesOf(geometry);
  if (type !== 'Polygon' && type !== 'MultiPolygon') {
    throw new RefusedGeometry(`its geometry is a ${String(type)}, not a polygon`);
  }
  if (!Array.isArray(coordinates)) throw new RefusedGeometry(`its ${type} has no coordinates`);
  const repairs: string[] = [];
  const polygons = (type === 'Polygon' ? [coordinates] : coordinates)
    .map((p) => polygon(p, at, repairs))
    .filter((p): p is Polygon => p !== null);
  if (polygons.length === 0) throw new RefusedGeometry('no ring of it encloses an area');
  return { geojson: JSON.stringify({ type: 'MultiPolygon', coordinates: polygons }), repairs };
}
