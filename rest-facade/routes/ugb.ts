import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import { assertPoint } from '../../core/validate.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { LayerStatus } from '../../core/layer.ts';
import { unwrap } from '../graph-result.ts';
import type { Graph } from '../../gateway/graph.ts';
import type { RequestScope } from '../../core/context.ts';
import { bboxParam, numeric, stateParam, textParam } from '../params.ts';
import { defineRoute } from '../route.ts';
import type { KeylessAccess } from '../route.ts';
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS, creditOf } from './cadastre.ts';

/** Spec 5.5: the first-party map mount of the UGB routes is open; it shows the live dataset. */
const MAP_MOUNT: KeylessAccess = { dataset: 'live', why: 'the first-party map mount, reading the live dataset' };

const UGB_POINT_FIELDS = `${LAYER_FIELDS} data { state available reason insideUGB gaicApplies ugbLga zoneDescription }`;
const UGB_AT = `query UgbAt($lat: Float!, $lng: Float!, $state: String!) {
  ugbAt(lat: $lat, lng: $lng, state: $state) { ${UGB_POINT_FIELDS} }
}`;
// Identity fields are not selected: ugb.read alone does not open them, and the caller gave them.
const UGB_OF_PARCEL = `query UgbOfParcel($pfi: String!, $state: String!) {
  property: propertyByParcel(parcel_pfi: $pfi, state: $state) { state layer: ugb { ${UGB_POINT_FIELDS} } }
}`;
const UGB_OF_ADDRESS = `query UgbOfAddress($gnafPid: ID!) {
  property: propertyByGnafPid(gnaf_pid: $gnafPid) { state layer: ugb { ${UGB_POINT_FIELDS} } }
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

const placeFields = {
  lat: numeric('lat').optional(),
  lng: numeric('lng').optional(),
  pfi: textParam('pfi', 64).optional(),
  state: stateParam.optional(),
};
type PlaceInput = { lat?: number; lng?: number; pfi?: string; state?: string; gnaf_pid?: string };

/** The land named exactly one way (spec 2.1.2): a point, or a parcel (pfi and state), or an address where offered. */
const oneWay = (forms: string) => (q: PlaceInput, ctx: z.RefinementCtx) => {
  const given = [q.lat !== undefined || q.lng !== undefined, q.pfi !== undefined, q.gnaf_pid !== undefined];
  if (given.filter(Boolean).length !== 1) {
    ctx.addIssue({ code: 'custom', message: `Give the place one way: ${forms}.` });
  } else if ((q.lat === undefined) !== (q.lng === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
  } else if (q.pfi !== undefined && q.state === undefined) {
    ctx.addIssue({ code: 'custom', message: 'pfi needs state: parcel identifiers are only unique within a state.' });
  }
};
const pointParcelOrAddress = z
  .object({ ...placeFields, gnaf_pid: textParam('gnaf_pid', 32).optional() })
  .superRefine(oneWay('lat and lng, or pfi and state, or gnaf_pid'));
const pointOrParcel = z.object(placeFields).superRefine(oneWay('lat and lng, or pfi and state'));

/**
 * A layer of a property named by parcel or address, through the property entry points in one
 * graph operation: the layer is worked out at the property's own point. An unknown identifier is a 404.
 */
async function layerOfProperty<TLayer>(
  q: PlaceInput,
  operations: { parcel: string; address?: string },
  graph: Graph,
  scope: RequestScope,
): Promise<{ query: Record<string, unknown>; layer: TLayer }> {
  type Result = { property: { state: string; layer: TLayer } | null };
  const byParcel = q.pfi !== undefined;
  const found = unwrap(
    byParcel || !operations.address
      ? await graph.execute<Result>(operations.parcel, { pfi: q.pfi, state: q.state }, scope)
      : await graph.execute<Result>(operations.address, { gnafPid: q.gnaf_pid }, scope),
  ).property;
  if (!found) {
    throw new AppError(
      'NOT_FOUND',
      byParcel ? `No parcel with PFI ${q.pfi} in ${q.state}.` : `No property with gnaf_pid ${q.gnaf_pid}.`,
      'Identifiers are stable across releases; check it was copied whole, or ask at a point by lat and lng.',
    );
  }
  return {
    query: byParcel ? { pfi: q.pfi, state: q.state } : { gnaf_pid: q.gnaf_pid },
    layer: found.layer,
  };
}

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
  // The open mount serves the map, which asks at the points it shows; naming a parcel or an
  // address reads the cadastre or G-NAF, which are keyed and metered.
  access: { scope: 'ugb.read', keyless: { ...MAP_MOUNT, keyedParams: ['pfi', 'gnaf_pid'] } },
  query: pointParcelOrAddress,
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    let layer: UgbPoint;
    let query: Record<string, unknown>;
    if (q.lat !== undefined && q.lng !== undefined) {
      assertPoint(q.lat, q.lng);
      const state = q.state ?? detectState(q.lng, q.lat) ?? 'VIC';
      query = { lat: q.lat, lng: q.lng };
      layer = unwrap(await graph.execute<{ ugbAt: UgbPoint }>(UGB_AT, { lat: q.lat, lng: q.lng, state }, scope)).ugbAt;
    } else {
      ({ query, layer } = await layerOfProperty<UgbPoint>(
        q,
        { parcel: UGB_OF_PARCEL, address: UGB_OF_ADDRESS },
        graph,
        scope,
      ));
    }
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
          query,
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

const CLIMATE_FIELDS = `${LAYER_FIELDS} data { zone description }`;
const CLIMATE_AT = `query ClimateZoneAt($lat: Float!, $lng: Float!, $state: String!) {
  climateZoneAt(lat: $lat, lng: $lng, state: $state) { ${CLIMATE_FIELDS} }
}`;
const CLIMATE_OF_PARCEL = `query ClimateZoneOfParcel($pfi: String!, $state: String!) {
  property: propertyByParcel(parcel_pfi: $pfi, state: $state) { state layer: climate_zone { ${CLIMATE_FIELDS} } }
}`;
type ClimateLayer = LayerFields & { data: { zone: number; description: string } | null };

export const climateZone = defineRoute({
  method: 'get',
  path: '/api/climate-zone',
  tag: 'Climate Zone',
  summary: 'The National Construction Code climate zone (1-8) at a coordinate.',
  access: { scope: 'envelope.read' },
  // not by gnaf_pid: envelope.read does not open the address entry point (the envelope by address is its own product)
  query: pointOrParcel,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    let layer: ClimateLayer;
    let query: Record<string, unknown>;
    if (q.lat !== undefined && q.lng !== undefined) {
      assertPoint(q.lat, q.lng);
      const state = q.state ?? detectState(q.lng, q.lat) ?? 'VIC';
      query = { lat: q.lat, lng: q.lng, state };
      layer = unwrap(
        await graph.execute<{ climateZoneAt: ClimateLayer }>(CLIMATE_AT, { lat: q.lat, lng: q.lng, state }, scope),
      ).climateZoneAt;
    } else {
      ({ query, layer } = await layerOfProperty<ClimateLayer>(q, { parcel: CLIMATE_OF_PARCEL }, graph, scope));
    }
    const credit = creditOf(layer);
    return {
      body: {
        success: true,
        query,
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
