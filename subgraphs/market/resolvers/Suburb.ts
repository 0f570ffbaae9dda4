import type { MarketContext, SuburbEntity } from '../data.ts';
import type { SuburbResolvers } from '../generated/resolvers-types.ts';
import { pipelineLayer } from './suburb-layers.ts';

export const Suburb: SuburbResolvers<MarketContext> = {
  __resolveReference(reference) {
    return {
      state: reference.state ?? '',
      name: reference.name ?? '',
      // the development and supply subgraphs' counts, through @requires; null where one failed
      development_pipeline: 'development_pipeline' in reference ? (reference.development_pipeline ?? null) : null,
      land_supply_pipeline: 'land_supply_pipeline' in reference ? (reference.land_supply_pipeline ?? null) : null,
    } satisfies SuburbEntity;
  },
  supply_pipeline: (suburb, _args, ctx) => pipelineLayer(ctx, suburb),
};
