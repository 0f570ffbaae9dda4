import type { Boundary, HeightRule, Provisions, Setback } from './types.ts';

/** A single-storey wall: ResCode's first knee, and the wall height setbacks are reported for by default. */
export const SINGLE_STOREY_WALL_M = 3.6;
/** A two-storey wall: ResCode's second knee. */
export const TWO_STOREY_WALL_M = 6.9;

// Setbacks are set out on site to the centimetre; rounding also keeps 0.3 × 3.3 from printing as 0.9899999.
const cm = (metres: number): number => Math.round(metres * 100) / 100;

// "or part thereof" must not count a whole step twice because of binary fractions (10.5 − 7.5 = 3).
const EPSILON = 1e-9;

function evaluate(rule: HeightRule, wallHeightM: number): number {
  switch (rule.kind) {
    case 'fixed':
      return rule.metres;
    case 'linear':
      return rule.slopes.reduce((sum, { above_m, up_to_m, metres_per_m }) => {
        const top = up_to_m === null ? wallHeightM : Math.min(wallHeightM, up_to_m);
        return sum + Math.max(0, top - above_m) * metres_per_m;
      }, rule.base_m);
    case 'stepped': {
      for (const band of rule.bands) {
        if (band.up_to_m === null || wallHeightM <= band.up_to_m + EPSILON) return band.metres;
      }
      const last = rule.bands[rule.bands.length - 1];
      if (!last || last.up_to_m === null) throw new Error('A stepped setback rule needs a band');
      if (!rule.beyond) return last.metres;
      const steps = Math.ceil((wallHeightM - last.up_to_m) / rule.beyond.every_m - EPSILON);
      return last.metres + steps * rule.beyond.add_m;
    }
    case 'greatest':
      return Math.max(...rule.of.map((r) => evaluate(r, wallHeightM)));
  }
}

/** The setback a rule asks of a wall of the given height, in metres (to the centimetre). */
export function setbackMetres(rule: HeightRule, wallHeightM: number): number {
  if (!Number.isFinite(wallHeightM) || wallHeightM < 0) throw new RangeError(`Invalid wall height ${wallHeightM}`);
  return cm(evaluate(rule, wallHeightM));
}

const m = (value: number): string => `${cm(value)} m`;

/** The rule in words, as a certifier would read it. */
export function describeRule(rule: HeightRule): string {
  switch (rule.kind) {
    case 'fixed':
      return m(rule.metres);
    case 'linear':
      return [
        m(rule.base_m),
        ...rule.slopes.map(
          (s) =>
            `plus ${m(s.metres_per_m)} for every metre of height over ${m(s.above_m)}` +
            (s.up_to_m === null ? '' : ` up to ${m(s.up_to_m)}`),
        ),
      ].join(', ');
    case 'stepped': {
      const bands = rule.bands.map((b) =>
        b.up_to_m === null ? `${m(b.metres)} above that` : `${m(b.metres)} up to ${m(b.up_to_m)} high`,
      );
      const beyond = rule.beyond
        ? [`then ${m(rule.beyond.add_m)} more for every ${m(rule.beyond.every_m)} of height or part of it`]
        : [];
      return [...bands, ...beyond].join(', ');
    }
    case 'greatest':
      return `the greatest of: ${rule.of.map(describeRule).join('; ')}`;
  }
}

/** A setback control from its rule, evaluated at the wall height the provisions are reported for. */
export function setback(
  rule: HeightRule,
  wallHeightM: number,
  provenance: { reference: string; conservative_fallback?: boolean; assumes?: string | null; formula?: string },
): Setback {
  return {
    min_m: setbackMetres(rule, wallHeightM),
    at_wall_height_m: wallHeightM,
    rule,
    formula: provenance.formula ?? describeRule(rule),
    reference: provenance.reference,
    assumes: provenance.assumes ?? null,
    conservative_fallback: provenance.conservative_fallback ?? false,
  };
}

/**
 * The setback of one boundary for a wall of the given height. `side_street` is the side of a
 * corner lot that faces its second road.
 */
export function setbackAt(
  provisions: Provisions,
  boundary: Boundary,
  wallHeightM: number,
): { metres: number; rule: string; reference: string } {
  const control = provisions.setbacks[boundary];
  const metres = setbackMetres(control.rule, wallHeightM);
  return {
    metres,
    rule: `${control.formula}: ${m(metres)} for a ${m(wallHeightM)} wall`,
    reference: control.reference,
  };
}

/**
 * How much of a boundary of the given length a wall may be built on (VIC A11/B18: 10 m plus 25%
 * of the rest; QDC: 9 m in total), or 0 where the code allows none.
 */
export function wallOnBoundaryMaxLength(provisions: Provisions, boundaryLengthM: number): number {
  const wall = provisions.wall_on_boundary;
  if (!wall.allowed || wall.base_length_m === null || boundaryLengthM <= 0) return 0;
  if (boundaryLengthM <= wall.base_length_m) return cm(boundaryLengthM);
  return cm(wall.base_length_m + wall.share_of_remaining * (boundaryLengthM - wall.base_length_m));
}

/**
 * A row of a table keyed by lot area or width. Codes word their bands two ways: "more than A but
 * not more than B" (`includes: 'upper'`, VIC garden area) and "at least A but less than B"
 * (`includes: 'lower'`, the NSW Housing Code); the first row always takes its lower edge.
 */
export type Band<T> = { from: number; to: number | null; value: T };

export function band<T>(bands: ReadonlyArray<Band<T>>, measure: number, includes: 'upper' | 'lower'): T | undefined {
  return bands.find((b, i) => {
    const aboveFrom = includes === 'lower' || i === 0 ? measure >= b.from : measure > b.from;
    const belowTo = b.to === null || (includes === 'upper' ? measure <= b.to : measure < b.to);
    return aboveFrom && belowTo;
  })?.value;
}
