import type { AddressResolvers } from '../generated/resolvers-types.ts';
import type { AddressContext } from '../data.ts';

export const Address: AddressResolvers<AddressContext> = {
  locality: (row) => row.locality_name,
};
