import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Dataset } from '../../../core/context.ts';
import type { BBox, StateCode } from '../../../core/geo.ts';
import type { Provenance } from '../../../core/layer.ts';
import type { ParcelRow } from '../sql.ts';
import type { ParcelGeometry } from '../../../core/polygons.ts';
import { boxWithin, containsPoint, intersectsBox } from '../../../core/polygons.ts';
import type { SnapshotManifest, StateSnapshot, TileFeature } from './tiles.ts';
import { MANIFEST_KEY, coverageKey, pfiShardKey, readJson, tileKey, tileOf, tilesOfBox } from './tiles.ts';

/**
 * The object-store mirror: parcel snapshots cut into Web-Mercator tiles, one GeoJSON object
 * per tile (layout in tiles.ts), asked where the database mirror does not reach. The store is
 * a folder today; anything with `get` and `put` by key (an S3-compatible bucket) can take its place.
 */
export interface ObjectStore {
  /** The object's bytes, or null when there is no such object. */
  get(key: string): Promise<Uint8Array | null>;
  put(key: string, body: Uint8Array | string): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** An object store in a folder: keys are relative paths; a write lands whole or not at all. */
export class FileObjectStore implements ObjectStore {
  constructor(readonly root: string) {}

  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`Invalid object key '${key}'.`);
    return join(this.root, ...key.split('/'));
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async put(key: string, body: Uint8Array | string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    await writeFile(partial, body);
    await rename(partial, path);
  }
}

/** The objects read last, kept for the process: neighbouring lookups read a tile once. */
class Recent<T> {
  private readonly entries = new Map<string, Promise<T>>();
  constructor(private readonly size: number) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
    } else {
      entry = load();
      entry.catch(() => this.entries.delete(key));
    }
    this.entries.set(key, entry);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}

const MANIFEST_TTL_MS = 30_000;
type Located = { state: StateCode; snap: StateSnapshot; provenance: Provenance; coverage: ParcelGeometry[] };

/** Reads the snapshot tiles: exact point-in-polygon and window tests in TypeScript. */
export class ObjectStoreMirror {
  private manifest: { value: Promise<SnapshotManifest | null>; at: number } | undefined;
  private readonly tiles = new Recent<TileFeature[]>(256);
  private readonly coverages = new Recent<ParcelGeometry[]>(32);
  private readonly shards = new Recent<Record<string, [number, number]>>(64);

  constructor(readonly store: ObjectStore) {}

  private async locate(dataset: Dataset, state: StateCode): Promise<Located | undefined> {
    if (!this.manifest || Date.now() - this.manifest.at > MANIFEST_TTL_MS) {
      this.manifest = { value: readJson<SnapshotManifest>(this.store, MANIFEST_KEY), at: Date.now() };
      this.manifest.value.catch(() => (this.manifest = undefined));
    }
    const snap = (await this.manifest.value)?.datasets[dataset]?.[state];
    if (!snap) return undefined;
    const coverage = await this.coverages.get(`${state}/${snap.snapshot}`, async () => {
      const collection = await readJson<{ features: Array<{ geometry: ParcelGeometry }> }>(
        this.store,
        coverageKey(state, snap.snapshot),
      );
      return (collection?.features ?? []).map((f) => f.geometry);
    });
    const provenance = {
      attribution: snap.attribution,
      license: snap.license,
      source: `object-store:${state.toLowerCase()}/cadastre@${snap.snapshot}`,
      // the exported snapshot dates itself
      freshness: snap.exportedAt.slice(0, 10),
    };
    return { state, snap, provenance, coverage };
  }

  private tile(at: Located, x: number, y: number): Promise<TileFeature[]> {
    const key = tileKey(at.state, at.snap.snapshot, at.snap.zoom, x, y);
    return this.tiles.get(
      key,
      async () => (await readJson<{ features: TileFeature[] }>(this.store, key))?.features ?? [],
    );
  }

  /** The parcel under a point; undefined when no snapshot reaches the point. */
  async atPoint(
    dataset: Dataset,
    state: StateCode,
    lng: number,
    lat: number,
  ): Promise<{ parcel: ParcelRow | null; provenance: Provenance } | undefined> {
    const at = await this.locate(dataset, state);
    if (!at || !at.coverage.some((area) => containsPoint(area, lng, lat))) return undefined;
    const { x, y } = tileOf(lng, lat, at.snap.zoom);
    const hits = (await this.tile(at, x, y)).filter(
      (f) =>
        lng >= f.bbox[0] &&
        lng <= f.bbox[2] &&
        lat >= f.bbox[1] &&
        lat <= f.bbox[3] &&
        containsPoint(f.geometry, lng, lat),
    );
    const first = hits.sort((a, b) => compare(a.properties.parcel_pfi, b.properties.parcel_pfi))[0];
    return { parcel: first ? toParcelRow(first, state) : null, provenance: at.provenance };
  }

  /** A parcel by PFI; undefined when no snapshot of the state holds it. */
  async byPfi(
    dataset: Dataset,
    state: StateCode,
    pfi: string,
  ): Promise<{ parcel: ParcelRow; provenance: Provenance } | undefined> {
    const at = await this.locate(dataset, state);
    if (!at) return undefined;
    const key = pfiShardKey(state, at.snap.snapshot, pfi);
    const shard = await this.shards.get(key, async () => (await readJson(this.store, key)) ?? {});
    const tile = Object.hasOwn(shard, pfi) ? shard[pfi] : undefined;
    if (!tile) return undefined;
    const feature = (await this.tile(at, tile[0], tile[1])).find((f) => f.properties.parcel_pfi === pfi);
    return feature ? { parcel: toParcelRow(feature, state), provenance: at.provenance } : undefined;
  }

  /**
   * Parcels genuinely intersecting a window (at most `limit + 1`, by PFI), and whether the
   * snapshot holds the whole window or only part of it; undefined when it reaches none of it.
   */
  async inBBox(
    dataset: Dataset,
    state: StateCode,
    box: BBox,
    limit: number,
  ): Promise<{ holds: boolean; features: ParcelRow[]; provenance: Provenance } | undefined> {
    const at = await this.locate(dataset, state);
    if (!at || !at.coverage.some((area) => intersectsBox(area, box))) return undefined;
    const found = new Map<string, TileFeature>();
    for (const { x, y } of tilesOfBox(box, at.snap.zoom)) {
      for (const f of await this.tile(at, x, y)) {
        if (!found.has(f.properties.parcel_pfi) && intersectsBox(f.geometry, box))
          found.set(f.properties.parcel_pfi, f);
      }
    }
    const features = [...found.values()]
      .sort((a, b) => compare(a.properties.parcel_pfi, b.properties.parcel_pfi))
      .slice(0, limit + 1)
      .map((f) => toParcelRow(f, state));
    return { holds: at.coverage.some((area) => boxWithin(box, area)), features, provenance: at.provenance };
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function toParcelRow(feature: TileFeature, state: StateCode): ParcelRow {
  const { inside, ...properties } = feature.properties;
  return { ...properties, state, geometry: feature.geometry, inside_lng: inside[0], inside_lat: inside[1] };
}

export type { SnapshotExport } from './snapshot-export.ts';
export { exportCadastreSnapshot } from './snapshot-export.ts';
