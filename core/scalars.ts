import { GraphQLScalarType, Kind } from 'graphql';
import type { GeoJSONGeometry } from './geojson.ts';

const GEOMETRY_TYPES = new Set(['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon']);

function asGeometry(value: unknown): GeoJSONGeometry {
  if (typeof value === 'object' && value !== null && 'type' in value && 'coordinates' in value) {
    const type = (value as { type: unknown }).type;
    if (typeof type === 'string' && GEOMETRY_TYPES.has(type)) return value as GeoJSONGeometry;
  }
  throw new TypeError('GeoJSON must be a geometry object with type and coordinates.');
}

/** GeoJSON geometry passes through as a JSON object rather than a string to parse twice. */
export const GeoJSON = new GraphQLScalarType<GeoJSONGeometry, GeoJSONGeometry>({
  name: 'GeoJSON',
  description: 'GeoJSON geometry object (RFC 7946) in WGS84.',
  serialize: asGeometry,
  parseValue: asGeometry,
  parseLiteral(ast) {
    if (ast.kind !== Kind.OBJECT) throw new TypeError('GeoJSON literal must be an object.');
    throw new TypeError('Pass GeoJSON as a variable, not an inline literal.');
  },
});
