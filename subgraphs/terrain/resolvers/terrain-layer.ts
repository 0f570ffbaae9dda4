import { AppError } from '../../../core/errors.ts';
import type { BBox } from '../../../core/geo.ts';
import type { LayerResult } from '../../../core/layer.ts';
import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import { bboxOf } from '../../../core/polygons.ts';
import type { ContourLines } from '../contour-set.ts';
import { MAX_CONTOUR_NODES, contourLines } from '../contour-set.ts';
import type {
  ContourSetModel,
  GroundProfileLayerModel,
  TerrainContext,
  TerrainLayerModel,
  TerrainProperty,
  TerrainStatsLayerModel,
} from '../data.ts';
import { mosaic } from '../dem.ts';
import type { GroundProfileModel } from '../profile.ts';
import { groundProfile, profileWindow } from '../profile.ts';
import type { TerrainPolygon } from '../polygon.ts';
import { assertTerrainPolygon } from '../polygon.ts';
import type { TerrainStatsModel } from '../stats.ts';
import { terrainStats } from '../stats.ts';
import { contourStyle } from '../zoom.ts';

/** The states the Elevation group serves (spec 4.11: VIC only, even where a DEM exists elsewhere). */
export const ELEVATION_STATES: readonly string[] = ['VIC'];

const uncovered = (state: string) => `Terrain data does not cover ${state || 'this state'} yet.`;

/** The statistics inside a polygon already checked by assertTerrainPolygon, or why there are none. */
async function measure(state: string, polygon: TerrainPolygon, ctx: TerrainContext): Promise<TerrainStatsLayerModel> {
  const provenance = await ctx.terrain.provenance(state);
  if (!provenance) return layerEmpty('not_covered', uncovered(state));
  const box = bboxOf(polygon);
  const grid = mosaic(await ctx.terrain.tiles.load({ state, ...box }), box, { margin: 1 });
  const stats = grid && terrainStats(grid, polygon);
  if (!stats) return layerEmpty('not_covered', `The ${state} terrain model does not reach this polygon.`, provenance);
  return layerOk(stats, provenance);
}

/** Elevation, fall, slope and aspect inside a polygon already checked by assertTerrainPolygon. */
export function statsLayer(
  state: string,
  polygon: TerrainPolygon,
  ctx: TerrainContext,
): Promise<TerrainStatsLayerModel> {
  return guardLayer('terrain', () => measure(state, polygon, ctx));
}

const servesState = (state: string) => ELEVATION_STATES.includes(state);

function unavailable(state: string): TerrainLayerModel {
  const reason = `Elevation is served for ${ELEVATION_STATES.join(', ')} only; ${state || 'this state'} is not available.`;
  return { ...layerEmpty('not_covered', reason), available: false, reason };
}

/** The Elevation group for a polygon: the statistics in VIC, `available: false` elsewhere. */
export async function elevationLayer(
  state: string,
  polygon: TerrainPolygon,
  ctx: TerrainContext,
): Promise<TerrainLayerModel> {
  if (!servesState(state)) return unavailable(state);
  return { ...(await statsLayer(state, polygon, ctx)), available: true, reason: null };
}

/** The Elevation group for a lot: its parcel's boundary is the polygon. */
export async function propertyTerrain(property: TerrainProperty, ctx: TerrainContext): Promise<TerrainLayerModel> {
  const { state, parcel_geometry } = property;
  if (!servesState(state)) return unavailable(state);
  const layer = await guardLayer('terrain', async () => {
    const skipped = async (message: string) =>
      layerEmpty<TerrainStatsModel>('skipped', message, await ctx.terrain.provenance(state));
    if (!parcel_geometry) return skipped('The property has no parcel whose terrain could be measured.');
    let polygon: TerrainPolygon;
    try {
      polygon = assertTerrainPolygon(parcel_geometry, 'lot');
    } catch (error) {
      // a lot over the area limit is not the caller's mistake: the layer says why it has no figures
      if (error instanceof AppError) return skipped(`Terrain statistics were not worked out: the ${error.message}`);
      throw error;
    }
    return measure(state, polygon, ctx);
  });
  return { ...layer, available: true, reason: null };
}

/** Contour lines of a window already checked by assertBBox. */
export async function contoursLayer(
  state: string,
  bbox: BBox,
  zoom: number | null,
  ctx: TerrainContext,
): Promise<ContourSetModel> {
  const style = contourStyle(bbox, zoom);
  const layer: LayerResult<ContourLines> = await guardLayer('terrain', async () => {
    const provenance = await ctx.terrain.provenance(state);
    if (!provenance) return layerEmpty('not_covered', uncovered(state));
    const tiles = await ctx.terrain.tiles.load({ state, ...bbox });
    const grid = mosaic(tiles, bbox, { margin: 1, maxNodes: MAX_CONTOUR_NODES });
    if (!grid) return layerEmpty('not_covered', `The ${state} terrain model does not reach this window.`, provenance);
    return layerOk(contourLines(grid, bbox, style), provenance);
  });
  const { data, ...status } = layer;
  return { ...status, ...style, cell_size_m: data?.cell_size_m ?? null, contours: data?.contours ?? [] };
}

/**
 * The ground around a property's point, wherever the state has a terrain model: an input to
 * other layers (the BAL's effective slope), so unlike the Elevation group it is not VIC only.
 */
export function groundProfileLayer(property: TerrainProperty, ctx: TerrainContext): Promise<GroundProfileLayerModel> {
  return guardLayer<GroundProfileModel>('terrain', async () => {
    const { state, location } = property;
    const provenance = await ctx.terrain.provenance(state);
    if (!provenance) return layerEmpty('not_covered', uncovered(state));
    if (!location) return layerEmpty('skipped', 'The property has no point to profile the ground from.', provenance);
    const window = profileWindow(location.lng, location.lat);
    const grid = mosaic(await ctx.terrain.tiles.load({ state, ...window }), window, { margin: 1 });
    const profile = grid && groundProfile(grid, location.lng, location.lat);
    if (!profile) return layerEmpty('not_covered', `The ${state} terrain model does not reach this point.`, provenance);
    return layerOk(profile, provenance);
  });
}
