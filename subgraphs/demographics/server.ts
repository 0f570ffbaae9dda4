import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { DemographicsContext } from './data.ts';
import { DemographicsData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { Suburb } from './resolvers/Suburb.ts';
import { GeoJSON } from '../../core/scalars.ts';

export function buildDemographicsSubgraph(deps: SubgraphDeps): Subgraph<DemographicsContext> {
  return buildSubgraph(
    'demographics',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, Suburb, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      demographics: new DemographicsData(deps, scope),
    }),
  );
}
