import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { SiteClassBand, SiteClassEstimate } from './site-class.ts';
import type { SoilAtRow } from './sql.ts';
import { SOIL_AT_PLACES } from './sql.ts';
import { foldedSql } from '../../core/folded-sql.ts';

export type SoilProperty = {
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
  /** The parcel's boundary, from the cadastre through @requires; null off any parcel. */
  parcel_geometry: GeoJSONGeometry | null;
};

/** A point or a parcel of one state, as GeoJSON. */
export type PlaceKey = { state: string; geometry: GeoJSONGeometry };

export type SoilModel = SiteClassEstimate & {
  indicative: true;
  notice: string;
  clay_percent: number;
  depth_m: number;
  reactivity: string | null;
  site_class_indicative: SiteClassEstimate['site_class'];
  band: SiteClassBand;
  polygons: number;
  product: string;
};

export type SoilLayerModel = LayerResult<SoilModel> & { freshness: string | null };

const placeKey = (k: PlaceKey) => `${k.state}:${JSON.stringify(k.geometry)}`;

/** The soil subgraph's data source for one request: every place's soil in one statement. */
export class SoilData {
  readonly atPlace: DataLoader<PlaceKey, Omit<SoilAtRow, 'i'>, string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    this.atPlace = new DataLoader(
      async (keys) => {
        const rows = await foldedSql<SoilAtRow>(
          deps.db,
          SOIL_AT_PLACES(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => JSON.stringify(k.geometry)),
          ),
        );
        const byIndex = new Map(rows.map(({ i, ...row }) => [i, row]));
        return keys.map((_k, i) => byIndex.get(i) ?? { covered: false, polygons: [] });
      },
      { cacheKeyFn: placeKey },
    );
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, 'soil', state);
  }
}

export type SoilContext = RequestScope & { soil: SoilData };
