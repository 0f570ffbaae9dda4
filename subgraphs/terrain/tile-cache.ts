import type { Database } from '../../core/db.ts';
import type { DemTile } from './dem.ts';

/**
 * The DEM tiles a process has decoded, so a call reads a tile's heights from the database only
 * once per version of the tile. A whole-graph call reads the one to four tiles under its parcel:
 * 4,096 heights each, about 98 KB as the driver receives them, which was a quarter of
 * PostgreSQL's CPU per call and, decoded, a good part of the facade's garbage.
 *
 * The statement still finds the tiles and returns their header every call (so what a call sees
 * is what the database holds); it only leaves out the heights of a tile this process already
 * holds at the same row version (`xmin`, which any UPDATE or re-insert of the row changes). A
 * re-ingested tile therefore comes back whole and replaces the held one in the same call.
 *
 * Bounded by tile count (MAX_HELD_TILES of 4,096 heights: about 32 MB of Float64Array), least
 * recently used out first; one per database handle, since row versions are the database's own.
 * 256 held too few for the 1,000,000-parcel bench, whose 1,000 parcels touch several hundred of its
 * 1,680 tiles in turn: an LRU smaller than such a cycle holds nothing when it comes round again.
 */
export const MAX_HELD_TILES = 1024;

export type HeldTile = { dataset: string; state: string; version: string; tile: DemTile };

/** What a statement may skip: the held tiles near the windows, as parallel arrays for the SQL, and by heldKey. */
export type KnownTiles = { states: string[]; ids: string[]; versions: string[]; byKey: Map<string, HeldTile> };

export class DemTileCache {
  // A Map iterates in insertion order; re-inserting on use keeps the least recently used first.
  private readonly held = new Map<string, HeldTile>();
  // The same tiles by dataset and state, so a call looks only at its own state's tiles.
  private readonly byState = new Map<string, Map<string, HeldTile>>();

  constructor(private readonly max = MAX_HELD_TILES) {}

  get size(): number {
    return this.held.size;
  }

  /**
   * The held tiles of a dataset's states that come within `margin` degrees of any window: a
   * superset of the tiles the statement will return is harmless (it skips only tiles it finds).
   */
  known(
    dataset: string,
    windows: ReadonlyArray<{ state: string; west: number; south: number; east: number; north: number }>,
    margin: number,
  ): KnownTiles {
    const known: KnownTiles = { states: [], ids: [], versions: [], byKey: new Map() };
    for (const state of new Set(windows.map((w) => w.state))) {
      const ofState = this.byState.get(stateKey(dataset, state));
      if (!ofState) continue;
      for (const held of ofState.values()) {
        const { tile } = held;
        const east = tile.west + tile.cols * tile.cell_lng;
        const south = tile.north - tile.rows * tile.cell_lat;
        const near = windows.some(
          (w) =>
            w.state === state &&
            tile.west - margin <= w.east &&
            east + margin >= w.west &&
            south - margin <= w.north &&
            tile.north + margin >= w.south,
        );
        if (!near) continue;
        known.states.push(state);
        known.ids.push(tile.tile_id);
        known.versions.push(held.version);
        known.byKey.set(heldKey(dataset, state, tile.tile_id), held);
      }
    }
    return known;
  }

  /** A tile the statement returned whole: held from now on, as the most recently used. */
  hold(dataset: string, state: string, version: string, tile: DemTile): void {
    const key = heldKey(dataset, state, tile.tile_id);
    this.forget(key);
    if (this.held.size >= this.max) {
      const oldest = this.held.keys().next();
      if (!oldest.done) this.forget(oldest.value);
    }
    const held = { dataset, state, version, tile };
    this.held.set(key, held);
    const ofState = this.byState.get(stateKey(dataset, state)) ?? new Map<string, HeldTile>();
    ofState.set(tile.tile_id, held);
    this.byState.set(stateKey(dataset, state), ofState);
  }

  /** Marks a held tile the statement skipped as just used. */
  touch(dataset: string, state: string, tileId: string): void {
    const key = heldKey(dataset, state, tileId);
    const held = this.held.get(key);
    if (!held) return;
    this.held.delete(key);
    this.held.set(key, held);
  }

  private forget(key: string): void {
    const held = this.held.get(key);
    if (!held) return;
    this.held.delete(key);
    const ofState = this.byState.get(stateKey(held.dataset, held.state));
    ofState?.delete(held.tile.tile_id);
    if (ofState?.size === 0) this.byState.delete(stateKey(held.dataset, held.state));
  }
}

const stateKey = (dataset: string, state: string) => `${dataset}\u0000${state}`;

export function heldKey(dataset: string, state: string, tileId: string): string {
  return `${stateKey(dataset, state)}\u0000${tileId}`;
}

const caches = new WeakMap<Database, DemTileCache>();

/** The tile cache of a database handle (one per handle: row versions are that database's own). */
export function demTileCache(db: Database): DemTileCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new DemTileCache();
    caches.set(db, cache);
  }
  return cache;
}
