import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { LiveResolution, PlanningContext, SharedAtPoint } from './data.ts';
import { PlanningData } from './data.ts';
import { ProductsData } from './products.ts';
import { Property } from './resolvers/Property.ts';
import { Query } from './resolvers/Query.ts';
import { GeoJSON } from '../../core/scalars.ts';
import type { PlanningSourcesConfig } from './sources/registry.ts';
import { PlanningAdapters } from './sources/registry.ts';

/** What planning is built from: the shared deps, plus the settings of its live state services. */
export type PlanningDeps = SubgraphDeps & { config?: PlanningSourcesConfig };

export function buildPlanningSubgraph(deps: PlanningDeps): Subgraph<PlanningContext> {
  // One set of adapters per process: their circuits, counters and caches outlive a request.
  const adapters = PlanningAdapters.fromConfig(deps.config, deps.catalog);
  const liveInFlight = new Map<string, Promise<LiveResolution>>();
  // one request's planning answers, shared by its fetches (data.ts SHARED_AT_POINT_MS)
  const sharedAtPoint: SharedAtPoint = new Map();
  return buildSubgraph(
    'planning',
    new URL('./schema.graphql', import.meta.url),
    { Query, Property, GeoJSON },
    (scope: RequestScope) => ({
      ...scope,
      planning: new PlanningData(deps, scope, adapters, liveInFlight, sharedAtPoint),
      products: new ProductsData(deps, scope),
    }),
  );
}
