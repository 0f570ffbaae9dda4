import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import type { LayerResult } from '../../../core/layer.ts';
import type { PlanningContext } from '../data.ts';
import type { ClimateZone } from '../generated/resolvers-types.ts';

/** The National Construction Code's names of its eight climate zones (NCC Volume One, Part A6 / the ABCB map). */
export const CLIMATE_ZONE_NAMES: Record<number, string> = {
  1: 'High humidity summer, warm winter',
  2: 'Warm humid summer, mild winter',
  3: 'Hot dry summer, warm winter',
  4: 'Hot dry summer, cool winter',
  5: 'Warm temperate',
  6: 'Mild temperate',
  7: 'Cool temperate',
  8: 'Alpine',
};

/** The building-code climate zone at a point, or why none is known there. */
export function climateZoneLayer(
  state: string,
  location: { lat: number; lng: number } | null,
  ctx: PlanningContext,
): Promise<LayerResult<ClimateZone>> {
  return guardLayer('climate zone', async () => {
    const provenance = await ctx.products.provenance('climate', state);
    if (!provenance) return layerEmpty('not_covered', `Climate zones are not loaded for ${state || 'this state'} yet.`);
    if (!location)
      return layerEmpty('skipped', 'The property has no point to look its climate zone up at.', provenance);
    const zone = await ctx.products.climateAt.load({ state, ...location });
    if (zone === null) {
      return layerEmpty('not_covered', `The ${state} climate zone map we hold does not reach this point.`, provenance);
    }
    return layerOk({ zone, description: CLIMATE_ZONE_NAMES[zone] ?? `Climate zone ${zone}` }, provenance);
  });
}
