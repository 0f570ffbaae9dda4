import { z } from 'zod';
import { STATES, isStateCode } from '../core/geo.ts';
import type { StateCode } from '../core/geo.ts';

/**
 * Query parameter schemas shared by the routes. Numbers arrive as strings; an empty or
 * non-numeric value is an error, never silently 0 (which `z.coerce.number` would give).
 */
export const numeric = (name: string) =>
  z.union([z.string(), z.number()], { error: `${name} must be a single number.` }).transform((value, ctx) => {
    const text = String(value).trim();
    const parsed = text === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(parsed)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a number, got '${String(value)}'.` });
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
    const parts = value.split(',').map((p) => p.trim());
    const numbers = parts.map((p) => (p === '' ? Number.NaN : Number(p)));
    if (parts.length !== 4 || !numbers.every(Number.isFinite)) {
      ctx.addIssue({
        code: 'custom',
        message: `bbox must be four comma-separated numbers west,south,east,north; got '${value}'.`,
      });
      return z.NEVER;
    }
    const [west, south, east, north] = numbers as [number, number, number, number];
    return { west, south, east, north };
  });
