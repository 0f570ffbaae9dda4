/**
 * The address benchmark's requests, drawn from sandbox addresses: free-text addresses for
 * GET /api/cadastre/by-address written the ways people write them, each with the parcel it
 * must resolve to, and typed prefixes for GET /api/address/autocomplete, each with the address
 * it was typed from. Pure: the same addresses give the same requests.
 */
import { createHash } from 'node:crypto';
import type { AddressParts, FormatLookups } from '../subgraphs/address/format.ts';
import { formatLookups, formatSingleLine } from '../subgraphs/address/format.ts';
import { AUTHORITY_ROWS } from '../subgraphs/address/matching/vocabulary.ts';
import type { BenchAddress } from './database.ts';

export const BY_ADDRESS_PATH = '/api/cadastre/by-address';
export const AUTOCOMPLETE_PATH = '/api/address/autocomplete';

/** How a by-address query is written; every address is written in one of them, in turn. */
export const FORMS = ['gnaf', 'lower', 'no-postcode'] as const;
export type Form = (typeof FORMS)[number];

export const FORM_LABEL: Record<Form, string> = {
  gnaf: 'G-NAF single line (`UNIT 4, 10 ARGYLE ST, PARRAMATTA NSW 2150`)',
  lower: 'lower case, street type spelled out, unit as `4/10` (`4/10 argyle street, parramatta nsw 2150`)',
  'no-postcode': 'title case, no postcode (`Unit 4, 10 Argyle St, Parramatta NSW`)',
};

export type ByAddressQuery = { form: Form; q: string; path: string; gnafPid: string; parcelPfi: string };
/** A prefix as typed so far, the whole line it was typed from, and the address both stand for. */
export type PrefixQuery = { q: string; path: string; full: string; fullPath: string; gnafPid: string };

/** The shortest and longest prefix typed, in characters. */
export const PREFIX_MIN = 5;
export const PREFIX_MAX = 12;

const LOOKUPS = formatLookups(AUTHORITY_ROWS);
/** Street types printed as their code, which is the full word ("STREET"): the spelled-out form. */
const SPELLED_OUT: FormatLookups = { ...LOOKUPS, streetTypes: new Map() };

/** A stable pseudo-random number in [0, 1) for one address and purpose. */
function hashOf(text: string): number {
  return createHash('md5').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

const partsOf = (a: BenchAddress): AddressParts => ({ ...a });

/** "Unit 4, 10 Argyle St, Parramatta NSW": words capitalised, the state abbreviation kept upper case. */
function titleCase(line: string, state: string): string {
  return line
    .toLowerCase()
    .replace(/\b([a-z])([a-z']*)/g, (word: string, first: string, rest: string) =>
      word.toUpperCase() === state ? state : first.toUpperCase() + rest,
    );
}

/** The address without its unit and level, as "4/10" leaves them out. */
const baseParts = (a: BenchAddress): AddressParts => ({
  ...partsOf(a),
  flat_type_code: null,
  flat_number: null,
  flat_number_suffix: null,
  level_type_code: null,
  level_number: null,
});

/** "4/10 ARGYLE ST, PARRAMATTA NSW 2150": a unit as people type it, with no unit type or level. */
function slashLine(a: BenchAddress, lookups: FormatLookups): string {
  if (a.flat_number === null && a.level_number === null) return formatSingleLine(partsOf(a), lookups);
  const base = formatSingleLine(baseParts(a), lookups);
  return a.flat_number === null ? base : `${a.flat_number}${a.flat_number_suffix ?? ''}/${base}`;
}

function written(a: BenchAddress, form: Form): string {
  switch (form) {
    case 'gnaf':
      return a.formatted_address;
    case 'lower':
      return slashLine(a, SPELLED_OUT).toLowerCase();
    case 'no-postcode':
      return titleCase(formatSingleLine({ ...partsOf(a), postcode: null }, LOOKUPS), a.state);
  }
}

/** Whether the project's formatter rebuilds an address's stored G-NAF line from its parts (the other forms rely on it). */
export const rebuildsFormattedAddress = (a: BenchAddress): boolean =>
  formatSingleLine(partsOf(a), LOOKUPS) === a.formatted_address;

/** One query per address, the forms taken in turn, so each form gets a third of the addresses. */
export function byAddressQueries(addresses: readonly BenchAddress[]): ByAddressQuery[] {
  return addresses.map((a, i) => {
    const form = FORMS[i % FORMS.length] ?? 'gnaf';
    const q = written(a, form);
    return {
      form,
      q,
      path: `${BY_ADDRESS_PATH}?q=${encodeURIComponent(q)}`,
      gnafPid: a.gnaf_pid,
      parcelPfi: a.parcel_pfi,
    };
  });
}

/** A by-address query in the G-NAF form for every address: the correctness check's strict sample. */
export function gnafQueries(addresses: readonly BenchAddress[]): ByAddressQuery[] {
  return addresses.map((a) => ({
    form: 'gnaf',
    q: a.formatted_address,
    path: `${BY_ADDRESS_PATH}?q=${encodeURIComponent(a.formatted_address)}`,
    gnafPid: a.gnaf_pid,
    parcelPfi: a.parcel_pfi,
  }));
}

/**
 * What someone has typed so far: the first 5 to 12 characters (by a seeded hash) of the
 * address in lower case, units as "4/10 ...", as a search box sends it while they type.
 */
export function prefixQueries(addresses: readonly BenchAddress[]): PrefixQuery[] {
  return addresses.map((a) => {
    const full = slashLine(a, LOOKUPS).toLowerCase();
    const length = PREFIX_MIN + Math.floor(hashOf(`prefix:${a.gnaf_pid}`) * (PREFIX_MAX - PREFIX_MIN + 1));
    const q = full.slice(0, length);
    return {
      q,
      path: `${AUTOCOMPLETE_PATH}?q=${encodeURIComponent(q)}`,
      full,
      fullPath: `${AUTOCOMPLETE_PATH}?q=${encodeURIComponent(full)}`,
      gnafPid: a.gnaf_pid,
    };
  });
}
