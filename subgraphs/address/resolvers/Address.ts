import type { AddressResolvers } from '../generated/resolvers-types.ts';
import type { AddressContext } from '../data.ts';

export const Address: AddressResolvers<AddressContext> = {
  locality: (row) => row.locality_name,
  geocode_type: (row) => row.geocode_type ?? '',
  location: (row) => ({ lat: row.lat, lng: row.lng }),
  flat_type: (row) => row.flat_type_code,
  level_type: (row) => row.level_type_code,
  street_type: (row) => row.street_type_code,
  street_suffix: (row) => row.street_suffix_code,
};
