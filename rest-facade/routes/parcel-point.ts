import { z } from 'zod';
import type { RequestScope } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import type { Graph } from '../../gateway/graph.ts';
import { unwrap } from '../graph-result.ts';
import { numeric, stateParam, textParam } from '../params.ts';

/**
 * Spec 2.1.2: a point route takes pfi + state in place of lat/lng, and answers at the point the
 * parcel is analysed at (the property's `location`, the point every property layer uses).
 */

/** Exactly one way of naming the place: lat and lng together, or pfi with its state. */
export function refinePointOrParcel(
  q: { lat?: number; lng?: number; pfi?: string; state?: string },
  ctx: z.RefinementCtx,
): void {
  const point = q.lat !== undefined || q.lng !== undefined;
  if (point === (q.pfi !== undefined)) {
    ctx.addIssue({ code: 'custom', message: 'Identify the place one way: lat and lng, or pfi and state.' });
  } else if (point && (q.lat === undefined || q.lng === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
  }
  if (q.pfi !== undefined && q.state === undefined) {
    ctx.addIssue({ code: 'custom', message: 'pfi needs state: parcel identifiers are only unique within a state.' });
  }
}

/**
 * The query of a property route naming its place one way (spec 2.1.2): lat and lng, or pfi and
 * state, or gnaf_pid. A route extends it with its own parameters.
 */
export const pointParcelOrAddressQuery = z
  .object({
    lat: numeric('lat').optional(),
    lng: numeric('lng').optional(),
    pfi: textParam('pfi', 64).optional(),
    state: stateParam.optional(),
    gnaf_pid: textParam('gnaf_pid', 32).optional(),
  })
  .superRefine((q, ctx) => {
    const forms = [q.lat !== undefined || q.lng !== undefined, q.pfi !== undefined, q.gnaf_pid !== undefined];
    if (forms.filter(Boolean).length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'Give the place one way: lat and lng, or pfi and state, or gnaf_pid.' });
    } else if ((q.lat === undefined) !== (q.lng === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
    } else if (q.pfi !== undefined && q.state === undefined) {
      ctx.addIssue({ code: 'custom', message: 'pfi needs state: parcel identifiers are only unique within a state.' });
    }
  });

/** The 404 for a parcel the cadastre does not hold. */
export const unknownParcel = (pfi: string, state: string): AppError =>
  new AppError('NOT_FOUND', `No parcel with PFI ${pfi} in ${state}.`, 'Check the identifier, or ask by lat and lng.');

type ParcelAnswer = {
  property: { parcel_pfi: string | null; state: string; location: { lat: number; lng: number } | null } | null;
};

/** The point a parcel is analysed at; 404 for a parcel the cadastre does not hold. */
export async function parcelPoint(
  graph: Graph,
  scope: RequestScope,
  pfi: string,
  state: string,
): Promise<{ lat: number; lng: number }> {
  const { property } = unwrap(
    await graph.execute<ParcelAnswer>(
      `query ParcelPoint($pfi: String!, $state: String!) {
        property: propertyByParcel(parcel_pfi: $pfi, state: $state) { parcel_pfi state location { lat lng } } }`,
      { pfi, state },
      scope,
    ),
  );
  if (!property?.location) {
    throw new AppError(
      'NOT_FOUND',
      `No parcel with PFI ${pfi} in ${state}.`,
      'Check the identifier, or ask by lat and lng.',
    );
  }
  return property.location;
}

/**
 * A property route's answer for a parcel (pfi + state) or an address (gnaf_pid): runs the route's
 * operation for the form given and returns the property (its layer read by the caller) with the
 * `query` and `property` blocks the answer echoes; 404 when the graph holds no such property.
 */
export async function propertyByParcelOrAddress<P extends { state: string }>(
  graph: Graph,
  scope: RequestScope,
  q: { pfi?: string; state?: string; gnaf_pid?: string },
  operations: { ofParcel: string; ofAddress: string },
  lookedUpAs: string,
): Promise<{ found: P; query: Record<string, unknown>; property: Record<string, unknown> }> {
  const byParcel = q.pfi !== undefined;
  const result = byParcel
    ? await graph.execute<{ property: P | null }>(operations.ofParcel, { pfi: q.pfi, state: q.state }, scope)
    : await graph.execute<{ property: P | null }>(operations.ofAddress, { gnafPid: q.gnaf_pid }, scope);
  const found = unwrap(result).property;
  if (!found) {
    throw new AppError(
      'NOT_FOUND',
      byParcel ? `No parcel with PFI ${q.pfi} in ${q.state}.` : `No property with gnaf_pid ${q.gnaf_pid}.`,
      `Identifiers are stable across releases; check it was copied whole, or look ${lookedUpAs} up by lat and lng.`,
    );
  }
  return {
    found,
    query: byParcel ? { pfi: q.pfi, state: q.state } : { gnaf_pid: q.gnaf_pid },
    property: byParcel ? { parcel_pfi: q.pfi, state: found.state } : { gnaf_pid: q.gnaf_pid, state: found.state },
  };
}
