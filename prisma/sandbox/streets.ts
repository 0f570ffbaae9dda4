/**
 * Street localities: every grid line split into named segments. Long lines change name every
 * few blocks, as real streets do at a bend or a park; short suburbs keep one name per line.
 * Names are unique within the locality by (name, type, suffix), as G-NAF requires.
 */
import { type Axis, type Grid, streetMidpoint } from './grid.ts';
import type { IdMint } from './identifiers.ts';
import type { Rng } from './random.ts';
import { BASE_NAMES, CROSS_STREET_TYPES, LANDFORMS, splitStreet, THROUGH_STREET_TYPES } from './street-names.ts';
import type { SuburbSpec } from './suburbs.ts';

export interface Street {
  readonly pid: string;
  readonly name: string;
  readonly type: string;
  readonly suffix: string | null;
  readonly axis: Axis;
  /** Index of the grid line: a through street's row line or a cross street's column line. */
  readonly line: number;
  /** First and last block positions along the line that this segment fronts. */
  readonly from: number;
  readonly to: number;
}

interface Segment {
  axis: Axis;
  line: number;
  from: number;
  to: number;
  suffix: string | null;
  partner: Segment | null;
  named: { name: string; type: string } | null;
}

const MAX_SEGMENT_BLOCKS = 9;

export class StreetNetwork {
  private readonly byLine = new Map<string, Street[]>();

  constructor(readonly streets: readonly Street[]) {
    for (const street of streets) {
      const key = `${street.axis}:${street.line}`;
      const list = this.byLine.get(key) ?? [];
      list.push(street);
      this.byLine.set(key, list);
    }
  }

  /** The street segment of a grid line that fronts block position `pos`. */
  at(axis: Axis, line: number, pos: number): Street {
    const street = this.byLine.get(`${axis}:${line}`)?.find((s) => pos >= s.from && pos <= s.to);
    if (!street) throw new Error(`No ${axis} street on line ${line} at ${pos}`);
    return street;
  }
}

function splitLine(rng: Rng, axis: Axis, line: number, length: number, whole: boolean): Segment[] {
  const segments: Segment[] = [];
  let from = 0;
  while (from < length) {
    const size = whole || length <= MAX_SEGMENT_BLOCKS ? length : rng.int(5, MAX_SEGMENT_BLOCKS);
    const to = Math.min(length - 1, from + size - 1);
    segments.push({ axis, line, from, to, suffix: null, partner: null, named: null });
    from = to + 1;
  }
  // A line that changes name now and then keeps it instead, told apart by a G-NAF suffix.
  const [first, second] = segments;
  if (first && second && rng.chance(0.3)) {
    first.suffix = axis === 'through' ? 'W' : 'S';
    second.suffix = axis === 'through' ? 'E' : 'N';
    first.partner = second;
    second.partner = first;
  }
  return segments;
}

const distanceFromCentre = (grid: Grid, s: Segment) =>
  Math.hypot(...streetMidpoint(grid, s.axis, s.line, s.from, s.to));

export function buildStreets(rng: Rng, spec: SuburbSpec, grid: Grid, mint: IdMint): StreetNetwork {
  const segments: Segment[] = [];
  grid.streetCentres.forEach((_, line) =>
    segments.push(...splitLine(rng, 'through', line, grid.cols.length, line === grid.mainStreet)),
  );
  grid.crossCentres.forEach((_, line) => segments.push(...splitLine(rng, 'cross', line, grid.rows.length, false)));

  const main = segments.find((s) => s.axis === 'through' && s.line === grid.mainStreet);
  const ordered = segments
    .filter((s) => s !== main)
    .map((s) => ({ s, d: distanceFromCentre(grid, s) }))
    .sort((a, b) => a.d - b.d)
    .map(({ s }) => s);

  const taken = new Set<string>();
  const claim = (name: string, type: string, s: Segment): boolean => {
    const keys = [s.suffix, s.partner?.suffix].map((suffix) => `${name}|${type}|${suffix ?? ''}`);
    if (keys.some((k) => taken.has(k) || taken.has(`${name}|${type}|`))) return false;
    keys.forEach((k) => taken.add(k));
    taken.add(`${name}|${type}|`);
    return true;
  };

  const real = [...spec.streets];
  const generic = nameSource(rng);
  const nameSegment = (s: Segment, preferred: string | undefined): void => {
    if (s.partner?.named) {
      s.named = s.partner.named;
      return;
    }
    if (preferred) {
      const { name, type } = splitStreet(preferred);
      if (claim(name, type, s)) {
        s.named = { name, type };
        return;
      }
    }
    const types = s.axis === 'through' ? THROUGH_STREET_TYPES : CROSS_STREET_TYPES;
    for (;;) {
      const name = generic.next().value;
      const type = rng.weighted(types);
      if (claim(name, type, s)) {
        s.named = { name, type };
        return;
      }
    }
  };
  if (main) nameSegment(main, spec.mainStreet);
  for (const s of ordered) nameSegment(s, s.partner?.named ? undefined : real.shift());

  return new StreetNetwork(
    segments.map((s) => {
      if (!s.named) throw new Error('Unnamed sandbox street');
      return {
        pid: mint.streetLocalityPid(),
        name: s.named.name,
        type: s.named.type,
        suffix: s.suffix,
        axis: s.axis,
        line: s.line,
        from: s.from,
        to: s.to,
      };
    }),
  );
}

/** Candidate names: single words first, then estate-style compounds, then round again. */
function* nameSource(rng: Rng): Generator<string, never> {
  const singles = rng.shuffled(BASE_NAMES);
  const compounds = rng.shuffled(BASE_NAMES.flatMap((b) => LANDFORMS.map((l) => `${b} ${l}`)));
  // each round offers every name again with a freshly drawn type: far beyond the largest size
  for (let round = 0; round < 20; round++) {
    yield* singles;
    yield* compounds;
  }
  throw new Error('Sandbox street names exhausted');
}
