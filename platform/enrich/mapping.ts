import { AppError } from '../../core/errors.ts';
import { STATES, isStateCode } from '../../core/geo.ts';
import type { Upload } from './csv.ts';

/**
 * Which input columns hold the address: one whole-address column, or its parts (number, street,
 * locality, state, postcode), or a point (lat + lng). Values are header names of the upload.
 */
export const MAPPING_FIELDS = ['address', 'number', 'street', 'locality', 'state', 'postcode', 'lat', 'lng'] as const;
export type MappingField = (typeof MAPPING_FIELDS)[number];
export type Mapping = Partial<Record<MappingField, string>>;

/** Header spellings of each field, compared lower-case with everything but letters and digits removed. */
const HEADER_NAMES: Record<MappingField, readonly string[]> = {
  address: [
    'address',
    'fulladdress',
    'propertyaddress',
    'siteaddress',
    'streetaddress',
    'singlelineaddress',
    'formattedaddress',
    'addressfull',
    'propaddress',
    'premisesaddress',
    'physicaladdress',
    'addr',
    'addresstext',
    'location',
  ],
  number: ['number', 'streetnumber', 'streetno', 'houseno', 'housenumber', 'stno', 'no', 'num', 'numberfirst'],
  street: [
    'street',
    'streetname',
    'road',
    'roadname',
    'addressline1',
    'addrline1',
    'address1',
    'line1',
    'streetline',
    'addressstreet',
  ],
  locality: ['suburb', 'locality', 'town', 'city', 'suburbtown', 'townsuburb', 'localityname', 'suburbname', 'place'],
  state: ['state', 'statecode', 'territory', 'stateterritory', 'jurisdiction', 'st'],
  postcode: ['postcode', 'postalcode', 'pcode', 'zip', 'zipcode', 'postcodes', 'pc', 'post'],
  lat: ['lat', 'latitude', 'y', 'ycoord', 'latdd', 'gpslat'],
  lng: ['lng', 'lon', 'long', 'longitude', 'x', 'xcoord', 'londd', 'gpslng', 'gpslon'],
};

const STATE_NAMES: Record<string, string> = {
  victoria: 'VIC',
  newsouthwales: 'NSW',
  queensland: 'QLD',
  southaustralia: 'SA',
  westernaustralia: 'WA',
  tasmania: 'TAS',
  northernterritory: 'NT',
  australiancapitalterritory: 'ACT',
  otherterritories: 'OT',
};

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const clean = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** A state as written ("Vic", "vic.", "Victoria") as its code, or undefined. */
export function stateCodeOf(text: string): string | undefined {
  const squashed = squash(text);
  const upper = squashed.toUpperCase();
  if (isStateCode(upper)) return upper;
  return STATE_NAMES[squashed];
}

/** A postcode as written: spreadsheets drop the leading zero of NT and ACT postcodes (800 for 0800). */
export function postcodeOf(text: string): string | undefined {
  const digits = text.trim();
  if (/^\d{4}$/.test(digits)) return digits;
  if (/^\d{3}$/.test(digits)) return `0${digits}`;
  return undefined;
}

const STREET_WORDS =
  /\b(st|street|rd|road|ave?|avenue|dr|drive|ct|court|cres|crescent|pl|place|ln|lane|way|hwy|highway|pde|parade|tce|terrace|cl|close|bvd|blvd|boulevard|cct|circuit|gr|grove|sq|square)\b/i;
const ENDS_WITH_PLACE = new RegExp(`(\\b(${STATES.join('|')})\\b\\.?\\s*\\d{0,4}|\\b\\d{4})\\s*$`, 'i');

const numberOf = (text: string): number | undefined => {
  const trimmed = text.trim();
  if (!/^[-+]?\d+(\.\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
};

/** The share of non-empty sample values a test holds for (0 with no values). */
function share(values: readonly string[], test: (value: string) => boolean): number {
  if (values.length === 0) return 0;
  return values.filter(test).length / values.length;
}

type ValueTests = Partial<Record<MappingField, (value: string) => boolean>>;

const VALUE_TESTS: ValueTests = {
  postcode: (v) => postcodeOf(v) !== undefined,
  state: (v) => stateCodeOf(v) !== undefined,
  lat: (v) => {
    const n = numberOf(v);
    return n !== undefined && n >= -44 && n <= -9;
  },
  lng: (v) => {
    const n = numberOf(v);
    return n !== undefined && n >= 112 && n <= 160;
  },
  number: (v) => /^\d+[a-z]?(-\d+[a-z]?)?$/i.test(v.trim()) || /^\d+\/\d+[a-z]?$/i.test(v.trim()),
};

const looksLikeStreetLine = (v: string) => /\d/.test(v) && STREET_WORDS.test(v);
const looksLikeFullAddress = (v: string) => looksLikeStreetLine(v) && ENDS_WITH_PLACE.test(v.trim());

export type MappingProposal = { mapping: Mapping; source: 'heuristic' | 'llm'; notes: string[] };

/** The first non-empty values of each column, for the value heuristics and the LLM's prompt. */
export function sampleValues(upload: Upload, column: number, size = 50): string[] {
  const values: string[] = [];
  for (const row of upload.rows) {
    const value = clean(row[column]);
    if (value !== '') values.push(value);
    if (values.length >= size) break;
  }
  return values;
}

/**
 * Proposes which columns hold the address, from the header names first and then from what the
 * values look like (postcodes, state codes, coordinates inside Australia, street lines). A
 * street-like column whose values end in a state or postcode is a whole address; otherwise it
 * is the street line and the locality, state and postcode come from their own columns.
 */
export function proposeMapping(upload: Upload): MappingProposal {
  const mapping: Mapping = {};
  const notes: string[] = [];
  const used = new Set<number>();
  const samples = upload.columns.map((_, index) => sampleValues(upload, index));
  const take = (field: MappingField, index: number, why: string) => {
    mapping[field] = upload.columns[index];
    used.add(index);
    notes.push(`${field}: '${upload.columns[index]}' (${why})`);
  };

  // 1. Header names, in the order the fields are most often named unambiguously.
  const byHeader = (field: MappingField) =>
    upload.columns.findIndex((name, index) => !used.has(index) && HEADER_NAMES[field].includes(squash(name)));
  for (const field of ['postcode', 'state', 'locality', 'lat', 'lng', 'number', 'street', 'address'] as const) {
    const index = byHeader(field);
    if (index < 0) continue;
    const test = VALUE_TESTS[field];
    // a header the values contradict (a "State" column of suburbs) is not taken on its name alone
    if (test && samples[index]!.length > 0 && share(samples[index]!, test) < 0.5) continue;
    take(field, index, 'header');
  }

  // 2. A street-like column named as an address line: whole address, or the street with its number.
  for (const field of ['address', 'street'] as const) {
    const index = upload.columns.indexOf(mapping[field] ?? '\u0000');
    if (index < 0) continue;
    const values = samples[index]!;
    const whole = share(values, looksLikeFullAddress) >= 0.5;
    if (field === 'street' && whole && !mapping.address) {
      delete mapping.street;
      mapping.address = upload.columns[index];
      notes.push(`address: '${upload.columns[index]}' (its values end in a state or postcode: a whole address)`);
    } else if (field === 'address' && !whole && share(values, looksLikeStreetLine) >= 0.5 && !mapping.street) {
      if (mapping.locality || mapping.postcode) {
        delete mapping.address;
        mapping.street = upload.columns[index];
        notes.push(`street: '${upload.columns[index]}' (a street line; locality and postcode have their own columns)`);
      }
    }
  }

  // 3. Values, for fields no header named.
  for (const field of ['postcode', 'state', 'lat', 'lng'] as const) {
    if (mapping[field]) continue;
    const test = VALUE_TESTS[field]!;
    let best = -1;
    let bestShare = 0.8;
    upload.columns.forEach((_, index) => {
      if (used.has(index) || samples[index]!.length === 0) return;
      const s = share(samples[index]!, test);
      if (s >= bestShare && (field !== 'postcode' || !share(samples[index]!, VALUE_TESTS.lat!))) {
        best = index;
        bestShare = s;
      }
    });
    if (best >= 0) take(field, best, `${Math.round(bestShare * 100)}% of its values look like one`);
  }
  if (!mapping.address && !mapping.street) {
    const full = upload.columns.findIndex((_, i) => !used.has(i) && share(samples[i]!, looksLikeFullAddress) >= 0.6);
    if (full >= 0) take('address', full, 'its values read as whole addresses');
    else {
      const line = upload.columns.findIndex((_, i) => !used.has(i) && share(samples[i]!, looksLikeStreetLine) >= 0.6);
      if (line >= 0) take('street', line, 'its values read as street lines');
    }
  }
  // a lone latitude or longitude is no point
  if (!mapping.lat !== !mapping.lng) {
    delete mapping.lat;
    delete mapping.lng;
  }
  return { mapping, source: 'heuristic', notes };
}

/** What is missing for a mapping to locate a row; null when it can. */
export function mappingGap(mapping: Mapping): string | null {
  if (mapping.address) return null;
  if (mapping.street && (mapping.locality || mapping.postcode)) return null;
  if (mapping.lat && mapping.lng) return null;
  if (mapping.street) return 'a street column needs a locality or postcode column beside it';
  if (mapping.lat || mapping.lng) return 'a point needs both lat and lng columns';
  return 'no address, street or lat/lng column is mapped';
}

/**
 * Checks a mapping against the upload's own columns (exact header names, case-insensitively) and
 * returns it with the headers spelled as in the file. Throws 400 naming the problem.
 */
export function validateMapping(upload: Upload, mapping: Record<string, unknown>, what: string): Mapping {
  const out: Mapping = {};
  const byName = new Map(upload.columns.map((name) => [name.toLowerCase(), name]));
  const usedBy = new Map<string, string>();
  for (const [field, value] of Object.entries(mapping)) {
    if (!(MAPPING_FIELDS as readonly string[]).includes(field)) {
      throw new AppError(
        'BAD_REQUEST',
        `${what}: unknown field '${field}'.`,
        `Fields are ${MAPPING_FIELDS.join(', ')}; each names a column of the CSV.`,
      );
    }
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string') throw new AppError('BAD_REQUEST', `${what}: ${field} must be a column name.`);
    const column = byName.get(value.trim().toLowerCase());
    if (!column) {
      throw new AppError(
        'BAD_REQUEST',
        `${what}: ${field} names column '${value.slice(0, 100)}', which the CSV does not have.`,
        `The CSV's columns are: ${upload.columns.join(', ').slice(0, 1000)}.`,
      );
    }
    const other = usedBy.get(column);
    if (other)
      throw new AppError('BAD_REQUEST', `${what}: column '${column}' is mapped to both ${other} and ${field}.`);
    usedBy.set(column, field);
    out[field as MappingField] = column;
  }
  const gap = mappingGap(out);
  if (gap) {
    throw new AppError(
      'BAD_REQUEST',
      `${what} cannot locate a row: ${gap}.`,
      'Map address, or street with locality or postcode, or lat and lng.',
    );
  }
  return out;
}

/** What the matcher is given for one row: the text (and filters), or a point; `problem` when neither. */
export type MatchInput = {
  text: string | null;
  state: string | null;
  postcode: string | null;
  point: { lat: number; lng: number } | null;
  problem: string | null;
};

/** One row under a mapping, normalised as the matcher reads it (upper case, single spaces, 4-digit postcode). */
export function matchInputOf(upload: Pick<Upload, 'columns'>, mapping: Mapping, row: readonly string[]): MatchInput {
  const cell = (field: MappingField) => {
    const column = mapping[field];
    if (!column) return '';
    return clean(row[upload.columns.indexOf(column)]);
  };
  const stateText = cell('state');
  const state = stateText === '' ? null : (stateCodeOf(stateText) ?? null);
  const postcodeText = cell('postcode');
  const postcode = postcodeText === '' ? null : (postcodeOf(postcodeText) ?? null);
  const latText = cell('lat');
  const lngText = cell('lng');
  const lat = numberOf(latText);
  const lng = numberOf(lngText);
  const point =
    lat !== undefined && lng !== undefined && lat >= -44 && lat <= -9 && lng >= 112 && lng <= 160 ? { lat, lng } : null;
  let text: string | null = null;
  if (mapping.address) {
    text = cell('address') || null;
  } else if (mapping.street) {
    const line = [cell('number'), cell('street')].filter(Boolean).join(' ');
    const place = [cell('locality'), state ?? stateText, postcode ?? postcodeText].filter(Boolean).join(' ');
    text = line ? [line, place].filter(Boolean).join(', ') : null;
  }
  if (text) text = text.toUpperCase();
  let problem: string | null = null;
  if (!text && !point) {
    if (mapping.address || mapping.street) problem = 'the address cells are empty';
    else if (latText === '' && lngText === '') problem = 'the lat and lng cells are empty';
    else problem = `'${latText}, ${lngText}' is not a point in Australia`;
  }
  return { text, state, postcode, point, problem };
}

/** The first rows as the matcher will read them under a mapping. */
export function previewRows(upload: Upload, mapping: Mapping, count = 5) {
  return upload.rows.slice(0, count).map((row, index) => {
    const input = matchInputOf(upload, mapping, row);
    return {
      row: index + 1,
      query: input.text,
      state: input.state,
      postcode: input.postcode,
      lat: input.point?.lat ?? null,
      lng: input.point?.lng ?? null,
      problem: input.problem,
    };
  });
}
