import { GraphQLScalarType, Kind } from 'graphql';
import { badRequest } from './errors.ts';
import type { GeoJSONGeometry } from './geojson.ts';

const GEOMETRY_TYPES = new Set(['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon']);

/** How deeply each geometry type nests its positions (RFC 7946 3.1). */
const POSITION_DEPTH: Record<string, number> = {
  Point: 0,
  LineString: 1,
  MultiPoint: 1,
  Polygon: 2,
  MultiLineString: 2,
  MultiPolygon: 3,
};

function isPosition(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.length >= 2 &&
    value.length <= 3 &&
    value.every((n) => typeof n === 'number' && Number.isFinite(n))
  );
}

function nestsPositions(value: unknown, depth: number): boolean {
  if (depth === 0) return isPosition(value);
  return Array.isArray(value) && value.every((item) => nestsPositions(item, depth - 1));
}

// A malformed geometry is the caller's mistake: an AppError keeps its 400 through graphql-js's
// coercion (which copies an original error's extensions), where a TypeError would read as internal.
function asGeometry(value: unknown): GeoJSONGeometry {
  if (typeof value !== 'object' || value === null || !('type' in value) || !('coordinates' in value)) {
    throw badRequest('GeoJSON must be a geometry object with type and coordinates.');
  }
  const { type, coordinates } = value;
  if (typeof type !== 'string' || !GEOMETRY_TYPES.has(type)) {
    throw badRequest(`GeoJSON type must be one of ${[...GEOMETRY_TYPES].join(', ')}.`);
  }
  if (!nestsPositions(coordinates, POSITION_DEPTH[type]!)) {
    throw badRequest(
      `GeoJSON ${type} coordinates must be ${'arrays of '.repeat(POSITION_DEPTH[type]!)}[lng, lat] positions of finite numbers.`,
    );
  }
  return value as GeoJSONGeometry;
}

/** GeoJSON geometry passes through as a JSON object rather than a string to parse twice. */
export const GeoJSON = new GraphQLScalarType<GeoJSONGeometry, GeoJSONGeometry>({
  name: 'GeoJSON',
  description: 'GeoJSON geometry object (RFC 7946) in WGS84.',
  // what we serialize is our own geometry: a wrong one is our fault, not the caller's
  serialize(value) {
    if (typeof value === 'object' && value !== null && 'type' in value && 'coordinates' in value) {
      return value as GeoJSONGeometry;
    }
    throw new TypeError('GeoJSON must be a geometry object with type and coordinates.');
  },
  parseValue: asGeometry,
  parseLiteral(ast) {
    if (ast.kind !== Kind.OBJECT) throw badRequest('GeoJSON literal must be an object.');
    throw badRequest('Pass GeoJSON as a variable, not an inline literal.');
  },
});
