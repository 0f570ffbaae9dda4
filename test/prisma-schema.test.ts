import { readFileSync } from 'node:fs';
import { getSchema } from '@mrleebo/prisma-ast';
import type { Field, Model } from '@mrleebo/prisma-ast';
import { beforeAll, describe, expect, it } from 'vitest';
import { testRuntime } from './support/runtime.ts';

type Column = {
  table_schema: string;
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: 'YES' | 'NO';
};

const unquote = (value: unknown) => String(value).replace(/^"|"$/g, '');

function attribute(model: Model, name: string): string | undefined {
  for (const property of model.properties) {
    if (property.type === 'attribute' && property.name === name) return unquote(property.args?.[0]?.value);
  }
  return undefined;
}

function columnName(field: Field): string {
  const mapped = field.attributes?.find((a) => a.name === 'map');
  return mapped ? unquote(mapped.args?.[0]?.value) : field.name;
}

const COLUMN_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Float: 'float8',
  DateTime: 'timestamptz',
  Boolean: 'bool',
  Json: 'jsonb',
};

/** What the migrated column's type must be for each Prisma field type (arrays are `_<type>`). */
function expectedType(field: Field): string {
  if (typeof field.fieldType === 'object') return 'geometry';
  // a native type attribute (@db.Date) names the column type itself
  const native = field.attributes?.find((a) => a.group === 'db');
  if (native) return native.name.toLowerCase();
  const base = COLUMN_TYPES[field.fieldType] ?? field.fieldType;
  return field.array ? `_${base}` : base;
}

const schemaBlocks = getSchema(readFileSync(new URL('../prisma/schema.prisma', import.meta.url), 'utf8')).list;
const models = schemaBlocks.filter((block): block is Model => block.type === 'model');
const modelNames = new Set(models.map((m) => m.name));
/** Relation fields (typed by another model) have no column of their own. */
const isColumn = (property: Model['properties'][number]): property is Field =>
  property.type === 'field' && !(typeof property.fieldType === 'string' && modelNames.has(property.fieldType));

describe('prisma/schema.prisma agrees with the migrated tables', () => {
  let columns: Map<string, Column>;

  beforeAll(async () => {
    const { runtime } = await testRuntime();
    const rows = await runtime.db.query<Column>(
      `SELECT c.table_schema, c.table_name, c.column_name, c.data_type, c.udt_name, c.is_nullable
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE t.table_type = 'BASE TABLE' AND c.table_schema IN ('address', 'amenities', 'analytics', 'cadastre', 'census', 'development', 'hazards', 'land', 'market', 'planning', 'platform', 'public', 'roads', 'soil', 'supply', 'terrain')
         AND c.table_name NOT IN ('_landgraph_migrations', 'spatial_ref_sys')`,
    );
    columns = new Map(rows.map((c) => [`${c.table_schema}.${c.table_name}.${c.column_name}`, c]));
  });

  it.each(models.map((m) => [m.name, m]))(
    'model %s maps every field to a column of the same type and nullability',
    (_name, model) => {
      const table = `${attribute(model, 'schema') ?? 'public'}.${attribute(model, 'map') ?? model.name}`;
      for (const property of model.properties) {
        if (!isColumn(property)) continue;
        const column = columns.get(`${table}.${columnName(property)}`);
        expect(column, `${table}.${columnName(property)}`).toBeDefined();
        expect(column!.udt_name, `${table}.${columnName(property)}`).toBe(expectedType(property));
        expect(column!.is_nullable === 'YES', `${table}.${columnName(property)} nullability`).toBe(property.optional);
      }
    },
  );

  it('names in every @@index a migrated index of its table with those key columns in that order', async () => {
    const { runtime } = await testRuntime();
    const indexes = await runtime.db.query<{ name: string; keys: string[] }>(
      `SELECT n.nspname || '.' || t.relname || '.' || c.relname AS name,
         array(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) k ORDER BY k) AS keys
       FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace`,
    );
    const migrated = new Map(indexes.map((i) => [i.name, i.keys]));
    const modelled: Array<[string, string[]]> = [];
    for (const model of models) {
      const table = `${attribute(model, 'schema') ?? 'public'}.${attribute(model, 'map') ?? model.name}`;
      const columnOf = new Map(
        model.properties.filter(isColumn).map((field) => [field.name, columnName(field)] as const),
      );
      for (const property of model.properties) {
        if (property.type !== 'attribute' || property.name !== 'index') continue;
        const [fields, ...named] = property.args ?? [];
        const map = named
          .map((a) => a.value)
          .find((v) => typeof v === 'object' && v !== null && 'key' in v && v.key === 'map');
        const list = fields?.value;
        if (!map || typeof map !== 'object' || !('value' in map)) throw new Error(`${table}: an @@index without map`);
        if (typeof list !== 'object' || list === null || !('args' in list))
          throw new Error(`${table}: unreadable @@index`);
        const keys = (list.args as unknown[]).map((f) => columnOf.get(String(f)) ?? `? ${String(f)}`);
        modelled.push([`${table}.${unquote(map.value)}`, keys]);
      }
    }
    expect(modelled.length).toBeGreaterThan(30);
    for (const [name, keys] of modelled) expect(migrated.get(name), name).toEqual(keys);
  });

  it('models every migrated table and column', () => {
    const modelled = new Set<string>();
    for (const model of models) {
      const table = `${attribute(model, 'schema') ?? 'public'}.${attribute(model, 'map') ?? model.name}`;
      for (const property of model.properties) if (isColumn(property)) modelled.add(`${table}.${columnName(property)}`);
    }
    expect([...columns.keys()].filter((key) => !modelled.has(key))).toEqual([]);
  });
});
