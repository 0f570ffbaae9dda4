import type { RequestScope } from '../../core/context.ts';
import { GeoJSON } from '../../core/scalars.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { AmenitiesContext } from './data.ts';
import { AmenitiesData } from './data.ts';
import { Amenity } from './resolvers/Amenity.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { Suburb } from './resolvers/Suburb.ts';

export function buildAmenitiesSubgraph(deps: SubgraphDeps): Subgraph<AmenitiesContext> {
  return buildSubgraph(
    'amenities',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, Amenity, Suburb, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      amenities: new AmenitiesData(deps, scope),
    }),
  );
}
