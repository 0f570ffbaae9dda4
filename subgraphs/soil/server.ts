import type { RequestScope } from '../../core/context.ts';
import { GeoJSON } from '../../core/scalars.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { SoilContext } from './data.ts';
import { SoilData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';

export function buildSoilSubgraph(deps: SubgraphDeps): Subgraph<SoilContext> {
  return buildSubgraph(
    'soil',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      soil: new SoilData(deps, scope),
    }),
  );
}
