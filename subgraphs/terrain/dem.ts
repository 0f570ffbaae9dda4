import type { BBox } from '../../core/geo.ts';

/** One tile of a state's DEM as stored (migration 0005): heights row by row from the north-west corner. */
export type DemTile = {
  tile_id: string;
  west: number;
  north: number;
  cell_lng: number;
  cell_lat: number;
  cols: number;
  rows: number;
  /** Metres AHD; a NULL or NaN (no survey) is a hole in the model. */
  heights: ArrayLike<number | null>;
};

/**
 * Heights on a regular lng/lat lattice of cell centres: node (row, col) stands at
 * (lng0 + col * dLng, lat0 - row * dLat), rows running south. NaN where no tile reaches.
 */
export type Grid = {
  lng0: number;
  lat0: number;
  dLng: number;
  dLat: number;
  cols: number;
  rows: number;
  heights: Float64Array;
};

/** Height and its gradient, in metres per degree (dzdLat positive northwards). */
export type Sample = { z: number; dzdLng: number; dzdLat: number };

const A = 6378137;
const E2 = 0.00669437999014;
const DEG = Math.PI / 180;

/** Metres in one degree of longitude and of latitude at a latitude, on the WGS84 ellipsoid. */
export function metresPerDegree(lat: number): { lng: number; lat: number } {
  const phi = lat * DEG;
  const w = Math.sqrt(1 - E2 * Math.sin(phi) ** 2);
  return { lng: (DEG * A * Math.cos(phi)) / w, lat: (DEG * A * (1 - E2)) / w ** 3 };
}

/** Spacing of the grid's nodes on the ground: the side of a square of a cell's area. */
export function cellSizeMetres(grid: Grid, lat: number): number {
  const m = metresPerDegree(lat);
  return Math.sqrt(grid.dLng * m.lng * grid.dLat * m.lat);
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
const integral = (value: number) => Math.abs(value - Math.round(value)) < 1e-6;

/**
 * The tiles that share the lattice of the finest one. Tiles of one dataset and state share a
 * grid; should a state ever mix resolutions, the finest wins rather than a blend of two grids.
 */
function onOneLattice(tiles: readonly DemTile[]): { ref: DemTile; tiles: DemTile[] } | null {
  const sorted = [...tiles].sort(
    (a, b) => a.cell_lng * a.cell_lat - b.cell_lng * b.cell_lat || (a.tile_id < b.tile_id ? -1 : 1),
  );
  const ref = sorted[0];
  if (!ref) return null;
  const same = sorted.filter(
    (t) =>
      near(t.cell_lng, ref.cell_lng) &&
      near(t.cell_lat, ref.cell_lat) &&
      integral((t.west - ref.west) / ref.cell_lng) &&
      integral((ref.north - t.north) / ref.cell_lat),
  );
  return { ref, tiles: same };
}

/** Whether a tile's extent (cell edges, not centres) meets the window. */
const reaches = (t: DemTile, w: BBox) =>
  t.west <= w.east &&
  t.west + t.cols * t.cell_lng >= w.west &&
  t.north >= w.south &&
  t.north - t.rows * t.cell_lat <= w.north;

export type MosaicOptions = {
  /** Nodes kept beyond the window on every side, for slopes and lines that leave it. */
  margin?: number;
  /** Above this many nodes every step-th node is kept instead, so memory stays bounded. */
  maxNodes?: number;
};

/**
 * The DEM nodes around a window as one grid, across tile seams: every tile is placed on the
 * lattice of the finest tile by its offset in whole cells, so neighbours join without a gap.
 * Null when no tile reaches into the window itself.
 */
export function mosaic(tiles: readonly DemTile[], window: BBox, options: MosaicOptions = {}): Grid | null {
  const lattice = onOneLattice(tiles);
  // tiles merely within the margin serve slopes and line ends, but do not cover the window
  if (!lattice?.tiles.some((t) => reaches(t, window))) return null;
  const { ref } = lattice;
  const margin = options.margin ?? 1;
  const lng0 = ref.west + ref.cell_lng / 2;
  const lat0 = ref.north - ref.cell_lat / 2;
  const placed = lattice.tiles.map((t) => ({
    t,
    col: Math.round((t.west - ref.west) / ref.cell_lng),
    row: Math.round((ref.north - t.north) / ref.cell_lat),
  }));
  const c0 = Math.max(Math.floor((window.west - lng0) / ref.cell_lng) - margin, Math.min(...placed.map((p) => p.col)));
  const c1 = Math.min(
    Math.floor((window.east - lng0) / ref.cell_lng) + 1 + margin,
    Math.max(...placed.map((p) => p.col + p.t.cols - 1)),
  );
  const r0 = Math.max(Math.floor((lat0 - window.north) / ref.cell_lat) - margin, Math.min(...placed.map((p) => p.row)));
  const r1 = Math.min(
    Math.floor((lat0 - window.south) / ref.cell_lat) + 1 + margin,
    Math.max(...placed.map((p) => p.row + p.t.rows - 1)),
  );
  if (c1 < c0 || r1 < r0) return null;
  const nodes = (c1 - c0 + 1) * (r1 - r0 + 1);
  const step = options.maxNodes && nodes > options.maxNodes ? Math.ceil(Math.sqrt(nodes / options.maxNodes)) : 1;
  const cols = Math.floor((c1 - c0) / step) + 1;
  const rows = Math.floor((r1 - r0) / step) + 1;
  const heights = new Float64Array(cols * rows).fill(Number.NaN);
  for (const { t, col, row } of placed) {
    const jFrom = Math.ceil((Math.max(c0, col) - c0) / step);
    const jTo = Math.floor((Math.min(c1, col + t.cols - 1) - c0) / step);
    const iFrom = Math.ceil((Math.max(r0, row) - r0) / step);
    const iTo = Math.floor((Math.min(r1, row + t.rows - 1) - r0) / step);
    for (let i = iFrom; i <= iTo; i += 1) {
      const tileRow = r0 + i * step - row;
      for (let j = jFrom; j <= jTo; j += 1) {
        const value = t.heights[tileRow * t.cols + (c0 + j * step - col)];
        if (value !== undefined && value !== null) heights[i * cols + j] = value;
      }
    }
  }
  return {
    lng0: lng0 + c0 * ref.cell_lng,
    lat0: lat0 - r0 * ref.cell_lat,
    dLng: ref.cell_lng * step,
    dLat: ref.cell_lat * step,
    cols,
    rows,
    heights,
  };
}

export function heightAt(grid: Grid, row: number, col: number): number {
  if (row < 0 || col < 0 || row >= grid.rows || col >= grid.cols) return Number.NaN;
  return grid.heights[row * grid.cols + col] ?? Number.NaN;
}

/**
 * Horn's (1981) gradient at a node: the 3×3 neighbourhood, the four nearest weighted twice.
 * Where the model stops, a missing neighbour takes the value the plane through its present
 * neighbours gives (an edge one from its opposite, a corner from the two edges beside it), so
 * slopes at the model's edge stay true on even ground instead of flattening.
 */
export function hornGradient(grid: Grid, row: number, col: number): Sample | null {
  const z = heightAt(grid, row, col);
  if (Number.isNaN(z)) return null;
  const at = (dr: number, dc: number) => heightAt(grid, row + dr, col + dc);
  const side = (dr: number, dc: number) => {
    const value = at(dr, dc);
    if (!Number.isNaN(value)) return value;
    const opposite = at(-dr, -dc);
    return Number.isNaN(opposite) ? z : 2 * z - opposite;
  };
  const n = side(-1, 0);
  const s = side(1, 0);
  const e = side(0, 1);
  const w = side(0, -1);
  const corner = (dr: number, dc: number) => {
    const value = at(dr, dc);
    return Number.isNaN(value) ? (dr < 0 ? n : s) + (dc < 0 ? w : e) - z : value;
  };
  const [nw, ne, sw, se] = [corner(-1, -1), corner(-1, 1), corner(1, -1), corner(1, 1)];
  return {
    z,
    dzdLng: (ne + 2 * e + se - (nw + 2 * w + sw)) / (8 * grid.dLng),
    dzdLat: (nw + 2 * n + ne - (sw + 2 * s + se)) / (8 * grid.dLat),
  };
}

/**
 * Height and gradient at any point, bilinear between the four surrounding nodes (exact on a
 * plane). Points in the half cell between the outermost nodes and the tile's edge take the
 * values of the nearest cell; null off the grid or where a surrounding node has no height.
 */
export function bilinear(grid: Grid, lng: number, lat: number): Sample | null {
  const fc = (lng - grid.lng0) / grid.dLng;
  const fr = (grid.lat0 - lat) / grid.dLat;
  if (fc < -0.5 || fr < -0.5 || fc > grid.cols - 0.5 || fr > grid.rows - 0.5) return null;
  const c = Math.min(Math.max(Math.floor(fc), 0), Math.max(grid.cols - 2, 0));
  const r = Math.min(Math.max(Math.floor(fr), 0), Math.max(grid.rows - 2, 0));
  const tx = grid.cols > 1 ? Math.min(Math.max(fc - c, 0), 1) : 0;
  const ty = grid.rows > 1 ? Math.min(Math.max(fr - r, 0), 1) : 0;
  const z00 = heightAt(grid, r, c);
  const z01 = grid.cols > 1 ? heightAt(grid, r, c + 1) : z00;
  const z10 = grid.rows > 1 ? heightAt(grid, r + 1, c) : z00;
  const z11 = grid.cols > 1 && grid.rows > 1 ? heightAt(grid, r + 1, c + 1) : grid.cols > 1 ? z01 : z10;
  if ([z00, z01, z10, z11].some(Number.isNaN)) return null;
  const z = (1 - tx) * (1 - ty) * z00 + tx * (1 - ty) * z01 + (1 - tx) * ty * z10 + tx * ty * z11;
  const dzdx = (1 - ty) * (z01 - z00) + ty * (z11 - z10);
  const dzdy = (1 - tx) * (z10 - z00) + tx * (z11 - z01);
  return { z, dzdLng: dzdx / grid.dLng, dzdLat: -dzdy / grid.dLat };
}
