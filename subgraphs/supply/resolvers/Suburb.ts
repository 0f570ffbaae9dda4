import type { SupplyContext, SuburbEntity } from '../data.ts';
import type { SuburbResolvers } from '../generated/resolvers-types.ts';

export const Suburb: SuburbResolvers<SupplyContext> = {
  __resolveReference(reference) {
    return { state: reference.state ?? '', name: reference.name ?? '' } satisfies SuburbEntity;
  },
  land_supply_pipeline: (suburb, _args, ctx) =>
    ctx.supply.suburbCounts.load({ state: suburb.state, name: suburb.name }),
};
