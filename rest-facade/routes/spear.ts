import { z } from 'zod';
import { detectState } from '../../core/geo.ts';
import { DEFAULT_SPEAR_RADIUS_M, MAX_SPEAR_RADIUS_M } from '../../core/limits.ts';
import { assertBBox, assertPoint } from '../../core/validate.ts';
import { unwrap } from '../graph-result.ts';
import { bboxParam, numeric, stateParam, textParam } from '../params.ts';
import { defineRoute } from '../route.ts';
import { applicationListBody } from './application-list.ts';
import { unknownParcel } from './parcel-point.ts';
import type { LayerFields } from './cadastre.ts';
import { SPEAR_FIELDS, SPEAR_LAYER_FIELDS } from './spear-shape.ts';

/**
 * SPEAR (the spear_* fields of the development subgraph): Victoria's planning permit and
 * subdivision applications touching a lot, near a point, in a window or of a parcel. Outside
 * Victoria the answer is 200 with status not_covered (as the property graph's layer says), not a
 * 400: the request is well formed, SPEAR simply holds nothing there.
 */

type SpearLayerFields = LayerFields & { freshness: string | null };
type Application = Record<string, unknown>;
type SpearList = SpearLayerFields & { applications: Application[] };
type Point = { lat: number; lng: number };

const radiusParam = numeric('radius_m')
  .pipe(
    z
      .number()
      .gt(0, { error: 'radius_m must be more than 0.' })
      .max(MAX_SPEAR_RADIUS_M, { error: `radius_m must be at most ${MAX_SPEAR_RADIUS_M} metres.` }),
  )
  .optional()
  .meta({ description: `Metres around the point, up to ${MAX_SPEAR_RADIUS_M}; default ${DEFAULT_SPEAR_RADIUS_M}.` });

export const spearNearby = defineRoute({
  method: 'get',
  path: '/api/spear/nearby',
  tag: 'SPEAR',
  summary: `SPEAR applications within radius_m (at most ${MAX_SPEAR_RADIUS_M} m) of a point or of a parcel (pfi and state in place of lat/lng), nearest first.`,
  access: { scope: 'spear.read' },
  query: z
    .object({
      lat: numeric('lat').optional(),
      lng: numeric('lng').optional(),
      pfi: textParam('pfi', 64).optional(),
      state: stateParam.optional(),
      radius_m: radiusParam,
    })
    .superRefine((q, ctx) => {
      const point = q.lat !== undefined || q.lng !== undefined;
      if (point === (q.pfi !== undefined)) {
        ctx.addIssue({ code: 'custom', message: 'Identify the place one way: lat and lng, or pfi and state.' });
      } else if (point && (q.lat === undefined || q.lng === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
      } else if (q.pfi !== undefined && q.state === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'pfi needs state: parcel identifiers are only unique within a state.',
        });
      }
    }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const radius = q.radius_m ?? DEFAULT_SPEAR_RADIUS_M;
    // one operation either way: the cadastre gives the place (the point asked, or the point the
    // parcel is analysed at) with the parcels under it, the development layer what lies around it
    const near = `near: spear_applications_near(radius_m: $radius) {
      ${SPEAR_LAYER_FIELDS} applications { ${SPEAR_FIELDS} distance_m } }`;
    if (q.pfi !== undefined) {
      const state = q.state!;
      const { place } = unwrap(
        await graph.execute<{ place: (Point & { near: SpearList }) | null }>(
          `query SpearApplicationsNearParcel($pfi: String!, $state: String!, $radius: Float) {
            place: placeOfParcel(parcel_pfi: $pfi, state: $state) { lat lng ${near} } }`,
          { pfi: q.pfi, state, radius },
          scope,
        ),
      );
      if (!place) throw unknownParcel(q.pfi, state);
      const location = { lat: place.lat, lng: place.lng };
      return applicationListBody('SPEAR', place.near, place.near.applications, {
        query: { pfi: q.pfi, state, radius_m: radius },
        property: { parcel_pfi: q.pfi, state, location },
        radius_m: radius,
      });
    }
    const point = { lat: q.lat!, lng: q.lng! };
    assertPoint(point.lat, point.lng);
    const state = q.state ?? detectState(point.lng, point.lat) ?? 'VIC';
    const { place } = unwrap(
      await graph.execute<{ place: { near: SpearList } }>(
        `query SpearApplicationsNear($lat: Float!, $lng: Float!, $state: String!, $radius: Float) {
          place: placeAt(lat: $lat, lng: $lng, state: $state) { ${near} } }`,
        { ...point, state, radius },
        scope,
      ),
    );
    return applicationListBody('SPEAR', place.near, place.near.applications, {
      query: { ...point, state, radius_m: radius },
      radius_m: radius,
    });
  },
});

export const spearBBox = defineRoute({
  method: 'get',
  path: '/api/spear/bbox',
  tag: 'SPEAR',
  summary:
    'SPEAR applications whose point lies in a window of at most 0.1 degrees per axis, newest lodged first; more than 1000 is refused (400), as the cadastre window.',
  access: { scope: 'spear.read' },
  query: z.object({ bbox: bboxParam, state: stateParam.default('VIC') }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    assertBBox(q.bbox);
    const { spearApplicationsInBBox: found } = unwrap(
      await graph.execute<{ spearApplicationsInBBox: SpearList }>(
        `query SpearApplicationsInBBox($bbox: SpearWindowInput!, $state: String!) {
          spearApplicationsInBBox(bbox: $bbox, state: $state) { ${SPEAR_LAYER_FIELDS} applications { ${SPEAR_FIELDS} } } }`,
        { bbox: q.bbox, state: q.state },
        scope,
      ),
    );
    const { west, south, east, north } = q.bbox;
    return applicationListBody('SPEAR', found, found.applications, {
      query: { bbox: [west, south, east, north], state: q.state },
    });
  },
});

type PropertyLayer = {
  parcel_pfi: string | null;
  state: string;
  layer: SpearLayerFields & { data: Application[] | null };
} | null;

export const spearOfParcel = defineRoute({
  method: 'get',
  path: '/api/spear/parcel',
  tag: 'SPEAR',
  summary:
    'The SPEAR applications touching a parcel (pfi and state), newest lodged first; a parcel outside VIC answers status not_covered.',
  access: { scope: 'spear.read' },
  query: z.object({ pfi: textParam('pfi', 64), state: stateParam }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const { property } = unwrap(
      await graph.execute<{ property: PropertyLayer }>(
        `query SpearOfParcel($pfi: String!, $state: String!) {
          property: propertyByParcel(parcel_pfi: $pfi, state: $state) {
            parcel_pfi state layer: spear_applications { ${SPEAR_LAYER_FIELDS} data { ${SPEAR_FIELDS} } } } }`,
        { pfi: q.pfi, state: q.state },
        scope,
      ),
    );
    if (!property) throw unknownParcel(q.pfi, q.state);
    return applicationListBody('SPEAR', property.layer, property.layer.data ?? [], {
      query: { pfi: q.pfi, state: q.state },
      parcel_pfi: property.parcel_pfi,
    });
  },
});
