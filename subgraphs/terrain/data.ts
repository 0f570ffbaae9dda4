import { foldedSql } from '../../core/folded-sql.ts';
import DataLoader from 'dataloader';
import type { RequestScope } from '../../core/context.ts';
import type { BBox } from '../../core/geo.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { LayerResult, Provenance } from '../../core/layer.ts';
import type { SubgraphDeps } from '../../core/subgraph.ts';
import type { ContourLineModel } from './contour-set.ts';
import type { EarthworksModel } from './earthworks.ts';
import type { DemTile } from './dem.ts';
import type { DemTileRow, FootprintCheckRow } from './sql.ts';
import { DEM_TILES_FOR_WINDOWS, FOOTPRINT_ON_LOT, heightsFromArraySend, PREFILTER_MARGIN_DEGREES } from './sql.ts';
import { demTileCache, heldKey } from './tile-cache.ts';
import type { GroundProfileModel } from './profile.ts';
import type { TerrainStatsModel } from './stats.ts';
import type { ContourStyle } from './zoom.ts';

export type WindowKey = BBox & { state: string };

export type TerrainProperty = {
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
  /** The parcel's boundary, from the cadastre through @requires; null off any parcel. */
  parcel_geometry: GeoJSONGeometry | null;
};

export type TerrainStatsLayerModel = LayerResult<TerrainStatsModel>;

export type GroundProfileLayerModel = LayerResult<GroundProfileModel>;

/** The Elevation group's answer: the statistics, and whether the group serves the state at all. */
export type TerrainLayerModel = TerrainStatsLayerModel & { available: boolean; reason: string | null };

/** Earthworks and their checks: like the Elevation group, whether the state is served at all. */
export type EarthworksLayerModel = LayerResult<EarthworksModel> & { available: boolean; reason: string | null };
export type EarthworksSiteModel = {
  footprint_area_m2: number;
  ground_min_m: number;
  ground_max_m: number;
  balanced_pad_level_m: number;
};
export type EarthworksSiteLayerModel = LayerResult<EarthworksSiteModel> & { available: boolean; reason: string | null };

export type ContourSetModel = Omit<LayerResult<never>, 'data'> &
  ContourStyle & { cell_size_m: number | null; contours: ContourLineModel[] };

const windowKey = (k: WindowKey) => `${k.state}:${k.west}:${k.south}:${k.east}:${k.north}`;

/** The terrain subgraph's data source for one request: every window's DEM tiles in one statement. */
export class TerrainData {
  readonly tiles: DataLoader<WindowKey, DemTile[], string>;

  constructor(
    private readonly deps: SubgraphDeps,
    private readonly scope: RequestScope,
  ) {
    this.tiles = new DataLoader(
      async (keys) => {
        const cache = demTileCache(deps.db);
        const known = cache.known(scope.dataset, keys, PREFILTER_MARGIN_DEGREES);
        const rows = await foldedSql<DemTileRow>(
          deps.db,
          DEM_TILES_FOR_WINDOWS(
            scope.dataset,
            keys.map((k) => k.state),
            keys.map((k) => k.west),
            keys.map((k) => k.south),
            keys.map((k) => k.east),
            keys.map((k) => k.north),
            known,
          ),
        );
        const byIndex = keys.map((): DemTile[] => []);
        for (const { keys: served, heights, state, version, ...header } of rows) {
          let tile: DemTile;
          if (heights !== null) {
            tile = { ...header, heights: heightsFromArraySend(heights) };
            cache.hold(scope.dataset, state, version, tile);
          } else {
            // skipped because this process holds that version: the tile as it was when the statement was sent
            const held = known.byKey.get(heldKey(scope.dataset, state, header.tile_id));
            if (!held) throw new Error(`DEM tile ${header.tile_id} came back without heights that are not held`);
            tile = held.tile;
            cache.touch(scope.dataset, state, header.tile_id);
          }
          for (const i of served) byIndex[i]?.push(tile);
        }
        return byIndex;
      },
      { cacheKeyFn: windowKey },
    );
  }

  /** PostGIS's verdict on a footprint and its lot: validity (with the reason), cover, and the footprint's area. */
  async footprintOnLot(footprint: GeoJSONGeometry, lot: GeoJSONGeometry): Promise<FootprintCheckRow> {
    const [row] = await this.deps.db.sql<FootprintCheckRow>(
      FOOTPRINT_ON_LOT(JSON.stringify(footprint), JSON.stringify(lot)),
    );
    return row!;
  }

  provenance(state: string): Promise<Provenance | undefined> {
    return this.deps.catalog.get(this.scope.dataset, 'terrain', state);
  }
}

export type TerrainContext = RequestScope & { terrain: TerrainData };
