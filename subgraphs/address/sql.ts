import { Prisma } from '../../generated/prisma/client.ts';

export type AddressRow = {
  gnaf_pid: string;
  parcel_pfi: string | null;
  state: string;
  lat: number;
  lng: number;
  formatted_address: string;
  locality_name: string;
  postcode: string | null;
  geocode_type: string;
};

const ADDRESS_COLUMNS = Prisma.sql`
  a.gnaf_pid, a.parcel_pfi, a.state, ST_Y(a.geom) AS lat, ST_X(a.geom) AS lng,
  a.formatted_address, l.locality_name, a.postcode, a.geocode_type`;

/** Addresses by G-NAF PID, for a whole batch of entity references in one round trip. */
export const ADDRESSES_BY_GNAF_PID = (dataset: string, gnafPids: string[]) => Prisma.sql`
  SELECT ${ADDRESS_COLUMNS}
  FROM address.address_detail a
  JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
  WHERE a.dataset = ${dataset} AND a.gnaf_pid = ANY(${gnafPids}::text[])`;

/**
 * The principal address of each parcel in a batch: a parcel with several addresses (a unit
 * block) is represented by its base address, else its lowest unit, so the choice is stable.
 */
export const PRINCIPAL_ADDRESS_BY_PARCEL = (dataset: string, states: string[], pfis: string[]) => Prisma.sql`
  SELECT DISTINCT ON (a.state, a.parcel_pfi) ${ADDRESS_COLUMNS}
  FROM unnest(${states}::text[], ${pfis}::text[]) AS k(state, parcel_pfi)
  JOIN address.address_detail a ON a.dataset = ${dataset} AND a.state = k.state AND a.parcel_pfi = k.parcel_pfi
  JOIN address.locality l ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
  ORDER BY a.state, a.parcel_pfi, a.flat_number NULLS FIRST, a.gnaf_pid`;
