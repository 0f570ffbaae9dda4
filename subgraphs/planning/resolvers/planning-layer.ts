import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import type { PlanningContext, PlanningLayerModel, PlanningProperty } from '../data.ts';

/** Zone and overlays at the property's point, or why there are none. */
export function planningLayer(property: PlanningProperty, ctx: PlanningContext): Promise<PlanningLayerModel> {
  return guardLayer('planning', async () => {
    const provenance = await ctx.planning.provenance(property.state);
    if (!provenance)
      return layerEmpty('not_covered', `Planning data does not cover ${property.state || 'this state'} yet.`);
    if (!property.location) {
      return layerEmpty('skipped', 'The property has no point to look planning up at.', provenance);
    }
    const result = await ctx.planning.atPoint.load({ state: property.state, ...property.location });
    if (!result.covered) {
      return layerEmpty('not_covered', `The ${property.state} planning mirror does not reach this point.`, provenance);
    }
    if (!result.zone && result.overlays.length === 0) {
      return layerEmpty('no_data', 'No zone or overlay is mapped at this point.', provenance);
    }
    return layerOk(result, provenance);
  });
}
