import { z } from 'zod';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import type { LayerStatus } from '../../core/layer.ts';
import { assertBBox, assertPoint } from '../../core/validate.ts';
import { unwrap } from '../graph-result.ts';
import { bboxParam, numeric, stateParam, textParam } from '../params.ts';
import type { Credit } from '../route.ts';
import { defineRoute } from '../route.ts';

export const PARCEL_FIELDS = `
  parcel_pfi state parcel_spi parcel_lot_number parcel_plan_number ezi_address area_m2 geometry`;

export type ParcelFields = {
  parcel_pfi: string;
  state: string;
  parcel_spi: string | null;
  parcel_lot_number: string | null;
  parcel_plan_number: string | null;
  ezi_address: string | null;
  area_m2: number;
  geometry: GeoJSONGeometry;
};

export const LAYER_FIELDS = 'status source attribution license message';

export type LayerFields = {
  status: LayerStatus;
  source: string | null;
  attribution: string | null;
  license: string | null;
  message: string | null;
};

/** A parcel as the spec's parcel payload (2.3): GeoJSON geometry plus the identifier properties. */
export function parcelFeature(parcel: ParcelFields) {
  return {
    type: 'Feature' as const,
    geometry: parcel.geometry,
    properties: {
      parcel_pfi: parcel.parcel_pfi,
      parcel_spi: parcel.parcel_spi,
      parcel_lot_number: parcel.parcel_lot_number,
      parcel_plan_number: parcel.parcel_plan_number,
      ezi_address: parcel.ezi_address,
      state: parcel.state,
      area_m2: Math.round(parcel.area_m2 * 100) / 100,
    },
  };
}

export function creditOf(layer: LayerFields): Credit | null {
  return layer.attribution && layer.license ? { attribution: layer.attribution, license: layer.license } : null;
}

const PARCEL_AT = `query ParcelAt($lat: Float!, $lng: Float!, $state: String!) {
  parcelAt(lat: $lat, lng: $lng, state: $state) { ${LAYER_FIELDS} data { ${PARCEL_FIELDS} } }
}`;
const PARCEL_BY_PFI = `query ParcelByPfi($pfi: String!, $state: String!) {
  parcelByPfi(parcel_pfi: $pfi, state: $state) { ${LAYER_FIELDS} data { ${PARCEL_FIELDS} } }
}`;
const PARCELS_IN_BBOX = `query ParcelsInBBox($bbox: BBoxInput!, $state: String!) {
  parcelsInBBox(bbox: $bbox, state: $state) { ${LAYER_FIELDS} features { ${PARCEL_FIELDS} } }
}`;

type CadastreLayer = LayerFields & { data: ParcelFields | null };

const lookupQuery = z
  .object({
    lat: numeric('lat').optional(),
    lng: numeric('lng').optional(),
    state: stateParam.default('VIC'),
    pfi: textParam('pfi', 64).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.pfi === undefined && (q.lat === undefined || q.lng === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'Pass lat and lng (WGS84 decimal degrees), or pfi with state.' });
    }
  });

export const cadastreLookup = defineRoute({
  method: 'get',
  path: '/api/cadastre/lookup',
  tag: 'Cadastre',
  summary: 'The parcel at a point, or by its PFI (mirror first).',
  access: { scope: 'cadastre.read' },
  query: lookupQuery,
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    let layer: CadastreLayer;
    if (q.pfi !== undefined) {
      const data = unwrap(
        await graph.execute<{ parcelByPfi: CadastreLayer }>(PARCEL_BY_PFI, { pfi: q.pfi, state: q.state }, scope),
      );
      layer = data.parcelByPfi;
    } else {
      const { lat, lng } = q as { lat: number; lng: number };
      assertPoint(lat, lng);
      const data = unwrap(
        await graph.execute<{ parcelAt: CadastreLayer }>(PARCEL_AT, { lat, lng, state: q.state }, scope),
      );
      layer = data.parcelAt;
    }
    if (layer.status === 'ok' && layer.data) {
      return {
        body: {
          success: true,
          source: layer.source,
          data: parcelFeature(layer.data),
          error: null,
          hint: null,
          attribution: layer.attribution,
          license: layer.license,
        },
        credit: creditOf(layer),
      };
    }
    if (layer.status === 'error') {
      throw new AppError(
        'UPSTREAM_UNAVAILABLE',
        'The cadastre source failed for this lookup.',
        layer.message ?? 'Retry shortly.',
      );
    }
    const byPfi = q.pfi !== undefined;
    // state defaults to VIC (spec 4.2): a point elsewhere is the commonest cause of a miss, so say where it looks to be.
    const likelyState = byPfi ? undefined : detectState(q.lng as number, q.lat as number);
    const stateHint =
      likelyState && likelyState !== q.state
        ? `This point looks to be in ${likelyState}: pass state=${likelyState}.`
        : 'If the point is in another state, pass state=<code>.';
    throw new AppError(
      'NOT_FOUND',
      byPfi ? `No parcel with PFI ${q.pfi} in ${q.state}.` : `No parcel found at this point in ${q.state}.`,
      layer.status === 'not_covered' ? `${layer.message ?? ''} ${stateHint}`.trim() : (layer.message ?? undefined),
    );
  },
});

export const cadastreBBox = defineRoute({
  method: 'get',
  path: '/api/cadastre/bbox',
  tag: 'Cadastre',
  summary: 'Parcels intersecting a window of at most 0.1 degrees per axis (at most 1000, whole and unclipped).',
  access: { scope: 'cadastre.read' },
  query: z.object({ bbox: bboxParam, state: stateParam.default('VIC') }),
  errorStyle: 'featureCollection',
  async handle(q, { graph, scope }) {
    assertBBox(q.bbox);
    const data = unwrap(
      await graph.execute<{ parcelsInBBox: LayerFields & { features: ParcelFields[] } }>(
        PARCELS_IN_BBOX,
        { bbox: q.bbox, state: q.state },
        scope,
      ),
    );
    const collection = data.parcelsInBBox;
    if (collection.status === 'error') {
      throw new AppError(
        'UPSTREAM_UNAVAILABLE',
        'The cadastre source is unavailable for this window.',
        'Retry shortly.',
      );
    }
    const hasData = collection.features.length > 0;
    return {
      body: {
        type: 'FeatureCollection',
        features: collection.features.map(parcelFeature),
        source: collection.source,
        hint: hasData ? null : collection.message,
        success: true,
        error: null,
        attribution: collection.attribution,
        license: collection.license,
      },
      credit: hasData ? creditOf(collection) : null,
    };
  },
});
