/**
 * How each G-NAF table maps onto ours: its PSV columns (found by header name), the column
 * each lands in, and one upsert statement per table. A batch travels as one text array per
 * column and `unnest` turns it back into rows (as prisma/sandbox/sql.ts writes the sandbox):
 * one round trip and one parse per batch, values always bound. Casts to int, date and geometry
 * happen in SQL, so a malformed value fails the batch with PostgreSQL's own message.
 */
import type { StateTable } from './gnaf-release.ts';

type Cast = 'text' | 'int' | 'date';

/** A PSV column and the column of ours it fills (lower case of G-NAF's name unless given). */
interface Column {
  readonly psv: string;
  readonly column: string;
  readonly cast: Cast;
}

const col = (psv: string, cast: Cast = 'text', column = psv.toLowerCase()): Column => ({ psv, column, cast });

export interface TableSpec {
  /** Our table. */
  readonly target: string;
  /** PSV columns the file must have. */
  readonly required: readonly string[];
  readonly optional: readonly string[];
  /** Columns taken straight from the file, in the order of the statement's arrays. */
  readonly columns: readonly Column[];
  /** Columns the loader computes for each row, after `columns` (always text). */
  readonly computed: readonly string[];
  readonly sql: string;
}

interface SpecInput {
  target: string;
  key: readonly string[];
  columns: readonly Column[];
  computed?: readonly string[];
  /** Columns of ours filled by an expression over the inputs (the point from LONGITUDE and LATITUDE). */
  expressions?: Readonly<Record<string, string>>;
  /** PSV columns read as null when the file lacks them. */
  optional?: readonly string[];
  /** Codes are national: their table has no dataset column. */
  national?: boolean;
}

function spec(input: SpecInput): TableSpec {
  const computed = input.computed ?? [];
  const optional = input.optional ?? [];
  const expressions = input.expressions ?? {};
  const inputs = [...input.columns, ...computed.map((name) => col(name.toUpperCase(), 'text', name))];
  // An input named with a leading "_" only feeds an expression; it is not a column of ours.
  const stored = inputs.filter((c) => !c.column.startsWith('_'));
  const dataset = input.national ? [] : ['dataset'];
  const targets = [...dataset, ...stored.map((c) => c.column), ...Object.keys(expressions)];
  const selects = [
    ...(input.national ? [] : ['$1::text']),
    ...stored.map((c) => (c.cast === 'text' ? `t.${c.column}` : `t.${c.column}::${c.cast}`)),
    ...Object.values(expressions),
  ];
  const first = input.national ? 1 : 2;
  const arrays = inputs.map((_, i) => `$${i + first}::text[]`).join(', ');
  const key = [...dataset, ...input.key];
  const updates = targets.filter((name) => !key.includes(name)).map((name) => `${name} = EXCLUDED.${name}`);
  return {
    target: input.target,
    required: input.columns.map((c) => c.psv).filter((psv) => !optional.includes(psv)),
    optional,
    columns: input.columns,
    computed,
    sql: `INSERT INTO ${input.target} (${targets.join(', ')})
SELECT ${selects.join(', ')}
FROM unnest(${arrays}) AS t(${inputs.map((c) => c.column).join(', ')})
ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${updates.join(', ')}`,
  };
}

const dates = [col('DATE_CREATED', 'date'), col('DATE_RETIRED', 'date')];

/** Authority_Code_<AUTHORITY>_AUT_psv.psv; the authority is computed from the file name. */
export const AUTHORITY_SPEC = spec({
  target: 'address.authority_code',
  key: ['authority', 'code'],
  national: true,
  columns: [col('CODE'), col('NAME'), col('DESCRIPTION')],
  optional: ['DESCRIPTION'],
  computed: ['authority'],
});

/** Per-state tables; LOCALITY's state and ADDRESS_DETAIL's state, formatted address and search key are computed. */
export const STATE_SPECS: Readonly<Record<StateTable, TableSpec>> = {
  STATE: spec({
    target: 'address.state',
    key: ['state_pid'],
    columns: [col('STATE_PID'), col('STATE_NAME'), col('STATE_ABBREVIATION'), ...dates],
  }),
  LOCALITY: spec({
    target: 'address.locality',
    key: ['locality_pid'],
    columns: [
      col('LOCALITY_PID'),
      col('LOCALITY_NAME'),
      col('PRIMARY_POSTCODE', 'text', 'postcode'),
      col('LOCALITY_CLASS_CODE'),
      col('STATE_PID'),
      col('GNAF_LOCALITY_PID'),
      col('GNAF_RELIABILITY_CODE', 'int'),
      ...dates,
    ],
    computed: ['state'],
  }),
  LOCALITY_ALIAS: spec({
    target: 'address.locality_alias',
    key: ['locality_alias_pid'],
    columns: [
      col('LOCALITY_ALIAS_PID'),
      col('LOCALITY_PID'),
      col('NAME'),
      col('POSTCODE'),
      col('ALIAS_TYPE_CODE'),
      col('STATE_PID'),
    ],
  }),
  STREET_LOCALITY: spec({
    target: 'address.street_locality',
    key: ['street_locality_pid'],
    columns: [
      col('STREET_LOCALITY_PID'),
      col('LOCALITY_PID'),
      col('STREET_NAME'),
      col('STREET_TYPE_CODE'),
      col('STREET_SUFFIX_CODE'),
      col('STREET_CLASS_CODE'),
      col('GNAF_STREET_PID'),
      col('GNAF_STREET_CONFIDENCE', 'int'),
      col('GNAF_RELIABILITY_CODE', 'int'),
      ...dates,
    ],
  }),
  STREET_LOCALITY_ALIAS: spec({
    target: 'address.street_locality_alias',
    key: ['street_locality_alias_pid'],
    columns: [
      col('STREET_LOCALITY_ALIAS_PID'),
      col('STREET_LOCALITY_PID'),
      col('STREET_NAME'),
      col('STREET_TYPE_CODE'),
      col('STREET_SUFFIX_CODE'),
      col('ALIAS_TYPE_CODE'),
    ],
  }),
  ADDRESS_DETAIL: spec({
    target: 'address.address_detail',
    key: ['gnaf_pid'],
    columns: [
      col('ADDRESS_DETAIL_PID', 'text', 'gnaf_pid'),
      col('DATE_CREATED', 'date'),
      col('DATE_LAST_MODIFIED', 'date'),
      col('DATE_RETIRED', 'date'),
      col('BUILDING_NAME'),
      col('LOT_NUMBER_PREFIX'),
      col('LOT_NUMBER'),
      col('LOT_NUMBER_SUFFIX'),
      col('FLAT_TYPE_CODE'),
      col('FLAT_NUMBER_PREFIX'),
      col('FLAT_NUMBER', 'int'),
      col('FLAT_NUMBER_SUFFIX'),
      col('LEVEL_TYPE_CODE'),
      col('LEVEL_NUMBER_PREFIX'),
      col('LEVEL_NUMBER', 'int'),
      col('LEVEL_NUMBER_SUFFIX'),
      col('NUMBER_FIRST_PREFIX'),
      col('NUMBER_FIRST', 'int'),
      col('NUMBER_FIRST_SUFFIX'),
      col('NUMBER_LAST_PREFIX'),
      col('NUMBER_LAST', 'int'),
      col('NUMBER_LAST_SUFFIX'),
      col('STREET_LOCALITY_PID'),
      col('LOCATION_DESCRIPTION'),
      col('LOCALITY_PID'),
      col('ALIAS_PRINCIPAL'),
      col('POSTCODE'),
      col('PRIVATE_STREET'),
      col('LEGAL_PARCEL_ID'),
      col('CONFIDENCE', 'int'),
      col('ADDRESS_SITE_PID'),
      col('LEVEL_GEOCODED_CODE', 'int'),
      col('PROPERTY_PID'),
      col('GNAF_PROPERTY_PID'),
      col('PRIMARY_SECONDARY'),
    ],
    computed: ['state', 'formatted_address', 'search_key'],
  }),
  ADDRESS_DEFAULT_GEOCODE: spec({
    target: 'address.address_default_geocode',
    key: ['address_default_geocode_pid'],
    columns: [
      col('ADDRESS_DEFAULT_GEOCODE_PID'),
      col('ADDRESS_DETAIL_PID'),
      col('GEOCODE_TYPE_CODE'),
      col('LONGITUDE', 'text', '_longitude'),
      col('LATITUDE', 'text', '_latitude'),
      ...dates,
    ],
    expressions: { geom: 'ST_SetSRID(ST_MakePoint(t._longitude::float8, t._latitude::float8), 4326)' },
  }),
  ADDRESS_ALIAS: spec({
    target: 'address.address_alias',
    key: ['address_alias_pid'],
    columns: [
      col('ADDRESS_ALIAS_PID'),
      col('PRINCIPAL_PID'),
      col('ALIAS_PID'),
      col('ALIAS_TYPE_CODE'),
      col('ALIAS_COMMENT'),
      ...dates,
    ],
  }),
};
