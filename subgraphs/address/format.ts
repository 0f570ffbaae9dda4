/**
 * G-NAF's address as one line of text, from the ADDRESS_DETAIL columns and the street and
 * locality they cite. `formatSingleLine` is the address as addressr (an independent G-NAF
 * project, our oracle) writes its single-line address; `searchKey` is the same words for
 * prefix search. Pure: the authority code names come in as `FormatLookups`, so the ingest
 * (reading a release's Authority Code folder) and the sandbox (the built-in vocabulary) share it.
 */

/** A G-NAF number: the PSV text, or the integer the database holds. */
type Numeric = string | number | null | undefined;
type Text = string | null | undefined;

/**
 * The ADDRESS_DETAIL columns that make up the address (lower case, as in address.address_detail),
 * with its street and locality. Codes are G-NAF authority codes; absent fields mean blank.
 */
export interface AddressParts {
  building_name?: Text;
  lot_number_prefix?: Text;
  lot_number?: Text;
  lot_number_suffix?: Text;
  flat_type_code?: Text;
  flat_number_prefix?: Text;
  flat_number?: Numeric;
  flat_number_suffix?: Text;
  level_type_code?: Text;
  level_number_prefix?: Text;
  level_number?: Numeric;
  level_number_suffix?: Text;
  number_first_prefix?: Text;
  number_first?: Numeric;
  number_first_suffix?: Text;
  number_last_prefix?: Text;
  number_last?: Numeric;
  number_last_suffix?: Text;
  street_name: string;
  /** STREET_TYPE_AUT code: the full word ("ROAD"). */
  street_type_code?: Text;
  /** STREET_SUFFIX_AUT code ("W"). */
  street_suffix_code?: Text;
  locality_name: string;
  /** State abbreviation ("QLD", "OT"). */
  state: string;
  postcode?: Text;
}

/** Authority code to NAME, per authority table (G-NAF's `Authority_Code_<TABLE>_AUT` files). */
export interface FormatLookups {
  /** STREET_TYPE_AUT: "ROAD" → "RD". */
  readonly streetTypes: ReadonlyMap<string, string>;
  /** STREET_SUFFIX_AUT: "W" → "WEST". */
  readonly streetSuffixes: ReadonlyMap<string, string>;
  /** FLAT_TYPE_AUT: "APT" → "APARTMENT". */
  readonly flatTypes: ReadonlyMap<string, string>;
  /** LEVEL_TYPE_AUT: "L" → "LEVEL". */
  readonly levelTypes: ReadonlyMap<string, string>;
}

const LOOKUP_AUTHORITIES = {
  STREET_TYPE: 'streetTypes',
  STREET_SUFFIX: 'streetSuffixes',
  FLAT_TYPE: 'flatTypes',
  LEVEL_TYPE: 'levelTypes',
} as const satisfies Record<string, keyof FormatLookups>;

/** The lookups from authority code rows (authority "STREET_TYPE", code, name); other authorities are ignored. */
export function formatLookups(
  rows: Iterable<{ readonly authority: string; readonly code: string; readonly name: string }>,
): FormatLookups {
  const lookups = {
    streetTypes: new Map<string, string>(),
    streetSuffixes: new Map<string, string>(),
    flatTypes: new Map<string, string>(),
    levelTypes: new Map<string, string>(),
  };
  for (const row of rows) {
    const key = (LOOKUP_AUTHORITIES as Record<string, keyof FormatLookups | undefined>)[row.authority];
    if (key) lookups[key].set(row.code, row.name);
  }
  return lookups;
}

const text = (value: Numeric): string => (value === null || value === undefined ? '' : String(value));
// An unknown code prints as itself rather than vanishing: the address stays readable.
const nameOf = (lookup: ReadonlyMap<string, string>, code: Text): string => (code ? (lookup.get(code) ?? code) : '');
// Two words with one space between, or whichever is not blank. Plain string work: this runs
// once per address, millions of times in an ingest.
const space = (a: string, b: string): string => (a && b ? `${a} ${b}` : a || b);
const affixed = (prefix: Text, value: Numeric, suffix: Text): string => text(prefix) + text(value) + text(suffix);

const levelPart = (p: AddressParts, lookups: FormatLookups): string =>
  space(
    nameOf(lookups.levelTypes, p.level_type_code),
    affixed(p.level_number_prefix, p.level_number, p.level_number_suffix),
  );

const flatPart = (p: AddressParts, lookups: FormatLookups): string =>
  space(
    nameOf(lookups.flatTypes, p.flat_type_code),
    affixed(p.flat_number_prefix, p.flat_number, p.flat_number_suffix),
  );

/** "72A", "103-107", "LOT 16": the house number, else the lot number. */
function numberPart(p: AddressParts): string {
  const first = affixed(p.number_first_prefix, p.number_first, p.number_first_suffix);
  if (first) {
    const last = affixed(p.number_last_prefix, p.number_last, p.number_last_suffix);
    return last ? `${first}-${last}` : first;
  }
  const lot = affixed(p.lot_number_prefix, p.lot_number, p.lot_number_suffix);
  return lot ? `LOT ${lot}` : '';
}

const localityPart = (p: AddressParts): string => space(space(p.locality_name, p.state), text(p.postcode));

/**
 * G-NAF's single-line address as addressr writes it: the level, the flat, then number and
 * street, then locality, state and postcode, joined by ", ". addressr's own output for real
 * G-NAF records (the oracle in data/samples/gnaf-mapping-oracle-addressr/):
 *
 *   LOT 16 AERODROME RD, APPLETHORPE QLD 4378
 *   UNIT 1, 19 MURRAY RD, CHRISTMAS ISLAND OT 6798
 *   103-107 GAZE RD, CHRISTMAS ISLAND OT 6798
 *
 * Street types print as their STREET_TYPE_AUT name (the abbreviation), suffixes, flat and
 * level types as their names (full words, as addressr does). Number prefixes and suffixes
 * attach to the number ("72A"); a range is "first-last"; "LOT n" only when there is no house
 * number; a level goes before the flat ("LEVEL 3, UNIT 1, 19 MURRAY RD, ..."). Where we part
 * from addressr: the building name is left out (addressr adds it after the flat as a part of
 * its own; it is free text that people rarely write, and it stays in building_name), a blank
 * part leaves no stray space or "undefined" behind, and a number 0 prints as 0.
 */
export function formatSingleLine(parts: AddressParts, lookups: FormatLookups): string {
  const street = space(
    space(parts.street_name, nameOf(lookups.streetTypes, parts.street_type_code)),
    nameOf(lookups.streetSuffixes, parts.street_suffix_code),
  );
  let line = space(numberPart(parts), street);
  const flat = flatPart(parts, lookups);
  if (flat) line = `${flat}, ${line}`;
  const level = levelPart(parts, lookups);
  if (level) line = `${level}, ${line}`;
  return `${line}, ${localityPart(parts)}`;
}

/**
 * The address for prefix search: "72 DWYER STREET HUNTLY VIC 3551". Upper case, single
 * spaces, no commas; the street type as its STREET_TYPE_AUT code (the full word) and the
 * suffix as its name (the full word), so typed text is spelled out once and compared as is.
 * No flat or level: the matcher filters units on flat_number, and every unit of a building
 * then shares its base address's key.
 */
export function searchKey(parts: AddressParts, lookups: FormatLookups): string {
  const street = space(
    space(parts.street_name, text(parts.street_type_code)),
    nameOf(lookups.streetSuffixes, parts.street_suffix_code),
  );
  const key = space(space(numberPart(parts), street), localityPart(parts)).toUpperCase();
  // G-NAF's names are upper case and single spaced already; this only guards against odd input.
  return /,| {2}|[^\S ]|^ | $/.test(key) ? key.replace(/,/g, ' ').replace(/\s+/g, ' ').trim() : key;
}
