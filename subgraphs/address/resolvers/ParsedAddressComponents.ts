import type { ParsedAddressComponentsResolvers } from '../generated/resolvers-types.ts';
import type { AddressContext } from '../data.ts';

/** The parse as a caller sees it: its most likely reading of street and locality. */
export const ParsedAddressComponents: ParsedAddressComponentsResolvers<AddressContext> = {
  flat_type: (parsed) => parsed.flat?.type ?? null,
  flat_number: (parsed) => parsed.flat?.number ?? null,
  level_type: (parsed) => parsed.level?.type ?? null,
  level_number: (parsed) => parsed.level?.number ?? null,
  number_first: (parsed) => parsed.number?.first ?? null,
  number_last: (parsed) => parsed.number?.last ?? null,
  lot_number: (parsed) => parsed.lot,
  street_name: (parsed) => parsed.readings[0]?.streetName ?? null,
  street_type: (parsed) => parsed.readings[0]?.streetType ?? null,
  street_suffix: (parsed) => parsed.readings[0]?.streetSuffix ?? null,
  locality: (parsed) => parsed.readings[0]?.locality ?? parsed.locality,
  trailing_country: (parsed) => parsed.trailingCountry,
};
