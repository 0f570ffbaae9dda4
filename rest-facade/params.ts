import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { z } from 'zod';
import { assertTextInput, badTextError, textDefect } from '../core/validate.ts';
import { STATES, isStateCode } from '../core/geo.ts';
import type { StateCode } from '../core/geo.ts';

/**
 * A decimal as /openapi.json documents numbers (its `decimal` pattern, less the surrounding
 * spaces the caller trims): a sign, digits with an optional fraction, an optional exponent (what
 * JSON and `String(1e-7)` write). `Number()` alone would also read '0x90', '0b1001', '0o220',
 * 'Infinity' and '' (as 144, 9, 144, Infinity and 0).
 */
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/** The number a decimal text names, or NaN when it is not one or is beyond a double (1e400). */
export function parseDecimal(text: string): number {
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}

/** How a refused value is quoted back: whole when short, else its start and its length. */
export function quote(value: string): string {
  return value.length <= 40 ? `'${value}'` : `'${value.slice(0, 20)}…' (${value.length} characters)`;
}

/**
 * Query parameter schemas shared by the routes. Numbers arrive as strings; an empty or
 * non-numeric value is an error, never silently 0 (which `z.coerce.number` would give).
 */
export const numeric = (name: string) =>
  z.union([z.string(), z.number()], { error: `${name} must be a single number.` }).transform((value, ctx) => {
    // surrounding spaces cannot change the number read (and '+144' arrives as ' 144'), so they are let be
    const parsed = typeof value === 'number' ? value : parseDecimal(value.trim());
    if (!Number.isFinite(parsed)) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a number, got ${quote(String(value))}.`,
      });
      return z.NEVER;
    }
    return parsed;
  });

export const stateParam = z.string({ error: 'state must be a single value.' }).transform((value, ctx): StateCode => {
  const state = value.trim().toUpperCase();
  if (!isStateCode(state)) {
    ctx.addIssue({ code: 'custom', message: `Unknown state '${value}'. Use one of ${STATES.join(', ')}.` });
    return z.NEVER;
  }
  return state;
});

export const textParam = (name: string, max = 200) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `${name} is required.` : `${name} must be a single value.`),
    })
    .trim()
    .min(1, { error: `${name} must not be empty.` })
    .max(max, { error: `${name} must be at most ${max} characters.` });

/** 'west,south,east,north' as four numbers. */
export const bboxParam = z
  .string({ error: 'bbox must be a single value: west,south,east,north.' })
  .transform((value, ctx) => {
    const numbers = value.split(',').map((part) => parseDecimal(part.trim()));
    if (numbers.length !== 4 || !numbers.every(Number.isFinite)) {
      ctx.addIssue({
        code: 'custom',
        message: `bbox must be four comma-separated numbers west,south,east,north; got ${quote(value)}.`,
      });
      return z.NEVER;
    }
    const [west, south, east, north] = numbers as [number, number, number, number];
    return { west, south, east, north };
  });

/**
 * Whether percent-encoded text decodes to UTF-8. Node's query parser turns invalid bytes into
 * U+FFFD without a word, so the raw URL is the only place the difference still shows; a stray
 * '%' that starts no escape is left as the literal it is.
 */
function decodesAsUtf8(raw: string): boolean {
  try {
    decodeURIComponent(raw.replace(/%(?![0-9a-f]{2})/gi, '%25'));
    return true;
  } catch {
    return false;
  }
}

function parameterName(raw: string): string {
  const name = decodesAsUtf8(raw)
    ? decodeURIComponent(raw.replace(/\+/g, ' ').replace(/%(?![0-9a-f]{2})/gi, '%25'))
    : '';
  return name !== '' && textDefect(name) === null && name.length <= 40 ? name : 'a parameter name';
}

/** The first query parameter of a URL whose bytes are not UTF-8. */
export function rawQueryDefect(url: string): { name: string; defect: string } | null {
  const start = url.indexOf('?');
  if (start < 0) return null;
  for (const pair of url.slice(start + 1).split('&')) {
    const equals = pair.indexOf('=');
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    const rawValue = equals < 0 ? '' : pair.slice(equals + 1);
    if (!decodesAsUtf8(rawName)) return { name: 'a parameter name', defect: 'is not valid UTF-8' };
    if (!decodesAsUtf8(rawValue)) return { name: parameterName(rawName), defect: 'is not valid UTF-8' };
  }
  return null;
}

/**
 * The name of the path parameter of `routePath` whose raw segment in `rawPath` is not UTF-8.
 * Express refuses such a path before any handler runs, so the route is found again here to
 * answer in its own error shape.
 */
export function undecodablePathParam(routePath: string, rawPath: string): string | null {
  const pattern = routePath.split('/');
  const segments = rawPath.split('/');
  if (pattern.length !== segments.length) return null;
  let found: string | null = null;
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i] ?? '';
    if (part.startsWith(':')) {
      if (found === null && !decodesAsUtf8(segment)) found = part.slice(1);
    } else if (part !== segment) return null;
  }
  return found;
}

// Bodies whose bytes were not UTF-8: the JSON parser has already put U+FFFD in their place.
const notUtf8Bodies = new WeakSet<IncomingMessage>();

/** The JSON parser's `verify` hook: notes a body that claimed UTF-8 and was not. */
export function noteBodyEncoding(req: IncomingMessage, _res: ServerResponse, body: Buffer, encoding: string): void {
  if (/^utf-?8$/i.test(encoding) && !isUtf8(body)) notUtf8Bodies.add(req);
}

/** Where U+FFFD stands in a body that was not UTF-8: the parameter to name. */
function replacedText(value: unknown, name: string): string | null {
  if (typeof value === 'string') return value.includes('\uFFFD') ? name : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = replacedText(item, Array.isArray(value) ? `${name}[${key}]` : name ? `${name}.${key}` : key);
    if (found) return found;
  }
  return null;
}

/**
 * Every parameter of a request (query, path, JSON body) is text: a NUL byte, a lone surrogate
 * or bytes that are not UTF-8 are a 400 naming the parameter, before anything reaches a query.
 */
export function assertTextParameters(req: Request, options: { jsonBody: 'all' | 'bytes' } = { jsonBody: 'all' }): void {
  const raw = rawQueryDefect(req.originalUrl);
  if (raw) throw badTextError(raw.name, raw.defect);
  assertTextInput(req.query);
  assertTextInput(req.params);
  if (notUtf8Bodies.has(req))
    throw badTextError(replacedText(req.body, '') || 'The request body', 'is not valid UTF-8');
  // /graphql leaves well-formed JSON text to the graph, which names the argument a value is for
  if (options.jsonBody === 'all') assertTextInput(req.body);
}
