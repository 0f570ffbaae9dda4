/**
 * Earthworks arithmetic bench: how long the terrain subgraph's sums take for footprints up to the
 * limits (10 000 m², 1 000 positions) on a DEM of the sandbox's 10 m cells, without the database.
 * Bounded: a fixed synthetic grid and a fixed number of runs per case.
 *
 *   node --import tsx bench/earthworks.ts [--runs 20]
 */
import { parseArgs } from 'node:util';
import type { Position } from '../core/geojson.ts';
import type { ParcelGeometry } from '../core/polygons.ts';
import { areaM2 } from '../core/polygons.ts';
import type { DemTile } from '../subgraphs/terrain/dem.ts';
import { metresPerDegree, mosaic } from '../subgraphs/terrain/dem.ts';
import { earthworks } from '../subgraphs/terrain/earthworks.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const RUNS = Number(values.runs);
const CELL_LNG = 0.4 / 3_600;
const CELL_LAT = 1 / 10_800;
const WEST = 144.3;
const NORTH = -36.7;
const M = metresPerDegree(NORTH);
const SIZE = 64;

// a 6 % slope with 2 m swells every 80 m: neither flat nor a plane the sums could shortcut
const ground = (lng: number, lat: number) => {
  const x = (lng - WEST) * M.lng;
  const y = (lat - NORTH) * M.lat;
  return 150 + 0.06 * x + 2 * Math.sin(x / 80) * Math.cos(y / 80);
};
const heights: number[] = [];
for (let r = 0; r < SIZE; r += 1) {
  for (let c = 0; c < SIZE; c += 1) heights.push(ground(WEST + (c + 0.5) * CELL_LNG, NORTH - (r + 0.5) * CELL_LAT));
}
const tile: DemTile = {
  tile_id: 'bench',
  west: WEST,
  north: NORTH,
  cell_lng: CELL_LNG,
  cell_lat: CELL_LAT,
  cols: SIZE,
  rows: SIZE,
  heights,
};
const [cx, cy] = [WEST + (SIZE / 2) * CELL_LNG, NORTH - (SIZE / 2) * CELL_LAT];
const grid = mosaic([tile], { west: cx - 0.002, south: cy - 0.002, east: cx + 0.002, north: cy + 0.002 })!;

const ring = (points: Array<[number, number]>): Extract<ParcelGeometry, { type: 'Polygon' }> => {
  const coords: Position[] = points.map(([x, y]) => [cx + x / M.lng, cy + y / M.lat]);
  return { type: 'Polygon', coordinates: [[...coords, coords[0]!]] };
};
const rect = (w: number, h: number) =>
  ring([
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ]);
const circle = (radius: number, positions: number) =>
  ring(
    Array.from({ length: positions - 1 }, (_x, i): [number, number] => {
      const a = (2 * Math.PI * i) / (positions - 1);
      return [radius * Math.cos(a), radius * Math.sin(a)];
    }),
  );

const lot = rect(160, 160);
const cases: Array<[string, Extract<ParcelGeometry, { type: 'Polygon' }>]> = [
  ['house pad 20 × 10 m', rect(20, 10)],
  ['pad 100 × 100 m (the area limit)', rect(100, 100)],
  ['circle r 56 m, 1 000 positions (both limits)', circle(56, 1_000)],
];

process.stdout.write(`earthworks arithmetic, ${RUNS} runs each (median, max), node ${process.version}\n`);
for (const [name, footprint] of cases) {
  const area = areaM2(footprint);
  const times: number[] = [];
  let samples = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const start = process.hrtime.bigint();
    const result = earthworks(grid, footprint, lot, area, null);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    samples = result?.samples ?? 0;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  process.stdout.write(
    `${name}: ${Math.round(area)} m², ${samples} samples: median ${median.toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms\n`,
  );
}
