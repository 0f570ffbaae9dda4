/**
 * G-NAF-style addresses for lots. House numbers run odd on one side of a street and even on
 * the other, rising along it, now and then skipping one; most lots carry one address, some
 * a block of units, shops a number range, rural-edge lots only a lot number. A few addresses
 * are geocoded no better than their street or locality and link to no parcel, as in G-NAF.
 */
import { formatLookups, formatSingleLine, searchKey } from '../../subgraphs/address/format.ts';
import { AUTHORITY_ROWS } from '../../subgraphs/address/matching/vocabulary.ts';
import type { Frame, Point } from './geometry.ts';
import { type Axis, type Grid, streetMidpoint } from './grid.ts';
import type { IdMint } from './identifiers.ts';
import type { Lot } from './lots.ts';
import type { Rng } from './random.ts';
import type { AddressRow, GeocodeType } from './rows.ts';
import { SUFFIX_WORDS } from './street-names.ts';
import type { Street, StreetNetwork } from './streets.ts';
import type { SuburbSpec } from './suburbs.ts';

export type Addressing =
  | { kind: 'none' }
  | { kind: 'single' }
  | { kind: 'units'; count: number }
  | { kind: 'range'; count: number }
  | { kind: 'lot-only' };

export interface Frontage {
  readonly street: Street;
  readonly odd: boolean;
  readonly axis: Axis;
  /** The street edge of the lot (v for through streets, u for cross streets) and the way into the lot. */
  readonly edge: number;
  readonly inward: 1 | -1;
}

export interface SuburbAddressing {
  readonly spec: SuburbSpec;
  readonly localityPid: string;
  readonly frame: Frame;
  readonly grid: Grid;
  readonly streets: StreetNetwork;
  readonly mint: IdMint;
  readonly numbers: HouseNumbers;
}

export class HouseNumbers {
  private readonly nextBySide = new Map<string, number>();

  /** Takes `count` numbers of one parity for one side of a street; returns first and last. */
  take(rng: Rng, frontage: Frontage, count: number): { first: number; last: number } {
    const key = `${frontage.street.pid}:${frontage.odd ? 'odd' : 'even'}`;
    let first = this.nextBySide.get(key) ?? (frontage.odd ? 1 : 2);
    if (rng.chance(0.08)) first += 2;
    const last = first + 2 * (count - 1);
    this.nextBySide.set(key, last + 2);
    return { first, last };
  }
}

/** Which street a lot is addressed to: its row's through street, or for some corners the side street. */
export function frontageOf(rng: Rng, grid: Grid, streets: StreetNetwork, lot: Lot, r: number, j: number): Frontage {
  if (lot.corner && rng.chance(0.3)) {
    const left = lot.corner === 'left';
    return {
      street: streets.at('cross', left ? j : j + 1, r),
      odd: left,
      axis: 'cross',
      edge: left ? lot.u0 : lot.u1,
      inward: left ? 1 : -1,
    };
  }
  const bottom = lot.row !== 'top';
  return {
    street: streets.at('through', bottom ? r : r + 1, j),
    odd: bottom,
    axis: 'through',
    edge: bottom ? lot.v0 : lot.v1,
    inward: bottom ? 1 : -1,
  };
}

export function chooseAddressing(rng: Rng, lot: Lot, frontage: Frontage, grid: Grid, fringe: boolean): Addressing {
  if (lot.kind === 'park') return { kind: 'none' };
  if (lot.kind === 'commercial') return rng.chance(0.5) ? { kind: 'range', count: rng.int(2, 4) } : { kind: 'single' };
  const lines = frontage.axis === 'through' ? grid.streetCentres.length : grid.crossCentres.length;
  const perimeter = frontage.street.line === 0 || frontage.street.line === lines - 1;
  if (perimeter && rng.chance(fringe ? 0.15 : 0.02)) return { kind: 'lot-only' };
  if (rng.chance(0.08)) return { kind: 'units', count: rng.int(2, 6) };
  return { kind: 'single' };
}

/** The authority names the formatter prints: the same vocabulary the sandbox writes to address.authority_code. */
const LOOKUPS = formatLookups(AUTHORITY_ROWS);

/** The street as Vicmap's EZI address spells it: type and suffix as full words. */
export function streetLabel(street: Street): string {
  const suffix = street.suffix ? ` ${SUFFIX_WORDS[street.suffix] ?? street.suffix}` : '';
  return `${street.name} ${street.type}${suffix}`;
}

function numberLabel(first: number | null, last: number | null, lot: string | null): string {
  if (first === null) return `LOT ${lot ?? ''}`;
  return last === null ? String(first) : `${first}-${last}`;
}

/** Points inside the lot, in grid coordinates. */
const lotCentre = (lot: Lot): Point => [(lot.u0 + lot.u1) / 2, (lot.v0 + lot.v1) / 2];
const alongFrontage = (lot: Lot, f: Frontage, depth: number): Point =>
  f.axis === 'through'
    ? [(lot.u0 + lot.u1) / 2, f.edge + f.inward * depth]
    : [f.edge + f.inward * depth, (lot.v0 + lot.v1) / 2];

/** The parcel an address stands on: its PFI, and its lot and plan for G-NAF's LEGAL_PARCEL_ID. */
export interface ParcelRef {
  pfi: string;
  lot: string;
  plan: string;
}

interface AddressParts {
  street: Street;
  flat: number | null;
  first: number | null;
  last: number | null;
  lot: string | null;
  geocode: GeocodeType;
  point: Point;
  parcel: ParcelRef | null;
}

// How much of the address G-NAF geocoded (GEOCODED_LEVEL_TYPE_AUT): a gap geocode is still
// the address's own, interpolated along its street.
const LEVEL_GEOCODED: Record<GeocodeType, number> = { PC: 7, FCS: 7, GG: 7, STL: 3, LOC: 1 };

function row(ctx: SuburbAddressing, p: AddressParts): AddressRow {
  const { spec } = ctx;
  const flatType = p.flat === null ? null : 'UNIT';
  const parts = {
    flat_type_code: flatType,
    flat_number: p.flat,
    number_first: p.first,
    number_last: p.last,
    lot_number: p.lot,
    street_name: p.street.name,
    street_type_code: p.street.type,
    street_suffix_code: p.street.suffix,
    locality_name: spec.name,
    state: spec.state,
    postcode: spec.postcode,
  };
  return {
    gnaf_pid: ctx.mint.gnafPid(),
    street_locality_pid: p.street.pid,
    locality_pid: ctx.localityPid,
    state: spec.state,
    postcode: spec.postcode,
    flat_type_code: flatType,
    flat_number: p.flat,
    level_type_code: null,
    level_number: null,
    number_first: p.first,
    number_last: p.last,
    lot_number: p.lot,
    alias_principal: 'P',
    legal_parcel_id: p.parcel ? `${p.parcel.lot}/${p.parcel.plan}` : null,
    confidence: p.parcel ? 2 : 0,
    level_geocoded_code: LEVEL_GEOCODED[p.geocode],
    formatted_address: formatSingleLine(parts, LOOKUPS),
    search_key: searchKey(parts, LOOKUPS),
    geocode_type: p.geocode,
    lng: p.point[0],
    lat: p.point[1],
    parcel_pfi: p.parcel?.pfi ?? null,
  };
}

/**
 * An address that G-NAF could not place on a parcel: it takes a real house number but carries
 * only a street, gap or locality geocode, in the road reserve or at the locality centre.
 */
export function unplacedAddress(rng: Rng, ctx: SuburbAddressing, lot: Lot, frontage: Frontage): AddressRow {
  const { grid, frame, spec } = ctx;
  const { first } = ctx.numbers.take(rng, frontage, 1);
  const geocode = rng.weighted<GeocodeType>([
    ['STL', 4],
    ['GG', 4],
    ['LOC', 2],
  ]);
  const s = frontage.street;
  const point: Point =
    geocode === 'LOC'
      ? [spec.centre.lng, spec.centre.lat]
      : geocode === 'GG'
        ? frame.lngLat(...alongFrontage(lot, frontage, -3))
        : frame.lngLat(...streetMidpoint(grid, s.axis, s.line, s.from, s.to));
  return row(ctx, { street: s, flat: null, first, last: null, lot: null, geocode, point, parcel: null });
}

/** The lot's addresses and the parcel's EZI-style address (null when it has none). */
export function lotAddresses(
  rng: Rng,
  ctx: SuburbAddressing,
  lot: Lot,
  frontage: Frontage,
  addressing: Addressing,
  parcel: ParcelRef,
): { rows: AddressRow[]; ezi: string | null } {
  if (addressing.kind === 'none') return { rows: [], ezi: null };
  const { spec, frame } = ctx;
  const base = { street: frontage.street, parcel };
  let first: number | null = null;
  let last: number | null = null;
  let lotNumber: string | null = null;
  if (addressing.kind === 'lot-only') lotNumber = parcel.lot;
  else {
    const taken = ctx.numbers.take(rng, frontage, addressing.kind === 'range' ? addressing.count : 1);
    first = taken.first;
    if (addressing.kind === 'range') last = taken.last;
  }
  const ezi = `${numberLabel(first, last, lotNumber)} ${streetLabel(frontage.street)} ${spec.name} ${spec.postcode}`;
  const numbers = { first, last, lot: lotNumber };

  if (addressing.kind === 'units') {
    const rows = Array.from({ length: addressing.count }, (_, i) => {
      const point = frame.lngLat(rng.range(lot.u0 + 2.5, lot.u1 - 2.5), rng.range(lot.v0 + 2.5, lot.v1 - 2.5));
      return row(ctx, { ...base, ...numbers, flat: i + 1, geocode: 'PC', point });
    });
    return { rows, ezi };
  }
  // a handful sit at the frontage setback, where the data supplier had no property centroid
  const setback = rng.chance(0.01);
  const point = frame.lngLat(...(setback ? alongFrontage(lot, frontage, 6) : lotCentre(lot)));
  return { rows: [row(ctx, { ...base, ...numbers, flat: null, geocode: setback ? 'FCS' : 'PC', point })], ezi };
}
