import type { RequestScope } from '../../core/context.ts';
import type { Subgraph, SubgraphDeps } from '../../core/subgraph.ts';
import { buildSubgraph } from '../../core/subgraph.ts';
import type { AnalyticsContext } from './data.ts';
import { AnalyticsData } from './data.ts';
import { JSONObject } from './resolvers/JSONObject.ts';
import { Query } from './resolvers/Query.ts';

export function buildAnalyticsSubgraph(deps: SubgraphDeps): Subgraph<AnalyticsContext> {
  return buildSubgraph(
    'analytics',
    new URL('./schema.graphql', import.meta.url),
    { Query, JSONObject },
    (scope: RequestScope) => ({ ...scope, analytics: new AnalyticsData(deps, scope) }),
  );
}
