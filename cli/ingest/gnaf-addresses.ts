/**
 * The columns an ingest computes for each ADDRESS_DETAIL row: its state, single-line address
 * and search key. They need the address's street and locality, so the state's streets and
 * localities are read once into memory (a few hundred thousand rows at most) and the millions
 * of addresses stream past them.
 */
import type { Database } from '../../core/db.ts';
import type { StateCode } from '../../core/geo.ts';
import { type AddressParts, type FormatLookups, formatSingleLine, searchKey } from '../../subgraphs/address/format.ts';
import * as SQL from './gnaf-sql.ts';
import type { PsvRecord } from './psv.ts';

export type ComputedColumns = (string | null)[];

const ADDRESS_PARTS = [
  'building_name',
  'lot_number_prefix',
  'lot_number',
  'lot_number_suffix',
  'flat_type_code',
  'flat_number_prefix',
  'flat_number',
  'flat_number_suffix',
  'level_type_code',
  'level_number_prefix',
  'level_number',
  'level_number_suffix',
  'number_first_prefix',
  'number_first',
  'number_first_suffix',
  'number_last_prefix',
  'number_last',
  'number_last_suffix',
  'postcode',
] as const satisfies readonly (keyof AddressParts)[];

type StreetRow = {
  street_locality_pid: string;
  street_name: string;
  street_type_code: string | null;
  street_suffix_code: string | null;
};
type LocalityRow = { locality_pid: string; locality_name: string; state: string };

/**
 * The computing function for one state: a record's state, formatted address and search key,
 * or null when it cites a street or locality the state does not have.
 */
export async function addressColumns(db: Database, dataset: string, state: StateCode, lookups: FormatLookups) {
  const [streetRows, localityRows] = await Promise.all([
    db.query<StreetRow>(SQL.STATE_STREETS, [dataset, state]),
    db.query<LocalityRow>(SQL.STATE_LOCALITIES, [dataset, state]),
  ]);
  const streets = new Map(streetRows.map((s) => [s.street_locality_pid, s]));
  const localities = new Map(localityRows.map((l) => [l.locality_pid, l]));
  return (record: PsvRecord<string>): ComputedColumns | null => {
    const street = streets.get(record.STREET_LOCALITY_PID ?? '');
    const locality = localities.get(record.LOCALITY_PID ?? '');
    if (!street || !locality) return null;
    const parts: AddressParts = {
      street_name: street.street_name,
      street_type_code: street.street_type_code,
      street_suffix_code: street.street_suffix_code,
      locality_name: locality.locality_name,
      state: locality.state,
    };
    for (const part of ADDRESS_PARTS) parts[part] = record[part.toUpperCase()] ?? null;
    return [locality.state, formatSingleLine(parts, lookups), searchKey(parts, lookups)];
  };
}
