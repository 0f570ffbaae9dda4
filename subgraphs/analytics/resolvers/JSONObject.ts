import { GraphQLScalarType, Kind } from 'graphql';

type JsonObject = Record<string, unknown>;

function asObject(value: unknown): JsonObject {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject;
  throw new TypeError('JSONObject must be a JSON object.');
}

/** A JSON object passed through as is: a suburb bundle, or its flat metrics. */
export const JSONObject = new GraphQLScalarType<JsonObject, JsonObject>({
  name: 'JSONObject',
  description: 'A JSON object, passed through as is.',
  serialize: asObject,
  parseValue: asObject,
  parseLiteral(ast) {
    if (ast.kind !== Kind.OBJECT) throw new TypeError('JSONObject literal must be an object.');
    throw new TypeError('Pass JSONObject as a variable, not an inline literal.');
  },
});
