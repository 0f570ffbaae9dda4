import type { MarketContext, SuburbEntity } from '../data.ts';
import type { SuburbResolvers } from '../generated/resolvers-types.ts';
import { assertPropertyType } from './layers.ts';
import { pipelineLayer, suburbLayer } from './suburb-layers.ts';

export const Suburb: SuburbResolvers<MarketContext> = {
  __resolveReference(reference) {
    return {
      state: reference.state ?? '',
      name: reference.name ?? '',
      // the development and supply subgraphs' counts, through @requires; null where one failed
      development_pipeline: 'development_pipeline' in reference ? (reference.development_pipeline ?? null) : null,
      land_supply_pipeline: 'land_supply_pipeline' in reference ? (reference.land_supply_pipeline ?? null) : null,
      // the address subgraph's G-NAF locality, through @requires; null where it failed
      gnaf_locality:
        'gnaf_locality' in reference && reference.gnaf_locality
          ? { known: reference.gnaf_locality.known, postcode: reference.gnaf_locality.postcode ?? null }
          : null,
    } satisfies SuburbEntity;
  },
  supply_pipeline: (suburb, _args, ctx) => pipelineLayer(ctx, suburb),
  market_trends: async (suburb, { property_type }, ctx) => {
    const type = assertPropertyType(property_type);
    const { state, name } = suburb;
    const { unknown, ...layer } = await suburbLayer(ctx, state, name, null, type, suburb.gnaf_locality ?? null);
    if (unknown) {
      const message = `Unknown suburb: ${name} is not a ${state} locality the data knows.`;
      return { ...layer, known: false, status: 'no_data' as const, data: null, message };
    }
    return { ...layer, known: true };
  },
};
