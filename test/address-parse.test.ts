/**
 * The address matcher's pure parts: the G-NAF vocabularies against the published authority
 * table, the free-text parser, and trigram similarity against values read from PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NON_PARCEL_GEOCODE_TYPES } from '../core/vocabulary.ts';
import { parseAddress } from '../subgraphs/address/matching/parse.ts';
import { normaliseForComparison, trigramSimilarity, trigrams } from '../subgraphs/address/matching/similarity.ts';
import type { ParsedAddress, StreetReading } from '../subgraphs/address/matching/types.ts';
import {
  AUTHORITY_ROWS,
  FLAT_TYPES,
  GEOCODE_TYPES,
  LEVEL_TYPES,
  STATES,
  STREET_SUFFIXES,
  STREET_TYPES,
  STREET_TYPE_SPELLINGS,
  flatTypeCode,
  levelTypeCode,
  stateAbbreviation,
  streetSuffixCode,
  streetTypeAbbreviation,
  streetTypeCode,
} from '../subgraphs/address/matching/vocabulary.ts';

const sample = (path: string) => readFileSync(new URL(`../data/samples/${path}`, import.meta.url), 'utf8');

describe('G-NAF vocabularies', () => {
  const psv = sample('gnaf-authority-street-type/Authority_Code_STREET_TYPE_AUT_psv.psv')
    .split(/\r?\n/)
    .filter((line) => line !== '');

  it('embeds STREET_TYPE_AUT exactly as published, row by row and in the file order', () => {
    expect(psv[0]).toBe('CODE|NAME|DESCRIPTION');
    const rows = psv.slice(1).map((line) => {
      const [code, name, description] = line.split('|');
      return { code, name, description };
    });
    expect(rows).toHaveLength(276);
    expect(STREET_TYPES).toEqual(rows);
  });

  it('resolves every street type code and G-NAF abbreviation back to its code', () => {
    for (const row of STREET_TYPES) {
      expect(streetTypeCode(row.code)).toBe(row.code);
      expect(streetTypeCode(row.name)).toBe(row.code);
      expect(streetTypeAbbreviation(row.code)).toBe(row.name);
    }
    expect(streetTypeCode('rd.')).toBe('ROAD');
    expect(streetTypeCode('Cul De Sac')).toBe('CUL-DE-SAC');
    expect(streetTypeCode('right-of-way')).toBe('RIGHT OF WAY');
    expect(streetTypeCode('SMITH')).toBeNull();
    expect(streetTypeAbbreviation('avenue')).toBe('AV');
    expect(streetTypeAbbreviation('NOWHERE')).toBeNull();
  });

  it('keeps the typed spellings apart from the authority table and maps each to a real code', () => {
    const codes = new Set(STREET_TYPES.map((row) => row.code));
    const names = new Set(STREET_TYPES.map((row) => row.name));
    for (const [spelling, code] of Object.entries(STREET_TYPE_SPELLINGS)) {
      expect(codes.has(spelling) || names.has(spelling), spelling).toBe(false);
      expect(codes.has(code), code).toBe(true);
      expect(streetTypeCode(spelling)).toBe(code);
    }
    expect(['STR', 'AVE', 'CRES', 'BLVD', 'LN', 'GRV'].map(streetTypeCode)).toEqual([
      'STREET',
      'AVENUE',
      'CRESCENT',
      'BOULEVARD',
      'LANE',
      'GROVE',
    ]);
  });

  it('resolves suffix, flat and level codes and names, and the spellings people type', () => {
    for (const [table, lookup] of [
      [STREET_SUFFIXES, streetSuffixCode],
      [FLAT_TYPES, flatTypeCode],
      [LEVEL_TYPES, levelTypeCode],
    ] as const) {
      for (const [code, name] of Object.entries(table)) {
        expect(lookup(code)).toBe(code);
        expect(lookup(name)).toBe(code);
      }
    }
    expect(['W', 'west', 'Nth', 'north-east', 'NORTH EAST'].map(streetSuffixCode)).toEqual(['W', 'W', 'N', 'NE', 'NE']);
    expect(['U', 'unit', 'Apartment', 'SUITE', 'ste', 'Townhouse', 'villa'].map(flatTypeCode)).toEqual([
      'UNIT',
      'UNIT',
      'APT',
      'SE',
      'SE',
      'TNHS',
      'VLLA',
    ]);
    expect(['Level', 'LVL', 'L', 'Ground Floor', 'lower ground', 'Mezzanine'].map(levelTypeCode)).toEqual([
      'L',
      'L',
      'L',
      'G',
      'LG',
      'M',
    ]);
  });

  it('knows the nine states with their G-NAF STATE_PIDs and reads them however written', () => {
    expect(STATES.map((state) => `${state.statePid} ${state.abbreviation}`)).toEqual([
      '1 NSW',
      '2 VIC',
      '3 QLD',
      '4 SA',
      '5 WA',
      '6 TAS',
      '7 NT',
      '8 ACT',
      '9 OT',
    ]);
    expect(
      ['VIC', 'Vic', 'Victoria', 'vic.', 'N.S.W.', 'new south wales', 'qld', 'Other Territories'].map(
        stateAbbreviation,
      ),
    ).toEqual(['VIC', 'VIC', 'VIC', 'VIC', 'NSW', 'NSW', 'QLD', 'OT']);
    expect(stateAbbreviation('Bendigo')).toBeNull();
  });

  it('lists one authority row per table and code, ready for address.authority_code', () => {
    const keys = AUTHORITY_ROWS.map((row) => `${row.authority}:${row.code}`);
    expect(new Set(keys).size).toBe(keys.length);
    const count = (authority: string) => AUTHORITY_ROWS.filter((row) => row.authority === authority).length;
    expect(count('STREET_TYPE')).toBe(276);
    expect(count('STREET_SUFFIX')).toBe(19);
    expect(count('FLAT_TYPE')).toBe(Object.keys(FLAT_TYPES).length);
    expect(count('LEVEL_TYPE')).toBe(Object.keys(LEVEL_TYPES).length);
    expect(count('GEOCODE_TYPE')).toBe(Object.keys(GEOCODE_TYPES).length);
    expect(count('LOCALITY_CLASS')).toBe(9);
    expect(count('STREET_CLASS')).toBe(2);
    expect(AUTHORITY_ROWS).toContainEqual({ authority: 'STREET_TYPE', code: 'ROAD', name: 'RD', description: 'RD' });
    expect(AUTHORITY_ROWS).toContainEqual({ authority: 'FLAT_TYPE', code: 'UNIT', name: 'UNIT', description: 'UNIT' });
    expect(AUTHORITY_ROWS).toContainEqual({
      authority: 'LOCALITY_CLASS',
      code: 'U',
      name: 'UNOFFICIAL SUBURB',
      description: 'UNOFFICIAL SUBURB',
    });
    expect(AUTHORITY_ROWS.find((row) => row.authority === 'GEOCODE_TYPE' && row.code === 'PC')?.name).toBe(
      'PROPERTY CENTROID',
    );
    expect(NON_PARCEL_GEOCODE_TYPES).toEqual(['STL', 'LOC', 'GG']);
    expect(GEOCODE_TYPES.FCS).toBe('FRONTAGE CENTRE SETBACK');
  });
});

type Expected = Partial<Omit<ParsedAddress, 'readings'>> & { reading?: Partial<StreetReading> };

const street = (
  streetName: string,
  streetType: string | null,
  locality: string | null,
  streetSuffix: string | null = null,
) => ({
  streetName,
  streetType,
  streetSuffix,
  locality,
});
const number = (first: number, firstSuffix: string | null = null, last: number | null = null) => ({
  first,
  firstSuffix,
  last,
  lastSuffix: null,
});
const flat = (type: string | null, n: number, prefix: string | null = null) => ({
  type,
  number: n,
  prefix,
  suffix: null,
});
const level = (type: string, n: number | null) => ({ type, number: n, prefix: null, suffix: null });

const CASES: Array<[string, Expected]> = [
  ['2/72 Dwyer St', { flat: flat(null, 2), number: number(72), reading: street('DWYER', 'STREET', null) }],
  ['Unit 2, 72 Dwyer Street', { flat: flat('UNIT', 2), number: number(72), reading: street('DWYER', 'STREET', null) }],
  ['U2 72 Dwyer St', { flat: flat('UNIT', 2), number: number(72), reading: street('DWYER', 'STREET', null) }],
  ['U 2 72 Dwyer St', { flat: flat('UNIT', 2), number: number(72) }],
  ['Apt 5 / 10 High St', { flat: flat('APT', 5), number: number(10), reading: street('HIGH', 'STREET', null) }],
  ['Apartment 5, 10 High St', { flat: flat('APT', 5), number: number(10) }],
  ['Suite 12, 1 Smith St', { flat: flat('SE', 12), number: number(1) }],
  [
    'Shop 3 41-47 High St',
    { flat: flat('SHOP', 3), number: number(41, null, 47), reading: street('HIGH', 'STREET', null) },
  ],
  ['41 - 47 High St', { flat: null, number: number(41, null, 47) }],
  ['41A-47B High St', { number: { first: 41, firstSuffix: 'A', last: 47, lastSuffix: 'B' } }],
  ['72A Dwyer St', { number: number(72, 'A'), reading: street('DWYER', 'STREET', null) }],
  ['G01/72 Dwyer St', { flat: flat(null, 1, 'G'), number: number(72) }],
  ['2 72 Dwyer St', { flat: flat(null, 2), number: number(72) }],
  [
    'Level 3, 100 Queen St',
    { level: level('L', 3), flat: null, number: number(100), reading: street('QUEEN', 'STREET', null) },
  ],
  ['L3 100 Queen St', { level: level('L', 3), number: number(100) }],
  ['Ground Floor, 100 Queen St', { level: level('G', null), number: number(100) }],
  ['3rd Floor 100 Queen St', { level: level('FL', 3), number: number(100) }],
  [
    'Level 3 Suite 301 100 Queen St Melbourne Vic.',
    {
      level: level('L', 3),
      flat: flat('SE', 301),
      number: number(100),
      state: 'VIC',
      reading: street('QUEEN', 'STREET', 'MELBOURNE'),
    },
  ],
  ['Lot 16 Aerodrome Rd', { lot: '16', number: null, reading: street('AERODROME', 'ROAD', null) }],
  ['LOT 16 AERODROME RD APPLETHORPE', { lot: '16', number: null, reading: street('AERODROME', 'ROAD', 'APPLETHORPE') }],
  ['Lot16 Aerodrome Rd', { lot: '16', number: null }],
  ['Lot 3, 12 Smith St', { lot: null, number: number(12), reading: street('SMITH', 'STREET', null) }],
  [
    'Rialto Towers, 525 Collins St, Melbourne',
    { buildingName: 'RIALTO TOWERS', reading: street('COLLINS', 'STREET', 'MELBOURNE') },
  ],
  [
    'Unit 2 Rialto Towers 525 Collins St',
    { flat: flat('UNIT', 2), buildingName: 'RIALTO TOWERS', number: number(525) },
  ],
  ['12 Spotted Gum Rd Castle Hill', { reading: street('SPOTTED GUM', 'ROAD', 'CASTLE HILL') }],
  ['72 Dwyer St Kangaroo Flat', { reading: street('DWYER', 'STREET', 'KANGAROO FLAT') }],
  ['10 Main Rd North Lakes QLD', { state: 'QLD', reading: street('MAIN', 'ROAD', 'LAKES', 'N') }],
  ['72 Park Road West Huntly', { reading: street('PARK', 'ROAD', 'HUNTLY', 'W') }],
  ['72 Park Rd W, Huntly', { reading: street('PARK', 'ROAD', 'HUNTLY', 'W') }],
  ['5 The Avenue Kew', { reading: street('THE AVENUE', null, 'KEW') }],
  ['12 Broadway Nedlands WA 6009', { state: 'WA', postcode: '6009', reading: street('BROADWAY', null, 'NEDLANDS') }],
  ['12 Esplanade, St Kilda', { reading: street('ESPLANADE', null, 'ST KILDA') }],
  ['12 St Georges Rd Northcote', { reading: street('ST GEORGES', 'ROAD', 'NORTHCOTE') }],
  ['12 Lane Cove Rd Ryde', { reading: street('LANE COVE', 'ROAD', 'RYDE') }],
  ['10 Hill View Road Kew', { reading: street('HILL VIEW', 'ROAD', 'KEW') }],
  ['5 Smith Cul De Sac Kew', { reading: street('SMITH', 'CUL-DE-SAC', 'KEW') }],
  ['12 Smith Ave. Sunshine', { reading: { ...street('SMITH', 'AVENUE', 'SUNSHINE'), streetTypeAsWritten: 'AVE' } }],
  [
    '72 Dwyer St, Kangaroo Flat, Victoria 3550, Australia',
    {
      state: 'VIC',
      stateSpelledOut: true,
      postcode: '3550',
      trailingCountry: true,
      reading: street('DWYER', 'STREET', 'KANGAROO FLAT'),
    },
  ],
  ['1 Smith St Castle Hill New South Wales 2154', { state: 'NSW', stateSpelledOut: true, postcode: '2154' }],
  [
    '1 Smith St Adelaide South Australia',
    { state: 'SA', stateSpelledOut: true, reading: street('SMITH', 'STREET', 'ADELAIDE') },
  ],
  [
    '1 Smith St Chermside qld 4032 AU',
    { state: 'QLD', stateSpelledOut: false, postcode: '4032', trailingCountry: true },
  ],
  [
    '1 Smith St Bendigo N.S.W.',
    { state: 'NSW', stateSpelledOut: false, reading: street('SMITH', 'STREET', 'BENDIGO') },
  ],
  [
    '  72   DWYER st ,, kangaroo flat ,vic  ',
    { state: 'VIC', number: number(72), reading: street('DWYER', 'STREET', 'KANGAROO FLAT') },
  ],
  [
    '72 Dwyer St Kangaroo Flat, Bendigo',
    { reading: street('DWYER', 'STREET', 'KANGAROO FLAT'), leftovers: ['BENDIGO'] },
  ],
  ['Dwyer St Kangaroo Flat', { number: null, lot: null, reading: street('DWYER', 'STREET', 'KANGAROO FLAT') }],
  ['72 Dwyer Bendigo', { reading: street('DWYER', null, 'BENDIGO') }],
  ['12 1st Ave Sunshine', { number: number(12), reading: street('1ST', 'AVENUE', 'SUNSHINE') }],
  ["12 O'Connor St Ainslie ACT", { state: 'ACT', reading: street("O'CONNOR", 'STREET', 'AINSLIE') }],
];

describe('parseAddress', () => {
  it.each(CASES)('reads %j', (input, expected) => {
    const { reading, ...fields } = expected;
    const parsed = parseAddress(input);
    expect(parsed).toMatchObject({ input: input.trim(), ...fields });
    if (reading) expect(parsed.readings[0]).toMatchObject(reading);
  });

  it('offers both readings of a type word that may start the locality, suffix first', () => {
    expect(parseAddress('72 Park Road West Huntly').readings.slice(0, 3)).toEqual([
      { streetName: 'PARK', streetType: 'ROAD', streetTypeAsWritten: 'ROAD', streetSuffix: 'W', locality: 'HUNTLY' },
      {
        streetName: 'PARK',
        streetType: 'ROAD',
        streetTypeAsWritten: 'ROAD',
        streetSuffix: null,
        locality: 'WEST HUNTLY',
      },
      {
        streetName: 'PARK ROAD',
        streetType: 'WEST',
        streetTypeAsWritten: 'WEST',
        streetSuffix: null,
        locality: 'HUNTLY',
      },
    ]);
    const northLakes = parseAddress('10 Main Road North Lakes').readings.map((r) => `${r.streetSuffix}|${r.locality}`);
    expect(northLakes.slice(0, 2)).toEqual(['N|LAKES', 'null|NORTH LAKES']);
  });

  it('reads THE AVENUE both as a name without type and as THE with type AVENUE', () => {
    const readings = parseAddress('5 The Avenue Kew').readings.map(
      (r) => `${r.streetName}|${r.streetType}|${r.locality}`,
    );
    expect(readings.slice(0, 2)).toEqual(['THE AVENUE|null|KEW', 'THE|AVENUE|KEW']);
  });

  it('keeps a street without type as a fallback when a locality word could be its type', () => {
    const readings = parseAddress('5 Kingsway Glen Waverley').readings.map(
      (r) => `${r.streetName}|${r.streetType}|${r.locality}`,
    );
    expect(readings).toEqual(['KINGSWAY|GLEN|WAVERLEY', 'KINGSWAY|null|GLEN WAVERLEY']);
  });

  it('lets commas decide where the street ends', () => {
    expect(parseAddress('12 Esplanade St Kilda').readings.map((r) => r.locality)).toEqual(['KILDA', 'ST KILDA']);
    expect(parseAddress('12 Esplanade, St Kilda').readings).toEqual([
      {
        streetName: 'ESPLANADE',
        streetType: null,
        streetTypeAsWritten: null,
        streetSuffix: null,
        locality: 'ST KILDA',
      },
    ]);
  });

  it('drops readings that put an abbreviated street type inside the name or the locality', () => {
    const readings = parseAddress('19 MURRAY RD CHRISTMAS ISLAND OT 6798').readings;
    expect(readings.map((r) => `${r.streetName}|${r.streetType}|${r.locality}`)).toEqual([
      'MURRAY|ROAD|CHRISTMAS ISLAND',
    ]);
  });

  it('reads a number inside a business name as the name, and the number starting the street as the house number', () => {
    const big4 = parseAddress('BIG 4 PARK BEACH HOL PARK, 1 OCEAN PDE, COFFS HARBOUR NSW 2450');
    expect(big4).toMatchObject({
      buildingName: 'BIG 4 PARK BEACH HOL PARK',
      number: number(1),
      state: 'NSW',
      postcode: '2450',
      leftovers: [],
    });
    expect(big4.readings[0]).toMatchObject(street('OCEAN', 'PARADE', 'COFFS HARBOUR'));
    // without commas the street after the second number still has its type
    const run = parseAddress('Big 4 Holiday Park 1 Ocean Pde Coffs Harbour NSW');
    expect(run).toMatchObject({ buildingName: 'BIG 4 HOLIDAY PARK', number: number(1) });
    expect(run.readings[0]).toMatchObject({ streetName: 'OCEAN', streetType: 'PARADE', locality: 'COFFS HARBOUR' });
    // a number first in its part is the house number, whatever numbers follow
    expect(parseAddress('12 Highway 1, Kempsey NSW').number).toEqual(number(12));
    expect(parseAddress('Rialto Towers 525 Collins St Melbourne')).toMatchObject({
      buildingName: 'RIALTO TOWERS',
      number: number(525),
    });
  });

  it('reads a locality the data knows, written alone, as the locality and not as a street', () => {
    const known = new Set(['EIGHT MILE PLAINS', 'KANGAROO FLAT']);
    const isLocality = (name: string) => known.has(name);
    for (const input of ['Eight Mile Plains', 'Eight Mile Plains QLD 4113', 'eight mile plains, Queensland']) {
      const parsed = parseAddress(input, { isLocality });
      expect(parsed, input).toMatchObject({ locality: 'EIGHT MILE PLAINS', readings: [], number: null, leftovers: [] });
    }
    expect(parseAddress('Eight Mile Plains QLD 4113', { isLocality })).toMatchObject({
      state: 'QLD',
      postcode: '4113',
    });
    // text alone cannot tell: without the data's names it stays a street reading
    expect(parseAddress('Eight Mile Plains').locality).toBeNull();
    // a number makes it an address whose street may share a locality's name
    expect(parseAddress('3 Kangaroo Flat', { isLocality }).locality).toBeNull();
    expect(parseAddress('Eight Mile', { isLocality }).locality).toBeNull();
  });

  it('keeps at most six readings', () => {
    const parsed = parseAddress('1 Park Hill View Rise Vale Glen Heights Flat Bay Beach');
    expect(parsed.readings.length).toBeGreaterThan(1);
    expect(parsed.readings.length).toBeLessThanOrEqual(6);
  });

  it.each([
    ['', 0],
    ['   ', 0],
    ['!!! ??? ###', 0],
    ['////', 0],
    ['-', 0],
    ['Lot', 1],
  ])('never throws on garbage such as %j', (input, readings) => {
    const parsed = parseAddress(input);
    expect(parsed.number).toBeNull();
    expect(parsed.lot).toBeNull();
    expect(parsed.readings).toHaveLength(readings);
  });

  it('reads a very long input without throwing', () => {
    const parsed = parseAddress(`12 ${'Smith '.repeat(500)}St`);
    expect(parsed.number).toEqual(number(12));
    expect(parsed.readings.length).toBeLessThanOrEqual(6);
    expect(parsed.leftovers).toHaveLength(462);
    expect(parsed.leftovers.at(-1)).toBe('ST');
  });

  it('reads the formatted addresses of real G-NAF records (addressr oracle)', () => {
    const applethorpe = JSON.parse(sample('gnaf-mapping-oracle-addressr/gnaf_record_applethorpe_qld.json')) as {
      expected_mapped_address: { sla: string };
      ADDRESS_DETAIL: { LOT_NUMBER: string; POSTCODE: string };
      STREET_LOCALITY: { STREET_NAME: string; STREET_TYPE_CODE: string };
      LOCALITY: { LOCALITY_NAME: string };
    };
    const lot = parseAddress(applethorpe.expected_mapped_address.sla);
    expect(lot).toMatchObject({ lot: applethorpe.ADDRESS_DETAIL.LOT_NUMBER, number: null, state: 'QLD' });
    expect(lot.postcode).toBe(applethorpe.ADDRESS_DETAIL.POSTCODE);
    expect(lot.readings[0]).toMatchObject({
      streetName: applethorpe.STREET_LOCALITY.STREET_NAME,
      streetType: applethorpe.STREET_LOCALITY.STREET_TYPE_CODE,
      locality: applethorpe.LOCALITY.LOCALITY_NAME,
    });

    const christmas = JSON.parse(sample('gnaf-mapping-oracle-addressr/ot_christmas_island_expected.json')) as {
      search_results_sla_pid: Array<{ sla: string }>;
    };
    const parsed = christmas.search_results_sla_pid.map(({ sla }) => parseAddress(sla));
    for (const address of parsed) {
      expect(address).toMatchObject({ state: 'OT', postcode: '6798', leftovers: [] });
      expect(address.readings[0]?.locality).toBe('CHRISTMAS ISLAND');
      expect(address.readings[0]?.streetType).toBe('ROAD');
    }
    const unit = parseAddress('UNIT 1, 19 MURRAY RD, CHRISTMAS ISLAND OT 6798');
    expect(unit).toMatchObject({ flat: flat('UNIT', 1), number: number(19) });
    expect(parseAddress('103-107 GAZE RD, CHRISTMAS ISLAND OT 6798').number).toEqual(number(103, null, 107));
  });
});

describe('trigram similarity', () => {
  // Read from PostgreSQL 15 with pg_trgm (lc_ctype C.UTF-8): select similarity(a, b).
  it.each([
    ['word', 'two words', 0.36363637],
    ['dwyer', 'dwyre', 0.33333334],
    ['KANGAROO FLAT', 'KANGAROO FLT', 0.6875],
    ["O'Connor", 'OCONNOR', 0.54545456],
    ['SPOTTED GUM', 'SPOTED GUM', 0.7692308],
    ['CASTLE HILL', 'CASTLEHILL', 0.64285713],
    ['ST KILDA', 'SAINT KILDA', 0.5],
    ['MACARTHUR', 'MCARTHUR', 0.5833333],
    ['Crème Brûlée', 'creme brulee', 0.23809524],
    ['12 Dwyer St', '12 DWYER STREET', 0.64705884],
    ['abc', 'xyz', 0],
    ['a', 'a', 1],
    ['', '', 0],
  ])('similarity(%j, %j) is %f as in pg_trgm', (a, b, expected) => {
    expect(trigramSimilarity(a, b)).toBe(Math.fround(expected));
    expect(trigramSimilarity(b, a)).toBe(Math.fround(expected));
  });

  it('extracts the trigrams pg_trgm shows for a word', () => {
    expect([...trigrams('Dwyer St.')].sort()).toEqual(['  d', '  s', ' dw', ' st', 'dwy', 'er ', 'st ', 'wye', 'yer']);
  });

  it('normalises text for comparison', () => {
    expect(normaliseForComparison("  o'connor   st., kangaroo-flat ")).toBe('O CONNOR ST KANGAROO FLAT');
  });
});
