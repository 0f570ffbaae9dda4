import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { CadastreContext } from './data.ts';
import { CadastreData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { GeoJSON } from '../../core/scalars.ts';

export function buildCadastreSubgraph(deps: SubgraphDeps): Subgraph<CadastreContext> {
  return buildSubgraph(
    'cadastre',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      cadastre: new CadastreData(deps, scope),
    }),
  );
}
