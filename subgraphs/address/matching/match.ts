/**
 * The by-address matcher (spec 4.2): free text to one G-NAF address with a parcel-grade
 * geocode. A strict pass (same number, street name in order, a recognised street type, the
 * exact postcode) scores similarity 1; everything else is the tolerant pass, which accepts
 * what people leave out or spell differently but never moves to another street: a candidate
 * must carry the same number (or lot) on a street of the same name and type, in the named
 * locality, state and postcode when they were given. A misspelt street or locality is only
 * taken when one name is clearly closest.
 */
import { NON_PARCEL_GEOCODE_TYPES } from '../../../core/vocabulary.ts';
import type { Prisma } from '../../../generated/prisma/client.ts';
import type { LocalityNameRow, MatchCandidateRow, StreetRow } from '../sql.ts';
import type { HouseNumber } from '../sql.ts';
import {
  ADDRESSES_ON_NAMED_STREETS,
  ADDRESSES_ON_STREET_ALIASES,
  ADDRESSES_ON_STREETS,
  LOCALITY_NAMES,
  STREETS_OF_LOCALITIES,
} from '../sql.ts';
import { parseAddress } from './parse.ts';
import { trigramSimilarity } from './similarity.ts';
import type { ParsedAddress, StreetReading } from './types.ts';

/** Below this confidence a candidate is not an answer: the route answers 404. */
export const MATCH_FLOOR = 0.5;
/**
 * A misspelt name is a slip of the keys: as many words, one or two edits (a letter wrong,
 * missing, extra, or two swapped) depending on length, and closer than any other name. A
 * name merely sharing a word ("WATTLE" and "WATTLE RIDGE") is another street, not a typo.
 */
export function isTypoOf(written: string, name: string): boolean {
  if (written === name || written.split(' ').length !== name.split(' ').length) return false;
  const allowed = name.length >= 9 ? 2 : name.length >= 4 ? 1 : 0;
  return allowed > 0 && editDistance(written, name, allowed) <= allowed;
}

/** Optimal-string-alignment distance, stopping early once it exceeds `cap`. */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, previous2[j - 2]! + 1);
      current.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > cap) return cap + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length]!;
}
/** Geocode grades that do not place the address on its parcel (spec 4.2.3). */
export const NON_PARCEL_GRADES: ReadonlySet<string> = new Set(NON_PARCEL_GEOCODE_TYPES);

export type MatchOptions = {
  state: string | null;
  postcode: string | null;
  near: { lat: number; lng: number } | null;
  /**
   * Whether street-, locality- and gap-grade points may answer. A parcel lookup needs the parcel
   * under the point, which those grades do not give (spec 4.2.3); knowing that the address
   * exists and its gnaf_pid does not need it. Absent means parcel grades only.
   */
  anyGrade?: boolean;
};

export type ScoredMatch = {
  row: MatchCandidateRow;
  similarity: number;
  confidence: number;
  strict: boolean;
  /** Metres from `near`, when given. */
  distance_m: number | null;
  /** What the tolerant pass accepted, in words ("postcode not given", "street name misspelt"). */
  notes: string[];
};

export type MatchOutcome =
  | { status: 'matched'; parsed: ParsedAddress; match: ScoredMatch; alternatives: ScoredMatch[] }
  | { status: 'no_match'; parsed: ParsedAddress; message: string; hint: string };

/** Runs one of the matcher's statements under the stage's time budget. */
export type StageRunner = <T>(stage: string, sql: Prisma.Sql) => Promise<T[]>;

/** Locality names and aliases of one dataset, to tell a real locality from a misspelt one. */
export class LocalityDirectory {
  private readonly byName = new Map<string, LocalityNameRow[]>();

  constructor(rows: LocalityNameRow[]) {
    for (const row of rows) {
      const list = this.byName.get(row.name) ?? [];
      list.push(row);
      this.byName.set(row.name, list);
    }
  }

  static async load(run: StageRunner, dataset: string): Promise<LocalityDirectory> {
    return new LocalityDirectory(await run<LocalityNameRow>('localities', LOCALITY_NAMES(dataset)));
  }

  /** The localities a written name denotes exactly (itself, or what it is an alias of). */
  exact(name: string): LocalityNameRow[] {
    return this.byName.get(name) ?? [];
  }

  /** The one locality a misspelt name stands for: taken only when exactly one name is a typo away. */
  closest(name: string, state: string | null): { rows: LocalityNameRow[]; similarity: number } | null {
    const typos: string[] = [];
    for (const [candidate, rows] of this.byName) {
      if (state && !rows.some((r) => r.state === state)) continue;
      if (isTypoOf(name, candidate)) typos.push(candidate);
    }
    if (typos.length !== 1) return null;
    const [only] = typos as [string];
    return { rows: this.exact(only), similarity: trigramSimilarity(name, only) };
  }
}

/** How a reading's locality was understood: the canonical names it may stand for. */
type LocalityReading = { names: Set<string> | null; fuzzy: number | null };

function readLocality(reading: StreetReading, directory: LocalityDirectory, state: string | null): LocalityReading {
  if (!reading.locality) return { names: null, fuzzy: null };
  const exact = directory.exact(reading.locality);
  if (exact.length > 0) return { names: new Set(exact.map((r) => r.locality_name)), fuzzy: null };
  const closest = directory.closest(reading.locality, state);
  if (!closest) return { names: new Set(), fuzzy: null };
  return { names: new Set(closest.rows.map((r) => r.locality_name)), fuzzy: closest.similarity };
}

const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? null) === (b ?? null);

/** The address in one comparable form, so that similarity compares like with like. */
function comparable(parts: {
  flat: number | null;
  number: string | null;
  street: string;
  type: string | null;
  suffix: string | null;
  locality: string | null;
  state: string | null;
  postcode: string | null;
}): string {
  const number = parts.flat !== null && parts.number ? `${parts.flat}/${parts.number}` : parts.number;
  return [number, parts.street, parts.type, parts.suffix, parts.locality, parts.state, parts.postcode]
    .filter((p): p is string => Boolean(p))
    .join(' ');
}

function numberText(first: number | null, firstSuffix: string | null, last: number | null, lastSuffix: string | null) {
  if (first === null) return null;
  const head = `${first}${firstSuffix ?? ''}`;
  return last === null ? head : `${head}-${last}${lastSuffix ?? ''}`;
}

function inputComparable(parsed: ParsedAddress, reading: StreetReading, options: MatchOptions): string {
  const n = parsed.number;
  return comparable({
    flat: parsed.flat?.number ?? null,
    number: n ? numberText(n.first, n.firstSuffix, n.last, n.lastSuffix) : parsed.lot ? `LOT ${parsed.lot}` : null,
    street: reading.streetName,
    type: reading.streetType,
    suffix: reading.streetSuffix,
    locality: reading.locality,
    state: parsed.state ?? options.state,
    postcode: parsed.postcode ?? options.postcode,
  });
}

function candidateComparable(row: MatchCandidateRow): string {
  return comparable({
    flat: row.flat_number,
    number:
      row.number_first !== null
        ? numberText(row.number_first, row.number_first_suffix, row.number_last, row.number_last_suffix)
        : `LOT ${row.lot_number ?? ''}`,
    street: row.matched_name,
    type: row.street_type_code,
    suffix: row.street_suffix_code,
    locality: row.locality_name,
    state: row.state,
    postcode: row.postcode ?? row.locality_postcode,
  });
}

function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

type Judgement = { penalty: number; notes: string[]; strict: boolean };

/**
 * Whether a candidate is the address the reading describes, and what the tolerant pass had to
 * accept for it. Null when it is another address: another number, flat, street type, suffix,
 * locality, state or postcode.
 */
function judge(
  row: MatchCandidateRow,
  parsed: ParsedAddress,
  reading: StreetReading,
  locality: LocalityReading,
  options: MatchOptions,
  streetSimilarity: number | null,
): Judgement | null {
  const notes: string[] = [];
  let penalty = 0;
  let strict = parsed.leftovers.length === 0 && streetSimilarity === null && row.matched_name === row.street_name;

  if (streetSimilarity !== null) {
    penalty += 0.2;
    notes.push(`street name read as ${row.street_name}`);
  } else if (row.matched_name !== row.street_name) {
    penalty += 0.02;
    notes.push(`${row.matched_name} is an alias of ${row.street_name}`);
  }
  if (reading.streetType) {
    if (reading.streetType !== row.street_type_code) return null;
  } else {
    if (row.street_type_code) {
      penalty += 0.1;
      notes.push('street type not given');
    }
    strict = false;
  }
  if (!same(reading.streetSuffix, row.street_suffix_code)) return null;

  if (locality.names) {
    if (!locality.names.has(row.locality_name)) return null;
    if (locality.fuzzy !== null) {
      penalty += 0.15;
      strict = false;
      notes.push(`locality read as ${row.locality_name}`);
    }
  }
  // a state or postcode in the text and one passed as a parameter must both hold
  for (const state of [parsed.state, options.state]) if (state && state !== row.state) return null;
  const rowPostcode = row.postcode ?? row.locality_postcode;
  const postcode = parsed.postcode ?? options.postcode;
  if (postcode) {
    if (postcode !== rowPostcode || (options.postcode && options.postcode !== rowPostcode)) return null;
  } else {
    strict = false;
    penalty += locality.names ? 0.03 : 0;
    notes.push('postcode not given');
  }
  if (!locality.names) {
    strict = false;
    penalty += postcode ? 0.1 : 0.3;
    notes.push('locality not given');
  }

  const n = parsed.number;
  if (n) {
    if (row.number_first === n.first && same(row.number_first_suffix, n.firstSuffix)) {
      if (n.last !== null && (row.number_last !== n.last || !same(row.number_last_suffix, n.lastSuffix))) return null;
      if (n.last === null && row.number_last !== null) {
        penalty += 0.05;
        strict = false;
        notes.push(`the address is the range ${row.number_first}-${row.number_last}`);
      }
    } else if (
      n.last === null &&
      n.firstSuffix === null &&
      row.number_last !== null &&
      row.number_first !== null &&
      row.number_first < n.first &&
      row.number_last >= n.first
    ) {
      penalty += 0.1;
      strict = false;
      notes.push(`${n.first} lies in the range ${row.number_first}-${row.number_last}`);
    } else return null;
  } else if (parsed.lot) {
    if (row.number_first !== null || row.lot_number !== parsed.lot) return null;
  } else return null;

  if (parsed.flat) {
    if (row.flat_number !== parsed.flat.number || !same(row.flat_number_suffix, parsed.flat.suffix)) return null;
    if (parsed.flat.type && row.flat_type_code && parsed.flat.type !== row.flat_type_code) {
      penalty += 0.02;
      notes.push(`flat type is ${row.flat_type_code}`);
    }
  } else if (row.flat_number !== null) {
    penalty += 0.1;
    strict = false;
    notes.push('unit not given: the first unit of the building');
  }
  if (parsed.level) {
    if (row.level_number !== null && parsed.level.number !== null && row.level_number !== parsed.level.number)
      return null;
    if (row.level_number === null) penalty += 0.05;
  }
  if (parsed.leftovers.length > 0) {
    penalty += 0.1;
    notes.push(`ignored: ${parsed.leftovers.join(' ')}`);
  }
  return { penalty, notes, strict };
}

function score(
  rows: MatchCandidateRow[],
  parsed: ParsedAddress,
  readings: Array<{ reading: StreetReading; locality: LocalityReading }>,
  options: MatchOptions,
  streetSimilarity: Map<string, number> | null,
): ScoredMatch[] {
  const best = new Map<string, ScoredMatch>();
  for (const row of rows) {
    if (!row.geocode_type || (NON_PARCEL_GRADES.has(row.geocode_type) && !options.anyGrade)) continue;
    for (const { reading, locality } of readings) {
      const fuzzy = streetSimilarity?.get(`${reading.streetName}|${row.street_locality_pid}`) ?? null;
      if (streetSimilarity === null && reading.streetName !== row.matched_name) continue;
      if (streetSimilarity !== null && fuzzy === null) continue;
      const judgement = judge(row, parsed, reading, locality, options, fuzzy);
      if (!judgement) continue;
      const similarity = judgement.strict
        ? 1
        : Math.round(trigramSimilarity(inputComparable(parsed, reading, options), candidateComparable(row)) * 1000) /
          1000;
      const confidence = judgement.strict ? 1 : Math.max(0, Math.round((0.95 - judgement.penalty) * 1000) / 1000);
      const candidate: ScoredMatch = {
        row,
        similarity,
        confidence,
        strict: judgement.strict,
        distance_m: options.near ? Math.round(metresBetween(options.near, row)) : null,
        notes: judgement.notes,
      };
      const held = best.get(row.gnaf_pid);
      if (!held || rank(candidate, held) < 0) best.set(row.gnaf_pid, candidate);
    }
  }
  return [...best.values()].sort(rank);
}

/** Confidence, then similarity, then proximity to `near` (spec 4.2.4). */
function rank(a: ScoredMatch, b: ScoredMatch): number {
  return (
    b.confidence - a.confidence ||
    b.similarity - a.similarity ||
    (a.distance_m ?? 0) - (b.distance_m ?? 0) ||
    (a.row.flat_number ?? 0) - (b.row.flat_number ?? 0) ||
    a.row.gnaf_pid.localeCompare(b.row.gnaf_pid)
  );
}

/**
 * Two different streets equally good, and nothing to choose between them: answering one would
 * be a guess, so neither is an answer unless `near` decides.
 */
function ambiguousStreets(ranked: ScoredMatch[], options: MatchOptions): string[] | null {
  const [top] = ranked;
  if (!top || options.near) return null;
  const rivals = ranked.filter(
    (c) =>
      c.row.street_locality_pid !== top.row.street_locality_pid &&
      top.confidence - c.confidence < 0.05 &&
      c.confidence >= MATCH_FLOOR,
  );
  if (rivals.length === 0) return null;
  return [...new Set([top, ...rivals].map((c) => `${c.row.locality_name} ${c.row.state}`))];
}

/**
 * Two addresses written exactly alike on different parcels (lot 4 of two plans on one road,
 * as G-NAF has them): text cannot tell them apart, so neither is returned.
 */
function twins(ranked: ScoredMatch[]): ScoredMatch[] | null {
  const [top] = ranked;
  if (!top) return null;
  const same = ranked.filter(
    (c) =>
      c !== top &&
      c.row.formatted_address === top.row.formatted_address &&
      c.row.parcel_pfi !== top.row.parcel_pfi &&
      c.confidence === top.confidence,
  );
  return same.length > 0 ? [top, ...same] : null;
}

/** "KANGAROO FLAT VIC 3555", or every state the name is a locality of when the text does not say which. */
function describeLocality(rows: LocalityNameRow[], parsed: ParsedAddress): string {
  const fitting = rows.filter(
    (r) => (!parsed.state || r.state === parsed.state) && (!parsed.postcode || r.postcode === parsed.postcode),
  );
  const places = [
    ...new Set(
      (fitting.length > 0 ? fitting : rows).map((r) =>
        [r.locality_name, r.state, r.postcode].filter(Boolean).join(' '),
      ),
    ),
  ];
  return places.join(' or ');
}

export class AddressMatcher {
  constructor(
    private readonly run: StageRunner,
    private readonly dataset: string,
    private readonly localities: () => Promise<LocalityDirectory>,
  ) {}

  async match(q: string, options: MatchOptions): Promise<MatchOutcome> {
    const directory = await this.localities();
    const parsed = parseAddress(q, { isLocality: (name) => directory.exact(name).length > 0 });
    const noMatch = (message: string, hint: string): MatchOutcome => ({ status: 'no_match', parsed, message, hint });
    if (parsed.locality)
      return noMatch(
        `'${parsed.input}' names the locality ${describeLocality(directory.exact(parsed.locality), parsed)}, not an address.`,
        `Give the house number and street too, e.g. '1 Main Street, ${parsed.input}'; /api/address/autocomplete lists addresses as they are typed.`,
      );
    if (!parsed.number && !parsed.lot)
      return noMatch(
        `No house number or lot number found in '${parsed.input}'.`,
        "Start the address with its number, e.g. '72 Dwyer Street, Huntly VIC 3551' or 'Lot 16 Aerodrome Road'.",
      );
    if (parsed.readings.length === 0)
      return noMatch(`No street found in '${parsed.input}'.`, 'Give the street name and type after the number.');

    const state = parsed.state ?? options.state;
    const readings = parsed.readings.map((reading) => ({ reading, locality: readLocality(reading, directory, state) }));
    const house: HouseNumber = parsed.number ? { number: parsed.number.first } : { lot: parsed.lot! };
    const names = [...new Set(parsed.readings.map((r) => r.streetName))];

    const rows = await this.run<MatchCandidateRow>('address', ADDRESSES_ON_NAMED_STREETS(this.dataset, names, house));
    let ranked = score(rows, parsed, readings, options, null);
    if (ranked.length === 0) {
      const aliased = await this.run<MatchCandidateRow>(
        'address',
        ADDRESSES_ON_STREET_ALIASES(this.dataset, names, house),
      );
      rows.push(...aliased);
      ranked = score(aliased, parsed, readings, options, null);
    }
    if (ranked.length === 0) ranked = await this.misspeltStreet(parsed, readings, options, house);

    const ambiguous = ambiguousStreets(ranked, options);
    if (ambiguous)
      return noMatch(
        `'${parsed.input}' matches the same address in ${ambiguous.join(' and ')}.`,
        'Add the suburb, state or postcode, or pass near=lat,lng.',
      );
    const alike = twins(ranked);
    if (alike)
      return noMatch(
        `${alike.length} different addresses are written '${alike[0]!.row.formatted_address}'.`,
        'Name the parcel by its lot and plan with /api/cadastre/lot-detail, or by its gnaf_pid.',
      );
    const [top, ...rest] = ranked;
    if (!top || top.confidence < MATCH_FLOOR) return noMatch(...this.explainMiss(parsed, rows, top));
    return { status: 'matched', parsed, match: top, alternatives: rest.slice(0, 4) };
  }

  /**
   * The second chance for a misspelt street: the streets of the named locality (or postcode)
   * whose name is clearly the closest to the one written, with the same type and suffix.
   */
  private async misspeltStreet(
    parsed: ParsedAddress,
    readings: Array<{ reading: StreetReading; locality: LocalityReading }>,
    options: MatchOptions,
    house: HouseNumber,
  ): Promise<ScoredMatch[]> {
    const postcode = parsed.postcode ?? options.postcode;
    const localityNames = [...new Set(readings.flatMap((r) => [...(r.locality.names ?? [])]))];
    if (localityNames.length === 0 && !postcode) return [];
    const streets = await this.run<StreetRow>('streets', STREETS_OF_LOCALITIES(this.dataset, localityNames, postcode));
    const similarity = new Map<string, number>();
    const chosen = new Set<string>();
    for (const { reading, locality } of readings) {
      const scored = streets
        .filter(
          (s) =>
            (!reading.streetType || s.street_type_code === reading.streetType) &&
            same(s.street_suffix_code, reading.streetSuffix) &&
            (!locality.names || locality.names.has(s.locality_name)) &&
            (!postcode || s.postcode === postcode),
        )
        .filter((s) => s.street_name === reading.streetName || isTypoOf(reading.streetName, s.street_name));
      // the written name exists here: it is not a typo of another street, whatever else is close
      if (scored.some((s) => s.street_name === reading.streetName)) continue;
      const names = new Set(scored.map((s) => s.street_name));
      if (names.size !== 1) continue;
      for (const { street_locality_pid, street_name } of scored) {
        similarity.set(
          `${reading.streetName}|${street_locality_pid}`,
          trigramSimilarity(reading.streetName, street_name),
        );
        chosen.add(street_locality_pid);
      }
    }
    if (chosen.size === 0) return [];
    const rows = await this.run<MatchCandidateRow>('address', ADDRESSES_ON_STREETS(this.dataset, [...chosen], house));
    return score(rows, parsed, readings, options, similarity);
  }

  /** Why nothing matched, in words a caller can act on. */
  private explainMiss(
    parsed: ParsedAddress,
    rows: MatchCandidateRow[],
    top: ScoredMatch | undefined,
  ): [string, string] {
    if (top)
      return [
        `The best candidate for '${parsed.input}', ${top.row.formatted_address}, is not a confident match (confidence ${top.confidence}).`,
        'Add the suburb and postcode, or check the street name.',
      ];
    if (rows.some((r) => r.geocode_type && NON_PARCEL_GRADES.has(r.geocode_type)))
      return [
        `'${parsed.input}' is only located to its street or locality, not to a parcel.`,
        'Try the lot and plan number with /api/cadastre/parse-lot, or look the parcel up by point.',
      ];
    return [
      `No address matches '${parsed.input}'.`,
      'Check the number, street name and type, and suburb; the state and postcode narrow the search.',
    ];
  }
}
