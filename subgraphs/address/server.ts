import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { AddressContext } from './data.ts';
import { AddressData } from './data.ts';
import { Address } from './resolvers/Address.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';

export function buildAddressSubgraph(deps: SubgraphDeps): Subgraph<AddressContext> {
  return buildSubgraph(
    'address',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, Address },
    (scope: RequestScope) => ({
      ...scope,
      address: new AddressData(deps, scope),
    }),
  );
}
