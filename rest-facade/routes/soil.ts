import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import { assertPoint } from '../../core/validate.ts';
import { unwrap } from '../graph-result.ts';
import { defineRoute } from '../route.ts';
import { pointParcelOrAddressQuery, propertyByParcelOrAddress } from './parcel-point.ts';
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS, creditOf } from './cadastre.ts';

/** The soil layer's selection: the property graph and GET /api/soil read the same fields. */
export const SOIL_FIELDS = `${LAYER_FIELDS} freshness data { indicative notice clay_percent depth_m reactivity
  ys_estimate_mm site_class_indicative band { site_class ys_range description } basis explanation polygons product }`;

export type SoilLayerFields = LayerFields & { freshness: string | null; data: Record<string, unknown> | null };

const SOIL_AT = `query SoilAt($lat: Float!, $lng: Float!, $state: String!) {
  soilAt(lat: $lat, lng: $lng, state: $state) { ${SOIL_FIELDS} }
}`;
// Identity fields are not selected: soil.read alone does not open them, and the caller gave them.
const SOIL_OF_PARCEL = `query SoilOfParcel($pfi: String!, $state: String!) {
  property: propertyByParcel(parcel_pfi: $pfi, state: $state) { state soil { ${SOIL_FIELDS} } }
}`;
const SOIL_OF_ADDRESS = `query SoilOfAddress($gnafPid: ID!) {
  property: propertyByGnafPid(gnaf_pid: $gnafPid) { state soil { ${SOIL_FIELDS} } }
}`;

/** lat and lng, or pfi and state, or gnaf_pid (spec 2.1.2): exactly one. */
export const soilQuery = pointParcelOrAddressQuery;

export const soil = defineRoute({
  method: 'get',
  path: '/api/soil',
  tag: 'Soil',
  summary: 'Indicative clay content, soil depth and AS 2870 site class at a point, or over a parcel or address.',
  access: { scope: 'soil.read' },
  query: soilQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    let layer: SoilLayerFields;
    let query: Record<string, unknown>;
    let property: Record<string, unknown> | null = null;
    if (q.lat !== undefined && q.lng !== undefined) {
      assertPoint(q.lat, q.lng);
      const state = q.state ?? detectState(q.lng, q.lat) ?? 'VIC';
      query = { lat: q.lat, lng: q.lng, state };
      layer = unwrap(
        await graph.execute<{ soilAt: SoilLayerFields }>(SOIL_AT, { lat: q.lat, lng: q.lng, state }, scope),
      ).soilAt;
    } else {
      const answer = await propertyByParcelOrAddress<{ state: string; soil: SoilLayerFields }>(
        graph,
        scope,
        q,
        { ofParcel: SOIL_OF_PARCEL, ofAddress: SOIL_OF_ADDRESS },
        'the soil',
      );
      ({ query, property } = answer);
      layer = answer.found.soil;
    }
    if (layer.status === 'error') {
      throw new AppError('UPSTREAM_UNAVAILABLE', layer.message ?? 'The soil source failed.', 'Retry shortly.');
    }
    const credit = creditOf(layer);
    return {
      body: {
        success: true,
        query,
        ...(property ? { property } : {}),
        status: layer.status,
        message: layer.message,
        source: layer.source,
        freshness: layer.freshness,
        data: layer.data,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});
