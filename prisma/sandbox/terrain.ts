/**
 * The sandbox DEM (terrain.dem_tile): tiles of 64 x 64 cells of one regular lng/lat grid,
 * cells 0.4 by 1/3 arc-seconds (about 10 m square at Bendigo and Sydney), counted from 0° 0° so
 * every tile of a state lies on the same grid and neighbours join without seams. Tiles cover
 * each suburb's generated area plus a margin; where two suburbs' margins share a tile (only at
 * benchmark sizes, when grids grow kilometres across) the tile is written once and its heights
 * blend the two suburbs' ground, so the surface stays continuous. Suburbs without terrain
 * (Queensland's) get none, so "not covered" exists. Tiles are computed a row at a time and
 * streamed, so the DEM's cost grows with the area covered and nothing more.
 */
import { at } from './arrays.ts';
import type { Batcher } from './batcher.ts';
import type { Point } from './geometry.ts';
import type { DemTileRow, SandboxBatch } from './rows.ts';
import type { SuburbPlan } from './suburb.ts';
import type { SandboxState } from './suburbs.ts';
import type { CreekLine } from './planning.ts';
import { type Hill, type PlaneBox, SuburbTerrain } from './terrain-model.ts';

export const DEM_CELL_LNG = 0.4 / 3_600;
export const DEM_CELL_LAT = 1 / 10_800;
export const DEM_TILE_CELLS = 64;
/** Ground beyond the generated area, so contours and slopes reach its edge. */
const MARGIN_M = 200;
/** Outside its area a suburb's ground fades over about this distance where another's takes over. */
const BLEND_M = 150;
/** Past this a suburb's weight is below a millionth: its ground is not evaluated. */
const FAR_M = 5_000;

interface Tile {
  readonly tx: number;
  readonly ty: number;
}

// Both edges of a tile come from its index alone, so a tile's east edge is exactly its neighbour's west.
const westOf = (tx: number) => tx * DEM_TILE_CELLS * DEM_CELL_LNG;
const northOf = (ty: number) => -ty * DEM_TILE_CELLS * DEM_CELL_LAT;

function corners({ tx, ty }: Tile): Point[] {
  const [w, e, n, s] = [westOf(tx), westOf(tx + 1), northOf(ty), northOf(ty + 1)];
  return [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
  ];
}

function planeBox(terrain: SuburbTerrain, points: readonly Point[]): PlaneBox {
  const plane = points.map((p) => terrain.plan.frame.toPlane(p));
  const xs = plane.map(([x]) => x);
  const ys = plane.map(([, y]) => y);
  return { xMin: Math.min(...xs), xMax: Math.max(...xs), yMin: Math.min(...ys), yMax: Math.max(...ys) };
}

const gapBetween = (a: PlaneBox, b: PlaneBox): number =>
  Math.hypot(Math.max(0, a.xMin - b.xMax, b.xMin - a.xMax), Math.max(0, a.yMin - b.yMax, b.yMin - a.yMax));

/** True when the tile reaches the suburb's generated area widened by the margin. */
function reaches(terrain: SuburbTerrain, tile: Tile): boolean {
  return gapBetween(planeBox(terrain, corners(tile)), terrain.area) <= MARGIN_M;
}

/** The suburb's candidate tiles, row by row from the north: those within its margin. */
function* tileRowsOf(terrain: SuburbTerrain): Generator<Tile[]> {
  const { xMin, xMax, yMin, yMax } = terrain.area;
  const m = MARGIN_M;
  const planeCorners: Point[] = [
    [xMin - m, yMin - m],
    [xMax + m, yMin - m],
    [xMax + m, yMax + m],
    [xMin - m, yMax + m],
  ];
  const lngLats = planeCorners.map((corner) => terrain.plan.frame.project(corner));
  const lngs = lngLats.map(([lng]) => lng);
  const lats = lngLats.map(([, lat]) => lat);
  const tileLng = DEM_TILE_CELLS * DEM_CELL_LNG;
  const tileLat = DEM_TILE_CELLS * DEM_CELL_LAT;
  const [tx0, tx1] = [Math.floor(Math.min(...lngs) / tileLng), Math.floor(Math.max(...lngs) / tileLng)];
  const [ty0, ty1] = [Math.floor(-Math.max(...lats) / tileLat), Math.floor(-Math.min(...lats) / tileLat)];
  for (let ty = ty0; ty <= ty1; ty++) {
    const row: Tile[] = [];
    for (let tx = tx0; tx <= tx1; tx++) if (reaches(terrain, { tx, ty })) row.push({ tx, ty });
    yield row;
  }
}

/** One state's ground: its suburbs' terrains, blended where their margins meet. */
class StateGround {
  private readonly terrains: SuburbTerrain[];

  constructor(
    private readonly state: SandboxState,
    seed: number,
    plans: readonly SuburbPlan[],
  ) {
    this.terrains = plans.map((plan) => new SuburbTerrain(seed, plan));
  }

  *rows(out: Batcher): Generator<SandboxBatch> {
    for (const [i, terrain] of this.terrains.entries()) {
      const earlier = this.terrains.slice(0, i);
      for (const row of tileRowsOf(terrain)) {
        for (const tile of row) {
          if (!earlier.some((e) => reaches(e, tile))) out.push('dem_tile', this.tile(tile));
        }
        yield* out.drain(false);
      }
    }
  }

  private tile(tile: Tile): DemTileRow {
    const box = corners(tile);
    const parts = this.terrains
      .map((terrain) => {
        const plane = planeBox(terrain, box);
        return { terrain, plane, gap: gapBetween(plane, terrain.area) };
      })
      .sort((a, b) => a.gap - b.gap)
      .filter((part, i) => i === 0 || part.gap < FAR_M)
      .map(({ terrain, plane }) => ({
        terrain,
        near: { hills: terrain.hillsNear(plane), creeks: terrain.creeksNear(plane) },
      }));
    const west = westOf(tile.tx);
    const north = northOf(tile.ty);
    const heights: number[] = [];
    for (let row = 0; row < DEM_TILE_CELLS; row++) {
      const lat = north - (row + 0.5) * DEM_CELL_LAT;
      for (let col = 0; col < DEM_TILE_CELLS; col++) {
        const point: Point = [west + (col + 0.5) * DEM_CELL_LNG, lat];
        heights.push(Math.round(blend(parts, point) * 100) / 100);
      }
    }
    const ring = [...box, at(box, 0)].map(([lng, lat]) => `${lng} ${lat}`).join(',');
    return {
      state: this.state,
      tile_id: `r${tile.ty}c${tile.tx}`,
      west,
      north,
      cell_lng: DEM_CELL_LNG,
      cell_lat: DEM_CELL_LAT,
      cols: DEM_TILE_CELLS,
      rows: DEM_TILE_CELLS,
      heights,
      wkt: `POLYGON((${ring}))`,
    };
  }
}

type Part = { terrain: SuburbTerrain; near: { hills: readonly Hill[]; creeks: readonly CreekLine[] } };

/** A weighted mean of the suburbs' heights: each counts fully inside its area and fades outside it. */
function blend(parts: readonly Part[], point: Point): number {
  const [only] = parts;
  if (only && parts.length === 1) return only.terrain.height(point, only.near);
  let sum = 0;
  let weights = 0;
  for (const { terrain, near } of parts) {
    const outside = terrain.outside(terrain.plan.frame.toPlane(point)) / BLEND_M;
    const weight = 1 / (1 + outside ** 4);
    sum += weight * terrain.height(point, near);
    weights += weight;
  }
  return sum / weights;
}

/** Every DEM tile of the sandbox, state by state, for the suburbs that have terrain. */
export function* demRows(seed: number, plans: readonly SuburbPlan[], out: Batcher): Generator<SandboxBatch> {
  const withTerrain = plans.filter((plan) => plan.spec.terrain !== null);
  for (const state of new Set(withTerrain.map((plan) => plan.spec.state))) {
    const ground = new StateGround(
      state,
      seed,
      withTerrain.filter((plan) => plan.spec.state === state),
    );
    yield* ground.rows(out);
  }
}
