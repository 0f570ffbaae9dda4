import { z } from 'zod';
import type { RequestScope } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import { assertPoint } from '../../core/validate.ts';
import type { Graph } from '../../gateway/graph.ts';
import { unwrap } from '../graph-result.ts';
import { numeric, stateParam, textParam } from '../params.ts';
import type { LotInput } from './provisions-shape.ts';
import { LOT_PARAMS, lotVariable } from './provisions-shape.ts';

/** The land a lot product is asked about: a point, or a parcel by pfi and state, with the caller's lot characteristics. */
export const landQuery = z
  .object({
    lat: numeric('lat').optional(),
    lng: numeric('lng').optional(),
    state: stateParam.optional(),
    pfi: textParam('pfi', 64).optional(),
    ...LOT_PARAMS,
  })
  .superRefine((q, ctx) => {
    if (q.pfi !== undefined) {
      if (q.lat !== undefined || q.lng !== undefined) {
        ctx.addIssue({ code: 'custom', message: 'Identify the land one way: lat and lng, or pfi and state.' });
      } else if (q.state === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'pfi needs state: parcel identifiers are only unique within a state.',
        });
      }
    } else if (q.lat === undefined || q.lng === undefined) {
      ctx.addIssue({ code: 'custom', message: 'Pass lat and lng (WGS84 decimal degrees), or pfi with state.' });
    }
  });

export type LandInput = z.output<typeof landQuery>;

type LandProperty<Layer> = { parcel_pfi: string | null; state: string; layer: Layer };

/**
 * One layer of the property at a point or of a parcel (`selection` asks for it as `layer`),
 * with the query as the answer echoes it; an unknown parcel is a 404.
 */
export async function landLayer<Layer>(
  graph: Graph,
  scope: RequestScope,
  q: LandInput,
  selection: string,
): Promise<{ property: LandProperty<Layer>; query: Record<string, unknown>; lot: LotInput | null }> {
  const lot = lotVariable(q);
  const fields = `parcel_pfi state layer: ${selection}`;
  if (q.pfi !== undefined) {
    const operation = `query LandByParcel($pfi: String!, $state: String!, $lot: LotCharacteristicsInput) {
      property: propertyByParcel(parcel_pfi: $pfi, state: $state) { ${fields} }
    }`;
    const variables = { pfi: q.pfi, state: q.state, lot };
    const { property } = unwrap(
      await graph.execute<{ property: LandProperty<Layer> | null }>(operation, variables, scope),
    );
    if (!property) {
      throw new AppError(
        'NOT_FOUND',
        `No parcel with PFI ${q.pfi} in ${q.state}.`,
        'Check the identifier, or ask by lat and lng.',
      );
    }
    return { property, query: { pfi: q.pfi, state: q.state, ...(lot ? { lot } : {}) }, lot };
  }
  const { lat, lng } = q as { lat: number; lng: number };
  assertPoint(lat, lng);
  const state = q.state ?? detectState(lng, lat) ?? 'VIC';
  const operation = `query LandAtPoint($lat: Float!, $lng: Float!, $state: String!, $lot: LotCharacteristicsInput) {
    property: propertyAt(lat: $lat, lng: $lng, state: $state) { ${fields} }
  }`;
  const { property } = unwrap(
    await graph.execute<{ property: LandProperty<Layer> }>(operation, { lat, lng, state, lot }, scope),
  );
  return { property, query: { lat, lng, state, ...(lot ? { lot } : {}) }, lot };
}
