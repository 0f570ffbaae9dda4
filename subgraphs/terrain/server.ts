import type { RequestScope } from '../../core/context.ts';
import { GeoJSON } from '../../core/scalars.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { TerrainContext } from './data.ts';
import { TerrainData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';

export function buildTerrainSubgraph(deps: SubgraphDeps): Subgraph<TerrainContext> {
  return buildSubgraph(
    'terrain',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      terrain: new TerrainData(deps, scope),
    }),
  );
}
