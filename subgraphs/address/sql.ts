import { Prisma } from '../../generated/prisma/client.ts';

/** An address as every query of this layer returns it: its G-NAF components and default geocode. */
export type AddressRow = {
  gnaf_pid: string;
  parcel_pfi: string | null;
  state: string;
  lat: number;
  lng: number;
  formatted_address: string;
  locality_name: string;
  postcode: string | null;
  /** The postcode of the address's G-NAF locality (LOCALITY's own), which the address's may differ from. */
  locality_postcode: string | null;
  geocode_type: string;
  street_locality_pid: string;
  street_name: string;
  street_type_code: string | null;
  street_suffix_code: string | null;
  building_name: string | null;
  flat_type_code: string | null;
  flat_number: number | null;
  flat_number_suffix: string | null;
  level_type_code: string | null;
  level_number: number | null;
  number_first: number | null;
  number_first_suffix: string | null;
  number_last: number | null;
  number_last_suffix: string | null;
  lot_number: string | null;
  legal_parcel_id: string | null;
};

const ADDRESS_COLUMNS = Prisma.sql`
  a.gnaf_pid, a.parcel_pfi, a.state, ST_Y(a.geom) AS lat, ST_X(a.geom) AS lng,
  a.formatted_address, l.locality_name, a.postcode, l.postcode AS locality_postcode, a.geocode_type,
  s.street_locality_pid, s.street_name, s.street_type_code, s.street_suffix_code,
  a.building_name, a.flat_type_code, a.flat_number, a.flat_number_suffix, a.level_type_code, a.level_number,
  a.number_first, a.number_first_suffix, a.number_last, a.number_last_suffix, a.lot_number, a.legal_parcel_id`;

const ADDRESS_JOINS = Prisma.sql`
  JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
  JOIN address.street_locality s ON s.dataset = a.dataset AND s.street_locality_pid = a.street_locality_pid`;

/** Addresses by G-NAF PID, for a whole batch of entity references in one round trip. */
export const ADDRESSES_BY_GNAF_PID = (dataset: string, gnafPids: string[]) => Prisma.sql`
  SELECT ${ADDRESS_COLUMNS}
  FROM address.address_detail a ${ADDRESS_JOINS}
  WHERE a.dataset = ${dataset} AND a.gnaf_pid = ANY(${gnafPids}::text[]) AND a.geom IS NOT NULL`;

/**
 * The principal address of each parcel in a batch: a parcel with several addresses (a unit
 * block) is represented by its base address, else its lowest unit, so the choice is stable.
 */
export const PRINCIPAL_ADDRESS_BY_PARCEL = (dataset: string, states: string[], pfis: string[]) => Prisma.sql`
  SELECT DISTINCT ON (a.state, a.parcel_pfi) ${ADDRESS_COLUMNS}
  FROM unnest(${states}::text[], ${pfis}::text[]) AS k(state, parcel_pfi)
  JOIN address.address_detail a ON a.dataset = ${dataset} AND a.state = k.state AND a.parcel_pfi = k.parcel_pfi
  ${ADDRESS_JOINS}
  ORDER BY a.state, a.parcel_pfi, a.flat_number NULLS FIRST, a.gnaf_pid`;

/** Every address of one parcel, base addresses first: the lot-detail route lists them. */
export const ADDRESSES_ON_PARCEL = (dataset: string, state: string, pfi: string) => Prisma.sql`
  SELECT ${ADDRESS_COLUMNS}
  FROM address.address_detail a ${ADDRESS_JOINS}
  WHERE a.dataset = ${dataset} AND a.state = ${state} AND a.parcel_pfi = ${pfi}
  ORDER BY a.flat_number NULLS FIRST, a.number_first, a.gnaf_pid
  LIMIT 500`;

/**
 * An address carrying the written number (43 also inside a stored range 41-47), or, when no
 * number was written, the lot number of a lot-only address. Two statements rather than one
 * with a `$n IS NULL OR` branch: PostgreSQL prices a generic plan for such a branch so badly
 * that it re-plans the statement on every call.
 */
export type HouseNumber = { number: number } | { lot: string };

const carriesNumber = (n: HouseNumber) =>
  'number' in n
    ? Prisma.sql`(a.number_first = ${n.number}::int
        OR (a.number_last IS NOT NULL AND a.number_first < ${n.number}::int AND a.number_last >= ${n.number}::int))`
    : Prisma.sql`(a.number_first IS NULL AND a.lot_number = ${n.lot}::text)`;

/**
 * The matcher's first stage: every address carrying the given number (or lot) on a street of
 * one of the given names, wherever it is. Street names are few per name, and the
 * (street, number) index makes each one a point lookup; the filters on type, locality,
 * state and postcode are applied by the matcher, which must see the near misses to rank them.
 */
export const ADDRESSES_ON_NAMED_STREETS = (dataset: string, streetNames: string[], n: HouseNumber) => Prisma.sql`
  SELECT ${ADDRESS_COLUMNS}, s.street_name AS matched_name
  FROM address.street_locality s
  JOIN address.address_detail a ON a.dataset = s.dataset AND a.street_locality_pid = s.street_locality_pid
  JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
  WHERE s.dataset = ${dataset} AND s.street_name = ANY(${streetNames}::text[]) AND a.geom IS NOT NULL
    AND ${carriesNumber(n)}
  LIMIT 2000`;

/** The same, through G-NAF's street aliases (an old or alternative name): asked only when no street matched. */
export const ADDRESSES_ON_STREET_ALIASES = (dataset: string, streetNames: string[], n: HouseNumber) => Prisma.sql`
  SELECT ${ADDRESS_COLUMNS}, sa.street_name AS matched_name
  FROM address.street_locality_alias sa
  JOIN address.street_locality s ON s.dataset = sa.dataset AND s.street_locality_pid = sa.street_locality_pid
  JOIN address.address_detail a ON a.dataset = s.dataset AND a.street_locality_pid = s.street_locality_pid
  JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
  WHERE sa.dataset = ${dataset} AND sa.street_name = ANY(${streetNames}::text[]) AND a.geom IS NOT NULL
    AND ${carriesNumber(n)}
  LIMIT 2000`;

export type StreetRow = {
  street_locality_pid: string;
  street_name: string;
  street_type_code: string | null;
  street_suffix_code: string | null;
  locality_name: string;
  state: string;
  postcode: string | null;
};

/**
 * Streets of the localities a misspelt address may be in: named like the input (or one of
 * its aliases), or carrying its postcode. Only reached when no street of the exact name
 * matched; a locality has a few hundred streets at most.
 */
export const STREETS_OF_LOCALITIES = (dataset: string, localityNames: string[], postcode: string | null) => Prisma.sql`
  SELECT s.street_locality_pid, s.street_name, s.street_type_code, s.street_suffix_code,
         l.locality_name, l.state, l.postcode
  FROM address.locality l
  JOIN address.street_locality s ON s.dataset = l.dataset AND s.locality_pid = l.locality_pid
  WHERE l.dataset = ${dataset}
    AND (l.locality_name = ANY(${localityNames}::text[]) OR l.postcode = ${postcode}::text
      OR l.locality_pid IN (SELECT la.locality_pid FROM address.locality_alias la
                            WHERE la.dataset = ${dataset} AND la.name = ANY(${localityNames}::text[])))
  LIMIT 20000`;

export type LocalityNameRow = { name: string; locality_name: string; state: string; postcode: string | null };

/**
 * Every locality name and alias of a dataset with the locality it names: G-NAF has about
 * 16,000 localities, so the matcher holds them in memory to tell a real name from a typo.
 */
export const LOCALITY_NAMES = (dataset: string) => Prisma.sql`
  SELECT l.locality_name AS name, l.locality_name, l.state, l.postcode FROM address.locality l
  WHERE l.dataset = ${dataset} AND l.date_retired IS NULL
  UNION ALL
  SELECT la.name, l.locality_name, l.state, coalesce(la.postcode, l.postcode) FROM address.locality_alias la
  JOIN address.locality l ON l.dataset = la.dataset AND l.locality_pid = la.locality_pid
  WHERE la.dataset = ${dataset}`;

/** The addresses carrying a number (or lot) on given streets: the matcher's second stage for misspelt streets. */
export const ADDRESSES_ON_STREETS = (dataset: string, streetPids: string[], n: HouseNumber) => Prisma.sql`
  SELECT ${ADDRESS_COLUMNS}, s.street_name AS matched_name
  FROM address.address_detail a ${ADDRESS_JOINS}
  WHERE a.dataset = ${dataset} AND a.street_locality_pid = ANY(${streetPids}::text[]) AND a.geom IS NOT NULL
    AND ${carriesNumber(n)}
  LIMIT 2000`;

/**
 * Prefix search for autocomplete over the search key (the address with street types spelled
 * out). Each prefix is a range of the "C"-collated (dataset, search_key) index, read in key
 * order so the scan stops at the limit; written as a range rather than a LIKE on a parameter,
 * which stops using the index once the statement is prepared. Several prefixes cover a last
 * word typed as an abbreviation ("72 DWYER RD" and "72 DWYER ROAD"). Base addresses before units.
 */
export const SUGGESTIONS_BY_PREFIX = (
  dataset: string,
  prefixes: string[],
  state: string | null,
  flatNumber: number | null,
  limit: number,
) => {
  const ranges = prefixes.map(
    (prefix) => Prisma.sql`(SELECT a.gnaf_pid, a.search_key COLLATE "C" AS search_key, a.flat_number
      FROM address.address_detail a
      WHERE a.dataset = ${dataset}
        AND a.search_key COLLATE "C" >= ${prefix} AND a.search_key COLLATE "C" < ${`${prefix}\uffff`}
        AND a.geom IS NOT NULL AND a.geocode_type NOT IN ('STL', 'LOC', 'GG')
        AND (${state}::text IS NULL OR a.state = ${state}::text)
        AND (${flatNumber}::int IS NULL OR a.flat_number = ${flatNumber}::int)
      ORDER BY a.search_key COLLATE "C" LIMIT ${limit * 4})`,
  );
  return Prisma.sql`
  SELECT ${ADDRESS_COLUMNS}
  FROM (SELECT DISTINCT ON (gnaf_pid) * FROM (${Prisma.join(ranges, ' UNION ALL ')}) u) hit
  JOIN address.address_detail a ON a.dataset = ${dataset} AND a.gnaf_pid = hit.gnaf_pid
  ${ADDRESS_JOINS}
  ORDER BY hit.search_key, hit.flat_number NULLS FIRST, hit.gnaf_pid
  LIMIT ${limit}`;
};

export type MatchCandidateRow = AddressRow & { matched_name: string };

/**
 * Where a bulk selection's addresses are: a locality of a state, a Queensland LGA (named on the
 * locality, as G-NAF's LOCALITY carries it), or an area. Names are compared case-insensitively.
 */
export type SelectionWhere =
  | { type: 'suburb'; name: string; state: string }
  | { type: 'lga'; name: string; state: string }
  | { type: 'area'; polygon: string };

const selectionFilter = (dataset: string, where: SelectionWhere) => {
  switch (where.type) {
    case 'suburb':
      return Prisma.sql`a.dataset = ${dataset} AND a.state = ${where.state} AND a.geom IS NOT NULL
        AND a.locality_pid IN (SELECT l.locality_pid FROM address.locality l
          WHERE l.dataset = ${dataset} AND l.state = ${where.state} AND upper(l.locality_name) = upper(${where.name}))`;
    case 'lga':
      return Prisma.sql`a.dataset = ${dataset} AND a.state = ${where.state} AND a.geom IS NOT NULL
        AND a.locality_pid IN (SELECT l.locality_pid FROM address.locality l
          WHERE l.dataset = ${dataset} AND l.state = ${where.state} AND upper(l.lga_name) = upper(${where.name}))`;
    case 'area':
      // the polygon is bound as GeoJSON text; && first lets the GiST index of the points narrow the scan
      return Prisma.sql`a.dataset = ${dataset} AND a.geom && ST_SetSRID(ST_GeomFromGeoJSON(${where.polygon}), 4326)
        AND ST_Intersects(a.geom, ST_SetSRID(ST_GeomFromGeoJSON(${where.polygon}), 4326))`;
  }
};

export const SELECTION_COUNT = (dataset: string, where: SelectionWhere) => Prisma.sql`
  SELECT count(*)::int AS count FROM address.address_detail a WHERE ${selectionFilter(dataset, where)}`;

export const SELECTION_GNAF_PIDS = (dataset: string, where: SelectionWhere) => Prisma.sql`
  SELECT a.gnaf_pid FROM address.address_detail a WHERE ${selectionFilter(dataset, where)} ORDER BY a.gnaf_pid`;

/** Whether a polygon given as GeoJSON text is valid to PostGIS, and why not. */
export const POLYGON_VALIDITY = (polygon: string) => Prisma.sql`
  SELECT ST_IsValid(g) AS valid, ST_IsValidReason(g) AS reason
  FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${polygon}), 4326) AS g) t`;

export type SuburbHullRow = { i: number; addresses: number; hull: string | null };

/**
 * Per suburb (state and upper-cased locality name, in key order): how many G-NAF addresses the
 * localities of the name hold and the convex hull of their points, null without any. The hull is
 * written with 15 decimals so that a reader who widens it (the amenities' suburb extent) gets the
 * very geometry PostGIS built, not one rounded to centimetres.
 */
export const SUBURB_ADDRESS_HULLS = (dataset: string, states: string[], names: string[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, h.addresses, ST_AsGeoJSON(h.g, 15) AS hull
  FROM unnest(${states}::text[], ${names}::text[]) WITH ORDINALITY AS k(state, name, i)
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS addresses, ST_ConvexHull(ST_Collect(d.geom)) AS g
    FROM address.locality l
    JOIN address.address_detail d ON d.dataset = l.dataset AND d.locality_pid = l.locality_pid
    WHERE l.dataset = ${dataset} AND l.state = k.state AND upper(l.locality_name) = k.name
  ) h
  ORDER BY k.i`;

export type SuburbLocalityRow = { i: number; known: boolean; postcode: string | null };

/**
 * Per suburb (state and upper-cased locality name, in key order): whether G-NAF holds a locality of
 * the name in the state, and the postcode of the first of them (by LOCALITY_PID) that has one. The
 * market's trends read both through the graph (Suburb.gnaf_locality): the postcode its rents are
 * looked up by where no sale names one, and whether an unknown name is a 404. Int, boolean and text
 * columns only, so it may be folded (core/folded-sql.ts).
 */
export const SUBURB_LOCALITIES = (dataset: string, states: string[], names: string[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i,
    EXISTS (SELECT 1 FROM address.locality l
      WHERE l.dataset = ${dataset} AND l.state = k.state AND upper(l.locality_name) = k.name) AS known,
    (SELECT l.postcode FROM address.locality l
     WHERE l.dataset = ${dataset} AND l.state = k.state AND upper(l.locality_name) = k.name AND l.postcode IS NOT NULL
     ORDER BY l.locality_pid LIMIT 1) AS postcode
  FROM unnest(${states}::text[], ${names}::text[]) WITH ORDINALITY AS k(state, name, i)
  ORDER BY k.i`;
