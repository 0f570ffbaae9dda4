/**
 * Local metres to WGS84. A suburb is laid out in its grid's own axes (u along the through
 * streets, v across them), optionally sheared so cross streets curve, then rotated to the
 * suburb's bearing and projected equirectangularly around its centre.
 *
 * The shear is piecewise linear in v with breakpoints at every street edge, street centreline
 * and lot-row line, so within one strip it is affine: a rectangle inside a strip maps exactly to
 * a parallelogram, and a ring gains a vertex wherever an edge crosses a breakpoint. Neighbouring
 * shapes that share an edge therefore share the same vertex list, which keeps them from
 * overlapping after rounding.
 */
import { at, last } from './arrays.ts';

export type Point = readonly [number, number];

// WGS84: local radii of curvature make area_m2 agree with PostGIS's geography area.
const SEMI_MAJOR = 6378137;
const ECCENTRICITY_SQ = 0.00669437999014;
const DEG = Math.PI / 180;

export const round7 = (value: number): number => Math.round(value * 1e7) / 1e7;

export class Shear {
  /** No curve: every point keeps its u. */
  static readonly NONE = new Shear([], []);

  constructor(
    readonly levels: readonly number[],
    private readonly offsets: readonly number[],
  ) {}

  static sine(levels: readonly number[], amplitude: number, wavelength: number, phase: number): Shear {
    if (amplitude === 0) return Shear.NONE;
    const sorted = [...new Set(levels)].sort((a, b) => a - b);
    return new Shear(
      sorted,
      sorted.map((v) => amplitude * Math.sin((2 * Math.PI * v) / wavelength + phase)),
    );
  }

  offset(v: number): number {
    const { levels, offsets } = this;
    if (levels.length === 0) return 0;
    if (v <= at(levels, 0)) return at(offsets, 0);
    if (v >= last(levels)) return last(offsets);
    let lo = 0;
    let hi = levels.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (at(levels, mid) <= v) lo = mid;
      else hi = mid;
    }
    const [v0, v1, o0, o1] = [at(levels, lo), at(levels, hi), at(offsets, lo), at(offsets, hi)];
    return o0 + ((v - v0) / (v1 - v0)) * (o1 - o0);
  }

  /** Breakpoints strictly between v0 and v1, in the order met walking from v0 to v1. */
  between(v0: number, v1: number): number[] {
    const lo = Math.min(v0, v1);
    const hi = Math.max(v0, v1);
    const inside = this.levels.filter((v) => v > lo && v < hi);
    return v0 < v1 ? inside : inside.reverse();
  }
}

export interface PolygonOut {
  wkt: string;
  areaM2: number;
}

export class Frame {
  private readonly mPerDegLat: number;
  private readonly mPerDegLng: number;
  private readonly cos: number;
  private readonly sin: number;

  constructor(
    private readonly centre: { readonly lat: number; readonly lng: number },
    rotationDeg: number,
    readonly shear: Shear,
  ) {
    const s = Math.sin(centre.lat * DEG);
    const w = 1 - ECCENTRICITY_SQ * s * s;
    this.mPerDegLat = ((SEMI_MAJOR * (1 - ECCENTRICITY_SQ)) / Math.pow(w, 1.5)) * DEG;
    this.mPerDegLng = (SEMI_MAJOR / Math.sqrt(w)) * Math.cos(centre.lat * DEG) * DEG;
    this.cos = Math.cos(rotationDeg * DEG);
    this.sin = Math.sin(rotationDeg * DEG);
  }

  /** Grid coordinates to the sheared plane (metres, before rotation). */
  warp(u: number, v: number): Point {
    return [u + this.shear.offset(v), v];
  }

  /** Sheared-plane metres to rounded [lng, lat]. */
  project([x, y]: Point): Point {
    const east = x * this.cos - y * this.sin;
    const north = x * this.sin + y * this.cos;
    return [round7(this.centre.lng + east / this.mPerDegLng), round7(this.centre.lat + north / this.mPerDegLat)];
  }

  /** Metres east and north of the frame's centre: the inverse of the equirectangular step. */
  offsetMetres([lng, lat]: Point): Point {
    return [(lng - this.centre.lng) * this.mPerDegLng, (lat - this.centre.lat) * this.mPerDegLat];
  }

  /** A vector of metres east and north turned into the plane's axes. */
  towardPlane([east, north]: Point): Point {
    return [east * this.cos + north * this.sin, north * this.cos - east * this.sin];
  }

  /** [lng, lat] back to the sheared plane, unrounded: where terrain and creeks are drawn. */
  toPlane(lngLat: Point): Point {
    return this.towardPlane(this.offsetMetres(lngLat));
  }

  /** An open path in grid coordinates as a LINESTRING, bending wherever the shear bends. */
  lineString(path: readonly Point[]): string {
    const coords: Point[] = [];
    const push = ([u, v]: Point) => {
      const point = this.lngLat(u, v);
      const prev = coords[coords.length - 1];
      if (!prev || prev[0] !== point[0] || prev[1] !== point[1]) coords.push(point);
    };
    path.forEach((from, i) => {
      push(from);
      const to = path[i + 1];
      if (!to || from[1] === to[1]) return;
      for (const v of this.shear.between(from[1], to[1])) {
        push([from[0] + ((v - from[1]) / (to[1] - from[1])) * (to[0] - from[0]), v]);
      }
    });
    if (coords.length < 2) throw new Error('Degenerate sandbox line');
    return `LINESTRING(${coords.map(([lng, lat]) => `${lng} ${lat}`).join(',')})`;
  }

  /** A grid point as rounded [lng, lat]. */
  lngLat(u: number, v: number): Point {
    return this.project(this.warp(u, v));
  }

  /** A counter-clockwise ring in grid coordinates (open: first point not repeated). */
  polygon(ring: readonly Point[]): PolygonOut {
    const dense: Point[] = [];
    ring.forEach((from, i) => {
      const to = at(ring, (i + 1) % ring.length);
      dense.push(from);
      if (from[1] === to[1]) return;
      for (const v of this.shear.between(from[1], to[1])) {
        const t = (v - from[1]) / (to[1] - from[1]);
        dense.push([from[0] + t * (to[0] - from[0]), v]);
      }
    });
    return this.planarPolygon(dense.map(([u, v]) => this.warp(u, v)));
  }

  /** A counter-clockwise ring already in the sheared plane (overlay shapes drawn freehand). */
  planarPolygon(ring: readonly Point[]): PolygonOut {
    const coords: Point[] = [];
    for (const point of ring) {
      const [lng, lat] = this.project(point);
      const prev = coords[coords.length - 1];
      if (!prev || prev[0] !== lng || prev[1] !== lat) coords.push([lng, lat]);
    }
    const first = at(coords, 0);
    const end = last(coords);
    if (first[0] === end[0] && first[1] === end[1]) coords.pop();
    if (coords.length < 3) throw new Error('Degenerate sandbox polygon');
    coords.push(first);
    return {
      wkt: `MULTIPOLYGON(((${coords.map(([lng, lat]) => `${lng} ${lat}`).join(',')})))`,
      areaM2: Math.round(signedArea(ring) * 100) / 100,
    };
  }
}

/** Shoelace area of an open ring: positive when counter-clockwise. */
export function signedArea(ring: readonly Point[]): number {
  let twice = 0;
  ring.forEach(([x0, y0], i) => {
    const [x1, y1] = at(ring, (i + 1) % ring.length);
    twice += x0 * y1 - x1 * y0;
  });
  return twice / 2;
}

/** An axis-aligned rectangle in grid coordinates, with extra vertices on its bottom and top edges. */
export function rectRing(
  u0: number,
  u1: number,
  v0: number,
  v1: number,
  bottomNodes: readonly number[] = [],
  topNodes: readonly number[] = [],
): Point[] {
  const inside = (nodes: readonly number[]) => nodes.filter((u) => u > u0 && u < u1);
  return [
    [u0, v0],
    ...inside(bottomNodes).map((u): Point => [u, v0]),
    [u1, v0],
    [u1, v1],
    ...inside(topNodes)
      .reverse()
      .map((u): Point => [u, v1]),
    [u0, v1],
  ];
}
