import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { CadastreContext } from './data.ts';
import { CadastreData } from './data.ts';
import { JSONObject } from './resolvers/JSONObject.ts';
import { LotReference } from './resolvers/LotReference.ts';
import { Place } from './resolvers/Place.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { GeoJSON } from '../../core/scalars.ts';
import type { SourcesConfig } from './sources/fallbacks.ts';
import { CadastreFallbacks } from './sources/fallbacks.ts';

/**
 * What the cadastre is built from: the shared deps, plus the settings of the sources behind
 * its database mirror (object store, live state services). Without them only the mirror answers.
 */
export type CadastreDeps = SubgraphDeps & { config?: SourcesConfig };

export function buildCadastreSubgraph(deps: CadastreDeps): Subgraph<CadastreContext> {
  // One set of sources per process: their caches and clients outlive a request.
  const fallbacks = CadastreFallbacks.fromConfig(deps.config);
  return buildSubgraph(
    'cadastre',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, Place, GeoJSON, JSONObject, LotReference },
    (scope: RequestScope) => ({
      ...scope,
      cadastre: new CadastreData(deps, scope, fallbacks),
    }),
  );
}
