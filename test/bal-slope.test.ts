import { describe, expect, it } from 'vitest';
import { estimateBal } from '../subgraphs/hazards/bal.ts';
import { balAt } from '../subgraphs/hazards/bushfire.ts';
import type { GroundProfile, RequiredGroundProfile } from '../subgraphs/hazards/slope.ts';
import { effectiveSlope, heightAt } from '../subgraphs/hazards/slope.ts';
import type { DemTile } from '../subgraphs/terrain/dem.ts';
import { metresPerDegree, mosaic } from '../subgraphs/terrain/dem.ts';
import { PROFILE_BEARINGS, PROFILE_REACH_M, groundProfile, profileWindow } from '../subgraphs/terrain/profile.ts';

// A site near Bendigo and a DEM of 0.0001° cells (about 9 × 11 m) drawn around it.
const LNG = 144.3;
const LAT = -36.7;
const CELL = 0.0001;
const SIZE = 64;
const M = metresPerDegree(LAT);

type Surface = (east: number, north: number) => number;

/** One tile centred on the site, sampling a surface given in metres east and north of it. */
function tileOf(surface: Surface, size = SIZE): DemTile {
  const west = LNG - (size / 2) * CELL;
  const north = LAT + (size / 2) * CELL;
  const heights: number[] = [];
  for (let r = 0; r < size; r += 1) {
    for (let c = 0; c < size; c += 1) {
      const lng = west + (c + 0.5) * CELL;
      const lat = north - (r + 0.5) * CELL;
      heights.push(surface((lng - LNG) * M.lng, (lat - LAT) * M.lat));
    }
  }
  return { tile_id: 't', west, north, cell_lng: CELL, cell_lat: CELL, cols: size, rows: size, heights };
}

/** A plane falling `deg` degrees toward `bearing` (negative: rising toward it). */
const fallingToward =
  (bearing: number, deg: number): Surface =>
  (east, north) => {
    const b = (bearing * Math.PI) / 180;
    return 150 - Math.tan((deg * Math.PI) / 180) * (east * Math.sin(b) + north * Math.cos(b));
  };

/** The ground profile the terrain subgraph would give for a drawn surface. */
function profileOf(surface: Surface): GroundProfile {
  const window = profileWindow(LNG, LAT);
  const grid = mosaic([tileOf(surface)], window, { margin: 1 });
  const profile = grid && groundProfile(grid, LNG, LAT);
  if (!profile) throw new Error('the drawn DEM does not reach the site');
  return profile;
}

const asLayer = (data: GroundProfile): RequiredGroundProfile => ({
  status: 'ok',
  source: 'mirror:vic/terrain@test',
  message: null,
  data,
});

describe('the ground profile (terrain subgraph)', () => {
  it('samples 16 rays every 10 m out to 200 m, exact on a plane', () => {
    const profile = profileOf(fallingToward(90, 8));
    expect(profile.rays.map((r) => r.bearing_deg)).toEqual(
      Array.from({ length: PROFILE_BEARINGS }, (_v, k) => k * 22.5),
    );
    for (const ray of profile.rays) expect(ray.heights_m).toHaveLength(PROFILE_REACH_M / profile.step_m);
    const east = profile.rays[4]!.heights_m;
    // 200 m east on an 8° fall is 28.1 m lower
    expect(profile.origin_m - east.at(-1)!).toBeCloseTo(200 * Math.tan((8 * Math.PI) / 180), 1);
    // north runs along the contour
    expect(new Set(profile.rays[0]!.heights_m.map(Math.round))).toEqual(new Set([Math.round(profile.origin_m)]));
  });

  it('stops a ray where the model stops, and has no profile off the model', () => {
    const small = tileOf(fallingToward(0, 3), 24);
    const window = profileWindow(LNG, LAT);
    const profile = groundProfile(mosaic([small], window, { margin: 1 })!, LNG, LAT)!;
    // 12 cells of about 9 m each side of the site: the rays end some 100-130 m out
    for (const ray of profile.rays) {
      expect(ray.heights_m.length).toBeGreaterThan(8);
      expect(ray.heights_m.length).toBeLessThan(PROFILE_REACH_M / profile.step_m);
    }
    const away = profileWindow(LNG + 1, LAT);
    expect(mosaic([small], away, { margin: 1 })).toBeNull();
  });
});

describe('the effective slope under vegetation (AS 3959 2.2.5) on drawn terrains', () => {
  // forest 30 m east of the site; the land beyond it falls (or rises) toward the east
  const cases: Array<[label: string, deg: number, direction: string, band: string | null]> = [
    ['flat', 0, 'flat', 'all upslopes and flat land (0°)'],
    ['downslope 3°', 3, 'downslope', 'downslope >0° to 5°'],
    ['downslope 8°', 8, 'downslope', 'downslope >5° to 10°'],
    ['downslope 12°', 12, 'downslope', 'downslope >10° to 15°'],
    ['downslope 18°', 18, 'downslope', 'downslope >15° to 20°'],
    ['downslope 25°', 25, 'downslope', null],
    ['upslope 6°', -6, 'upslope', 'all upslopes and flat land (0°)'],
  ];

  for (const [label, deg, direction, band] of cases) {
    it(`reads ${label} and rates the BAL on its row`, () => {
      const profile = profileOf(fallingToward(90, deg));
      const slope = effectiveSlope(profile, 90, 30)!;
      expect(slope).toMatchObject({ direction, bearing_deg: 90, from_m: 30, to_m: 130 });
      expect(slope.degrees).toBeCloseTo(Math.abs(deg), 1);

      const bal = balAt('VIC', [{ vegetation_class: 'forest', distance_m: 30, bearing_deg: 90 }], asLayer(profile));
      expect(bal).toMatchObject({
        effective_slope_deg: slope.degrees,
        slope_direction: direction,
        slope_bearing_deg: 90,
        slope_source: 'mirror:vic/terrain@test',
      });
      expect(bal.note).toContain(`Effective slope from the terrain DEM along bearing 90°: `);
      if (band === null) {
        // beyond 20° downslope Method 1 has no row: the worst case, and a Method 2 assessment
        expect(bal.rating).toBe('BAL-FZ');
        expect(bal.slope_band).toBe('downslope >20° (outside Method 1)');
        expect(bal.note).toMatch(/outside AS 3959 Method 1/);
      } else {
        expect(bal.slope_band).toBe(band);
        const expected = estimateBal({
          vegetation: 'forest',
          distance_m: 30,
          effective_slope_deg: slope.degrees,
          slope_direction: slope.direction,
          fdi: 100,
        });
        expect(bal.rating).toBe(expected.rating);
      }
    });
  }

  it('steps the rating up as the land under the forest falls away: BAL-29 flat, BAL-FZ at 8° down', () => {
    const rate = (deg: number) =>
      balAt(
        'VIC',
        [{ vegetation_class: 'forest', distance_m: 30, bearing_deg: 90 }],
        asLayer(profileOf(fallingToward(90, deg))),
      ).rating;
    // FDI 100 forest: flat row [19, 25, 35, 48], 5-10° down row [31, 39, 53, 69]
    expect(rate(0)).toBe('BAL-29');
    expect(rate(-10)).toBe('BAL-29');
    expect(rate(8)).toBe('BAL-FZ');
  });

  it('measures only the land beyond the vegetation: a fall between the site and the forest does not count', () => {
    // flat out to 40 m, then falling 12° beyond: forest at 50 m sits on the fall, forest at 5 m mostly not
    const step: Surface = (east) => 150 - Math.max(0, east - 40) * Math.tan((12 * Math.PI) / 180);
    const profile = profileOf(step);
    expect(effectiveSlope(profile, 90, 50)!.degrees).toBeCloseTo(12, 0);
    expect(effectiveSlope(profile, 90, 50)!.direction).toBe('downslope');
    expect(effectiveSlope(profile, 270, 50)!.direction).toBe('flat');
  });

  it('reads a bearing between two rays from both, close to the true slope', () => {
    const profile = profileOf(fallingToward(90, 8));
    const slope = effectiveSlope(profile, 100, 20)!;
    const truth = (Math.atan(Math.tan((8 * Math.PI) / 180) * Math.cos((10 * Math.PI) / 180)) * 180) / Math.PI;
    expect(slope.direction).toBe('downslope');
    expect(Math.abs(slope.degrees - truth)).toBeLessThan(0.3);
    expect(heightAt(profile, 90, 0)).toBe(profile.origin_m);
  });

  it('takes the steepest downslope around a site inside the vegetation (no bearing to its edge)', () => {
    const profile = profileOf(fallingToward(200, 7));
    const slope = effectiveSlope(profile, null, 0)!;
    expect(slope.direction).toBe('downslope');
    // the nearest ray to 200° is 202.5°: cos 2.5° of the fall
    expect(slope.bearing_deg).toBe(202.5);
    expect(slope.degrees).toBeCloseTo(7, 0);
  });

  it('rates flat and says why where the profile is missing, not ok, or too short', () => {
    const hit = [{ vegetation_class: 'forest', distance_m: 30, bearing_deg: 90 }];
    const none = balAt('VIC', hit, null);
    expect(none).toMatchObject({ effective_slope_deg: 0, slope_direction: 'flat', slope_source: null });
    expect(none.note).toMatch(/not measured \(no ground profile from the terrain\): rated as flat land\./);

    const uncovered = balAt('QLD', hit, {
      status: 'not_covered',
      source: null,
      message: 'Terrain data does not cover QLD yet.',
      data: null,
    });
    expect(uncovered).toMatchObject({ slope_direction: 'flat', slope_bearing_deg: null });
    expect(uncovered.note).toMatch(/not measured \(Terrain data does not cover QLD yet\): rated as flat land\./);

    const short: GroundProfile = {
      step_m: 10,
      origin_m: 100,
      rays: Array.from({ length: 16 }, (_v, k) => ({ bearing_deg: k * 22.5, heights_m: [99, 98, 97, 96, 95] })),
    };
    const cut = balAt('VIC', hit, asLayer(short));
    expect(cut.slope_direction).toBe('flat');
    expect(cut.note).toMatch(/holds less than 50 m of the land beyond it/);
  });

  it('says nothing of slope where no vegetation is within reach', () => {
    const bal = balAt('VIC', [], asLayer(profileOf(fallingToward(90, 8))));
    expect(bal).toMatchObject({ rating: 'BAL-LOW', slope_direction: 'flat', slope_source: null });
    expect(bal.note).not.toMatch(/slope/i);
  });
});
