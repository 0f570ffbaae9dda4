import type { DevelopmentContext, SuburbEntity } from '../data.ts';
import type { SuburbResolvers } from '../generated/resolvers-types.ts';

export const Suburb: SuburbResolvers<DevelopmentContext> = {
  __resolveReference(reference) {
    return { state: reference.state ?? '', name: reference.name ?? '' } satisfies SuburbEntity;
  },
  development_pipeline: (suburb, _args, ctx) =>
    ctx.development.suburbCounts.load({ state: suburb.state, name: suburb.name }),
};
