import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { DevelopmentContext } from './data.ts';
import { DevelopmentData } from './data.ts';
import { Place } from './resolvers/Place.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { Suburb } from './resolvers/Suburb.ts';

export function buildDevelopmentSubgraph(deps: SubgraphDeps): Subgraph<DevelopmentContext> {
  return buildSubgraph(
    'development',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, Place, Suburb },
    (scope: RequestScope) => ({
      ...scope,
      development: new DevelopmentData(deps, scope),
    }),
  );
}
