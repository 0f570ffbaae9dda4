import type { ArgType, SqlQuery, SqlResultSet } from '@prisma/driver-adapter-utils';
import { ColumnTypeEnum, isDriverAdapterError } from '@prisma/driver-adapter-utils';
import { Prisma } from '../generated/prisma/client.ts';
import { BoundedMemo } from './bounded-memo.ts';

/**
 * The layers' named SQL runs on Prisma's driver adapter (`@prisma/adapter-pg`, or the PGlite
 * adapter), the part of Prisma that talks to the database, without Prisma Client's request
 * pipeline on top: that pipeline cost about 150 µs of Node CPU per `$queryRaw`, more than the
 * query itself (docs/benchmarks.md), and a raw statement gains nothing from it. This module
 * does the two conversions Prisma Client would have done around the adapter, the same way, so
 * the rows are the ones `$queryRaw` returns (test/driver-sql.test.ts compares them).
 */

type ArgScalar = ArgType['scalarType'];

/** A bound value as Prisma Client serialises a `$queryRaw` parameter, with the type it infers. */
function serialiseArg(value: unknown): { arg: unknown; scalarType: ArgScalar } {
  if (value === null || value === undefined) return { arg: null, scalarType: 'unknown' };
  if (typeof value === 'number') return { arg: value, scalarType: 'decimal' };
  if (typeof value === 'string') return { arg: value, scalarType: 'string' };
  if (typeof value === 'bigint') return { arg: value.toString(), scalarType: 'bigint' };
  if (value instanceof Date) return { arg: value.toISOString(), scalarType: 'datetime' };
  if (Prisma.Decimal.isDecimal(value)) return { arg: value.toString(), scalarType: 'decimal' };
  if (ArrayBuffer.isView(value)) return { arg: value, scalarType: 'bytes' };
  if (typeof value === 'object') return { arg: JSON.stringify(value), scalarType: 'json' };
  return { arg: value, scalarType: 'unknown' };
}

export function driverQuery(query: Prisma.Sql): SqlQuery {
  const args: unknown[] = [];
  const argTypes: ArgType[] = [];
  for (const value of query.values) {
    if (Array.isArray(value)) {
      const items = value.map((item) => serialiseArg(item));
      args.push(items.map((item) => item.arg));
      argTypes.push({ scalarType: items[0]?.scalarType ?? 'unknown', arity: 'list' });
    } else {
      const { arg, scalarType } = serialiseArg(value);
      args.push(arg);
      argTypes.push({ scalarType, arity: 'scalar' });
    }
  }
  return { sql: query.text, args, argTypes };
}

const TIME_BASE = '1970-01-01T';

/** The adapters hand 64-bit integers, decimals, dates and times over as text (or a number). */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

type Convert = (value: unknown) => unknown;

/** How a value of one column type becomes what Prisma Client returns; null where it stays as the adapter gave it. */
function scalarConverter(type: number): Convert | null {
  switch (type) {
    case ColumnTypeEnum.Int32:
      return (value) => Math.trunc(Number(value));
    case ColumnTypeEnum.Int64:
      return (value) => (typeof value === 'number' ? BigInt(Math.trunc(value)) : BigInt(asText(value)));
    case ColumnTypeEnum.Numeric:
      return (value) => new Prisma.Decimal(asText(value));
    case ColumnTypeEnum.Boolean:
      return (value) => (typeof value === 'boolean' ? value : value === 'true' || value === '1' || value === 1);
    case ColumnTypeEnum.Json:
      return (value) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
    case ColumnTypeEnum.Date:
    case ColumnTypeEnum.DateTime:
      return (value) => new Date(asText(value));
    case ColumnTypeEnum.Time:
      return (value) => new Date(`${TIME_BASE}${asText(value)}Z`);
    case ColumnTypeEnum.Bytes:
      return (value) => new Uint8Array(value as Uint8Array);
    default:
      return null;
  }
}

/** Array column types are their element type plus 64 (see ColumnTypeEnum). */
const ARRAY_OFFSET = ColumnTypeEnum.Int32Array - ColumnTypeEnum.Int32;

function converterOf(type: number): Convert | null {
  if (type < ColumnTypeEnum.Int32Array || type >= ColumnTypeEnum.UnknownNumber) return scalarConverter(type);
  const element = scalarConverter(type === ColumnTypeEnum.EnumArray ? ColumnTypeEnum.Text : type - ARRAY_OFFSET);
  if (!element) return null;
  return (value) =>
    Array.isArray(value) ? value.map((item: unknown) => (item === null ? null : element(item))) : element(value);
}

/** One converter per column type for the whole process; most types (text, floats) need none. */
const CONVERTERS = new BoundedMemo<number, Convert | null>(256);
const columnConverter = (type: number) => CONVERTERS.get(type, converterOf);

/** The adapter's rows (arrays of column values) as objects keyed by column name. */
export function rowsOf<T>(result: SqlResultSet): T[] {
  const { columnNames, columnTypes, rows } = result;
  const converters = columnTypes.map(columnConverter);
  const width = columnNames.length;
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < width; i++) {
      const value = values[i] ?? null;
      const convert = converters[i];
      row[columnNames[i] as string] = value === null || !convert ? value : convert(value);
    }
    return row as T;
  });
}

/**
 * A database error as Prisma Client words a failed raw query (P2010), so callers that look
 * for a PostgreSQL code or message in it (statement timeouts) read the same text either way.
 */
export function driverError(error: unknown): Error {
  if (!(error instanceof Error) || !isDriverAdapterError(error)) return error as Error;
  const cause = error.cause as {
    kind: string;
    code?: string;
    message?: string;
    originalCode?: string;
    originalMessage?: string;
  };
  const code = cause.originalCode ?? cause.code ?? cause.kind;
  const message = cause.originalMessage ?? cause.message ?? cause.kind;
  return new Error(`Raw query failed. Code: \`${code}\`. Message: \`${message}\``, { cause: error });
}
