import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { SupplyContext } from './data.ts';
import { SupplyData } from './data.ts';
import { Query } from './resolvers/Query.ts';
import { Suburb } from './resolvers/Suburb.ts';

export function buildSupplySubgraph(deps: SubgraphDeps): Subgraph<SupplyContext> {
  return buildSubgraph(
    'supply',
    new URL('./schema.graphql', import.meta.url),
    { Query, Suburb },
    (scope: RequestScope) => ({
      ...scope,
      supply: new SupplyData(deps, scope),
    }),
  );
}
