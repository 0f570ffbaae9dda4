import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { PlanningContext } from './data.ts';
import { PlanningData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { GeoJSON } from '../../core/scalars.ts';

export function buildPlanningSubgraph(deps: SubgraphDeps): Subgraph<PlanningContext> {
  return buildSubgraph(
    'planning',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      planning: new PlanningData(deps, scope),
    }),
  );
}
