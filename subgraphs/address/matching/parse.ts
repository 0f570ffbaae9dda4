import type { ParsedAddress, StreetReading } from './types.ts';
import {
  flatTypeCode,
  isSpelledOutState,
  levelTypeCode,
  stateAbbreviation,
  streetSuffixCode,
  streetTypeCode,
} from './vocabulary.ts';

/**
 * Reads a free-text Australian address into G-NAF's components. Pure and total: garbage gives
 * empty components and no readings, never an exception; the matcher decides what is enough.
 */
export function parseAddress(input: string, known: KnownNames = {}): ParsedAddress {
  const trimmed = input.trim();
  const all = tokenize(trimmed);
  // No address has this many words; the cap keeps the reading enumeration small on garbage.
  const tokens = all.slice(0, MAX_TOKENS);
  const tail = readTail(tokens);
  const head = readHead(tokens.slice(0, tail.end));
  const streetPart = head.street.filter((token) => token.text !== '/');
  const locality = localityOnly(head, streetPart, known);
  const { readings, extra } = locality ? { readings: [], extra: [] } : readStreet(streetPart);
  const stray = head.street.filter((token) => token.text === '/');
  return {
    input: trimmed,
    locality,
    flat: head.flat,
    level: head.level,
    buildingName: head.buildingName,
    number: head.number,
    lot: head.number ? null : head.lot,
    readings,
    state: tail.state,
    stateSpelledOut: tail.stateSpelledOut,
    postcode: tail.postcode,
    trailingCountry: tail.trailingCountry,
    leftovers: [...stray, ...extra, ...all.slice(MAX_TOKENS)].map((token) => token.text),
  };
}

/** What the data knows, for the readings text alone cannot settle. */
export interface KnownNames {
  /** Whether a name (upper case, single spaces) is a locality or a locality's alias. */
  readonly isLocality?: (name: string) => boolean;
}

/**
 * "Eight Mile Plains" or "Kangaroo Flat": with no number, lot, flat or level, text that is
 * exactly a locality's name is that locality, although its last word is also a street type.
 */
function localityOnly(head: Head, street: readonly Token[], known: KnownNames): string | null {
  if (!known.isLocality || head.number || head.lot || head.flat || head.level || street.length === 0) return null;
  const name = street.map((token) => token.text).join(' ');
  return known.isLocality(name) ? name : null;
}

const MAX_READINGS = 6;
const MAX_TOKENS = 40;

interface Token {
  readonly text: string;
  /** Which comma-separated part of the input the token came from. */
  readonly group: number;
}

function tokenize(input: string): Token[] {
  const text = input
    .toUpperCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    // "41 - 47" is one range, written as "41-47" before the spaces split it.
    .replace(/(\d[A-Z]{0,2})\s*-\s*(?=\d)/g, '$1-')
    // The two street types of several words become one token, as their lookup ignores hyphens.
    .replace(/\bCUL DE SAC\b/g, 'CUL-DE-SAC')
    .replace(/\bRIGHT OF WAY\b/g, 'RIGHT-OF-WAY')
    .replace(/[/\\]/g, ' / ')
    .replace(/[^\p{L}\p{N}'\-/,\s]/gu, ' ');
  const tokens: Token[] = [];
  text.split(',').forEach((part, group) => {
    for (const raw of part.split(/\s+/)) {
      const word = raw.replace(/^['-]+|['-]+$/g, '');
      if (word) tokens.push({ text: word, group });
    }
  });
  return tokens;
}

// ---- The end of the address: country, postcode, state --------------------------------------

const COUNTRY = new Set(['AUSTRALIA', 'AU', 'AUS', 'AUST']);
const POSTCODE = /^\d{4}$/;

interface Tail {
  end: number;
  state: string | null;
  stateSpelledOut: boolean;
  postcode: string | null;
  trailingCountry: boolean;
}

function readTail(tokens: readonly Token[]): Tail {
  const tail: Tail = {
    end: tokens.length,
    state: null,
    stateSpelledOut: false,
    postcode: null,
    trailingCountry: false,
  };
  for (let step = 0; step < 3 && tail.end > 0; step++) {
    const state = tail.state ? null : stateAtEnd(tokens, tail.end);
    const last = tokens[tail.end - 1]?.text ?? '';
    if (state) {
      tail.state = state.abbreviation;
      tail.stateSpelledOut = state.spelledOut;
      tail.end -= state.length;
    } else if (!tail.postcode && POSTCODE.test(last)) {
      tail.postcode = last;
      tail.end -= 1;
    } else if (step === 0 && COUNTRY.has(last)) {
      tail.trailingCountry = true;
      tail.end -= 1;
    } else break;
  }
  return tail;
}

// Longest first, so "SOUTH AUSTRALIA" is a state rather than a locality ending in SOUTH and a country.
function stateAtEnd(tokens: readonly Token[], end: number) {
  for (let length = Math.min(3, end); length >= 1; length--) {
    const words = tokens
      .slice(end - length, end)
      .map((token) => token.text)
      .join(' ');
    const abbreviation = stateAbbreviation(words);
    if (abbreviation) return { abbreviation, spelledOut: isSpelledOutState(words), length };
  }
  return null;
}

// ---- The start of the address: flat, level, lot, building name, house number -----------------

type Flat = NonNullable<ParsedAddress['flat']>;
type Level = NonNullable<ParsedAddress['level']>;
type HouseNumber = NonNullable<ParsedAddress['number']>;

const ORDINAL = new Set(['ST', 'ND', 'RD', 'TH']);
const NUMBER = /^(\d+)([A-Z]{1,2})?(?:-(\d+)([A-Z]{1,2})?)?$/;
const SUB_NUMBER = /^([A-Z]{1,2})?(\d+)([A-Z]{1,2})?$/;
const TYPE_AND_NUMBER = /^([A-Z]+)(\d+)([A-Z]{1,2})?$/;
const LOT_NUMBER = /^(?:[A-Z]{0,2}\d+[A-Z]{0,2}|[A-Z])$/;
const ORDINAL_FLOOR = /^(\d+)(?:ST|ND|RD|TH)$/;
// Level types that mean something without a number ("Ground Floor", "Mezzanine"), when written as a word.
const LEVELS_WITHOUT_NUMBER = new Set(['G', 'B', 'LG', 'UG', 'M', 'RT', 'PDM', 'PLF', 'OD', 'SB', 'UNGD', 'LB']);

function houseNumber(text: string | undefined): HouseNumber | null {
  const match = text ? NUMBER.exec(text) : null;
  if (!match) return null;
  const [, first = '', firstSuffix, last, lastSuffix] = match;
  if (firstSuffix && ORDINAL.has(firstSuffix) && !last) return null;
  return {
    first: Number(first),
    firstSuffix: firstSuffix ?? null,
    last: last ? Number(last) : null,
    lastSuffix: lastSuffix ?? null,
  };
}

function subNumber(text: string | undefined): { number: number; prefix: string | null; suffix: string | null } | null {
  const match = text ? SUB_NUMBER.exec(text) : null;
  if (!match) return null;
  const [, prefix, number = '', suffix] = match;
  return { number: Number(number), prefix: prefix ?? null, suffix: suffix ?? null };
}

interface Head {
  flat: Flat | null;
  level: Level | null;
  lot: string | null;
  number: HouseNumber | null;
  buildingName: string | null;
  street: Token[];
}

function readHead(tokens: readonly Token[]): Head {
  const head: Head = { flat: null, level: null, lot: null, number: null, buildingName: null, street: [] };
  const before: Token[] = [];
  let i = 0;
  for (let token = tokens[0]; token && !head.number; token = tokens[i]) {
    const taken = readSubAddress(tokens, i, head);
    if (taken > 0) {
      i += taken;
      if (tokens[i]?.text === '/') i += 1;
      continue;
    }
    const number = houseNumber(token.text);
    const flat = subNumber(token.text);
    // "2 72 Dwyer St": a bare number before the house number is the flat's.
    if (number && flat && !head.flat && houseNumber(tokens[i + 1]?.text)) head.flat = { type: null, ...flat };
    else if (number) head.number = number;
    else before.push(token);
    i += 1;
  }
  const later = head.number ? laterHouseNumber(tokens, i, before) : -1;
  if (later > 0) {
    // "BIG 4 PARK BEACH HOL PARK, 1 OCEAN PDE": the first number was the name's
    head.number = houseNumber(tokens[later]?.text);
    head.buildingName = [...before, ...tokens.slice(i - 1, later)].map((token) => token.text).join(' ');
    head.street = tokens.slice(later + 1);
    return head;
  }
  const after = tokens.slice(i);
  if (head.number && before.length > 0 && isBuildingName(before, after)) {
    head.buildingName = before.map((token) => token.text).join(' ');
    head.street = after;
  } else {
    head.street = [...before, ...after];
  }
  return head;
}

/**
 * A number with words before it in its own comma part ("BIG 4", "Club 7") belongs to a name
 * when a later number starts a street with a type after at least one word of name. Returns that
 * later number's index, or -1 when the number read is the house number.
 */
function laterHouseNumber(tokens: readonly Token[], after: number, before: readonly Token[]): number {
  const group = tokens[after - 1]?.group;
  if (!before.some((token) => token.group === group)) return -1;
  for (let j = after + 1; j < tokens.length; j++) {
    const candidate = tokens[j]!;
    if (!houseNumber(candidate.text)) continue;
    const street = tokens.slice(j + 2).filter((token) => token.group === candidate.group);
    if (street.some((token) => streetTypeCode(token.text) !== null) && tokens[j + 1]?.group === candidate.group)
      return j;
  }
  return -1;
}

// What comes before the house number is a building name when it is clearly not the street: in its own comma part,
// or followed by a street that has its own type ("Rialto Towers 525 Collins St").
function isBuildingName(before: readonly Token[], after: readonly Token[]): boolean {
  const numberGroup = after[0]?.group ?? Infinity;
  if (before.every((token) => token.group < numberGroup)) return true;
  return after.some((token) => streetTypeCode(token.text) !== null);
}

/** Reads a lot, flat or level starting at `i`; returns how many tokens it took (0 when none). */
function readSubAddress(tokens: readonly Token[], i: number, head: Head): number {
  const text = tokens[i]?.text ?? '';
  // A flat's or level's number is in the same comma part as its type: "Ground Floor, 100 Queen St".
  const next = tokens[i + 1]?.group === tokens[i]?.group ? tokens[i + 1]?.text : undefined;
  if (!head.lot && text === 'LOT' && next && LOT_NUMBER.test(next)) {
    head.lot = next;
    return 2;
  }
  const type = head.flat ? null : flatTypeCode(text);
  const number = subNumber(next);
  if (type && type !== 'LOT' && number) {
    head.flat = { type, ...number };
    return 2;
  }
  const joined = readJoined(text, head);
  if (joined > 0) return joined;
  // "2/72" and "G01/72": the number before the slash is the flat's.
  const bare = subNumber(text);
  if (!head.flat && bare && next === '/' && houseNumber(tokens[i + 2]?.text)) {
    head.flat = { type: null, ...bare };
    return 1;
  }
  return head.level ? 0 : readLevel(tokens, i, head);
}

// "U2", "L3", "APT5", "LOT16": a type and its number written as one word.
function readJoined(text: string, head: Head): number {
  const match = TYPE_AND_NUMBER.exec(text);
  if (!match) return 0;
  const [, letters = '', digits = '', suffix] = match;
  const number = { number: Number(digits), prefix: null, suffix: suffix ?? null };
  const flat = head.flat ? null : flatTypeCode(letters);
  // "G1" is more often a ground-floor flat number than level G1, so level G needs the word.
  const level = head.level || letters === 'G' ? null : levelTypeCode(letters);
  if (letters === 'LOT' && !head.lot) head.lot = `${digits}${suffix ?? ''}`;
  else if (flat && flat !== 'LOT') head.flat = { type: flat, ...number };
  else if (level) head.level = { type: level, ...number };
  else return 0;
  return 1;
}

function readLevel(tokens: readonly Token[], i: number, head: Head): number {
  for (let length = Math.min(3, tokens.length - i); length >= 1; length--) {
    const written = tokens
      .slice(i, i + length)
      .map((token) => token.text)
      .join(' ');
    const type = levelTypeCode(written);
    if (!type) continue;
    const following = tokens[i + length];
    const number = following?.group === tokens[i]?.group ? subNumber(following?.text) : null;
    const houseAfter = (from: number) => tokens.slice(from).some((token) => houseNumber(token.text));
    const numberless = written.length > 1 && LEVELS_WITHOUT_NUMBER.has(type);
    // "Ground Floor 100 Queen St": a level that needs no number leaves the house number alone.
    if (number && (!numberless || houseAfter(i + length + 1))) {
      head.level = { type, ...number };
      return length + 1;
    }
    // "Ground Rd" has no house number after it, so it is a street.
    if (numberless && houseAfter(i + length)) {
      head.level = { type, number: null, prefix: null, suffix: null };
      return length;
    }
  }
  const ordinal = ORDINAL_FLOOR.exec(tokens[i]?.text ?? '');
  const floor = levelTypeCode(tokens[i + 1]?.text ?? '');
  if (ordinal && (floor === 'FL' || floor === 'L')) {
    head.level = { type: floor, number: Number(ordinal[1]), prefix: null, suffix: null };
    return 2;
  }
  return 0;
}

// ---- The street and the locality ------------------------------------------------------------

// Street types as people abbreviate them: unmistakably a street, never a locality's word (ST only at a
// locality's start, where it is SAINT).
const STREET_ABBREVIATIONS = new Set(
  'ST STR RD AVE AV DR DRV CT CRT PL CRES CR CL PDE TCE CCT HWY BVD BLVD LN GR GRV ESP PWY FWY SQ'.split(' '),
);
const STREET_WORDS = new Set(
  'STREET ROAD AVENUE DRIVE COURT PLACE CRESCENT CLOSE PARADE TERRACE CIRCUIT HIGHWAY BOULEVARD'.split(' '),
);
const COMMON_TYPES = new Set([...STREET_WORDS, 'LANE', 'WAY', 'GROVE', 'ESPLANADE']);
// Street types that are as often the last word of a locality (KANGAROO FLAT, CASTLE HILL, NORTH LAKES' NORTH).
const LOCALITY_WORDS = new Set(
  (
    'FLAT HILL HILLS PARK POINT HEIGHTS VALE VALLEY BEACH BAY ISLAND DOWNS GARDENS WATERS RIDGE GLEN HEATH ' +
    'RIVER VIEW VIEWS CENTRE JUNCTION PORT ESTATE VILLAGE NORTH SOUTH EAST WEST HARBOUR HAVEN CREST RISE ' +
    'GREEN WOODS GATE CROSSING'
  ).split(' '),
);
// Below this a reading has a street word in its locality or an abbreviated type inside its name: kept only when
// nothing better exists.
const PLAUSIBLE = 4;
// Suffix codes that are also everyday words, so they earn no preference as a suffix.
const WORDY_SUFFIXES = new Set(['ON', 'OF', 'IN']);

interface Candidate {
  reading: StreetReading;
  extra: Token[];
  score: number;
}

/**
 * Every plausible way to read the tokens after the number as street name, type, suffix and locality, most likely
 * first. A street type ends the street unless it is more plausibly a locality's word or part of the name; a comma
 * where a reading puts the end of the street makes that reading much more likely.
 */
function readStreet(tokens: readonly Token[]): { readings: StreetReading[]; extra: Token[] } {
  const first = tokens[0];
  if (!first) return { readings: [], extra: [] };
  const commas = tokens.some((token) => token.group !== first.group);
  const candidates: Candidate[] = [];
  const consider = (nameEnd: number, streetEnd: number, base: number, type?: Token, suffix?: string) => {
    const candidate = scoreReading(tokens, { nameEnd, streetEnd, base, type, suffix, commas });
    if (candidate) candidates.push(candidate);
  };

  for (const [i, type] of tokens.entries()) {
    if (i === 0 || !streetTypeCode(type.text)) continue;
    consider(i, i + 1, 10, type);
    for (const length of [2, 1]) {
      const words = tokens.slice(i + 1, i + 1 + length);
      const suffix = words.length === length ? streetSuffixCode(words.map((token) => token.text).join(' ')) : null;
      if (!suffix || words.some((token) => token.group !== type.group)) continue;
      const written = words.map((token) => token.text).join('');
      const preference = WORDY_SUFFIXES.has(written) ? -1 : written.length <= 2 ? 1.5 : 0.5;
      consider(i, i + 1 + length, 10 + preference, type, suffix);
    }
  }
  const typed = candidates.length > 0;
  // A street written without a type: BROADWAY, ESPLANADE, KINGSWAY; "THE AVENUE" keeps its type word as its name.
  consider(1, 1, (typed ? 5 : 6) + (streetTypeCode(first.text) === first.text ? 4 : 0));
  if (first.text === 'THE' && tokens[1] && streetTypeCode(tokens[1].text)) consider(2, 2, 15);
  if (!typed) for (let end = 2; end <= Math.min(4, tokens.length); end++) consider(end, end, 7 - end);

  candidates.sort((a, b) => b.score - a.score);
  const seen = new Set<string>();
  const unique = candidates.filter(({ reading: r, score }, index) => {
    const key = `${r.streetName}|${r.streetType}|${r.streetSuffix}|${r.locality}`;
    if (seen.has(key) || (index > 0 && score < PLAUSIBLE)) return false;
    seen.add(key);
    return true;
  });
  return { readings: unique.slice(0, MAX_READINGS).map((c) => c.reading), extra: unique[0]?.extra ?? [] };
}

interface Shape {
  /** The street name is tokens[0, nameEnd); type and suffix follow it up to streetEnd. */
  nameEnd: number;
  streetEnd: number;
  base: number;
  type: Token | undefined;
  suffix: string | undefined;
  commas: boolean;
}

/**
 * How likely a reading is, on a scale where only the order matters. Each street-name word beyond the first costs a
 * little (most names are one word); an abbreviated street type inside the name or the locality costs a lot (people
 * write "RD" to end a street); a common or abbreviated type earns a little and a type that is also a locality's word
 * loses a little; a missing locality costs a little; ending the street at a comma earns more than all of these.
 */
function scoreReading(tokens: readonly Token[], shape: Shape): Candidate | null {
  const { nameEnd, streetEnd, type, suffix } = shape;
  const street = tokens.slice(0, streetEnd);
  const group = tokens[0]?.group;
  // A street never spans a comma.
  if (street.some((token) => token.group !== group)) return null;
  const name = tokens.slice(0, nameEnd);
  const localityGroup = tokens[streetEnd]?.group;
  const locality = tokens.slice(streetEnd).filter((token) => token.group === localityGroup);
  const extra = tokens.slice(streetEnd + locality.length);
  const typeCode = type ? streetTypeCode(type.text) : null;

  let score = shape.base - (name.length - 1);
  for (const token of name.slice(1)) {
    if (STREET_ABBREVIATIONS.has(token.text)) score -= 4;
    else if (STREET_WORDS.has(token.text)) score -= 1;
  }
  if (type && typeCode) {
    if (COMMON_TYPES.has(typeCode)) score += 2;
    if (type.text !== typeCode) score += 1;
    if (LOCALITY_WORDS.has(typeCode)) score -= 1;
  }
  if (locality.length === 0) score -= 1;
  if (locality.length === 1 && (locality[0]?.text.length ?? 0) < 2) score -= 3;
  locality.forEach((token, index) => {
    const saint = index === 0 && token.text === 'ST' && locality.length > 1;
    if (saint) score -= 1;
    else if (STREET_ABBREVIATIONS.has(token.text)) score -= 4;
    else if (STREET_WORDS.has(token.text)) score -= 2;
  });
  if (shape.commas && (streetEnd === tokens.length || tokens[streetEnd]?.group !== group)) score += 5;
  score -= new Set(extra.map((token) => token.group)).size;

  const words = (list: readonly Token[]) => list.map((token) => token.text).join(' ');
  return {
    reading: {
      streetName: words(name),
      streetType: typeCode,
      streetTypeAsWritten: type ? type.text : null,
      streetSuffix: suffix ?? null,
      locality: locality.length > 0 ? words(locality) : null,
    },
    extra,
    score,
  };
}
