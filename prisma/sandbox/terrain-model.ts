/**
 * The ground of one sandbox suburb as a smooth height function (metres AHD) of longitude and
 * latitude: the place's typical height, a regional fall that levels off over a few kilometres,
 * rises and hollows in two sizes, and a valley cut along each creek line the flood overlays
 * follow. Rises and hollows sit one to a cell of a lattice, each drawn from its own seeded
 * stream, so a height costs the same at any suburb size and any part can be drawn alone.
 */
import type { Point } from './geometry.ts';
import { overlayCode } from './planning-codes.ts';
import { creekCentreV, creekLines, type CreekLine } from './planning.ts';
import { Rng } from './random.ts';
import type { SuburbPlan } from './suburb.ts';
import type { TerrainSpec } from './suburbs.ts';

/** Over this distance (metres) the regional fall levels off, so a scaled-up suburb stays near its height. */
const FALL_REACH_M = 1_500;
/** A rise's lattice cell is this many radii across: neighbours overlap without piling up. */
const LATTICE_RADII = 2.5;
/** Beyond three radii a rise adds under 0.02 % of its height: left out. */
const REACH_RADII = 3;
/** Rises and hollows vary in radius by up to this factor either way. */
const MAX_RADIUS_SCALE = 1.3;
/** No sandbox place is below high tide: a valley floor near sea level levels out here. */
const LOWEST_GROUND_M = 0.5;

export interface Hill {
  readonly x: number;
  readonly y: number;
  readonly height: number;
  readonly radius: number;
}

interface Octave {
  readonly height: number;
  readonly radius: number;
  readonly spacing: number;
}

export interface PlaneBox {
  readonly xMin: number;
  readonly xMax: number;
  readonly yMin: number;
  readonly yMax: number;
}

export class SuburbTerrain {
  /** The generated area in the sheared plane, widened by the curve of its cross streets. */
  readonly area: PlaneBox;
  private readonly spec: TerrainSpec;
  private readonly creeks: readonly CreekLine[];
  private readonly downhill: Point;
  private readonly octaves: readonly Octave[];
  private readonly hills = new Map<string, Hill>();

  constructor(
    private readonly seed: number,
    readonly plan: SuburbPlan,
  ) {
    const { spec: place, grid } = plan;
    if (!place.terrain) throw new Error(`${place.name} has no terrain`);
    this.spec = place.terrain;
    const { uMin, uMax, vMin, vMax } = grid.bounds;
    this.area = { xMin: uMin - place.curveAmplitude, xMax: uMax + place.curveAmplitude, yMin: vMin, yMax: vMax };
    const hasCreeks = place.planningCovered && overlayCode(place.planning, 'flood', 0) !== null;
    this.creeks =
      hasCreeks && this.spec.valleyDepthM > 0 ? creekLines(Rng.for(seed, place.key, 'overlays'), place, grid) : [];
    const bearing = (this.spec.fallBearingDeg * Math.PI) / 180;
    this.downhill = plan.frame.towardPlane([Math.sin(bearing), Math.cos(bearing)]);
    const { reliefM, reliefRadiusM } = this.spec;
    this.octaves = [
      { height: reliefM, radius: reliefRadiusM, spacing: reliefRadiusM * LATTICE_RADII },
      { height: reliefM / 4, radius: reliefRadiusM / 3, spacing: (reliefRadiusM / 3) * LATTICE_RADII },
    ];
  }

  /** How far a plane point lies outside the generated area (0 inside). */
  outside([x, y]: Point): number {
    const { xMin, xMax, yMin, yMax } = this.area;
    return Math.hypot(Math.max(0, xMin - x, x - xMax), Math.max(0, yMin - y, y - yMax));
  }

  /** Every rise or hollow that reaches into a box of the plane. */
  hillsNear(box: PlaneBox): Hill[] {
    const found: Hill[] = [];
    this.octaves.forEach((octave, level) => {
      const reach = octave.radius * MAX_RADIUS_SCALE * REACH_RADII;
      const [i0, i1] = [
        Math.floor((box.xMin - reach) / octave.spacing),
        Math.floor((box.xMax + reach) / octave.spacing),
      ];
      const [k0, k1] = [
        Math.floor((box.yMin - reach) / octave.spacing),
        Math.floor((box.yMax + reach) / octave.spacing),
      ];
      for (let i = i0; i <= i1; i++) {
        for (let k = k0; k <= k1; k++) {
          const hill = this.hill(level, octave, i, k);
          const dx = Math.max(0, box.xMin - hill.x, hill.x - box.xMax);
          const dy = Math.max(0, box.yMin - hill.y, hill.y - box.yMax);
          if (dx * dx + dy * dy < (REACH_RADII * hill.radius) ** 2) found.push(hill);
        }
      }
    });
    return found;
  }

  /** The creeks whose valleys reach into a box of the plane. */
  creeksNear(box: PlaneBox): CreekLine[] {
    const reach = REACH_RADII * this.spec.valleyWidthM;
    return this.creeks.filter(
      (c) => box.yMax > c.centreV - c.amplitude - reach && box.yMin < c.centreV + c.amplitude + reach,
    );
  }

  private hill(level: number, octave: Octave, i: number, k: number): Hill {
    const key = `${level}:${i}:${k}`;
    let hill = this.hills.get(key);
    if (!hill) {
      const rng = Rng.for(this.seed, this.plan.spec.key, 'terrain', level, i, k);
      hill = {
        x: (i + rng.range(0.15, 0.85)) * octave.spacing,
        y: (k + rng.range(0.15, 0.85)) * octave.spacing,
        height: octave.height * rng.range(0.5, 1) * (rng.chance(0.5) ? 1 : -1),
        radius: octave.radius * rng.range(1 / MAX_RADIUS_SCALE, MAX_RADIUS_SCALE),
      };
      this.hills.set(key, hill);
    }
    return hill;
  }

  /** Height in metres AHD at a point, given what reaches it (from `hillsNear` and `creeksNear`). */
  height(lngLat: Point, near: { readonly hills: readonly Hill[]; readonly creeks: readonly CreekLine[] }): number {
    const { baseM, fallPercent, valleyDepthM, valleyWidthM } = this.spec;
    const [x, y] = this.plan.frame.toPlane(lngLat);
    const along = x * this.downhill[0] + y * this.downhill[1];
    let h = baseM - (fallPercent / 100) * FALL_REACH_M * Math.tanh(along / FALL_REACH_M);
    for (const hill of near.hills) {
      const d2 = ((x - hill.x) ** 2 + (y - hill.y) ** 2) / hill.radius ** 2;
      if (d2 < REACH_RADII ** 2) h += hill.height * Math.exp(-d2);
    }
    for (const creek of near.creeks) {
      const across = (y - creekCentreV(creek, x)) / valleyWidthM;
      h -= valleyDepthM * Math.exp(-across * across);
    }
    return Math.max(LOWEST_GROUND_M, h);
  }
}
