import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import { assertPoint } from '../../core/validate.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { LayerStatus } from '../../core/layer.ts';
import { unwrap } from '../graph-result.ts';
import { bboxParam, numeric, stateParam } from '../params.ts';
import { defineRoute } from '../route.ts';
import type { KeylessAccess } from '../route.ts';
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS, creditOf } from './cadastre.ts';

/** Spec 5.5: the first-party map mount of the UGB routes is open; it shows the live dataset. */
const MAP_MOUNT: KeylessAccess = { dataset: 'live', why: 'the first-party map mount, reading the live dataset' };

const UGB_AT = `query UgbAt($lat: Float!, $lng: Float!, $state: String!) {
  ugbAt(lat: $lat, lng: $lng, state: $state) {
    ${LAYER_FIELDS} data { state available reason insideUGB gaicApplies ugbLga zoneDescription }
  }
}`;
const UGB_IN_BBOX = `query UgbInBBox($bbox: BBoxInput!, $state: String!) {
  ugbInBBox(bbox: $bbox, state: $state) { ${LAYER_FIELDS} features { id lga_code lga_name gaic_applies geometry } }
}`;

type UgbPoint = LayerFields & {
  data: {
    state: string;
    available: boolean;
    reason: string | null;
    insideUGB: boolean | null;
    gaicApplies: boolean | null;
    ugbLga: string | null;
    zoneDescription: string | null;
  };
};
type UgbCollection = LayerFields & {
  features: Array<{
    id: string;
    lga_code: string | null;
    lga_name: string;
    gaic_applies: boolean;
    geometry: GeoJSONGeometry;
  }>;
};

/** The live UGB service failed (no mirror holds the boundary): a 502 naming it. */
const sourceFailed = (layer: LayerFields) =>
  new AppError(
    'UPSTREAM_UNAVAILABLE',
    layer.message ?? `The urban growth boundary source ${layer.source ?? ''} failed.`,
    'Retry shortly.',
  );

/** Provenance of a UGB answer in the X-Mirror-Source header (spec 4.3), when there is one. */
const mirrorSource = (status: LayerStatus, source: string | null) =>
  source && status !== 'error' ? { 'X-Mirror-Source': source } : undefined;

export const ugbVector = defineRoute({
  method: 'get',
  path: '/api/ugb/vector',
  tag: 'UGB',
  summary: "Victoria's urban growth boundary polygons in a window, as GeoJSON; other states an empty collection.",
  access: { scope: 'ugb.read', keyless: MAP_MOUNT },
  query: z.object({ bbox: bboxParam, state: stateParam.default('VIC') }),
  errorStyle: 'featureCollection',
  async handle(q, { graph, scope }) {
    const layer = unwrap(
      await graph.execute<{ ugbInBBox: UgbCollection }>(UGB_IN_BBOX, { bbox: q.bbox, state: q.state }, scope),
    ).ugbInBBox;
    if (layer.status === 'error') throw sourceFailed(layer);
    const credit = creditOf(layer);
    return {
      body: {
        type: 'FeatureCollection',
        features: layer.features.map(({ id, geometry, ...properties }) => ({
          type: 'Feature',
          id,
          geometry,
          properties: { id, ...properties },
        })),
        source: layer.source,
        hint: layer.status === 'ok' || layer.status === 'no_data' ? null : layer.message,
        success: true,
        error: null,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
      headers: mirrorSource(layer.status, layer.source),
    };
  },
});

export const ugbAtPoint = defineRoute({
  method: 'get',
  path: '/api/ugb/at-point',
  tag: 'UGB',
  summary: 'Whether a point is inside the urban growth boundary, whether GAIC applies, and the zone there (spec 2.12).',
  access: { scope: 'ugb.read', keyless: MAP_MOUNT },
  query: z.object({ lat: numeric('lat'), lng: numeric('lng'), state: stateParam.optional() }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    assertPoint(q.lat, q.lng);
    const state = q.state ?? detectState(q.lng, q.lat) ?? 'VIC';
    const layer = unwrap(
      await graph.execute<{ ugbAt: UgbPoint }>(UGB_AT, { lat: q.lat, lng: q.lng, state }, scope),
    ).ugbAt;
    if (layer.status === 'error') throw sourceFailed(layer);
    const credit = creditOf(layer);
    const { data } = layer;
    return {
      body: {
        success: true,
        source: layer.source,
        error: null,
        data: {
          state: data.state,
          available: data.available,
          reason: data.reason,
          query: { lat: q.lat, lng: q.lng },
          insideUGB: data.insideUGB,
          gaicApplies: data.gaicApplies,
          ugbLga: data.ugbLga,
          zoneDescription: data.zoneDescription,
        },
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
      headers: mirrorSource(layer.status, layer.source),
    };
  },
});

const CLIMATE_AT = `query ClimateZoneAt($lat: Float!, $lng: Float!, $state: String!) {
  climateZoneAt(lat: $lat, lng: $lng, state: $state) { ${LAYER_FIELDS} data { zone description } }
}`;

export const climateZone = defineRoute({
  method: 'get',
  path: '/api/climate-zone',
  tag: 'Climate Zone',
  summary: 'The National Construction Code climate zone (1-8) at a coordinate.',
  access: { scope: 'envelope.read' },
  query: z.object({ lat: numeric('lat'), lng: numeric('lng'), state: stateParam.optional() }),
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    assertPoint(q.lat, q.lng);
    const state = q.state ?? detectState(q.lng, q.lat) ?? 'VIC';
    const layer = unwrap(
      await graph.execute<{ climateZoneAt: LayerFields & { data: { zone: number; description: string } | null } }>(
        CLIMATE_AT,
        { lat: q.lat, lng: q.lng, state },
        scope,
      ),
    ).climateZoneAt;
    const credit = creditOf(layer);
    return {
      body: {
        success: true,
        query: { lat: q.lat, lng: q.lng, state },
        available: layer.status === 'ok',
        reason: layer.status === 'ok' ? null : layer.message,
        source: layer.source,
        data: layer.data ? { climate_zone: layer.data.zone, description: layer.data.description } : null,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});
