import type { BBox } from '../../../core/geo.ts';
import { AppError, badRequest } from '../../../core/errors.ts';
import { logger } from '../../../core/logger.ts';
import { areaM2, containsPoint } from '../../../core/polygons.ts';
import { SourceError } from '../../../core/sources/errors.ts';
import type { LivePlanningAdapter } from '../sources/live.ts';
import { pointBox } from '../sources/protocols.ts';
import { assertBBox, assertPoint, assertState, MAX_BBOX_FEATURES } from '../../../core/validate.ts';
import type { PlanningContext } from '../data.ts';
import type { UgbAtPoint, UgbCollection } from '../generated/resolvers-types.ts';

/** Urban growth boundaries are mapped at regional scale: a map window may be wider than the cadastre's. */
export const MAX_UGB_BBOX_SPAN_DEGREES = 2;

const NOT_VIC =
  'Urban growth boundaries are a Victorian planning control (Clause 11.02 of the Victoria Planning Provisions); no other state maps one.';

/** Spec 2.12: whether a point is inside the urban growth boundary, with the zone there. */
export async function ugbAtPoint(
  lat: number,
  lng: number,
  stateInput: string,
  ctx: PlanningContext,
): Promise<UgbAtPoint> {
  assertPoint(lat, lng);
  const state = assertState(stateInput);
  const unavailable = (reason: string, provenance?: { source: string; attribution: string; license: string }) => ({
    status: 'not_covered' as const,
    source: provenance?.source ?? null,
    attribution: provenance?.attribution ?? null,
    license: provenance?.license ?? null,
    message: reason,
    data: {
      state,
      available: false,
      reason,
      insideUGB: null,
      gaicApplies: null,
      ugbLga: null,
      zoneDescription: null,
    },
  });
  if (state !== 'VIC') return unavailable(NOT_VIC);
  const provenance = await ctx.products.provenance('ugb', state);
  const row = await ctx.products.ugbAt.load({ state, lat, lng });
  if (!provenance || !row.held) {
    const live = ctx.planning.liveService(state);
    if (live?.servesUgb) return liveUgbAtPoint(live, state, lat, lng, row.zone_description);
    return unavailable('No urban growth boundary data is loaded for Victoria yet.');
  }
  return {
    status: 'ok',
    ...provenance,
    message: null,
    data: {
      state,
      available: true,
      reason: null,
      insideUGB: row.inside,
      // GAIC is levied only on land inside the boundary, in the contribution areas
      gaicApplies: row.inside && row.gaic_applies === true,
      ugbLga: row.inside ? row.lga_name : null,
      zoneDescription: row.zone_description,
    },
  };
}

/**
 * Property.ugb: the boundary at the property's point, so a parcel or an address names the land
 * as well as a coordinate does (spec 2.1.2).
 */
export function ugbOfProperty(
  state: string,
  location: { lat: number; lng: number } | null,
  ctx: PlanningContext,
): Promise<UgbAtPoint> {
  if (location) return ugbAtPoint(location.lat, location.lng, state, ctx);
  const reason = 'The property has no point to look the urban growth boundary up at.';
  return Promise.resolve({
    status: 'skipped',
    source: null,
    attribution: null,
    license: null,
    message: reason,
    data: { state, available: false, reason, insideUGB: null, gaicApplies: null, ugbLga: null, zoneDescription: null },
  });
}

/** UGB polygons intersecting a window: VIC only; any other state is an empty collection, not an error. */
export async function ugbInBBox(bbox: BBox, stateInput: string, ctx: PlanningContext): Promise<UgbCollection> {
  assertBBox(bbox, MAX_UGB_BBOX_SPAN_DEGREES);
  const state = assertState(stateInput);
  if (state !== 'VIC') {
    return { status: 'not_covered', source: null, attribution: null, license: null, message: NOT_VIC, features: [] };
  }
  const provenance = await ctx.products.provenance('ugb', state);
  const live = ctx.planning.liveService(state);
  if (!provenance && live?.servesUgb) return liveUgbInBBox(live, bbox);
  if (!provenance) {
    const message = 'No urban growth boundary data is loaded for Victoria yet.';
    return { status: 'not_covered', source: null, attribution: null, license: null, message, features: [] };
  }
  const features = await ctx.products.ugbInBBox(state, bbox, MAX_BBOX_FEATURES);
  if (features.length > MAX_BBOX_FEATURES) {
    throw badRequest(
      `The window holds more than ${MAX_BBOX_FEATURES} urban growth boundary polygons.`,
      'Request a smaller bbox; results are never truncated.',
    );
  }
  return { status: features.length > 0 ? 'ok' : 'no_data', ...provenance, message: null, features };
}

const liveProvenance = (live: LivePlanningAdapter) => ({
  source: `live:${live.state.toLowerCase()}/ugb`,
  attribution: live.provenance.attribution,
  license: live.provenance.license,
  freshness: live.provenance.freshness ?? null,
});

function liveFailure(live: LivePlanningAdapter, error: unknown): string {
  logger.warn(`UGB source failed: ${live.label}`, { error: (error as Error).message });
  const what = error instanceof SourceError ? error.message : `The ${live.label} failed.`;
  return `${what} Retry shortly.`;
}

/** The state's live service where the mirror holds no UGB: the boundary polygons around the point. */
async function liveUgbAtPoint(
  live: LivePlanningAdapter,
  state: string,
  lat: number,
  lng: number,
  mirrorZone: string | null,
): Promise<UgbAtPoint> {
  const provenance = liveProvenance(live);
  try {
    const around = await live.ugbInBBox(pointBox(lng, lat));
    const inside = around
      .filter((f) => containsPoint(f.geometry, lng, lat))
      .sort((a, b) => areaM2(a.geometry) - areaM2(b.geometry))[0];
    const zone = mirrorZone ?? (await live.atPoint(lng, lat)).zone?.description ?? null;
    return {
      status: 'ok',
      ...provenance,
      message: null,
      data: {
        state,
        available: true,
        reason: null,
        insideUGB: inside !== undefined,
        gaicApplies: inside?.gaic_applies === true,
        ugbLga: inside?.lga_name ?? null,
        zoneDescription: zone,
      },
    };
  } catch (error) {
    const message = liveFailure(live, error);
    return {
      status: 'error',
      source: provenance.source,
      attribution: null,
      license: null,
      message,
      data: {
        state,
        available: false,
        reason: message,
        insideUGB: null,
        gaicApplies: null,
        ugbLga: null,
        zoneDescription: null,
      },
    };
  }
}

async function liveUgbInBBox(live: LivePlanningAdapter, bbox: BBox): Promise<UgbCollection> {
  const provenance = liveProvenance(live);
  try {
    const features = await live.ugbInBBox(bbox);
    if (features.length > MAX_BBOX_FEATURES) {
      throw badRequest(
        `The window holds more than ${MAX_BBOX_FEATURES} urban growth boundary polygons.`,
        'Request a smaller bbox; results are never truncated.',
      );
    }
    return { status: features.length > 0 ? 'ok' : 'no_data', ...provenance, message: null, features };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = liveFailure(live, error);
    return { status: 'error', source: provenance.source, attribution: null, license: null, message, features: [] };
  }
}
