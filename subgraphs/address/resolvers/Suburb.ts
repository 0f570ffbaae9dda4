import type { AddressContext, SuburbEntity } from '../data.ts';
import type { SuburbResolvers } from '../generated/resolvers-types.ts';

export const Suburb: SuburbResolvers<AddressContext> = {
  __resolveReference(reference) {
    return { state: reference.state ?? '', name: reference.name ?? '' } satisfies SuburbEntity;
  },
  address_hull: (suburb, _args, ctx) => ctx.address.suburbHull.load({ state: suburb.state, name: suburb.name }),
  gnaf_locality: (suburb, _args, ctx) => ctx.address.suburbLocality.load({ state: suburb.state, name: suburb.name }),
};
