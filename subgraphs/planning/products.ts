import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { BBox } from '../../core/geo.ts';
import type { Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { AssessmentOutcome } from './resolvers/assessment.ts';
import type { ClimateRow, UgbFeatureRow, UgbPointRow } from './sql.ts';
import { CLIMATE_AT_POINTS, UGB_AT_POINTS, UGB_IN_BBOX } from './sql.ts';
import { foldedSql } from '../../core/folded-sql.ts';

export type PointKey = { state: string; lat: number; lng: number };
export type UgbAtPointRow = Omit<UgbPointRow, 'i'>;

/** The layers of dataset_source the planning products credit, beside 'planning' itself. */
export type ProductLayer = 'ugb' | 'climate';

const pointKey = (k: PointKey) => `${k.state}:${k.lng}:${k.lat}`;

/**
 * The planning products' data source for one request (provisions, envelope, UGB, climate zone):
 * urban growth boundaries and climate zones, each kind of lookup batched into one statement per
 * request. The road centrelines come from the roads subgraph through @requires.
 */
export class ProductsData {
  readonly ugbAt: DataLoader<PointKey, UgbAtPointRow, string>;
  readonly climateAt: DataLoader<PointKey, number | null, string>;
  /** Each lot's assessment in this request: provisions and envelope of one property share it. */
  readonly assessments = new Map<string, Promise<AssessmentOutcome>>();

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    const db = deps.db;
    const { dataset } = scope;
    this.ugbAt = new DataLoader(
      async (keys) => {
        const rows = await db.sql<UgbPointRow>(
          UGB_AT_POINTS(
            dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.lng),
            keys.map((k) => k.lat),
          ),
        );
        const byIndex = new Map(rows.map(({ i, ...row }) => [i, row]));
        return keys.map(
          (_k, i) =>
            byIndex.get(i) ?? {
              held: false,
              inside: false,
              lga_code: null,
              lga_name: null,
              gaic_applies: null,
              zone_description: null,
            },
        );
      },
      { cacheKeyFn: pointKey },
    );
    this.climateAt = new DataLoader(
      async (keys) => {
        const rows = await foldedSql<ClimateRow>(
          db,
          CLIMATE_AT_POINTS(
            dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.lng),
            keys.map((k) => k.lat),
          ),
        );
        const byIndex = new Map(rows.map((row) => [row.i, row.climate_zone]));
        return keys.map((_k, i) => byIndex.get(i) ?? null);
      },
      { cacheKeyFn: pointKey },
    );
  }

  /** UGB polygons in a window; one more than `limit` is asked for, so an overfull window can be refused. */
  ugbInBBox(state: string, bbox: BBox, limit: number): Promise<UgbFeatureRow[]> {
    return this.deps.db.sql<UgbFeatureRow>(
      UGB_IN_BBOX(this.scope.dataset, state, bbox.west, bbox.south, bbox.east, bbox.north, limit + 1),
    );
  }

  provenance(layer: ProductLayer, state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, layer, state);
  }
}
