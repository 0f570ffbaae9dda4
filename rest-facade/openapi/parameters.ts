import { z } from 'zod';
import { STATES } from '../../core/geo.ts';
import { MAX_BBOX_SPAN_DEGREES } from '../../core/validate.ts';
import type { JsonValue, ParameterObject, SchemaObject } from './types.ts';

type ZodJsonSchema = z.core.JSONSchema.JSONSchema;

/**
 * Words for the parameters the shared schemas of rest-facade/params.ts build, used when the
 * zod schema itself carries no description (`.describe()` or `.meta({ description })` wins).
 */
export const PARAMETER_NOTES: Record<string, string> = {
  lat: 'Latitude in WGS84 decimal degrees (negative in Australia).',
  lng: 'Longitude in WGS84 decimal degrees.',
  state: `State or territory code, any case: one of ${STATES.join(', ')}.`,
  pfi: 'Parcel feature identifier; unique only within its state, so pass state too.',
  gnaf_pid: 'G-NAF address persistent identifier.',
  suburb:
    "Suburb or locality name as the ABS names it (SAL), any case; its state suffix may be left off, e.g. 'Richmond' for 'Richmond (Vic.)'.",
  q: "Free-text Australian address, e.g. '2/72 Dwyer Street, Huntly VIC 3551' (any case, commas optional).",
  postcode: 'Four-digit postcode; narrows the match (defaults to the one written in q).',
  near: "'lat,lng' inside Australia: ranks equally good candidates by distance and settles ties between streets.",
  timeout_ms:
    'Per-stage time budget in milliseconds, clamped to 250-12000 (default 3000); garbage or non-positive values are ignored.',
  limit: 'How many suggestions, 1 to 20 (default 10).',
  propertyId:
    'The parcel: its PFI (with state), a G-NAF PID (GAVIC411711441), or a lot/plan reference (3\\\\PS612345, 10//DP123456).',
  month: 'Calendar month as YYYY-MM (UTC); the current month when absent.',
  lot_area_m2: 'Lot area in square metres; overrides the area measured from the parcel.',
  frontage_m: 'Width of the lot along its road frontage, in metres; overrides the measured frontage.',
  depth_m: 'Mean depth of the lot from front to rear, in metres; overrides the measured depth.',
  corner: 'true when the lot fronts two roads (a corner lot); overrides what the road layer says.',
  wall_height_m:
    'A proposed wall height in metres, for setbacks that grow with height (default 3.6 m, a single storey).',
  address:
    "Free-text Australian address, matched as /api/cadastre/by-address matches q, e.g. '12 Dwyer St, Huntly VIC'.",
  bbox: `Window as west,south,east,north in WGS84 decimal degrees, at most ${MAX_BBOX_SPAN_DEGREES} degrees per axis.`,
};

/** What a decimal number looks like on the wire; the server also trims surrounding spaces. */
const DECIMAL = '^\\s*[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?\\s*$';
const INTEGER = '^\\s*[-+]?\\d+\\s*$';

const isRecord = (value: unknown): value is ZodJsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function toJsonValue(value: unknown): JsonValue | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    const items: JsonValue[] = [];
    for (const item of value as unknown[]) {
      const converted = toJsonValue(item);
      if (converted === undefined) return undefined;
      items.push(converted);
    }
    return items;
  }
  const object: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) {
    const converted = toJsonValue(item);
    if (converted === undefined) return undefined;
    object[key] = converted;
  }
  return object;
}

const typesOf = (schema: ZodJsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

function bounds(schema: ZodJsonSchema): string {
  const parts: string[] = [];
  if (schema.minimum !== undefined) parts.push(`at least ${schema.minimum}`);
  if (schema.maximum !== undefined && Math.abs(schema.maximum) < Number.MAX_SAFE_INTEGER) {
    parts.push(`at most ${schema.maximum}`);
  }
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/**
 * A query value is text on the wire whatever the schema turns it into, so numbers and booleans
 * are described as strings of the right form; strings keep their constraints.
 */
function wireSchema(schema: ZodJsonSchema): { schema: SchemaObject; note: string } {
  const types = typesOf(schema);
  if (types.includes('integer')) {
    return { schema: { type: 'string', pattern: INTEGER }, note: `An integer${bounds(schema)}.` };
  }
  if (types.includes('number')) {
    return { schema: { type: 'string', format: 'decimal', pattern: DECIMAL }, note: `A number${bounds(schema)}.` };
  }
  if (types.includes('boolean')) return { schema: { type: 'string', enum: ['true', 'false'] }, note: '' };
  if (types.includes('array') && isRecord(schema.items)) {
    const items = wireSchema(schema.items);
    return {
      schema: { type: 'array', items: items.schema },
      note: `Repeat the parameter for each value. ${items.note}`,
    };
  }
  const out: SchemaObject = { type: 'string' };
  if (schema.enum) out.enum = schema.enum.map(String);
  if (schema.minLength !== undefined) out.minLength = schema.minLength;
  if (schema.maxLength !== undefined) out.maxLength = schema.maxLength;
  if (schema.pattern !== undefined) out.pattern = schema.pattern;
  if (schema.format !== undefined) out.format = schema.format;
  return { schema: out, note: '' };
}

/** The default of a field of the object schema; zod keeps it off the input JSON Schema when the field transforms. */
function defaultOf(field: z.core.$ZodType | undefined): JsonValue | undefined {
  let current = field;
  while (current) {
    if (current instanceof z.core.$ZodDefault) return toJsonValue(current._zod.def.defaultValue);
    current = current instanceof z.core.$ZodOptional ? current._zod.def.innerType : undefined;
  }
  return undefined;
}

/**
 * The query parameters of a route, from the same zod schema that validates its requests:
 * names, which are required, their form on the wire, defaults, descriptions and examples.
 */
export function queryParameters(query: z.ZodType): ParameterObject[] {
  const json = z.toJSONSchema(query, { io: 'input', unrepresentable: 'any' });
  const required = new Set(json.required ?? []);
  const shape: Record<string, z.core.$ZodType> = query instanceof z.ZodObject ? query.shape : {};
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const field = isRecord(property) ? property : {};
    const { schema, note } = wireSchema(field);
    const fallback = defaultOf(shape[name]) ?? toJsonValue(field.default);
    const wireDefault = fallback === undefined || typeof fallback === 'string' ? fallback : JSON.stringify(fallback);
    if (wireDefault !== undefined) schema.default = wireDefault;
    const examples = toJsonValue(field.examples);
    if (Array.isArray(examples)) schema.examples = examples.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
    const words = [field.description ?? PARAMETER_NOTES[name] ?? '', note];
    if (wireDefault !== undefined) words.push(`Defaults to ${wireDefault}.`);
    return {
      name,
      in: 'query',
      description: words.filter(Boolean).join(' '),
      required: required.has(name),
      schema,
      style: 'form',
      explode: true,
    };
  });
}

/** Express path parameters (`:id`) as OpenAPI path parameters; they are not part of the query schema. */
export function pathParameters(path: string): ParameterObject[] {
  return [...path.matchAll(/:(\w+)/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    description: PARAMETER_NOTES[name] ?? `The ${name} of the resource.`,
    required: true,
    schema: { type: 'string' },
  }));
}

/** The OpenAPI form of an Express path: `/jobs/:id` becomes `/jobs/{id}`. */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

/** The JSON Schema of a body route's request, from the zod schema that validates it. */
export function bodySchema(body: z.ZodType): SchemaObject {
  const json = toJsonValue(z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }));
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { type: 'object' };
  const { $schema: _dialect, ...schema } = json;
  return schema;
}
