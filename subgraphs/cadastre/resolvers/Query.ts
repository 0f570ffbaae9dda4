import { badRequest } from '../../../core/errors.ts';
import type { BBox } from '../../../core/geo.ts';
import type { Provenance } from '../../../core/layer.ts';
import { MAX_BBOX_FEATURES, assertBBox, assertPoint, assertState } from '../../../core/validate.ts';
import type { CadastreContext, CadastreProperty, ParcelCollectionModel } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import type { CollectionResolution } from '../sources/fallbacks.ts';
import type { ParcelRow } from '../sql.ts';
import { cadastreLayer } from './Property.ts';
import { parseLotReference } from '../lot-reference.ts';

/** A plan holds at most this many lots in one answer; a larger plan is refused, never truncated. */
export const MAX_PLAN_PARCELS = 1000;

async function propertyAt(
  lat: number,
  lng: number,
  stateInput: string,
  ctx: CadastreContext,
): Promise<CadastreProperty> {
  assertPoint(lat, lng);
  const state = assertState(stateInput);
  const resolution = await ctx.cadastre.resolvePoint({ state, lat, lng });
  const parcel_pfi = resolution.status === 'ok' ? resolution.parcel.parcel_pfi : null;
  return { parcel_pfi, state, resolution, location: { lat, lng } };
}

function refuseOverfull(features: ParcelRow[]): void {
  if (features.length > MAX_BBOX_FEATURES) {
    throw badRequest(
      `The window holds more than ${MAX_BBOX_FEATURES} parcels.`,
      'Request a smaller bbox (split it into tiles); results are never truncated.',
    );
  }
}

function collectionOf(answer: CollectionResolution): ParcelCollectionModel {
  if (answer.status === 'error') {
    return {
      status: 'error',
      message: answer.message,
      source: answer.source,
      attribution: null,
      license: null,
      features: [],
    };
  }
  refuseOverfull(answer.features);
  const { provenance, ...rest } = answer;
  return {
    ...rest,
    attribution: provenance?.attribution ?? null,
    license: provenance?.license ?? null,
    source: provenance?.source ?? null,
    freshness: provenance?.freshness ?? null,
  };
}

/** The mirror's own answer for a window: its parcels, or whether its coverage reaches the window at all. */
function mirrorWindow(
  state: string,
  mirror: Provenance,
  features: ParcelRow[],
  touches: boolean,
): CollectionResolution {
  if (features.length > 0) return { status: 'ok', message: null, provenance: mirror, features };
  return touches
    ? { status: 'no_data', message: 'No parcels intersect this window.', provenance: mirror, features }
    : {
        status: 'not_covered',
        message: `The ${state} cadastre mirror does not reach this window.`,
        provenance: mirror,
        features,
      };
}

/**
 * A window from the mirror when its coverage holds all of it; otherwise from the sources
 * behind it (object store, live state service) if one reaches it; otherwise what the mirror
 * has at its edge (ok or no_data), or not_covered.
 */
async function parcelsInBBox(bbox: BBox, state: string, ctx: CadastreContext): Promise<ParcelCollectionModel> {
  const mirror = await ctx.cadastre.provenance(state);
  const fallback = ctx.cadastre.hasFallback(state);
  if (!mirror) {
    const behind = fallback ? await ctx.cadastre.fallbackInBBox(state, bbox, MAX_BBOX_FEATURES) : null;
    return collectionOf(
      behind ?? {
        status: 'not_covered',
        message: `The cadastre does not cover ${state} yet.`,
        provenance: null,
        features: [],
      },
    );
  }
  const features = await ctx.cadastre.parcelsInBBox(state, bbox, MAX_BBOX_FEATURES);
  refuseOverfull(features);
  if (features.length > 0 && !fallback) return collectionOf(mirrorWindow(state, mirror, features, true));
  const coverage = await ctx.cadastre.bboxCoverage(state, bbox);
  const fromMirror = mirrorWindow(state, mirror, features, coverage.touches);
  if (coverage.holds || !fallback) return collectionOf(fromMirror);
  return collectionOf((await ctx.cadastre.fallbackInBBox(state, bbox, MAX_BBOX_FEATURES)) ?? fromMirror);
}

export const Query: QueryResolvers<CadastreContext> = {
  async parcelAt(_parent, { lat, lng, state }, ctx) {
    return cadastreLayer(await propertyAt(lat, lng, state, ctx), ctx);
  },
  async parcelByPfi(_parent, { parcel_pfi, state }, ctx) {
    return cadastreLayer({ parcel_pfi: parcel_pfi.trim(), state: assertState(state), location: null }, ctx);
  },
  propertyAt: (_parent, { lat, lng, state }, ctx) => propertyAt(lat, lng, state, ctx),
  placeAt(_parent, { lat, lng, state }) {
    assertPoint(lat, lng);
    return { lat, lng, state: assertState(state) };
  },
  placeOfParcel: (_parent, { parcel_pfi, state }, ctx) =>
    ctx.cadastre.placeOfParcel({ parcel_pfi: parcel_pfi.trim(), state: assertState(state) }),
  async propertyByParcel(_parent, { parcel_pfi, state }, ctx) {
    const key = { parcel_pfi: parcel_pfi.trim(), state: assertState(state) };
    const resolution = await ctx.cadastre.resolvePfi(key);
    if (resolution.status === 'no_data' || resolution.status === 'not_covered') return null;
    // A failed source still yields the property, its cadastre layer saying what failed.
    const parcel = resolution.status === 'ok' ? resolution.parcel : null;
    return { ...key, resolution, location: parcel ? { lat: parcel.inside_lat, lng: parcel.inside_lng } : null };
  },
  parseLotReference: (_parent, { text, state }, _ctx) => parseLotReference(text, state ?? undefined),
  async parcelsByLotPlan(_parent, { lot, plan, state, spi }, ctx) {
    const code = assertState(state);
    const rows = await ctx.cadastre.parcelsByLotPlan(
      code,
      { spi: spi ?? null, lot: lot ?? null, plan: plan.trim().toUpperCase() },
      MAX_PLAN_PARCELS,
    );
    if (rows.length > MAX_PLAN_PARCELS)
      throw badRequest(`Plan ${plan} has more than ${MAX_PLAN_PARCELS} parcels.`, 'Name the lot as well as the plan.');
    const provenance = await ctx.cadastre.provenance(code);
    if (!provenance)
      return {
        status: 'not_covered',
        message: `The cadastre mirror does not cover ${code} yet.`,
        source: null,
        attribution: null,
        license: null,
        features: [],
      };
    return {
      status: rows.length > 0 ? 'ok' : 'no_data',
      message: rows.length > 0 ? null : `No parcel is registered as ${lot ? `lot ${lot} on ` : ''}${plan} in ${code}.`,
      ...provenance,
      features: rows,
    };
  },
  async parcelsInBBox(_parent, { bbox, state }, ctx) {
    assertBBox(bbox);
    return parcelsInBBox(bbox, assertState(state), ctx);
  },
};
