import type { RequestScope } from '../../core/context.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { BundleRow, CatalogRow, Credit, ListRow, Range, ScreenRow, SeriesRow, StateRunRow } from './sql.ts';
import { BUNDLE, BUNDLE_CREDITS, CATALOG, LIST, SCREEN, SERIES, STATE_RUN } from './sql.ts';

/** The analytics subgraph's data source for one request: the precomputed suburb bundles. */
export class AnalyticsData {
  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {}

  async bundle(state: string, suburb: string): Promise<Record<string, unknown> | null> {
    const [row] = await this.deps.db.sql<BundleRow>(BUNDLE(this.scope.dataset, state, suburb));
    return row?.bundle ?? null;
  }

  /** The credits of a suburb's bundle, or null when it has none. */
  async bundleCredits(state: string, suburb: string): Promise<Credit[] | null> {
    const [row] = await this.deps.db.sql<{ credits: Credit[] }>(BUNDLE_CREDITS(this.scope.dataset, state, suburb));
    return row ? row.credits : null;
  }

  async stateRun(state: string): Promise<StateRunRow | null> {
    const [row] = await this.deps.db.sql<StateRunRow>(STATE_RUN(this.scope.dataset, state));
    return row ?? null;
  }

  list(state: string, limit: number, offset: number): Promise<ListRow[]> {
    return this.deps.db.sql<ListRow>(LIST(this.scope.dataset, state, limit, offset));
  }

  series(state: string, suburb: string, metric: string): Promise<SeriesRow[]> {
    return this.deps.db.sql<SeriesRow>(SERIES(this.scope.dataset, state, suburb, metric));
  }

  catalog(state: string): Promise<CatalogRow[]> {
    return this.deps.db.sql<CatalogRow>(CATALOG(this.scope.dataset, state));
  }

  screen(state: string, ranges: readonly Range[], limit: number, offset: number): Promise<ScreenRow[]> {
    return this.deps.db.sql<ScreenRow>(SCREEN(this.scope.dataset, state, ranges, limit, offset));
  }
}

export type AnalyticsContext = RequestScope & { analytics: AnalyticsData };
