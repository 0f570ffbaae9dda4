import type { AddressMatchResolvers } from '../generated/resolvers-types.ts';
import type { AddressContext } from '../data.ts';

export const AddressMatch: AddressMatchResolvers<AddressContext> = {
  address: (match) => match.row,
  geocode_type: (match) => match.row.geocode_type ?? '',
};
