import { AppError, badRequest } from '../../../core/errors.ts';
import type { GeoJSONGeometry } from '../../../core/geojson.ts';
import type { LayerResult, Provenance } from '../../../core/layer.ts';
import { layerEmpty, layerOk } from '../../../core/layer.ts';
import {
  MAX_EARTHWORKS_DEPTH_M,
  MAX_EARTHWORKS_FOOTPRINT_M2,
  MAX_EARTHWORKS_FOOTPRINT_VERTICES,
  MAX_PAD_LEVEL_M,
  MIN_PAD_LEVEL_M,
} from '../../../core/limits.ts';
import type { ParcelGeometry } from '../../../core/polygons.ts';
import { bboxOf } from '../../../core/polygons.ts';
import type { EarthworksLayerModel, EarthworksSiteLayerModel, EarthworksSiteModel, TerrainContext } from '../data.ts';
import type { Grid } from '../dem.ts';
import { mosaic } from '../dem.ts';
import type { EarthworksModel } from '../earthworks.ts';
import { balancedLevel, earthworks, groundUnder } from '../earthworks.ts';
import { assertTerrainPolygon } from '../polygon.ts';
import { ELEVATION_STATES } from './terrain-layer.ts';

type FootprintPolygon = Extract<ParcelGeometry, { type: 'Polygon' }>;

/** A footprint and lot that passed every check, with the DEM around the footprint. */
type Site = { footprint: FootprintPolygon; lot: ParcelGeometry; area: number; grid: Grid; provenance: Provenance };

const HINT = 'Send the footprint as a GeoJSON Polygon in WGS84 [lng, lat], inside the lot, each ring closed.';

/** The terrain polygon rules (closed rings, Australia, at most 1 km²), with the polygon named in the message. */
function checked(geometry: GeoJSONGeometry, what: 'footprint' | 'lot'): ParcelGeometry {
  try {
    return assertTerrainPolygon(geometry, what);
  } catch (error) {
    if (error instanceof AppError && !error.message.startsWith(what)) {
      throw new AppError(error.code, `${what}: ${error.message}`, error.hint);
    }
    throw error;
  }
}

function assertPadLevel(padLevel: number | null): void {
  if (padLevel === null) return;
  if (!Number.isFinite(padLevel) || padLevel < MIN_PAD_LEVEL_M || padLevel > MAX_PAD_LEVEL_M) {
    throw badRequest(
      `pad_level_m must be a level in metres AHD from ${MIN_PAD_LEVEL_M} to ${MAX_PAD_LEVEL_M}; got ${padLevel}.`,
      'Leave pad_level_m out to get the level that balances cut and fill.',
    );
  }
}

/** The caller's own mistakes first (400), then the footprint against its lot (422): none of it needs the DEM. */
async function checkGeometry(
  footprintIn: GeoJSONGeometry,
  lotIn: GeoJSONGeometry,
  padLevel: number | null,
  ctx: TerrainContext,
): Promise<{ footprint: FootprintPolygon; lot: ParcelGeometry; area: number }> {
  assertPadLevel(padLevel);
  // a building pad is one piece: only a Polygon, though the shared ring rules would take a MultiPolygon
  const notPolygon = (type: unknown) => badRequest(`footprint must be a GeoJSON Polygon; got ${String(type)}.`, HINT);
  if (footprintIn.type !== 'Polygon') throw notPolygon(footprintIn.type);
  const footprint = checked(footprintIn, 'footprint');
  if (footprint.type !== 'Polygon') throw notPolygon(footprint.type);
  const positions = footprint.coordinates.reduce((n, ring) => n + ring.length, 0);
  if (positions > MAX_EARTHWORKS_FOOTPRINT_VERTICES) {
    throw badRequest(
      `footprint has ${positions} positions; the limit is ${MAX_EARTHWORKS_FOOTPRINT_VERTICES}.`,
      'Simplify the outline first.',
    );
  }
  const lot = checked(lotIn, 'lot');
  const verdict = await ctx.terrain.footprintOnLot(footprint, lot);
  if (!verdict.footprint_valid) {
    throw badRequest(`footprint is not a valid polygon: ${verdict.footprint_reason}.`, HINT);
  }
  if (verdict.area_m2 > MAX_EARTHWORKS_FOOTPRINT_M2) {
    throw badRequest(
      `footprint covers ${Math.round(verdict.area_m2).toLocaleString('en-AU')} m²; the limit is ${MAX_EARTHWORKS_FOOTPRINT_M2.toLocaleString('en-AU')} m².`,
      'Earthworks are worked out for one building pad; split a larger platform into pads.',
    );
  }
  if (!verdict.lot_valid) {
    throw new AppError('UNPROCESSABLE', `The lot is not a valid polygon: ${verdict.lot_reason}.`, HINT);
  }
  if (!verdict.covered) {
    throw new AppError(
      'UNPROCESSABLE',
      'footprint is not inside the lot: part of it lies beyond the lot boundary.',
      'Move or shrink the footprint so the lot covers all of it (its boundary may touch).',
    );
  }
  return { footprint, lot, area: verdict.area_m2 };
}

const unavailable = <T>(state: string): LayerResult<T> & { available: false; reason: string } => {
  const reason = `Earthworks use the Elevation group's terrain model, served for ${ELEVATION_STATES.join(', ')} only; ${state} is not available.`;
  return { ...layerEmpty<T>('not_covered', reason), available: false, reason };
};

/**
 * Everything that decides whether earthworks can be worked out, in the order a caller mends
 * things: bad input, the footprint against the lot, the state, the model's reach, the pad level.
 */
async function site(
  state: string,
  footprintIn: GeoJSONGeometry,
  lotIn: GeoJSONGeometry,
  padLevel: number | null,
  ctx: TerrainContext,
): Promise<Site | LayerResult<never>> {
  const { footprint, lot, area } = await checkGeometry(footprintIn, lotIn, padLevel, ctx);
  if (!ELEVATION_STATES.includes(state)) return unavailable(state);
  const provenance = await ctx.terrain.provenance(state);
  if (!provenance) return layerEmpty('not_covered', `Terrain data does not cover ${state} yet.`);
  const box = bboxOf(footprint);
  const grid = mosaic(await ctx.terrain.tiles.load({ state, ...box }), box, { margin: 1 });
  if (!grid) return layerEmpty('not_covered', `The ${state} terrain model does not reach this footprint.`, provenance);
  return { footprint, lot, area, grid, provenance };
}

const isSite = (value: Site | LayerResult<never>): value is Site => 'grid' in value;

function assertPadNearGround(padLevel: number | null, min: number, max: number): void {
  if (padLevel === null) return;
  const worst = Math.max(padLevel - min, max - padLevel);
  if (worst > MAX_EARTHWORKS_DEPTH_M) {
    throw new AppError(
      'UNPROCESSABLE',
      `pad_level_m ${padLevel} m AHD is ${worst.toFixed(1)} m ${padLevel - min >= max - padLevel ? 'above the lowest' : 'below the highest'} ground under the footprint (${min.toFixed(1)} to ${max.toFixed(1)} m AHD); earthworks are worked out for pads within ${MAX_EARTHWORKS_DEPTH_M} m of the ground.`,
      'Give a pad level near the ground, or leave it out for the balancing level.',
    );
  }
}

const noGround = (state: string, provenance: Provenance) =>
  layerEmpty<never>(
    'not_covered',
    `The ${state} terrain model has no height under part of this footprint.`,
    provenance,
  );

/** The checks of earthworks and the ground's range, without volumes (the submit step). */
export function earthworksSiteLayer(
  state: string,
  footprint: GeoJSONGeometry,
  lot: GeoJSONGeometry,
  padLevel: number | null,
  ctx: TerrainContext,
): Promise<EarthworksSiteLayerModel> {
  return answer<EarthworksSiteModel>(state, footprint, lot, padLevel, ctx, (s) => {
    const ground = groundUnder(s.grid, s.footprint);
    if (!ground) return noGround(state, s.provenance);
    let min = Infinity;
    let max = -Infinity;
    for (const z of ground.heights) {
      min = Math.min(min, z);
      max = Math.max(max, z);
    }
    assertPadNearGround(padLevel, min, max);
    const round = (x: number) => Math.round(x * 1000) / 1000;
    return layerOk(
      {
        footprint_area_m2: Math.round(s.area * 100) / 100,
        ground_min_m: round(min),
        ground_max_m: round(max),
        balanced_pad_level_m: round(balancedLevel(ground.heights)),
      },
      s.provenance,
    );
  });
}

/** Cut, fill, the balancing level and slope-adjusted setbacks of a pad on the footprint. */
export function earthworksLayer(
  state: string,
  footprint: GeoJSONGeometry,
  lot: GeoJSONGeometry,
  padLevel: number | null,
  ctx: TerrainContext,
): Promise<EarthworksLayerModel> {
  return answer<EarthworksModel>(state, footprint, lot, padLevel, ctx, (s) => {
    const result = earthworks(s.grid, s.footprint, s.lot, s.area, padLevel);
    if (!result) return noGround(state, s.provenance);
    assertPadNearGround(padLevel, result.ground_min_m, result.ground_max_m);
    return layerOk(result, s.provenance);
  });
}

/**
 * The caller's mistakes are errors (400/422), never hidden in a layer status; the work itself is
 * arithmetic on the grid in hand, so nothing behind it can fail but the database (503).
 */
async function answer<T>(
  state: string,
  footprint: GeoJSONGeometry,
  lot: GeoJSONGeometry,
  padLevel: number | null,
  ctx: TerrainContext,
  work: (s: Site) => LayerResult<T>,
): Promise<LayerResult<T> & { available: boolean; reason: string | null }> {
  const found = await site(state, footprint, lot, padLevel, ctx);
  if (!isSite(found)) return { available: true, reason: null, ...found };
  return { ...work(found), available: true, reason: null };
}
