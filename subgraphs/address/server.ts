import type { RequestScope } from '../../core/context.ts';
import { GeoJSON } from '../../core/scalars.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { AddressContext } from './data.ts';
import { AddressData, LocalityCache } from './data.ts';
import { Address } from './resolvers/Address.ts';
import { AddressMatch } from './resolvers/AddressMatch.ts';
import { ParsedAddressComponents } from './resolvers/ParsedAddressComponents.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { Suburb } from './resolvers/Suburb.ts';

export function buildAddressSubgraph(deps: SubgraphDeps): Subgraph<AddressContext> {
  const localities = new LocalityCache(deps.db);
  return buildSubgraph(
    'address',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, Address, AddressMatch, ParsedAddressComponents, Suburb, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      address: new AddressData(deps, scope, localities),
    }),
  );
}
