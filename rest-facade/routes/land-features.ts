import { z } from 'zod';
import type { RequestScope } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import { assertBBox, assertPoint } from '../../core/validate.ts';
import type { Graph } from '../../gateway/graph.ts';
import { unwrap } from '../graph-result.ts';
import { bboxParam, numeric, stateParam, textParam } from '../params.ts';
import type { Credit, RouteResponse } from '../route.ts';
import { defineRoute } from '../route.ts';
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS, creditOf } from './cadastre.ts';

/** Easements, building footprints and land values (the land subgraph), by window, point, parcel or address. */

export const EASEMENT_FIELDS = 'id state parcel_pfi easement_type width_m plan_number area_m2 geometry';
export const BUILDING_FIELDS = 'id state source height_m storeys area_m2 geometry';
export const LAND_VALUE_FIELDS = 'parcel_pfi state site_value capital_improved_value base_date valuer';
export const LAND_LAYER_FIELDS = `${LAYER_FIELDS} freshness`;

type LandLayerFields = LayerFields & { freshness: string | null };
type Shape = { id: string; area_m2: number; geometry: GeoJSONGeometry } & Record<string, unknown>;
type FeatureLayer = LandLayerFields & { data: Shape[] | null };
type FeatureCollection = LandLayerFields & { features: Shape[] };

/** An easement or footprint as a GeoJSON Feature: the geometry, and every other field as a property. */
export function landFeature({ geometry, area_m2, ...properties }: Shape) {
  return {
    type: 'Feature' as const,
    geometry,
    properties: { ...properties, area_m2: Math.round(area_m2 * 100) / 100 },
  };
}

const refusePlaces = (q: Record<string, unknown>, ctx: z.RefinementCtx, forms: Record<string, boolean>) => {
  const given = Object.entries(forms).filter(([, present]) => present);
  if (given.length !== 1) {
    ctx.addIssue({ code: 'custom', message: `Identify the land one way: ${Object.keys(forms).join(', or ')}.` });
  } else if ((q.lat === undefined) !== (q.lng === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
  } else if (q.pfi !== undefined && q.state === undefined) {
    ctx.addIssue({ code: 'custom', message: 'pfi needs state: parcel identifiers are only unique within a state.' });
  }
};

const placeFields = {
  bbox: bboxParam.optional(),
  lat: numeric('lat').optional(),
  lng: numeric('lng').optional(),
  pfi: textParam('pfi', 64).optional(),
  state: stateParam.optional(),
  gnaf_pid: textParam('gnaf_pid', 32).optional(),
};

type Place = z.output<z.ZodObject<typeof placeFields>>;

/** The layer of the property of a parcel, at a point, or at an address; an unknown parcel or address is a 404. */
async function propertyLayer<Layer>(
  graph: Graph,
  scope: RequestScope,
  q: Place,
  selection: string,
): Promise<{ layer: Layer; parcel_pfi: string | null; state: string; query: Record<string, unknown> }> {
  type Answer = { property: { parcel_pfi: string | null; state: string; layer: Layer } | null };
  const fields = `parcel_pfi state layer: ${selection}`;
  let query: Record<string, unknown>;
  let answer: Answer;
  if (q.gnaf_pid !== undefined) {
    query = { gnaf_pid: q.gnaf_pid };
    answer = unwrap(
      await graph.execute<Answer>(
        `query LandByAddress($gnafPid: ID!) { property: propertyByGnafPid(gnaf_pid: $gnafPid) { ${fields} } }`,
        { gnafPid: q.gnaf_pid },
        scope,
      ),
    );
  } else if (q.pfi !== undefined) {
    query = { pfi: q.pfi, state: q.state };
    answer = unwrap(
      await graph.execute<Answer>(
        `query LandByParcel($pfi: String!, $state: String!) { property: propertyByParcel(parcel_pfi: $pfi, state: $state) { ${fields} } }`,
        query,
        scope,
      ),
    );
  } else {
    const { lat, lng } = q as { lat: number; lng: number };
    assertPoint(lat, lng);
    query = { lat, lng, state: q.state ?? detectState(lng, lat) ?? 'VIC' };
    answer = unwrap(
      await graph.execute<Answer>(
        `query LandAtPoint($lat: Float!, $lng: Float!, $state: String!) { property: propertyAt(lat: $lat, lng: $lng, state: $state) { ${fields} } }`,
        query,
        scope,
      ),
    );
  }
  if (!answer.property) {
    throw new AppError(
      'NOT_FOUND',
      q.gnaf_pid !== undefined
        ? `No property with gnaf_pid ${q.gnaf_pid}.`
        : `No parcel with PFI ${q.pfi} in ${q.state}.`,
      'Check the identifier, or ask by lat and lng.',
    );
  }
  const { layer, parcel_pfi, state } = answer.property;
  return { layer, parcel_pfi, state, query };
}

/** A failing source is a 502 (docs/decisions.md "Hardening (P5)"); the layer names what failed. */
function refuseFailed(layer: LandLayerFields, what: string): void {
  if (layer.status === 'error') {
    throw new AppError(
      'UPSTREAM_UNAVAILABLE',
      `The ${what} source failed for this request.`,
      layer.message ?? 'Retry shortly.',
    );
  }
}

function collectionResponse(
  collection: FeatureCollection,
  what: string,
  query: Record<string, unknown>,
  parcel_pfi?: string | null,
): RouteResponse {
  refuseFailed(collection, what);
  const hasData = collection.features.length > 0;
  const credit: Credit | null = hasData ? creditOf(collection) : null;
  return {
    body: {
      type: 'FeatureCollection',
      features: collection.features.map(landFeature),
      success: true,
      query,
      ...(parcel_pfi !== undefined ? { parcel_pfi } : {}),
      status: collection.status,
      source: collection.source,
      freshness: collection.freshness,
      hint: hasData ? null : collection.message,
      error: null,
      attribution: collection.attribution,
      license: collection.license,
    },
    credit,
  };
}

/** A property layer of features (easements or buildings of a parcel) as a collection. */
const asCollection = ({ data, ...rest }: FeatureLayer): FeatureCollection => ({ ...rest, features: data ?? [] });

export const easements = defineRoute({
  method: 'get',
  path: '/api/easements',
  tag: 'Easements',
  summary:
    'Easements intersecting a window of at most 0.1 degrees per axis (at most 1000, whole), or registered on a parcel (pfi and state).',
  access: { scope: 'easement.read' },
  query: z
    .object({ bbox: placeFields.bbox, pfi: placeFields.pfi, state: placeFields.state })
    .superRefine((q, ctx) =>
      refusePlaces(q, ctx, { bbox: q.bbox !== undefined, 'pfi and state': q.pfi !== undefined }),
    ),
  errorStyle: 'featureCollection',
  async handle(q, { graph, scope }) {
    if (q.bbox !== undefined) {
      assertBBox(q.bbox);
      const state = q.state ?? 'VIC';
      const data = unwrap(
        await graph.execute<{ easementsInBBox: FeatureCollection }>(
          `query EasementsInBBox($bbox: BBoxInput!, $state: String!) {
            easementsInBBox(bbox: $bbox, state: $state) { ${LAND_LAYER_FIELDS} features { ${EASEMENT_FIELDS} } } }`,
          { bbox: q.bbox, state },
          scope,
        ),
      );
      return collectionResponse(data.easementsInBBox, 'easements', { bbox: q.bbox, state });
    }
    const found = await propertyLayer<FeatureLayer>(
      graph,
      scope,
      q,
      `easements { ${LAND_LAYER_FIELDS} data { ${EASEMENT_FIELDS} } }`,
    );
    return collectionResponse(asCollection(found.layer), 'easements', found.query, found.parcel_pfi);
  },
});

export const buildings = defineRoute({
  method: 'get',
  path: '/api/buildings',
  tag: 'Building Footprints',
  summary:
    'Building footprints in a window of at most 0.1 degrees per axis, holding a point, or on a parcel; OpenStreetMap (ODbL) supplemented by the state layer (CC BY 4.0).',
  access: { scope: 'dossier.read' },
  query: z
    .object({
      bbox: placeFields.bbox,
      lat: placeFields.lat,
      lng: placeFields.lng,
      pfi: placeFields.pfi,
      state: placeFields.state,
    })
    .superRefine((q, ctx) =>
      refusePlaces(q, ctx, {
        bbox: q.bbox !== undefined,
        'lat and lng': q.lat !== undefined || q.lng !== undefined,
        'pfi and state': q.pfi !== undefined,
      }),
    ),
  errorStyle: 'featureCollection',
  async handle(q, { graph, scope }) {
    if (q.bbox !== undefined) {
      assertBBox(q.bbox);
      const state = q.state ?? 'VIC';
      const data = unwrap(
        await graph.execute<{ buildingsInBBox: FeatureCollection }>(
          `query BuildingsInBBox($bbox: BBoxInput!, $state: String!) {
            buildingsInBBox(bbox: $bbox, state: $state) { ${LAND_LAYER_FIELDS} features { ${BUILDING_FIELDS} } } }`,
          { bbox: q.bbox, state },
          scope,
        ),
      );
      return collectionResponse(data.buildingsInBBox, 'building footprints', { bbox: q.bbox, state });
    }
    if (q.pfi !== undefined) {
      const found = await propertyLayer<FeatureLayer>(
        graph,
        scope,
        q,
        `buildings { ${LAND_LAYER_FIELDS} data { ${BUILDING_FIELDS} } }`,
      );
      return collectionResponse(asCollection(found.layer), 'building footprints', found.query, found.parcel_pfi);
    }
    const { lat, lng } = q as { lat: number; lng: number };
    assertPoint(lat, lng);
    const state = q.state ?? detectState(lng, lat) ?? 'VIC';
    const data = unwrap(
      await graph.execute<{ buildingsAt: FeatureCollection }>(
        `query BuildingsAt($lat: Float!, $lng: Float!, $state: String!) {
          buildingsAt(lat: $lat, lng: $lng, state: $state) { ${LAND_LAYER_FIELDS} features { ${BUILDING_FIELDS} } } }`,
        { lat, lng, state },
        scope,
      ),
    );
    return collectionResponse(data.buildingsAt, 'building footprints', { lat, lng, state });
  },
});

type LandValueLayer = LandLayerFields & {
  data: {
    parcel_pfi: string;
    state: string;
    site_value: number;
    capital_improved_value: number | null;
    base_date: string;
    valuer: string;
  } | null;
};

export const landValues = defineRoute({
  method: 'get',
  path: '/api/land-values',
  tag: 'Land Values',
  summary:
    "A parcel's land value from the valuer-general: site value, capital improved value where published, base date; by parcel, point or address.",
  access: { scope: 'dossier.read' },
  query: z
    .object({
      lat: placeFields.lat,
      lng: placeFields.lng,
      pfi: placeFields.pfi,
      state: placeFields.state,
      gnaf_pid: placeFields.gnaf_pid,
    })
    .superRefine((q, ctx) =>
      refusePlaces(q, ctx, {
        'lat and lng': q.lat !== undefined || q.lng !== undefined,
        'pfi and state': q.pfi !== undefined,
        gnaf_pid: q.gnaf_pid !== undefined,
      }),
    ),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const found = await propertyLayer<LandValueLayer>(
      graph,
      scope,
      q,
      `land_value { ${LAND_LAYER_FIELDS} data { ${LAND_VALUE_FIELDS} } }`,
    );
    const { layer } = found;
    refuseFailed(layer, 'land values');
    const ok = layer.status === 'ok' && layer.data !== null;
    return {
      body: {
        success: true,
        query: found.query,
        parcel_pfi: found.parcel_pfi,
        state: found.state,
        status: layer.status,
        source: layer.source,
        freshness: layer.freshness,
        data: ok ? layer.data : null,
        error: null,
        hint: ok ? null : layer.message,
        attribution: layer.attribution,
        license: layer.license,
      },
      credit: ok ? creditOf(layer) : null,
    };
  },
});
