import type { Position } from '../../core/geojson.ts';
import type { Grid } from './dem.ts';

/** One traced contour: its level as a whole number of intervals, and its line in lng/lat. */
export type ContourPath = { step: number; coordinates: Position[]; closed: boolean };

/*
 * Marching squares over the grid's cells. A node is "above" a level when its height is at
 * least the level, so land exactly at a level is above it and flat land draws no line. Every
 * crossing lies on a grid edge, named by an integer: 2 * node for the edge east of the node,
 * 2 * node + 1 for the edge south of it. Both cells beside an edge name its crossing the same
 * way, so segments join into lines by edge name alone, across tile seams included.
 */

type Corner = 'top' | 'right' | 'bottom' | 'left';

/** Segments of each case (tl=8, tr=4, br=2, bl=1 above); the saddles 5 and 10 are decided apart. */
const SEGMENTS: Record<number, Array<[Corner, Corner]>> = {
  1: [['left', 'bottom']],
  2: [['bottom', 'right']],
  3: [['left', 'right']],
  4: [['top', 'right']],
  6: [['top', 'bottom']],
  7: [['left', 'top']],
  8: [['left', 'top']],
  9: [['top', 'bottom']],
  11: [['top', 'right']],
  12: [['left', 'right']],
  13: [['bottom', 'right']],
  14: [['left', 'bottom']],
};

/**
 * A saddle's two segments depend on the cell's middle (the mean of its corners): when the
 * middle is above, the two above corners are joined through it and the below ones cut off.
 */
function saddle(index: number, middleAbove: boolean): Array<[Corner, Corner]> {
  const cutTopLeftAndBottomRight: Array<[Corner, Corner]> = [
    ['left', 'top'],
    ['bottom', 'right'],
  ];
  const cutTopRightAndBottomLeft: Array<[Corner, Corner]> = [
    ['top', 'right'],
    ['left', 'bottom'],
  ];
  // 5: tr and bl above; 10: tl and br above.
  if (index === 5) return middleAbove ? cutTopLeftAndBottomRight : cutTopRightAndBottomLeft;
  return middleAbove ? cutTopRightAndBottomLeft : cutTopLeftAndBottomRight;
}

type Links = Map<number, number[]>;

function link(links: Links, a: number, b: number): void {
  const la = links.get(a);
  if (la) la.push(b);
  else links.set(a, [b]);
  const lb = links.get(b);
  if (lb) lb.push(a);
  else links.set(b, [a]);
}

/** Where a level crosses an edge, by linear interpolation between the edge's two nodes. */
function crossing(grid: Grid, edge: number, level: number): Position {
  const node = edge >> 1;
  const row = Math.floor(node / grid.cols);
  const col = node - row * grid.cols;
  const south = (edge & 1) === 1;
  const za = grid.heights[node] ?? Number.NaN;
  const zb = grid.heights[south ? node + grid.cols : node + 1] ?? Number.NaN;
  const t = (level - za) / (zb - za);
  const c = south ? col : col + t;
  const r = south ? row + t : row;
  return [grid.lng0 + c * grid.dLng, grid.lat0 - r * grid.dLat];
}

/** Walks linked edges from `start` until the line ends or comes back round. */
function walk(links: Links, start: number, seen: Set<number>): { edges: number[]; closed: boolean } {
  const edges = [start];
  seen.add(start);
  let previous = -1;
  let current = start;
  for (;;) {
    const next = (links.get(current) ?? []).find((edge) => edge !== previous && !seen.has(edge));
    if (next === undefined) break;
    seen.add(next);
    edges.push(next);
    previous = current;
    current = next;
  }
  const closed = edges.length > 2 && (links.get(current) ?? []).includes(start);
  return { edges, closed };
}

function toPath(grid: Grid, step: number, level: number, edges: number[], closed: boolean): ContourPath {
  const coordinates: Position[] = [];
  for (const edge of edges) {
    const point = crossing(grid, edge, level);
    const last = coordinates[coordinates.length - 1];
    // a node exactly at the level is met from two edges: one point, not two
    if (!last || last[0] !== point[0] || last[1] !== point[1]) coordinates.push(point);
  }
  const first = coordinates[0];
  if (closed && first) coordinates.push([first[0] ?? 0, first[1] ?? 0]);
  return { step, coordinates, closed };
}

/** Segment links of every level a cell spans, level by level (keyed by the level's step number). */
function cellLinks(grid: Grid, interval: number): Map<number, Links> {
  const byStep = new Map<number, Links>();
  const { cols, rows, heights } = grid;
  const edgeOf: Record<Corner, (node: number) => number> = {
    top: (node) => 2 * node,
    left: (node) => 2 * node + 1,
    bottom: (node) => 2 * (node + cols),
    right: (node) => 2 * (node + 1) + 1,
  };
  for (let r = 0; r < rows - 1; r += 1) {
    for (let c = 0; c < cols - 1; c += 1) {
      const node = r * cols + c;
      const tl = heights[node] ?? Number.NaN;
      const tr = heights[node + 1] ?? Number.NaN;
      const bl = heights[node + cols] ?? Number.NaN;
      const br = heights[node + cols + 1] ?? Number.NaN;
      if (Number.isNaN(tl + tr + bl + br)) continue;
      const low = Math.min(tl, tr, bl, br);
      const high = Math.max(tl, tr, bl, br);
      for (let step = Math.floor(low / interval) + 1; step * interval <= high; step += 1) {
        const level = step * interval;
        if (level <= low) continue;
        const index = (tl >= level ? 8 : 0) | (tr >= level ? 4 : 0) | (br >= level ? 2 : 0) | (bl >= level ? 1 : 0);
        const segments =
          index === 5 || index === 10 ? saddle(index, (tl + tr + bl + br) / 4 >= level) : (SEGMENTS[index] ?? []);
        let links = byStep.get(step);
        if (!links) byStep.set(step, (links = new Map<number, number[]>()));
        for (const [a, b] of segments) link(links, edgeOf[a](node), edgeOf[b](node));
      }
    }
  }
  return byStep;
}

/**
 * Contour lines of the grid at every multiple of `interval`, each joined into one continuous
 * line (or closed ring) wherever the model has heights; a line ends where the model does.
 */
export function traceContours(grid: Grid, interval: number): ContourPath[] {
  const paths: ContourPath[] = [];
  const byStep = cellLinks(grid, interval);
  for (const step of [...byStep.keys()].sort((a, b) => a - b)) {
    const links = byStep.get(step) ?? new Map<number, number[]>();
    const level = step * interval;
    const seen = new Set<number>();
    // open lines first, from either end, so no line is started in its middle
    for (const [edge, linked] of links) {
      if (linked.length === 1 && !seen.has(edge)) {
        const { edges } = walk(links, edge, seen);
        paths.push(toPath(grid, step, level, edges, false));
      }
    }
    for (const edge of links.keys()) {
      if (seen.has(edge)) continue;
      const { edges, closed } = walk(links, edge, seen);
      paths.push(toPath(grid, step, level, edges, closed));
    }
  }
  return paths;
}
