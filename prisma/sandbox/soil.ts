/**
 * Synthetic soil for the sandbox suburbs, labelled demo: each covered suburb's generated area is
 * cut into three strips across its street grid, each strip a soil polygon with a clay content,
 * soil depth and shrink-swell class in the layout of CSIRO's Soil and Landscape Grid (CLY, DES).
 * The figures are chosen per suburb to look like the real district's soils, so the footing-risk
 * bands spread from A to P; one strip is left unmapped (soil "no_data") and North Lakes has no
 * soil at all (soil "not_covered").
 */
import { type Frame, rectRing } from './geometry.ts';
import type { Grid } from './grid.ts';
import { coverageRing } from './planning.ts';
import type { SoilCoverageRow, SoilPolygonRow, SoilReactivity } from './rows.ts';
import type { SuburbSpec } from './suburbs.ts';

type Strip = { clay_percent: number; depth_m: number; reactivity: SoilReactivity } | null;

/** The product the sandbox's figures imitate, and the date its release would carry. */
export const SOIL_SOURCE = 'SLGA CLY/DES v2 (modelled, 90 m): synthetic sandbox';
export const SOIL_SOURCE_DATE = '2022-05-01';

/**
 * Three strips per suburb, from the grid's low u edge to its high one; null leaves a strip
 * unmapped. A suburb missing here has no soil coverage.
 */
export const SOIL_STRIPS: Readonly<Record<string, readonly [Strip, Strip, Strip]>> = {
  // Bendigo's goldfield: thin sandy and gravelly soils over Ordovician sediments
  huntly: [
    { clay_percent: 6, depth_m: 0.4, reactivity: 'nil' },
    { clay_percent: 18, depth_m: 0.9, reactivity: 'low' },
    { clay_percent: 30, depth_m: 1.3, reactivity: 'moderate' },
  ],
  // the same, with old mine tailings and fill along the creek: a problem site
  'kangaroo-flat': [
    { clay_percent: 12, depth_m: 0.6, reactivity: 'low' },
    { clay_percent: 34, depth_m: 1.5, reactivity: 'moderate' },
    { clay_percent: 20, depth_m: 3.5, reactivity: 'problem' },
  ],
  // Wianamatta Group shale: deep, highly reactive clays; the river flats are left unmapped
  parramatta: [
    { clay_percent: 55, depth_m: 1.8, reactivity: 'high' },
    { clay_percent: 62, depth_m: 2.2, reactivity: 'very_high' },
    null,
  ],
  'castle-hill': [
    { clay_percent: 45, depth_m: 1.6, reactivity: 'high' },
    { clay_percent: 50, depth_m: 2.0, reactivity: 'high' },
    { clay_percent: 70, depth_m: 2.8, reactivity: 'extreme' },
  ],
  // Brisbane's northern suburbs: moderately to highly reactive clays on phyllite
  chermside: [
    { clay_percent: 38, depth_m: 1.4, reactivity: 'moderate' },
    { clay_percent: 58, depth_m: 2.0, reactivity: 'high' },
    { clay_percent: 40, depth_m: 1.5, reactivity: 'moderate' },
  ],
};

export function soilRows(
  spec: SuburbSpec,
  grid: Grid,
  frame: Frame,
): { polygons: SoilPolygonRow[]; coverage: SoilCoverageRow[] } {
  const strips = SOIL_STRIPS[spec.key];
  if (!strips) return { polygons: [], coverage: [] };
  const { uMin, uMax, vMin, vMax } = grid.bounds;
  const width = (uMax - uMin) / strips.length;
  const polygons = strips.flatMap((strip, i): SoilPolygonRow[] => {
    if (!strip) return [];
    const u0 = uMin + i * width;
    const u1 = i === strips.length - 1 ? uMax : u0 + width;
    return [
      {
        id: `${spec.key}-soil-${i + 1}`,
        state: spec.state,
        ...strip,
        source: SOIL_SOURCE,
        source_date: SOIL_SOURCE_DATE,
        wkt: frame.polygon(rectRing(u0, u1, vMin, vMax, grid.crossCentres, grid.crossCentres)).wkt,
      },
    ];
  });
  const coverage = [{ state: spec.state, name: spec.name, wkt: frame.polygon(coverageRing(grid)).wkt }];
  return { polygons, coverage };
}
