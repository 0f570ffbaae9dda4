import type { Config } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import type { Subgraph, SubgraphDeps } from '../core/subgraph.ts';
import { buildAddressSubgraph } from './address/server.ts';
import { buildAnalyticsSubgraph } from './analytics/server.ts';
import { buildAmenitiesSubgraph } from './amenities/server.ts';
import { buildCadastreSubgraph } from './cadastre/server.ts';
import { buildDemographicsSubgraph } from './demographics/server.ts';
import { buildDevelopmentSubgraph } from './development/server.ts';
import { buildHazardsSubgraph } from './hazards/server.ts';
import { buildLandSubgraph } from './land/server.ts';
import { buildMarketSubgraph } from './market/server.ts';
import { buildPlanningSubgraph } from './planning/server.ts';
import { buildRoadsSubgraph } from './roads/server.ts';
import { buildSoilSubgraph } from './soil/server.ts';
import { startSupplySchedule } from './supply/schedule.ts';
import { buildSupplySubgraph } from './supply/server.ts';
import { buildTerrainSubgraph } from './terrain/server.ts';

/** Every subgraph of the graph, in the order of their distributed-mode ports. */
export const SUBGRAPHS = {
  address: buildAddressSubgraph,
  cadastre: buildCadastreSubgraph,
  planning: buildPlanningSubgraph,
  terrain: buildTerrainSubgraph,
  // appended, so every earlier subgraph keeps its distributed-mode port
  roads: buildRoadsSubgraph,
  soil: buildSoilSubgraph,
  land: buildLandSubgraph,
  hazards: buildHazardsSubgraph,
  development: buildDevelopmentSubgraph,
  supply: buildSupplySubgraph,
  demographics: buildDemographicsSubgraph,
  amenities: buildAmenitiesSubgraph,
  market: buildMarketSubgraph,
  analytics: buildAnalyticsSubgraph,
} as const satisfies Record<string, (deps: SubgraphDeps) => Subgraph>;

export type SubgraphName = keyof typeof SUBGRAPHS;
export const SUBGRAPH_NAMES = Object.keys(SUBGRAPHS) as SubgraphName[];

/**
 * Work a subgraph's own process runs beside serving (distributed mode; the embedded mode's
 * serving process runs the same work itself): each starts it and returns its stop.
 */
export const SUBGRAPH_BACKGROUND: Partial<Record<SubgraphName, (db: Database, config: Config) => () => void>> = {
  supply: startSupplySchedule,
};

export function subgraphSchemaUrl(name: SubgraphName): URL {
  return new URL(`./${name}/schema.graphql`, import.meta.url);
}

export function subgraphPort(name: SubgraphName, basePort: number): number {
  return basePort + SUBGRAPH_NAMES.indexOf(name);
}
