import type { RequestScope } from '../../core/context.ts';
import { GeoJSON } from '../../core/scalars.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { LandContext } from './data.ts';
import { LandData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';

export function buildLandSubgraph(deps: SubgraphDeps): Subgraph<LandContext> {
  return buildSubgraph(
    'land',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      land: new LandData(deps, scope),
    }),
  );
}
