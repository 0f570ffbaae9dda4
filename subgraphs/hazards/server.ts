import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { HazardsContext } from './data.ts';
import { HazardsData } from './data.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import type { HazardSourcesConfig } from './sources/registry.ts';
import { HazardLiveSources } from './sources/registry.ts';

/** What hazards is built from: the shared deps, plus the settings of its live state services. */
export type HazardsDeps = SubgraphDeps & { config?: HazardSourcesConfig };

export function buildHazardsSubgraph(deps: HazardsDeps): Subgraph<HazardsContext> {
  // One set of live services per process: their circuits, counters and caches outlive a request.
  const live = HazardLiveSources.fromConfig(deps.config);
  return buildSubgraph(
    'hazards',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property },
    (scope: RequestScope) => ({
      ...scope,
      hazards: new HazardsData(deps, scope, live),
    }),
  );
}
