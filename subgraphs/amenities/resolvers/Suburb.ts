import { assertState } from '../../../core/validate.ts';
import type { AmenitiesContext, SuburbEntity } from '../data.ts';
import type { SuburbResolvers } from '../generated/resolvers-types.ts';
import { suburbAmenitiesLayer, suburbName } from './Query.ts';

export const Suburb: SuburbResolvers<AmenitiesContext> = {
  __resolveReference(reference) {
    return {
      state: reference.state ?? '',
      name: reference.name ?? '',
      // the demographics subgraph's boundary and the address subgraph's hull, through @requires;
      // null where the owning layer holds none
      sal_boundary: 'sal_boundary' in reference ? (reference.sal_boundary ?? null) : null,
      address_hull: 'address_hull' in reference ? (reference.address_hull ?? null) : null,
    } satisfies SuburbEntity;
  },
  amenities: (suburb, _args, ctx) =>
    suburbAmenitiesLayer(
      ctx,
      assertState(suburb.state),
      suburbName(suburb.name),
      suburb.sal_boundary ?? null,
      suburb.address_hull ?? null,
    ),
};
