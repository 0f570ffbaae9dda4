import { describe, expect, it } from 'vitest';
import type { BBox } from '../core/geo.ts';
import type { Position } from '../core/geojson.ts';
import { contourLines } from '../subgraphs/terrain/contour-set.ts';
import { traceContours } from '../subgraphs/terrain/contours.ts';
import type { DemTile, Grid } from '../subgraphs/terrain/dem.ts';
import { metresPerDegree, mosaic } from '../subgraphs/terrain/dem.ts';
import { clipLine } from '../subgraphs/terrain/lines.ts';
import type { TerrainPolygon } from '../subgraphs/terrain/polygon.ts';
import { assertTerrainPolygon, bboxPolygon } from '../subgraphs/terrain/polygon.ts';
import { terrainStats } from '../subgraphs/terrain/stats.ts';
import { contourInterval, contourStyle, zoomForWindow } from '../subgraphs/terrain/zoom.ts';
import { DemTileCache, heldKey } from '../subgraphs/terrain/tile-cache.ts';

type Surface = (lng: number, lat: number) => number;
const W = 144.3;
const N = -36.7;
const CELL = 0.0001;

/** tilesX × tilesY tiles of size × size cells sampling a surface at their cell centres (migration 0005's layout). */
function demTiles(surface: Surface, size: number, tilesX = 1, tilesY = 1): DemTile[] {
  const tiles: DemTile[] = [];
  for (let ty = 0; ty < tilesY; ty += 1) {
    for (let tx = 0; tx < tilesX; tx += 1) {
      const west = W + tx * size * CELL;
      const north = N - ty * size * CELL;
      const heights: number[] = [];
      for (let r = 0; r < size; r += 1) {
        for (let c = 0; c < size; c += 1) heights.push(surface(west + (c + 0.5) * CELL, north - (r + 0.5) * CELL));
      }
      tiles.push({
        tile_id: `t${tx}${ty}`,
        west,
        north,
        cell_lng: CELL,
        cell_lat: CELL,
        cols: size,
        rows: size,
        heights,
      });
    }
  }
  return tiles;
}

const M = metresPerDegree(N);
const metres = (lng0: number, lat0: number) => (p: Position) => [
  ((p[0] ?? 0) - lng0) * M.lng,
  ((p[1] ?? 0) - lat0) * M.lat,
];
/** A plane rising `east` and `north` metres per metre from `base` at (lng0, lat0): linear in lng and lat. */
const plane =
  (lng0: number, lat0: number, base: number, east: number, north: number): Surface =>
  (lng, lat) =>
    base + east * (lng - lng0) * M.lng + north * (lat - lat0) * M.lat;
const cone =
  (lng0: number, lat0: number, top: number, fall: number): Surface =>
  (lng, lat) =>
    top - fall * Math.hypot((lng - lng0) * M.lng, (lat - lat0) * M.lat);

const box = (west: number, south: number, east: number, north: number): BBox => ({ west, south, east, north });
const gridOf = (tiles: DemTile[], window: BBox): Grid => {
  const grid = mosaic(tiles, window);
  if (!grid) throw new Error('no grid');
  return grid;
};
const linesOf = (geometry: { type: string; coordinates: unknown }): Position[][] =>
  geometry.type === 'LineString' ? [geometry.coordinates as Position[]] : (geometry.coordinates as Position[][]);

describe('the ellipsoid and the zoom rules', () => {
  it('measures degrees on WGS84: 110 574 m of latitude and 111 319 m of longitude at the equator, 78 847 m of longitude at 45°', () => {
    expect(metresPerDegree(0).lat).toBeCloseTo(110574.3, 0);
    expect(metresPerDegree(0).lng).toBeCloseTo(111319.5, 0);
    expect(metresPerDegree(45).lng).toBeCloseTo(78846.8, 0);
    expect(metresPerDegree(45).lat).toBeCloseTo(111131.7, 0);
  });

  it('spaces contours 1 m from zoom 17, 2 m at 16, 5 m at 14-15 and 10 m below, and picks the zoom a window fills 1024 pixels at', () => {
    expect([22, 17, 16, 15, 14, 13, 0].map(contourInterval)).toEqual([1, 1, 2, 5, 5, 10, 10]);
    expect(zoomForWindow(box(144, -37, 144.1, -36.95))).toBe(13);
    expect(zoomForWindow(box(144, -37, 144.01, -36.995))).toBe(17);
    const style = contourStyle(box(144, -37, 144.01, -36.995), null);
    expect(style).toMatchObject({ zoom: 17, zoom_source: 'window', interval_m: 1, index_interval_m: 5 });
    // half a 256-pixel tile's pixel at zoom 17 and latitude 37°: 0.5 × 40 075 017 m × cos 37° / 2^25
    expect(style.tolerance_m).toBeCloseTo(0.477, 3);
    expect(contourStyle(box(144, -37, 144.01, -36.995), 14)).toMatchObject({ zoom_source: 'given', interval_m: 5 });
  });
});

describe('contours', () => {
  it("draws a plane's contours as straight parallel lines at interval / gradient apart, each one line across the tile seams", () => {
    // 3.2 m per 100 m east and 2.4 per 100 m north: 4 % up towards the ENE, 1 m contours 25 m apart
    const tiles = demTiles(plane(W, N, 100, 0.032, 0.024), 20, 2, 2);
    const window = box(W + 0.0003, N - 0.0037, W + 0.0037, N - 0.0003);
    const { contours } = contourLines(gridOf(tiles, window), window, { ...contourStyle(window, 17), tolerance_m: 0 });
    expect(contours.length).toBeGreaterThan(5);
    const toMetres = metres(W, N);
    const offsets = contours.map((contour) => {
      expect(contour.geometry.type).toBe('LineString');
      const [line] = linesOf(contour.geometry);
      expect(line!.length).toBeGreaterThan(4);
      // every vertex lies on the plane's level line: distance along the gradient from the origin
      const along = line!.map((p) => {
        const [x, y] = toMetres(p);
        return (x! * 0.032 + y! * 0.024) / 0.04;
      });
      // coordinates are rounded to 1e-7 degrees: about a centimetre
      for (const d of along) expect(Math.abs(d - along[0]!)).toBeLessThan(0.01);
      for (const p of line!) {
        expect(p[0]).toBeGreaterThanOrEqual(window.west - 1e-7);
        expect(p[0]).toBeLessThanOrEqual(window.east + 1e-7);
      }
      expect(contour.index).toBe(contour.elevation_m % 5 === 0);
      return along[0]!;
    });
    for (let i = 1; i < offsets.length; i += 1) expect(Math.abs(offsets[i]! - offsets[i - 1]! - 25)).toBeLessThan(0.01);
    // simplified at zoom 17, a straight line keeps only its two ends
    const simplified = contourLines(gridOf(tiles, window), window, contourStyle(window, 17)).contours;
    for (const contour of simplified) expect(linesOf(contour.geometry)[0]).toHaveLength(2);
  });

  it("draws a cone's contours as closed circles at the radius its fall gives", () => {
    const tiles = demTiles(cone(W + 0.003, N - 0.003, 200, 0.2), 30, 2, 2);
    const window = box(W + 0.0005, N - 0.0055, W + 0.0055, N - 0.0005);
    const paths = traceContours(gridOf(tiles, window), 2);
    const toMetres = metres(W + 0.003, N - 0.003);
    for (const level of [190, 194]) {
      const rings = paths.filter((p) => p.step * 2 === level);
      expect(rings).toHaveLength(1);
      const ring = rings[0]!;
      expect(ring.closed).toBe(true);
      expect(ring.coordinates[0]).toEqual(ring.coordinates.at(-1));
      const radii = ring.coordinates.map((p) => Math.hypot(...toMetres(p)));
      for (const r of radii) expect(Math.abs(r - (200 - level) / 0.2)).toBeLessThan(0.5);
    }
    const { contours } = contourLines(gridOf(tiles, window), window, contourStyle(window, 16));
    const levels = contours.map((c) => c.elevation_m);
    expect(levels.at(-1)).toBe(198);
    expect(levels.slice(1).map((level, i) => level - levels[i]!)).toEqual(levels.slice(1).map(() => 2));
    for (const contour of contours) expect(contour.index).toBe(contour.elevation_m % 10 === 0);
  });

  it('splits a saddle by the mean of its cell: the high corners join when the middle is above the level', () => {
    const saddle = (tl: number, tr: number, bl: number, br: number): Grid => ({
      lng0: 0,
      lat0: 0,
      dLng: 1,
      dLat: 1,
      cols: 2,
      rows: 2,
      heights: Float64Array.from([tl, tr, bl, br]),
    });
    const ends = (grid: Grid, interval: number) =>
      traceContours(grid, interval)
        .filter((p) => p.step === 1)
        .map((p) =>
          p.coordinates
            .map((c) => `${c[0]},${c[1]}`)
            .sort()
            .join(' '),
        )
        .sort();
    // middle 0.5 above 0.4: tl and br joined, tr and bl cut off
    expect(ends(saddle(1, 0, 0, 1), 0.4)).toEqual(['0,-0.6 0.4,-1', '0.6,0 1,-0.4']);
    // middle 0.5 below 0.6: tl and br cut off
    expect(ends(saddle(1, 0, 0, 1), 0.6)).toEqual(['0,-0.4 0.4,0', '0.6,-1 1,-0.6']);
    const hyperbolic = demTiles((lng, lat) => ((lng - W - 0.003) * M.lng * (lat - N + 0.003) * M.lat) / 10, 60);
    const window = box(W + 0.0005, N - 0.0055, W + 0.0055, N - 0.0005);
    const branches = traceContours(gridOf(hyperbolic, window), 20).filter((p) => p.step === 1);
    // x·y = 200 has two branches, one in each of the rising quadrants
    expect(branches).toHaveLength(2);
    const toMetres = metres(W + 0.003, N - 0.003);
    const quadrants = branches.map((b) => new Set(b.coordinates.map((p) => Math.sign(toMetres(p)[0]!))));
    expect(quadrants.map((q) => [...q])).toEqual(expect.arrayContaining([[1], [-1]]));
  });

  it('gives flat land no lines, and cuts a ring the window crosses into one piece rejoined over its start', () => {
    const flat = demTiles(() => 42, 10);
    const window = box(W + 0.0002, N - 0.0008, W + 0.0008, N - 0.0002);
    expect(contourLines(gridOf(flat, window), window, contourStyle(window, 18)).contours).toEqual([]);
    const ring: Position[] = [
      [0, 0],
      [2, 0],
      [2, 2],
      [0, 2],
      [0, 0],
    ];
    expect(clipLine(ring, true, box(-1, -1, 1, 3))).toEqual([
      [
        [1, 2],
        [0, 2],
        [0, 0],
        [1, 0],
      ],
    ]);
  });
});

describe('mosaic', () => {
  it('lays tiles on the finest lattice, crops to the window plus a cell, and thins to a node budget', () => {
    const tiles = demTiles(plane(W, N, 0, 0.01, 0), 10, 2, 1);
    const stray = { ...tiles[0]!, tile_id: 'other-grid', west: W + 0.00005, cell_lng: CELL * 2, cell_lat: CELL * 2 };
    const window = box(W + 0.00051, N - 0.00049, W + 0.00149, N - 0.00021);
    const grid = gridOf([stray, ...tiles], window);
    expect(grid.cols).toBe(14);
    expect(grid.lng0).toBeCloseTo(W + 0.00035, 9);
    expect(mosaic([], window)).toBeNull();
    // within a cell of the model's east edge, but not on it: not covered
    expect(mosaic(tiles, box(W + 0.00203, N - 0.0005, W + 0.0021, N - 0.0001))).toBeNull();
    const thin = mosaic(tiles, box(W, N - 0.001, W + 0.002, N), { margin: 0, maxNodes: 50 });
    expect(thin!.dLng).toBeCloseTo(CELL * 2, 12);
    expect(thin!.cols * thin!.rows).toBeLessThanOrEqual(50);
  });
});

describe('terrain statistics', () => {
  const tiles = demTiles(plane(W, N, 100, -0.03, 0.04), 20, 2, 2);
  const grid = gridOf(tiles, box(W, N - 0.004, W + 0.004, N));
  const square = (west: number, south: number, size: number): TerrainPolygon =>
    bboxPolygon(box(west, south, west + size, south + size));

  it("gives a plane's slope and the way it faces: 5 % falling to the south-east (143.1°)", () => {
    const stats = terrainStats(grid, square(W + 0.001, N - 0.003, 0.002))!;
    expect(stats.slope_mean_percent).toBeCloseTo(5, 2);
    expect(stats.slope_max_percent).toBeCloseTo(5, 2);
    expect(stats.slope_mean_deg).toBeCloseTo((Math.atan(0.05) * 180) / Math.PI, 2);
    expect(stats.aspect).toBe('SE');
    expect(stats.aspect_deg).toBeCloseTo(143.1, 1);
    expect(stats.sampling).toBe('cells');
  });

  it('samples exactly the cell centres inside the polygon: count, min, max, mean and fall', () => {
    // centres at W + (c + 0.5) CELL: the square from W+0.00102 to W+0.00298 holds columns 10-29, rows 10-29
    const stats = terrainStats(grid, square(W + 0.00102, N - 0.00298, 0.00196))!;
    const surface = plane(W, N, 100, -0.03, 0.04);
    const heights: number[] = [];
    for (let r = 10; r < 30; r += 1) {
      for (let c = 10; c < 30; c += 1) heights.push(surface(W + (c + 0.5) * CELL, N - (r + 0.5) * CELL));
    }
    expect(stats.samples).toBe(400);
    expect(stats.min_m).toBeCloseTo(Math.min(...heights), 2);
    expect(stats.max_m).toBeCloseTo(Math.max(...heights), 2);
    expect(stats.mean_m).toBeCloseTo(heights.reduce((a, b) => a + b) / heights.length, 2);
    expect(stats.fall_m).toBeCloseTo(Math.max(...heights) - Math.min(...heights), 2);
    expect(stats.cell_size_m).toBeCloseTo(Math.sqrt(CELL * M.lng * CELL * M.lat), 0);
  });

  it('keeps the true slope at the edge of the model, where Horn lacks neighbours', () => {
    const edge = terrainStats(grid, square(W, N - 0.0005, 0.0005))!;
    expect(edge.slope_max_percent).toBeCloseTo(5, 2);
    expect(edge.slope_mean_percent).toBeCloseTo(5, 2);
  });

  it('samples a polygon smaller than a cell once, bilinearly at its centroid', () => {
    const tiny = square(W + 0.00201, N - 0.00209, 0.00003);
    const stats = terrainStats(grid, tiny)!;
    expect(stats).toMatchObject({ samples: 1, sampling: 'centroid', fall_m: 0 });
    expect(stats.mean_m).toBeCloseTo(plane(W, N, 100, -0.03, 0.04)(W + 0.002025, N - 0.002075), 2);
    expect(stats.slope_mean_percent).toBeCloseTo(5, 2);
    expect(stats.area_m2).toBeCloseTo(0.00003 * M.lng * 0.00003 * M.lat, 0);
  });

  it('gives flat land no aspect, and a cone none either (no one way downhill), with its true slope', () => {
    const flat = gridOf(
      demTiles(() => 70, 20),
      box(W, N - 0.002, W + 0.002, N),
    );
    expect(terrainStats(flat, square(W + 0.0005, N - 0.0015, 0.001))).toMatchObject({
      aspect: null,
      aspect_deg: null,
      slope_max_percent: 0,
      fall_m: 0,
      min_m: 70,
    });
    const peak = gridOf(demTiles(cone(W + 0.002, N - 0.002, 200, 0.2), 40), box(W, N - 0.004, W + 0.004, N));
    const stats = terrainStats(peak, square(W + 0.001, N - 0.003, 0.002))!;
    expect(stats.aspect).toBeNull();
    expect(stats.slope_mean_percent).toBeGreaterThan(19);
    expect(stats.slope_mean_percent).toBeLessThan(20.5);
  });

  it('returns null where the model has no height under the polygon', () => {
    expect(terrainStats(grid, square(W + 0.01, N - 0.003, 0.001))).toBeNull();
  });
});

describe('polygon rules', () => {
  const ring = [
    [144.3, -36.7],
    [144.301, -36.7],
    [144.301, -36.701],
    [144.3, -36.7],
  ];
  it.each([
    [{ type: 'Point', coordinates: [144.3, -36.7] }, /must be a GeoJSON Polygon or MultiPolygon; got Point/],
    [{ type: 'Polygon', coordinates: [ring.slice(0, 3)] }, /is not closed|needs at least 4/],
    [{ type: 'Polygon', coordinates: [[...ring.slice(0, 3), [144.3, -36.70001]]] }, /ring 0 is not closed/],
    [{ type: 'Polygon', coordinates: [ring.map(([x, y]) => [y, x])] }, /outside Australia/],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [144.3, -36.7],
            [144.32, -36.7],
            [144.32, -36.72],
            [144.3, -36.7],
          ],
        ],
      },
      /the limit is 1,000,000 m² \(1 km²\)/,
    ],
    [{ type: 'MultiPolygon', coordinates: [] }, /at least one polygon/],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [144.3, -36.7],
            [144.301, -36.7],
            [144.302, -36.7],
            [144.3, -36.7],
          ],
        ],
      },
      /no area/,
    ],
  ] as const)('refuses %j', (geometry, message) => {
    expect(() => assertTerrainPolygon(geometry as never)).toThrow(message);
  });

  it('accepts a closed polygon in Australia under 1 km², and a MultiPolygon', () => {
    const polygon = { type: 'Polygon' as const, coordinates: [ring] };
    expect(assertTerrainPolygon(polygon)).toEqual(polygon);
    expect(assertTerrainPolygon({ type: 'MultiPolygon', coordinates: [[ring]] }).type).toBe('MultiPolygon');
  });
});

describe('the DEM tile cache', () => {
  const tile = (id: string, west: number): DemTile => ({
    tile_id: id,
    west,
    north: -36.7,
    cell_lng: 0.001,
    cell_lat: 0.001,
    cols: 10,
    rows: 10,
    heights: new Float64Array(100),
  });
  const window = (state: string, west: number) => ({ state, west, south: -36.705, east: west + 0.005, north: -36.7 });

  it("names only the held tiles of the window's state and dataset near the window, with their versions", () => {
    const cache = new DemTileCache(10);
    cache.hold('sandbox', 'VIC', '11', tile('a', 144.0));
    cache.hold('sandbox', 'VIC', '12', tile('b', 145.0));
    cache.hold('sandbox', 'NSW', '13', tile('a', 144.0));
    cache.hold('live', 'VIC', '14', tile('a', 144.0));
    const known = cache.known('sandbox', [window('VIC', 144.002)], 0.01);
    expect(known).toMatchObject({ states: ['VIC'], ids: ['a'], versions: ['11'] });
    expect(known.byKey.get(heldKey('sandbox', 'VIC', 'a'))?.tile.west).toBe(144.0);
    expect(cache.known('sandbox', [window('VIC', 144.5)], 0.01).ids).toEqual([]);
    expect(cache.known('sandbox', [window('QLD', 144.002)], 0.01).ids).toEqual([]);
    cache.hold('sandbox', 'VIC', '21', tile('a', 144.0)); // a new version replaces the held one
    expect(cache.known('sandbox', [window('VIC', 144.002)], 0.01).versions).toEqual(['21']);
    expect(cache.size).toBe(4);
  });

  it('holds at most its bound, letting the least recently used tile go first', () => {
    const cache = new DemTileCache(2);
    cache.hold('sandbox', 'VIC', '1', tile('a', 144.0));
    cache.hold('sandbox', 'VIC', '2', tile('b', 144.004));
    cache.touch('sandbox', 'VIC', 'a'); // b is now the least recently used
    cache.hold('sandbox', 'VIC', '3', tile('c', 144.008));
    expect(cache.size).toBe(2);
    const held = cache.known('sandbox', [{ state: 'VIC', west: 143.9, south: -36.8, east: 144.1, north: -36.6 }], 0);
    expect(held.ids.sort()).toEqual(['a', 'c']);
  });
});
