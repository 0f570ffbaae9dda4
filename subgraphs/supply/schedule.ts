import type { Config } from '../../core/config.ts';
import type { Database } from '../../core/db.ts';
import { ROLLUP_DATASETS, scheduleLandSupplyRollup } from '../../core/land-supply.ts';

/**
 * Distributed mode: the supply subgraph's process keeps the land-supply weekly rollup current
 * (every `LANDGRAPH_LAND_SUPPLY_ROLLUP_EVERY_MS`, which `serve --distributed` hands this process
 * alone). Several supply instances may run it: the rollup's advisory lock lets one roll a week up
 * and the others find it fresh. Returns the stop function.
 */
export function startSupplySchedule(db: Database, config: Config): () => void {
  const every = config.landSupplyRollupEveryMs;
  return every ? scheduleLandSupplyRollup(db, ROLLUP_DATASETS, every) : () => undefined;
}
