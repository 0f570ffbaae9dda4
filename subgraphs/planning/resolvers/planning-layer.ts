import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import { logger } from '../../../core/logger.ts';
import type { LiveResolution, PlanningContext, PlanningLayerModel, PlanningProperty } from '../data.ts';
import { SourceError } from '../../../core/sources/errors.ts';
import type { LivePlanningAdapter } from '../sources/live.ts';

/** A live service's answer (or failure) as the planning layer, credited to the state's publisher. */
function liveLayer(resolution: LiveResolution, adapter: LivePlanningAdapter): PlanningLayerModel {
  if (resolution.status === 'error') {
    const { error } = resolution;
    logger.warn(`planning source failed: ${adapter.label}`, { error: (error as Error).message });
    const what = error instanceof SourceError ? error.message : `The ${adapter.label} failed.`;
    // The source that failed is named; nothing was served, so there is nothing to credit.
    return {
      status: 'error',
      data: null,
      message: `${what} Retry shortly; other layers are unaffected.`,
      source: resolution.source,
      attribution: null,
      license: null,
    };
  }
  const { answer, provenance } = resolution;
  if (!answer.zone && answer.overlays.length === 0) {
    return layerEmpty('no_data', `No zone or overlay is mapped at this point in the ${adapter.label}.`, provenance);
  }
  const layer = layerOk({ covered: true, zone: answer.zone, overlays: answer.overlays }, provenance);
  return answer.overlaysAsked
    ? layer
    : { ...layer, message: `The zone is from the ${adapter.label}, which publishes no overlays: none are listed.` };
}

/**
 * Zone and overlays at the property's point, or why there are none: the database mirror
 * answers where it holds the state and reaches the point; elsewhere a live key gets the state's
 * live service (a test key never does: the sandbox is frozen).
 */
export function planningLayer(property: PlanningProperty, ctx: PlanningContext): Promise<PlanningLayerModel> {
  return guardLayer('planning', async () => {
    const { state, location } = property;
    const provenance = await ctx.planning.provenance(state);
    const live = ctx.planning.liveService(state);
    if (!provenance && !live) {
      return layerEmpty('not_covered', `Planning data does not cover ${state || 'this state'} yet.`);
    }
    if (!location) {
      return layerEmpty('skipped', 'The property has no point to look planning up at.', provenance);
    }
    if (provenance) {
      const result = await ctx.planning.atPoint.load({ state, ...location });
      if (result.covered && !result.zone && result.overlays.length === 0) {
        return layerEmpty('no_data', 'No zone or overlay is mapped at this point.', provenance);
      }
      if (result.covered) return layerOk(result, provenance);
    }
    // Only a mirror that does not reach the point gets here without a live service.
    if (!live) return layerEmpty('not_covered', `The ${state} planning mirror does not reach this point.`, provenance);
    return liveLayer(await ctx.planning.liveAtPoint.load({ state, ...location, adapter: live }), live);
  });
}
