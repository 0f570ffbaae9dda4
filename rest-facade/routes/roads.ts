import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import { assertPoint } from '../../core/validate.ts';
import { unwrap } from '../graph-result.ts';
import { numeric, stateParam, textParam } from '../params.ts';
import { defineRoute } from '../route.ts';
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS, creditOf } from './cadastre.ts';
import { DEFAULT_NEAREST_ROADS, MAX_NEAREST_ROADS } from '../../core/limits.ts';
import { NO_PARCEL_FOR_ROADS } from '../../core/vocabulary.ts';

const FRONTING_FIELDS = `${LAYER_FIELDS} data { name road_class frontage_m distance_m front }`;

const ROADS_NEAR = `query RoadsNearest($lat: Float!, $lng: Float!, $state: String!, $limit: Int) {
  roadsNear(lat: $lat, lng: $lng, state: $state, limit: $limit) { ${LAYER_FIELDS} data { name road_class distance_m geometry } }
}`;
const FRONTING_OF_PARCEL = `query FrontingRoadsOfParcel($pfi: String!, $state: String!) {
  property: propertyByParcel(parcel_pfi: $pfi, state: $state) { state roads { ${FRONTING_FIELDS} } }
}`;
const FRONTING_AT = `query FrontingRoadsAt($lat: Float!, $lng: Float!, $state: String!) {
  property: propertyAt(lat: $lat, lng: $lng, state: $state) { state roads { ${FRONTING_FIELDS} } }
}`;

type NearbyRoad = { name: string | null; road_class: string; distance_m: number; geometry: GeoJSONGeometry };
type FrontingRoad = { name: string | null; road_class: string; frontage_m: number; distance_m: number; front: boolean };
type RoadsLayer<T> = LayerFields & { data: T[] | null };
type RoadsOfProperty = { state: string; roads: RoadsLayer<FrontingRoad> | null } | null;

const failed = (what: string) =>
  new AppError('UPSTREAM_UNAVAILABLE', `The roads source failed for this ${what}.`, 'Retry shortly.');

const limitParam = numeric('limit')
  .pipe(
    z
      .number()
      .int({ error: 'limit must be a whole number.' })
      .min(1, { error: 'limit must be at least 1.' })
      .max(MAX_NEAREST_ROADS, { error: `limit must be at most ${MAX_NEAREST_ROADS}.` }),
  )
  .optional()
  .meta({ description: `How many centrelines to list, 1-${MAX_NEAREST_ROADS}. Default ${DEFAULT_NEAREST_ROADS}.` });

/** The body every roads route writes: the layer's status and credit, its roads ([] unless ok). */
function roadsBody<T>(state: string, layer: RoadsLayer<T>) {
  return {
    success: true,
    state,
    status: layer.status,
    message: layer.message,
    source: layer.source,
    data: layer.status === 'ok' ? (layer.data ?? []) : [],
    attribution: layer.attribution,
    license: layer.license,
  };
}

export const roadsNearest = defineRoute({
  method: 'get',
  path: '/api/roads/nearest',
  tag: 'Roads',
  summary: 'The road centrelines nearest a point, nearest first: name, class and distance in metres.',
  access: { scope: 'roads.read' },
  query: z.object({ lat: numeric('lat'), lng: numeric('lng'), state: stateParam.optional(), limit: limitParam }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    assertPoint(q.lat, q.lng);
    const state = q.state ?? detectState(q.lng, q.lat) ?? 'VIC';
    const { roadsNear: layer } = unwrap(
      await graph.execute<{ roadsNear: RoadsLayer<NearbyRoad> }>(
        ROADS_NEAR,
        { lat: q.lat, lng: q.lng, state, limit: q.limit ?? null },
        scope,
      ),
    );
    if (layer.status === 'error') throw failed('point');
    return { body: roadsBody(state, layer), credit: layer.status === 'ok' ? creditOf(layer) : null };
  },
});

const frontingQuery = z
  .object({
    pfi: textParam('pfi', 64).optional(),
    state: stateParam.optional(),
    lat: numeric('lat').optional(),
    lng: numeric('lng').optional(),
  })
  .superRefine((q, ctx) => {
    const forms = [q.pfi !== undefined, q.lat !== undefined || q.lng !== undefined];
    if (forms.filter(Boolean).length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'Name the lot one way: pfi and state, or lat and lng.' });
    } else if ((q.lat === undefined) !== (q.lng === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
    } else if (q.pfi !== undefined && q.state === undefined) {
      ctx.addIssue({ code: 'custom', message: 'pfi needs state: parcel identifiers are only unique within a state.' });
    }
  });

export const roadsFronting = defineRoute({
  method: 'get',
  path: '/api/roads/fronting',
  tag: 'Roads',
  summary: 'The roads a lot fronts (by PFI or a point on it), the front first, with the frontage along each.',
  access: { scope: 'roads.read' },
  query: frontingQuery,
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    let property: RoadsOfProperty;
    let state: string;
    if (q.pfi !== undefined) {
      state = q.state ?? 'VIC';
      const vars = { pfi: q.pfi, state };
      property = unwrap(await graph.execute<{ property: RoadsOfProperty }>(FRONTING_OF_PARCEL, vars, scope)).property;
    } else {
      const { lat, lng } = q as { lat: number; lng: number };
      assertPoint(lat, lng);
      state = q.state ?? detectState(lng, lat) ?? 'VIC';
      property = unwrap(
        await graph.execute<{ property: RoadsOfProperty }>(FRONTING_AT, { lat, lng, state }, scope),
      ).property;
    }
    const layer = property?.roads ?? null;
    if (!property || (layer?.status === 'skipped' && layer.message === NO_PARCEL_FOR_ROADS)) {
      throw new AppError(
        'NOT_FOUND',
        q.pfi !== undefined ? `No parcel with PFI ${q.pfi} in ${state}.` : `No parcel found at this point in ${state}.`,
        'Pass a point on a lot (not a road), or a PFI with its state.',
      );
    }
    if (!layer || layer.status === 'error') throw failed('lot');
    return { body: roadsBody(state, layer), credit: layer.status === 'ok' ? creditOf(layer) : null };
  },
});
