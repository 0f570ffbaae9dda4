/**
 * Planning shapes in grid (or sheared-plane) coordinates: zones over runs of whole blocks,
 * overlays as freehand blobs and creek corridors, and the coverage outline. Zones run to the
 * road centrelines, as Victorian and Queensland zones do, except where a road zone (RDZ1, SP2)
 * takes the main street's reserve.
 */
import { at } from './arrays.ts';
import { type Point, rectRing } from './geometry.ts';
import type { Grid } from './grid.ts';
import { type OverlayRole, overlayCode, type PlanningCode } from './planning-codes.ts';
import { Rng } from './random.ts';
import type { SuburbSpec } from './suburbs.ts';
import type { BlockPlan } from './zoning.ts';

export interface Shape {
  readonly code: PlanningCode;
  readonly ring: Point[];
}

/** The generated area: out to the far edge of the perimeter roads. */
export function coverageRing(grid: Grid): Point[] {
  const { uMin, uMax, vMin, vMax } = grid.bounds;
  return rectRing(uMin, uMax, vMin, vMax, grid.crossCentres, grid.crossCentres);
}

/** Zones of one block row: each run of neighbouring blocks with the same zone becomes one polygon. */
export function rowZones(grid: Grid, plans: readonly BlockPlan[], r: number, roadZone: boolean): Shape[] {
  const { bounds, crossCentres, mainStreet } = grid;
  const centre = (line: number) => at(grid.streetCentres, line);
  const half = (line: number) => at(grid.streetHalfWidths, line);
  const v0 = r === 0 ? bounds.vMin : roadZone && r === mainStreet ? centre(r) + half(r) : centre(r);
  const v1 =
    r === grid.rows.length - 1
      ? bounds.vMax
      : roadZone && r + 1 === mainStreet
        ? centre(r + 1) - half(r + 1)
        : centre(r + 1);
  const shapes: Shape[] = [];
  let start = 0;
  for (let j = 1; j <= plans.length; j++) {
    const zone = at(plans, start).zone;
    if (j < plans.length && at(plans, j).zone === zone) continue;
    if (zone) {
      const u0 = start === 0 ? bounds.uMin : at(crossCentres, start);
      const u1 = j === plans.length ? bounds.uMax : at(crossCentres, j);
      shapes.push({ code: zone, ring: rectRing(u0, u1, v0, v1, crossCentres, crossCentres) });
    }
    start = j;
  }
  return shapes;
}

/** The main street's reserve as a road zone, for schemes that zone roads. */
export function mainRoadZone(grid: Grid, code: PlanningCode): Shape {
  const { bounds, crossCentres, mainStreet } = grid;
  const centre = at(grid.streetCentres, mainStreet);
  const half = at(grid.streetHalfWidths, mainStreet);
  return { code, ring: rectRing(bounds.uMin, bounds.uMax, centre - half, centre + half, crossCentres, crossCentres) };
}

/** A star-shaped blob: always a simple polygon, however the lobes fall. */
function blob(rng: Rng, cu: number, cv: number, radius: number): Point[] {
  // lobe sizes sum below 0.45, so the radius never reaches zero
  const lobes = [
    { size: rng.range(0.08, 0.2), waves: 2, phase: rng.range(0, 6.3) },
    { size: rng.range(0.05, 0.15), waves: 3, phase: rng.range(0, 6.3) },
    { size: rng.range(0.02, 0.08), waves: 5, phase: rng.range(0, 6.3) },
  ];
  return Array.from({ length: 36 }, (_, i): Point => {
    const t = (2 * Math.PI * i) / 36;
    const r = radius * lobes.reduce((sum, l) => sum + l.size * Math.sin(l.waves * t + l.phase), 1);
    return [cu + r * Math.cos(t), cv + r * Math.sin(t)];
  });
}

/** A creek's centreline in the sheared plane: v = centreV + amplitude * sin(2 pi u / wavelength + phase). */
export interface CreekLine {
  readonly u0: number;
  readonly u1: number;
  readonly centreV: number;
  readonly halfWidth: number;
  readonly amplitude: number;
  readonly wavelength: number;
  readonly phase: number;
}

export const creekCentreV = (creek: CreekLine, u: number): number =>
  creek.centreV + creek.amplitude * Math.sin((2 * Math.PI * u) / creek.wavelength + creek.phase);

/** A meandering corridor along a creek: every vertical line cuts it once, so it is simple. */
function corridor(creek: CreekLine, widthScale: number): Point[] {
  const { u0, u1, phase } = creek;
  const halfWidth = creek.halfWidth * widthScale;
  const bottom: Point[] = [];
  const top: Point[] = [];
  const steps = Math.max(2, Math.ceil((u1 - u0) / 25));
  for (let i = 0; i <= steps; i++) {
    const u = u0 + ((u1 - u0) * i) / steps;
    const v = creekCentreV(creek, u);
    const w = halfWidth * (1 + 0.35 * Math.sin((2 * Math.PI * u) / 390 + phase * 2));
    bottom.push([u, v - w]);
    top.push([u, v + w]);
  }
  return [...bottom, ...top.reverse()];
}

/** How much bigger than the default size a suburb's grid is; overlay counts grow with it. */
const overlayScale = (grid: Grid) => (grid.rows.length * grid.cols.length) / 110;

/** Heritage places in a suburb: a scheme numbers them in one series across all its suburbs. */
export function heritageCount(grid: Grid): number {
  return Math.max(3, Math.round(3 * overlayScale(grid)));
}

/**
 * The creek lines of a suburb, drawn first from its overlay stream: the flood overlays follow
 * them and the terrain cuts its valleys along them, so both read the same lines.
 */
export function creekLines(rng: Rng, spec: SuburbSpec, grid: Grid): CreekLine[] {
  const { uMin, uMax, vMin, vMax } = grid.bounds;
  const margin = spec.curveAmplitude + 10;
  const count = Math.max(1, Math.round(Math.sqrt(overlayScale(grid))));
  const band = (vMax - vMin) / count;
  return Array.from({ length: count }, (_, i) => {
    const centreV = vMin + band * (i + 0.5) + rng.range(-0.15, 0.15) * band;
    const halfWidth = rng.range(25, 55);
    const shape = new Rng(rng.uint32());
    return {
      u0: uMin + margin + 200,
      u1: uMax - margin - 200,
      centreV,
      halfWidth,
      amplitude: shape.range(60, 150),
      wavelength: shape.range(600, 1400),
      phase: shape.range(0, 6.3),
    };
  });
}

/**
 * Overlays of one suburb in the sheared plane: flood along creek lines, bushfire on the
 * fringe, heritage places near the old centre, and each scheme's own extras.
 * Shapes keep clear of the coverage edge by the curve amplitude, so none strays outside it.
 * `firstHeritage` is the number of this suburb's first heritage place (HO101, I101).
 */
export function overlayShapes(rng: Rng, spec: SuburbSpec, grid: Grid, firstHeritage: number): Shape[] {
  const { uMin, uMax, vMin, vMax } = grid.bounds;
  const scale = overlayScale(grid);
  const margin = spec.curveAmplitude + 10;
  const shapes: Shape[] = [];
  const add = (role: OverlayRole, ring: Point[], n = 0) => {
    const code = overlayCode(spec.planning, role, n);
    if (code) shapes.push({ code, ring });
  };
  const blobAt = (radius: number, near: 'centre' | 'anywhere' | 'edge'): Point[] => {
    const inset = radius * 1.5 + margin;
    const span = (lo: number, hi: number, share: number) => {
      const mid = (lo + hi) / 2;
      const half = Math.max(0, (hi - lo) / 2 - inset) * share;
      return rng.range(mid - half, mid + half);
    };
    if (near === 'edge') {
      const side = rng.int(0, 3);
      const u = side === 0 ? uMin + inset : side === 1 ? uMax - inset : span(uMin, uMax, 1);
      const v = side === 2 ? vMin + inset : side === 3 ? vMax - inset : span(vMin, vMax, 1);
      return blob(rng, u, v, radius);
    }
    const share = near === 'centre' ? 0.3 : 1;
    return blob(rng, span(uMin, uMax, share), span(vMin, vMax, share), radius);
  };

  // the same creek line twice: the flood extent, and a wider environmental corridor around it
  for (const creek of creekLines(rng, spec, grid)) {
    add('flood', corridor(creek, 1));
    add('environment', corridor(creek, 1.8));
  }
  for (let i = 0; i < Math.max(1, Math.round(scale / 2)); i++) add('bushfire', blobAt(rng.range(100, 200), 'edge'));
  for (let i = 0; i < heritageCount(grid); i++) {
    add('heritage', blobAt(rng.range(35, 80), i < 3 ? 'centre' : 'anywhere'), firstHeritage + i);
  }
  add('design', blobAt(Math.min(260, (uMax - uMin) / 5), 'centre'));
  for (let i = 0; i < Math.max(1, Math.round(scale / 2)); i++)
    add('vegetation', blobAt(rng.range(80, 150), 'anywhere'));
  if (spec.fringe) add('contributions', blobAt(Math.min(450, (uMax - uMin) / 4), 'anywhere'));
  for (let i = 0; i < Math.max(2, Math.round(2 * scale)); i++)
    add('character', blobAt(rng.range(100, 200), 'anywhere'));
  return shapes;
}
