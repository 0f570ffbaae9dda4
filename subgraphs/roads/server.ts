import type { RequestScope } from '../../core/context.ts';
import { GeoJSON } from '../../core/scalars.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { RoadsContext } from './data.ts';
import { RoadsData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { NearbyRoad, RoadLine } from './resolvers/road-lines.ts';

export function buildRoadsSubgraph(deps: SubgraphDeps): Subgraph<RoadsContext> {
  return buildSubgraph(
    'roads',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, RoadLine, NearbyRoad, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      roads: new RoadsData(deps, scope),
    }),
  );
}
