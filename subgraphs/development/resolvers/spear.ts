import { badRequest } from '../../../core/errors.ts';
import { layerEmpty, layerOk } from '../../../core/layer.ts';
import type { Provenance } from '../../../core/layer.ts';
import { DEFAULT_SPEAR_RADIUS_M, MAX_SPEAR_RADIUS_M, MAX_SPEAR_RESULTS } from '../../../core/limits.ts';
import { assertBBox, assertPoint, assertState } from '../../../core/validate.ts';
import type { DevelopmentContext, PlaceEntity, SpearListModel } from '../data.ts';
import type { SpearFound, SpearRow } from '../spear-sql.ts';
import type { Judged } from './layers.ts';
import { guarded } from './layers.ts';

const NOT_VIC = (state: string) =>
  `SPEAR is Victoria's planning and subdivision system: it holds no applications in ${state || 'this state'}.`;

function creditOf(rows: readonly SpearRow[], base: Provenance): Provenance {
  const join = (values: string[]) => [...new Set(values)].join(' | ');
  return {
    source: base.source,
    attribution: join(rows.map((r) => r.attribution)),
    license: join(rows.map((r) => r.license)),
  };
}

/** The SPEAR layer's answer: not_covered outside VIC (or where nothing is loaded), no_data, or ok. */
export async function judgeSpear(
  ctx: DevelopmentContext,
  state: string,
  found: () => Promise<SpearFound>,
  nothingHere: string,
): Promise<Judged<SpearRow[]>> {
  if (state !== 'VIC') return { ...layerEmpty('not_covered', NOT_VIC(state)), freshness: null };
  const provenance = await ctx.development.spearProvenance();
  if (!provenance) {
    return { ...layerEmpty('not_covered', 'No SPEAR applications are loaded for VIC yet.'), freshness: null };
  }
  const { features, freshness } = await found();
  if (features.length === 0) return { ...layerEmpty('no_data', nothingHere, provenance), freshness };
  return { ...layerOk(features, creditOf(features, provenance)), freshness };
}

/** Metres to degrees of a box around a point that holds the whole radius (1% to spare). */
function boxAround(lng: number, lat: number, radiusM: number) {
  const dLat = (radiusM / 111_320) * 1.01;
  const dLng = (radiusM / (111_320 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01))) * 1.01;
  return { west: lng - dLng, south: lat - dLat, east: lng + dLng, north: lat + dLat };
}

async function list(judged: Promise<Judged<SpearRow[]>>, tooMany: string): Promise<SpearListModel> {
  const { data, ...rest } = await guarded(() => judged);
  const applications = data ?? [];
  if (applications.length > MAX_SPEAR_RESULTS)
    throw badRequest(tooMany, 'Ask a smaller area; results are never truncated.');
  return { ...rest, applications };
}

/**
 * Place.spear_applications_near: the applications within the radius of the place's point, and
 * those touching a parcel under it (the cadastre's Place.parcel_pfis, required through the graph)
 * at 0 m whatever the radius.
 */
export async function spearApplicationsNear(
  place: PlaceEntity,
  radiusM: number | null | undefined,
  ctx: DevelopmentContext,
): Promise<SpearListModel> {
  assertPoint(place.lat, place.lng);
  const state = assertState(place.state);
  const radius = radiusM ?? DEFAULT_SPEAR_RADIUS_M;
  if (!Number.isFinite(radius) || radius <= 0 || radius > MAX_SPEAR_RADIUS_M) {
    throw badRequest(`radius_m must be more than 0 and at most ${MAX_SPEAR_RADIUS_M} metres.`, 'Ask a smaller circle.');
  }
  const { lat, lng, parcel_pfis: lots } = place;
  return list(
    judgeSpear(
      ctx,
      state,
      async () => {
        // the cadastre could not read the parcels under the point: the layer fails, as when it read them itself
        if (!lots) throw new Error('The cadastre did not give the parcels under the point.');
        return ctx.development.spearNear(lng, lat, radius, boxAround(lng, lat, radius), MAX_SPEAR_RESULTS, lots);
      },
      `No SPEAR application is recorded within ${radius} m of this point.`,
    ),
    `More than ${MAX_SPEAR_RESULTS} SPEAR applications lie within ${radius} m of this point.`,
  );
}

export const spearQuery = {
  async spearApplicationsInBBox(
    _parent: unknown,
    args: { bbox: { west: number; south: number; east: number; north: number }; state: string },
    ctx: DevelopmentContext,
  ): Promise<SpearListModel> {
    assertBBox(args.bbox);
    const state = assertState(args.state);
    return list(
      judgeSpear(
        ctx,
        state,
        () => ctx.development.spearInBox({ ...args.bbox }, MAX_SPEAR_RESULTS),
        'No SPEAR application is recorded in this window.',
      ),
      `The window holds more than ${MAX_SPEAR_RESULTS} SPEAR applications.`,
    );
  },
};
