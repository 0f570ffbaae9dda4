import type { BBox } from '../../core/geo.ts';
import type { GeoJSONGeometry, Position } from '../../core/geojson.ts';
import { traceContours } from './contours.ts';
import type { Grid } from './dem.ts';
import { cellSizeMetres } from './dem.ts';
import { clipLine, simplify } from './lines.ts';
import type { ContourStyle } from './zoom.ts';
import { INDEX_EVERY } from './zoom.ts';

/** One level's contour within the window: a LineString, or a MultiLineString of its pieces. */
export type ContourLineModel = { elevation_m: number; index: boolean; geometry: GeoJSONGeometry };

export type ContourLines = { cell_size_m: number; contours: ContourLineModel[] };

/** Nodes held for one window at most (32 MB of heights): a finer model is read every n-th node. */
export const MAX_CONTOUR_NODES = 4_000_000;

const round7 = (value: number) => Math.round(value * 1e7) / 1e7;
const rounded = (line: Position[]): Position[] => line.map((p) => [round7(p[0] ?? 0), round7(p[1] ?? 0)]);

/** A ring smaller than the tolerance collapses under simplification: nothing a map could show. */
function drawable(line: Position[], closed: boolean): boolean {
  if (closed) return line.length >= 4;
  return line.length >= 2;
}

/**
 * The contour lines of a window: traced over the grid (which reaches a cell beyond the window),
 * cut at the window's edges, simplified to half a pixel at the zoom, one feature per level.
 */
export function contourLines(grid: Grid, window: BBox, style: ContourStyle): ContourLines {
  const byStep = new Map<number, Position[][]>();
  for (const path of traceContours(grid, style.interval_m)) {
    for (const piece of clipLine(path.coordinates, path.closed, window)) {
      const ring = path.closed && piece[0] === path.coordinates[0] && piece.length === path.coordinates.length;
      const line = rounded(simplify(piece, style.tolerance_m));
      if (!drawable(line, ring)) continue;
      const lines = byStep.get(path.step);
      if (lines) lines.push(line);
      else byStep.set(path.step, [line]);
    }
  }
  const contours = [...byStep.entries()]
    .sort(([a], [b]) => a - b)
    .map(([step, lines]): ContourLineModel => {
      const [only] = lines;
      return {
        elevation_m: step * style.interval_m,
        index: step % INDEX_EVERY === 0,
        geometry:
          lines.length === 1 && only
            ? { type: 'LineString', coordinates: only }
            : { type: 'MultiLineString', coordinates: lines },
      };
    });
  return {
    cell_size_m: Math.round(cellSizeMetres(grid, (window.south + window.north) / 2) * 100) / 100,
    contours,
  };
}
