import { describe, expect, it } from 'vitest';
import { detectState, isInAustralia } from '../core/geo.ts';
import { AppError } from '../core/errors.ts';
import { assertBBox, assertPoint, assertState } from '../core/validate.ts';

describe('state detection from coordinates', () => {
  it.each([
    ['Melbourne', 144.963, -37.814, 'VIC'],
    ['Bendigo', 144.28, -36.757, 'VIC'],
    ['Echuca, south bank of the Murray', 144.752, -36.14, 'VIC'],
    ['Moama, north bank of the Murray', 144.755, -36.105, 'NSW'],
    ['Albury', 146.916, -36.074, 'NSW'],
    ['Sydney', 151.209, -33.868, 'NSW'],
    ['Murwillumbah', 153.4, -28.33, 'NSW'],
    ['Surfers Paradise', 153.43, -28.0, 'QLD'],
    ['Brisbane', 153.026, -27.47, 'QLD'],
    ['Canberra', 149.13, -35.28, 'ACT'],
    ['Adelaide', 138.6, -34.93, 'SA'],
    ['Perth', 115.86, -31.95, 'WA'],
    ['Darwin', 130.84, -12.46, 'NT'],
    ['Hobart', 147.33, -42.88, 'TAS'],
    ['Christmas Island', 105.68, -10.43, 'OT'],
  ])('puts %s (%f, %f) in %s', (_place, lng, lat, state) => {
    expect(detectState(lng, lat)).toBe(state);
  });

  it('knows no state for a point outside Australia', () => {
    expect(detectState(174.78, -41.29)).toBeUndefined(); // Wellington
    expect(isInAustralia(0, 0)).toBe(false);
  });
});

describe('shared input rules', () => {
  it('rejects swapped coordinates with a hint that says so', () => {
    const error = captured(() => assertPoint(144.96, -37.81));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/lat must be a number between -90 and 90/);
    const outside = captured(() => assertPoint(-37.81, 0));
    expect(outside.message).toMatch(/outside Australia/);
    expect(outside.hint).toMatch(/swapped/);
  });

  it('accepts a state in any case and refuses an unknown one', () => {
    expect(assertState(' vic ')).toBe('VIC');
    expect(captured(() => assertState('XYZ')).hint).toMatch(/NSW, VIC, QLD/);
  });

  it.each([
    [{ west: 144.3, south: -36.7, east: 144.2, north: -36.6 }, /inverted/],
    [{ west: 144.2, south: -36.7, east: 144.35, north: -36.6 }, /limit is 0.1 degrees/],
    [{ west: 10, south: 10, east: 10.05, north: 10.05 }, /outside Australia/],
  ])('refuses the window %o', (bbox, message) => {
    expect(captured(() => assertBBox(bbox)).message).toMatch(message);
  });
});

function captured(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}
