import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { HazardsContext } from './data.ts';
import { HazardsData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';

export function buildHazardsSubgraph(deps: SubgraphDeps): Subgraph<HazardsContext> {
  return buildSubgraph(
    'hazards',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property },
    (scope: RequestScope) => ({
      ...scope,
      hazards: new HazardsData(deps, scope),
    }),
  );
}
