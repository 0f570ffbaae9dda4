/**
 * The street grid of one suburb in its own axes: through streets run along u, cross streets
 * along v, and between them blocks of two back-to-back rows of lots. Road reserves are the
 * strips between blocks; no parcel is ever placed in them.
 */
import { at, last } from './arrays.ts';
import type { Rng } from './random.ts';

export const ROAD_HALF_WIDTH = 10;
/** The main street's reserve is wider: it carries the shops, parking and often a median. */
export const MAIN_ROAD_HALF_WIDTH = 15;

const BLOCK_WIDTHS: ReadonlyArray<readonly [number, number]> = [
  [120, 1],
  [150, 2],
  [180, 3],
  [210, 2],
  [240, 1],
];
const AVERAGE_LOTS_PER_BLOCK = 21;

/** Through streets run along u (one per row line), cross streets along v (one per column line). */
export type Axis = 'through' | 'cross';

export interface BlockRow {
  /** Street edge the bottom lot row fronts. */
  readonly v0: number;
  /** The back fence line between the two lot rows. */
  readonly mid: number;
  /** Street edge the top lot row fronts. */
  readonly v1: number;
}

export interface BlockCol {
  readonly u0: number;
  readonly u1: number;
}

export interface Grid {
  readonly cols: readonly BlockCol[];
  readonly rows: readonly BlockRow[];
  /** Centrelines of the cross streets, one more than the columns, ascending. */
  readonly crossCentres: readonly number[];
  /** Centrelines of the through streets, one more than the rows, ascending. */
  readonly streetCentres: readonly number[];
  readonly streetHalfWidths: readonly number[];
  /** Index of the main through street in streetCentres. */
  readonly mainStreet: number;
  readonly centreCol: number;
  /** Outer edges of the perimeter roads: the extent of the generated area. */
  readonly bounds: { readonly uMin: number; readonly uMax: number; readonly vMin: number; readonly vMax: number };
}

/** Rows and columns for about `parcels` lots, roughly square on the ground. */
export function gridShape(parcels: number): { cols: number; rows: number } {
  const blocks = Math.max(1, parcels / AVERAGE_LOTS_PER_BLOCK);
  const aspect = (180 + 2 * ROAD_HALF_WIDTH) / (73 + 2 * ROAD_HALF_WIDTH);
  const cols = Math.max(3, Math.round(Math.sqrt(blocks / aspect)));
  const rows = Math.max(4, Math.round(blocks / cols));
  return { cols, rows };
}

export function buildGrid(rng: Rng, parcels: number): Grid {
  const shape = gridShape(parcels);
  const mainStreet = Math.floor(shape.rows / 2);
  const halfWidth = (r: number) => (r === mainStreet ? MAIN_ROAD_HALF_WIDTH : ROAD_HALF_WIDTH);
  const widths = Array.from({ length: shape.cols }, () => rng.weighted(BLOCK_WIDTHS));
  const depths = Array.from({ length: shape.rows }, () => [rng.int(28, 45), rng.int(28, 45)] as const);

  // running sums of blocks and roads, then shifted so the layout centres on the suburb's centre
  let u = 0;
  const crossRaw = [0, ...widths.map((width) => (u += width + 2 * ROAD_HALF_WIDTH))];
  let v = 0;
  const streetRaw = [0, ...depths.map(([bottom, top], r) => (v += halfWidth(r) + bottom + top + halfWidth(r + 1)))];
  const crossCentres = crossRaw.map((x) => x - u / 2);
  const streetCentres = streetRaw.map((y) => y - v / 2);

  const cols = widths.map((_, j) => ({
    u0: at(crossCentres, j) + ROAD_HALF_WIDTH,
    u1: at(crossCentres, j + 1) - ROAD_HALF_WIDTH,
  }));
  const rows = depths.map(([bottom], r) => {
    const v0 = at(streetCentres, r) + halfWidth(r);
    return { v0, mid: v0 + bottom, v1: at(streetCentres, r + 1) - halfWidth(r + 1) };
  });

  return {
    cols,
    rows,
    crossCentres,
    streetCentres,
    streetHalfWidths: streetCentres.map((_, r) => halfWidth(r)),
    mainStreet,
    centreCol: Math.floor(shape.cols / 2),
    bounds: {
      uMin: at(crossCentres, 0) - ROAD_HALF_WIDTH,
      uMax: last(crossCentres) + ROAD_HALF_WIDTH,
      vMin: at(streetCentres, 0) - halfWidth(0),
      vMax: last(streetCentres) + halfWidth(shape.rows),
    },
  };
}

/** Every v at which a shape edge may bend: street edges and centrelines, and lot-row lines. */
export function shearLevels(grid: Grid): number[] {
  const levels = grid.streetCentres.flatMap((v, r) => {
    const half = at(grid.streetHalfWidths, r);
    return [v - half, v, v + half];
  });
  return [...levels, ...grid.rows.map((row) => row.mid)];
}

/** The middle of a street segment's centreline that fronts blocks `from` to `to` of its line. */
export function streetMidpoint(grid: Grid, axis: Axis, line: number, from: number, to: number): [number, number] {
  if (axis === 'through') return [(at(grid.cols, from).u0 + at(grid.cols, to).u1) / 2, at(grid.streetCentres, line)];
  return [at(grid.crossCentres, line), (at(grid.rows, from).v0 + at(grid.rows, to).v1) / 2];
}
