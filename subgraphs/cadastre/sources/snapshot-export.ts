import type { Dataset } from '../../../core/context.ts';
import type { Database } from '../../../core/db.ts';
import type { StateCode } from '../../../core/geo.ts';
import { isStateCode } from '../../../core/geo.ts';
import type { ObjectStore } from './object-store.ts';
import type { SnapshotManifest } from './tiles.ts';
import { DEFAULT_TILE_ZOOM, MANIFEST_KEY, SNAPSHOT_ID, coverageKey, pfiShardKey, readJson, tileKey } from './tiles.ts';

export type SnapshotExport = {
  dataset: Dataset;
  zoom: number;
  /** Tiles written, every state together. */
  tiles: number;
  states: Array<{ state: StateCode; snapshot: string; tiles: number; parcels: number }>;
};

type TiledRow = {
  x: number;
  y: number;
  parcel_pfi: string;
  parcel_spi: string | null;
  parcel_lot_number: string | null;
  parcel_plan_number: string | null;
  ezi_address: string | null;
  area_m2: number;
  geometry: string;
  west: number;
  south: number;
  east: number;
  north: number;
  inside_lng: number;
  inside_lat: number;
};

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * Every parcel of a dataset and state once per tile its bounding box touches, in tile order,
 * so the exporter writes one tile at a time. The tile formulas are tileOf's. A cursor cannot
 * take bound parameters, so the (checked) dataset and state are written in as literals.
 */
function tiledParcels(dataset: Dataset, state: StateCode, zoom: number): string {
  const n = 2 ** zoom;
  const tileX = (lng: string) => `floor((${lng} + 180) / 360 * ${n})::int`;
  const tileY = (lat: string) =>
    `floor((1 - ln(tan(radians(${lat})) + 1 / cos(radians(${lat}))) / pi()) / 2 * ${n})::int`;
  return `
    WITH p AS (
      SELECT parcel_pfi, parcel_spi, parcel_lot_number, parcel_plan_number, ezi_address, area_m2,
             ST_AsGeoJSON(geom, 7) AS geometry, ST_PointOnSurface(geom) AS inside,
             ST_XMin(geom) AS west, ST_YMin(geom) AS south, ST_XMax(geom) AS east, ST_YMax(geom) AS north
      FROM cadastre.parcel
      WHERE dataset = ${literal(dataset)} AND state = ${literal(state)}
    )
    SELECT tx AS x, ty AS y, p.parcel_pfi, p.parcel_spi, p.parcel_lot_number, p.parcel_plan_number, p.ezi_address,
           p.area_m2, p.geometry, p.west, p.south, p.east, p.north,
           ST_X(p.inside) AS inside_lng, ST_Y(p.inside) AS inside_lat
    FROM p,
      generate_series(${tileX('p.west')}, ${tileX('p.east')}) AS tx,
      generate_series(${tileY('p.north')}, ${tileY('p.south')}) AS ty
    ORDER BY tx, ty, p.parcel_pfi`;
}

function tileFeatureJson(row: TiledRow): string {
  const properties = {
    parcel_pfi: row.parcel_pfi,
    parcel_spi: row.parcel_spi,
    parcel_lot_number: row.parcel_lot_number,
    parcel_plan_number: row.parcel_plan_number,
    ezi_address: row.ezi_address,
    area_m2: row.area_m2,
    inside: [row.inside_lng, row.inside_lat],
  };
  const bbox = JSON.stringify([row.west, row.south, row.east, row.north]);
  return `{"type":"Feature","bbox":${bbox},"geometry":${row.geometry},"properties":${JSON.stringify(properties)}}`;
}

const collection = (features: string[]) => `{"type":"FeatureCollection","features":[${features.join(',')}]}`;

async function exportState(
  db: Database,
  store: ObjectStore,
  dataset: Dataset,
  state: StateCode,
  snapshot: string,
  zoom: number,
): Promise<{ tiles: number; parcels: number }> {
  const coverage = await db.query<{ geometry: string }>(
    `SELECT ST_AsGeoJSON(geom, 7) AS geometry FROM cadastre.coverage WHERE dataset = $1 AND state = $2 ORDER BY name`,
    [dataset, state],
  );
  await store.put(
    coverageKey(state, snapshot),
    collection(coverage.map((c) => `{"type":"Feature","properties":{},"geometry":${c.geometry}}`)),
  );
  const shards = new Map<string, Map<string, [number, number]>>();
  let tiles = 0;
  await db.transaction(async (query) => {
    await query(`DECLARE lg_cadastre_snapshot NO SCROLL CURSOR FOR ${tiledParcels(dataset, state, zoom)}`);
    let tile: { x: number; y: number; features: string[] } | undefined;
    const flush = async () => {
      if (!tile) return;
      await store.put(tileKey(state, snapshot, zoom, tile.x, tile.y), collection(tile.features));
      tiles += 1;
    };
    for (;;) {
      const rows = await query<TiledRow>('FETCH 2000 FROM lg_cadastre_snapshot');
      if (rows.length === 0) break;
      for (const row of rows) {
        if (!tile || tile.x !== row.x || tile.y !== row.y) {
          await flush();
          tile = { x: row.x, y: row.y, features: [] };
        }
        tile.features.push(tileFeatureJson(row));
        const key = pfiShardKey(state, snapshot, row.parcel_pfi);
        const shard = shards.get(key) ?? new Map<string, [number, number]>();
        if (!shard.has(row.parcel_pfi)) shard.set(row.parcel_pfi, [row.x, row.y]);
        shards.set(key, shard);
      }
    }
    await flush();
    await query('CLOSE lg_cadastre_snapshot');
  });
  let parcels = 0;
  for (const [key, shard] of shards) {
    await store.put(key, JSON.stringify(Object.fromEntries(shard)));
    parcels += shard.size;
  }
  return { tiles, parcels };
}

/**
 * Writes the cadastre of a dataset (one state, or every state it holds) from `cadastre.parcel`
 * into the object store as tiles at `zoom` (default 15), with each state's coverage, a PFI
 * index, and the dataset's credit. The manifest is written last, so a reader never meets a
 * half-written snapshot; run one export at a time per store.
 */
export async function exportCadastreSnapshot(
  db: Database,
  store: ObjectStore,
  options: { dataset: Dataset; state?: StateCode; zoom?: number },
): Promise<SnapshotExport> {
  const { dataset } = options;
  const zoom = options.zoom ?? DEFAULT_TILE_ZOOM;
  if (dataset !== 'sandbox' && dataset !== 'live') throw new RangeError(`Unknown dataset '${String(dataset)}'.`);
  if (!Number.isInteger(zoom) || zoom < 10 || zoom > 20)
    throw new RangeError(`Tile zoom must be 10 to 20, got ${zoom}.`);
  const sources = await db.query<{ state: string; attribution: string; license: string; snapshot_id: string }>(
    `SELECT state, attribution, license, snapshot_id FROM public.dataset_source
     WHERE dataset = $1 AND layer = 'cadastre' AND ($2::text IS NULL OR state = $2) ORDER BY state`,
    [dataset, options.state ?? null],
  );
  if (sources.length === 0) {
    throw new Error(
      `No ${dataset} cadastre is loaded${options.state ? ` for ${options.state}` : ''}: nothing to export.`,
    );
  }
  const manifest = (await readJson<SnapshotManifest>(store, MANIFEST_KEY)) ?? { format: 1, datasets: {} };
  const states: SnapshotExport['states'] = [];
  for (const source of sources) {
    const { state, snapshot_id: snapshot } = source;
    if (!isStateCode(state)) throw new Error(`dataset_source names an unknown state '${state}'.`);
    if (!SNAPSHOT_ID.test(snapshot)) throw new Error(`Snapshot id '${snapshot}' cannot name a folder.`);
    const written = await exportState(db, store, dataset, state, snapshot, zoom);
    states.push({ state, snapshot, ...written });
    (manifest.datasets[dataset] ??= {})[state] = {
      snapshot,
      zoom,
      ...written,
      attribution: source.attribution,
      license: source.license,
      exportedAt: new Date().toISOString(),
    };
  }
  await store.put(MANIFEST_KEY, `${JSON.stringify(manifest, null, 2)}\n`);
  return { dataset, zoom, tiles: states.reduce((sum, s) => sum + s.tiles, 0), states };
}
