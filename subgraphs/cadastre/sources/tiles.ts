import { createHash } from 'node:crypto';
import type { Dataset } from '../../../core/context.ts';
import type { BBox, StateCode } from '../../../core/geo.ts';
import { SourceError } from '../../../core/sources/errors.ts';
import type { ParcelGeometry } from '../../../core/polygons.ts';
import type { ObjectStore } from './object-store.ts';

/**
 * The object-store mirror's layout, shared by its writer (the snapshot exporter) and its
 * reader. Keys, under any store:
 *
 *   cadastre/manifest.json                              which snapshot serves each dataset and state
 *   cadastre/<STATE>/<snapshot>/<z>/<x>/<y>.geojson     parcels whose bounding box touches the tile, whole
 *   cadastre/<STATE>/<snapshot>/coverage.geojson        where the snapshot reaches (from cadastre.coverage)
 *   cadastre/<STATE>/<snapshot>/pfi/<hh>.json           parcel_pfi -> [x, y] of a tile holding the parcel
 */
export const DEFAULT_TILE_ZOOM = 15;
export const MANIFEST_KEY = 'cadastre/manifest.json';

/** Snapshot ids name folders: letters, digits, dot, dash and underscore. */
export const SNAPSHOT_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

const snapshotPrefix = (state: string, snapshot: string) => `cadastre/${state}/${snapshot}`;
export const tileKey = (state: string, snapshot: string, z: number, x: number, y: number) =>
  `${snapshotPrefix(state, snapshot)}/${z}/${x}/${y}.geojson`;
export const coverageKey = (state: string, snapshot: string) => `${snapshotPrefix(state, snapshot)}/coverage.geojson`;
export const pfiShardKey = (state: string, snapshot: string, pfi: string) =>
  `${snapshotPrefix(state, snapshot)}/pfi/${createHash('sha1').update(pfi).digest('hex').slice(0, 2)}.json`;

/** The Web-Mercator (XYZ) tile holding a point; the exporter's SQL computes the same. */
export function tileOf(lng: number, lat: number, zoom: number): { x: number; y: number } {
  const n = 2 ** zoom;
  const rad = (lat * Math.PI) / 180;
  return {
    x: Math.floor(((lng + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}

export function tilesOfBox(box: BBox, zoom: number): Array<{ x: number; y: number }> {
  const nw = tileOf(box.west, box.north, zoom);
  const se = tileOf(box.east, box.south, zoom);
  const tiles = [];
  for (let x = nw.x; x <= se.x; x += 1) for (let y = nw.y; y <= se.y; y += 1) tiles.push({ x, y });
  return tiles;
}

/** One state's snapshot in the store, with the credit of the data it was exported from. */
export type StateSnapshot = {
  snapshot: string;
  zoom: number;
  tiles: number;
  parcels: number;
  attribution: string;
  license: string;
  exportedAt: string;
};

export type SnapshotManifest = {
  format: 1;
  datasets: Partial<Record<Dataset, Partial<Record<StateCode, StateSnapshot>>>>;
};

export type TileProperties = {
  parcel_pfi: string;
  parcel_spi: string | null;
  parcel_lot_number: string | null;
  parcel_plan_number: string | null;
  ezi_address: string | null;
  area_m2: number;
  /** A point on the parcel, [lng, lat]. */
  inside: [number, number];
};
export type TileFeature = {
  bbox: [number, number, number, number];
  geometry: ParcelGeometry;
  properties: TileProperties;
};

const decoder = new TextDecoder();

/** An object of the store as JSON; null when absent. */
export async function readJson<T>(store: ObjectStore, key: string): Promise<T | null> {
  let bytes: Uint8Array | null;
  try {
    bytes = await store.get(key);
  } catch (error) {
    throw new SourceError('storage', `The object-store mirror could not read ${key}.`, { cause: error });
  }
  if (bytes === null) return null;
  try {
    return JSON.parse(decoder.decode(bytes)) as T;
  } catch (error) {
    throw new SourceError('storage', `The object-store mirror holds a corrupt ${key}.`, { cause: error });
  }
}
