import {
  AMENITY_CATEGORIES,
  CATCHMENT_MINUTES,
  NETWORK_SNAP_M,
  OSM_ATTRIBUTION,
  WALKING_SPEED_M_PER_MIN,
} from '../../../core/amenities.ts';
import { badRequest, DatabaseUnavailableError } from '../../../core/errors.ts';
import {
  DEFAULT_AMENITY_LIMIT,
  DEFAULT_AMENITY_RADIUS_M,
  MAX_AMENITY_LIMIT,
  MAX_AMENITY_RADIUS_M,
} from '../../../core/limits.ts';
import { logger } from '../../../core/logger.ts';
import { suburbKey } from '../../../core/suburb-metrics.ts';
import { assertPoint, assertState } from '../../../core/validate.ts';
import type {
  AmenitiesContext,
  AmenitiesNearModel,
  CatchmentModel,
  AddressHullInput,
  SalBoundaryInput,
  SuburbAmenitiesModel,
  SuburbEntity,
} from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';

const uncovered = (state: string) => `No OpenStreetMap amenities or walking network are held for ${state}.`;
const failed = 'The amenities source failed for this request.';

/** A layer's status fields when its source failed: no credit, since nothing of the source is served. */
const FAILED_LAYER = {
  status: 'error',
  source: null,
  attribution: null,
  license: null,
  freshness: null,
  message: failed,
} as const;

/** A lookup that failed: logged and answered as status error, unless the database itself is away (a 503). */
function logFailure(error: unknown, what: string): void {
  if (error instanceof DatabaseUnavailableError) throw error;
  logger.error(`${what} failed`, { error: (error as Error).message });
}

/** A suburb name as the layers key it; refused when empty or longer than any suburb's. */
export function suburbName(suburb: string): string {
  const name = suburbKey(suburb);
  if (name === '' || name.length > 80) throw badRequest('suburb must be a suburb name (1-80 characters).');
  return name;
}

/**
 * A suburb's amenity counts: inside `boundary` (its ABS SAL) where given, else inside `hull` (the
 * hull of its addresses) widened; both come through the graph from the layers that own them. A
 * SAL boundary's credit joins the OpenStreetMap one.
 */
export async function suburbAmenitiesLayer(
  ctx: AmenitiesContext,
  code: string,
  name: string,
  boundary: SalBoundaryInput | null,
  hull: AddressHullInput | null,
): Promise<SuburbAmenitiesModel> {
  const head = {
    state: code,
    suburb: name,
    extent_method: null,
    sal_code: null,
    sal_name: null,
    centre_lat: null,
    centre_lng: null,
    counts: null,
  };
  try {
    const provenance = await ctx.amenities.provenance(code);
    if (!provenance) {
      return {
        status: 'not_covered',
        source: null,
        attribution: null,
        license: null,
        freshness: null,
        message: uncovered(code),
        ...head,
      };
    }
    const answer = await ctx.amenities.suburb(code, boundary, hull);
    const credit = { ...provenance, freshness: provenance.freshness ?? null };
    if (!answer) {
      return {
        status: 'no_data',
        ...credit,
        message: `No addresses of a suburb named ${name} are held in ${code}.`,
        ...head,
      };
    }
    const join = (a: string, b: string | undefined) => (b && b !== a ? `${a} | ${b}` : a);
    return {
      status: 'ok',
      ...credit,
      attribution: join(credit.attribution, answer.sal?.attribution),
      license: join(credit.license, answer.sal?.license),
      message: null,
      ...head,
      extent_method: answer.extent_method,
      sal_code: answer.sal?.code ?? null,
      sal_name: answer.sal?.name ?? null,
      centre_lat: answer.centre_lat,
      centre_lng: answer.centre_lng,
      counts: answer.counts,
    };
  } catch (error) {
    logFailure(error, 'suburb amenities');
    return { ...FAILED_LAYER, ...head };
  }
}

/**
 * The walking catchment of a point as a layer: ok (walked, or the approximate buffer where no
 * network is held), not_covered where no amenities source is held for the state, error where it failed.
 */
export async function catchmentLayer(
  ctx: AmenitiesContext,
  code: string,
  lat: number,
  lng: number,
  minutes: number,
): Promise<CatchmentModel> {
  const budget = minutes * WALKING_SPEED_M_PER_MIN;
  const base = {
    minutes,
    walking_speed_m_per_min: WALKING_SPEED_M_PER_MIN,
    budget_m: budget,
    origin_node: null,
    origin_access_m: null,
    reached_nodes: 0,
    reached_edges: 0,
  };
  try {
    const provenance = await ctx.amenities.provenance(code);
    const c = await ctx.amenities.catchment(code, lat, lng, minutes);
    const credit = provenance
      ? { ...provenance, freshness: provenance.freshness ?? null }
      : { source: null, attribution: null, license: null, freshness: null };
    if (c.approximate || !c.walk) {
      return {
        status: provenance ? 'ok' : 'not_covered',
        ...credit,
        message: provenance ? null : uncovered(code),
        ...base,
        approximate: true,
        reason: `No walking network is held within ${NETWORK_SNAP_M} m of the point: the catchment is a ${budget} m straight-line buffer (${minutes} minutes at ${WALKING_SPEED_M_PER_MIN} m a minute), not a walk.`,
        polygon: c.polygon,
        amenities: c.amenities,
      };
    }
    return {
      status: 'ok',
      ...credit,
      attribution: credit.attribution ?? OSM_ATTRIBUTION,
      message: null,
      ...base,
      approximate: false,
      reason: null,
      origin_node: c.walk.origin.id,
      origin_access_m: Math.round(c.walk.origin.distance_m * 10) / 10,
      reached_nodes: c.walk.distances.size,
      reached_edges: c.walk.reached.filter((r) => r.parts.length > 0).length,
      polygon: c.polygon,
      amenities: c.amenities,
    };
  } catch (error) {
    logFailure(error, 'walking catchment');
    return {
      ...FAILED_LAYER,
      ...base,
      approximate: false,
      reason: null,
      polygon: null,
      amenities: [],
    };
  }
}

/** The catchment minutes asked, else a 400 naming the choices. */
export function assertMinutes(minutes: number): number {
  if (!(CATCHMENT_MINUTES as readonly number[]).includes(minutes)) {
    throw badRequest(`minutes must be one of ${CATCHMENT_MINUTES.join(', ')}.`);
  }
  return minutes;
}

export const Query: QueryResolvers<AmenitiesContext> = {
  async amenitiesNear(_parent, { lat, lng, state, categories, radius_m, limit }, ctx): Promise<AmenitiesNearModel> {
    assertPoint(lat, lng);
    const code = assertState(state);
    const radius = radius_m ?? DEFAULT_AMENITY_RADIUS_M;
    if (!Number.isFinite(radius) || radius <= 0 || radius > MAX_AMENITY_RADIUS_M) {
      throw badRequest(`radius_m must be more than 0 and at most ${MAX_AMENITY_RADIUS_M}.`);
    }
    const count = limit ?? DEFAULT_AMENITY_LIMIT;
    if (!Number.isInteger(count) || count < 1 || count > MAX_AMENITY_LIMIT) {
      throw badRequest(`limit must be a whole number from 1 to ${MAX_AMENITY_LIMIT}.`);
    }
    const wanted = categories && categories.length > 0 ? [...new Set(categories)] : [...AMENITY_CATEGORIES];
    const empty = { radius_m: radius, network: false, data: null, freshness: null };
    try {
      const provenance = await ctx.amenities.provenance(code);
      if (!provenance) {
        return {
          status: 'not_covered',
          source: null,
          attribution: null,
          license: null,
          message: uncovered(code),
          ...empty,
        };
      }
      const { network, rows } = await ctx.amenities.near(code, lat, lng, wanted, radius, count);
      const head = { ...provenance, freshness: provenance.freshness ?? null };
      if (rows.length === 0) {
        return {
          status: 'no_data',
          ...head,
          message: `No ${wanted.join(', ')} lies within ${radius} m of the point.`,
          ...empty,
          network,
        };
      }
      return { status: 'ok', ...head, message: null, radius_m: radius, network, data: rows };
    } catch (error) {
      logFailure(error, 'amenities lookup');
      return { status: 'error', source: null, attribution: null, license: null, message: failed, ...empty };
    }
  },

  suburbByName(_parent, { state, name }): SuburbEntity {
    return { state: assertState(state), name: suburbName(name) };
  },

  walkingCatchment(_parent, { lat, lng, minutes, state }, ctx): Promise<CatchmentModel> {
    assertPoint(lat, lng);
    return catchmentLayer(ctx, assertState(state), lat, lng, assertMinutes(minutes));
  },
};
