import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type AddressParts, formatLookups, formatSingleLine, searchKey } from '../subgraphs/address/format.ts';

const oracle = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../data/samples/gnaf-mapping-oracle-addressr/${name}`, import.meta.url), 'utf8'));

// The real STREET_TYPE_AUT table, and a few rows of the other authorities as G-NAF publishes them.
const streetTypes = readFileSync(
  new URL('../data/samples/gnaf-authority-street-type/Authority_Code_STREET_TYPE_AUT_psv.psv', import.meta.url),
  'utf8',
)
  .split(/\r?\n/)
  .slice(1)
  .filter(Boolean)
  .map((line) => {
    const [code = '', name = ''] = line.split('|');
    return { authority: 'STREET_TYPE', code, name };
  });
const lookups = formatLookups([
  ...streetTypes,
  { authority: 'STREET_SUFFIX', code: 'W', name: 'WEST' },
  { authority: 'FLAT_TYPE', code: 'UNIT', name: 'UNIT' },
  { authority: 'FLAT_TYPE', code: 'APT', name: 'APARTMENT' },
  { authority: 'LEVEL_TYPE', code: 'L', name: 'LEVEL' },
  { authority: 'LEVEL_TYPE', code: 'G', name: 'GROUND' },
  { authority: 'GEOCODE_TYPE', code: 'PC', name: 'PROPERTY CENTROID' },
]);

const murray = { street_name: 'MURRAY', street_type_code: 'ROAD', locality_name: 'CHRISTMAS ISLAND', state: 'OT' };
const at = (parts: Partial<AddressParts>): AddressParts => ({ ...murray, postcode: '6798', ...parts });

describe('formatSingleLine', () => {
  it("formats the oracle's Applethorpe lot-only record exactly as addressr does", () => {
    const record = oracle('gnaf_record_applethorpe_qld.json') as {
      ADDRESS_DETAIL: Record<string, string>;
      STREET_LOCALITY: Record<string, string>;
      LOCALITY: Record<string, string>;
      expected_mapped_address: { sla: string };
    };
    const d = record.ADDRESS_DETAIL;
    const parts: AddressParts = {
      lot_number: d.LOT_NUMBER,
      number_first: d.NUMBER_FIRST || null,
      street_name: record.STREET_LOCALITY.STREET_NAME ?? '',
      street_type_code: record.STREET_LOCALITY.STREET_TYPE_CODE,
      locality_name: record.LOCALITY.LOCALITY_NAME ?? '',
      state: 'QLD',
      postcode: d.POSTCODE,
    };
    expect(formatSingleLine(parts, lookups)).toBe('LOT 16 AERODROME RD, APPLETHORPE QLD 4378');
    expect(formatSingleLine(parts, lookups)).toBe(record.expected_mapped_address.sla);
  });

  it("formats the oracle's Christmas Island unit, range and plain addresses", () => {
    expect(formatSingleLine(at({ flat_type_code: 'UNIT', flat_number: 1, number_first: 19 }), lookups)).toBe(
      'UNIT 1, 19 MURRAY RD, CHRISTMAS ISLAND OT 6798',
    );
    expect(formatSingleLine(at({ street_name: 'GAZE', number_first: '103', number_last: '107' }), lookups)).toBe(
      '103-107 GAZE RD, CHRISTMAS ISLAND OT 6798',
    );
    expect(formatSingleLine(at({ number_first: 1 }), lookups)).toBe('1 MURRAY RD, CHRISTMAS ISLAND OT 6798');
  });

  it('attaches number prefixes and suffixes, names flat and level types, and puts the level first as addressr does', () => {
    expect(
      formatSingleLine(
        at({
          level_type_code: 'L',
          level_number: 3,
          flat_type_code: 'APT',
          flat_number: 5,
          flat_number_suffix: 'B',
          number_first: 72,
          number_first_suffix: 'A',
        }),
        lookups,
      ),
    ).toBe('LEVEL 3, APARTMENT 5B, 72A MURRAY RD, CHRISTMAS ISLAND OT 6798');
    expect(
      formatSingleLine(
        at({ number_first_prefix: 'A', number_first: 2, number_last: 6, number_last_suffix: 'C' }),
        lookups,
      ),
    ).toBe('A2-6C MURRAY RD, CHRISTMAS ISLAND OT 6798');
    expect(formatSingleLine(at({ level_type_code: 'G', number_first: 9 }), lookups)).toBe(
      'GROUND, 9 MURRAY RD, CHRISTMAS ISLAND OT 6798',
    );
    expect(formatSingleLine(at({ level_type_code: 'L', level_number: 0, number_first: 9 }), lookups)).toBe(
      'LEVEL 0, 9 MURRAY RD, CHRISTMAS ISLAND OT 6798',
    );
  });

  it('spells the suffix after the street type, prefers the house number to the lot, and leaves the building name out', () => {
    expect(
      formatSingleLine(
        at({ street_suffix_code: 'W', number_first: 4, lot_number: '12', building_name: 'RIVERSIDE TOWERS' }),
        lookups,
      ),
    ).toBe('4 MURRAY RD WEST, CHRISTMAS ISLAND OT 6798');
  });

  it('prints an unknown code as itself and leaves no gap for a missing part', () => {
    expect(formatSingleLine(at({ street_type_code: 'NOSUCHTYPE', number_first: 8, postcode: null }), lookups)).toBe(
      '8 MURRAY NOSUCHTYPE, CHRISTMAS ISLAND OT',
    );
    expect(formatSingleLine(at({ street_type_code: null }), lookups)).toBe('MURRAY, CHRISTMAS ISLAND OT 6798');
  });
});

describe('searchKey', () => {
  it('spells the street type and suffix out and drops commas, flat and level', () => {
    const huntly = { street_name: 'DWYER', street_type_code: 'STREET', locality_name: 'HUNTLY', state: 'VIC' };
    expect(searchKey({ ...huntly, number_first: 72, postcode: '3551' }, lookups)).toBe(
      '72 DWYER STREET HUNTLY VIC 3551',
    );
    expect(
      searchKey(
        {
          ...huntly,
          flat_type_code: 'UNIT',
          flat_number: 2,
          level_type_code: 'L',
          level_number: 1,
          number_first: 72,
          postcode: '3551',
        },
        lookups,
      ),
    ).toBe('72 DWYER STREET HUNTLY VIC 3551');
    expect(searchKey(at({ street_suffix_code: 'W', number_first: 103, number_last: 107 }), lookups)).toBe(
      '103-107 MURRAY ROAD WEST CHRISTMAS ISLAND OT 6798',
    );
  });

  it('upper-cases and single-spaces whatever it is given', () => {
    expect(
      searchKey(
        { street_name: 'Spotted  Gum', street_type_code: 'ROAD', locality_name: 'Huntly', state: 'VIC' },
        lookups,
      ),
    ).toBe('SPOTTED GUM ROAD HUNTLY VIC');
  });

  it('keys a lot-only address by its lot number', () => {
    expect(
      searchKey(
        {
          lot_number: '16',
          street_name: 'AERODROME',
          street_type_code: 'ROAD',
          locality_name: 'APPLETHORPE',
          state: 'QLD',
          postcode: '4378',
        },
        lookups,
      ),
    ).toBe('LOT 16 AERODROME ROAD APPLETHORPE QLD 4378');
  });
});

describe('formatLookups', () => {
  it('maps each authority code to its name and ignores authorities the formatter does not use', () => {
    expect(lookups.streetTypes.get('ROAD')).toBe('RD');
    expect(lookups.streetTypes.size).toBe(276);
    expect(lookups.flatTypes.get('APT')).toBe('APARTMENT');
    expect([...lookups.levelTypes.keys()]).toEqual(['L', 'G']);
  });
});
