import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { MarketContext } from './data.ts';
import { MarketData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { Suburb } from './resolvers/Suburb.ts';

export function buildMarketSubgraph(deps: SubgraphDeps): Subgraph<MarketContext> {
  return buildSubgraph(
    'market',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, Suburb },
    (scope: RequestScope) => ({
      ...scope,
      market: new MarketData(deps, scope),
    }),
  );
}
