import type { GeoJSONGeometry, Position } from '../../../core/geojson.ts';
import { guardLayer } from '../../../core/layer.ts';
import type { LayerResult } from '../../../core/layer.ts';
import type { PlanningContext, PlanningProperty } from '../data.ts';
import { buildEnvelope } from '../envelope/envelope.ts';
import type { BuildingEnvelope, EnvelopeGap, LotCharacteristicsInput } from '../generated/resolvers-types.ts';
import { assess } from './assessment.ts';
import { provisionsModel } from './provisions.ts';

/** `gap` is absent on a failed layer (guardLayer's answer), which GraphQL reads as null. */
export type EnvelopeLayerModel = LayerResult<BuildingEnvelope> & { gap?: EnvelopeGap | null };

const lineOf = (path: Position[]): GeoJSONGeometry => ({ type: 'LineString', coordinates: path });

/** The building envelope of a property's parcel, or the gap that stops one being drawn. */
export function envelopeLayer(
  property: PlanningProperty,
  lot: LotCharacteristicsInput | null,
  ctx: PlanningContext,
): Promise<EnvelopeLayerModel> {
  return guardLayer('envelope', async (): Promise<EnvelopeLayerModel> => {
    const assessment = await assess(property, lot, ctx);
    if (!('provisions' in assessment)) return { ...assessment, gap: null };
    const credit = {
      attribution: assessment.provenance?.attribution ?? null,
      license: assessment.provenance?.license ?? null,
      source: assessment.provenance?.source ?? null,
      freshness: assessment.provenance?.freshness ?? null,
    };
    const gapped = (gap: EnvelopeGap, message: string): EnvelopeLayerModel => ({
      status: 'no_data',
      ...credit,
      message,
      gap,
      data: null,
    });
    const parcel = property.parcel_geometry;
    if (!parcel) return gapped('no_parcel', 'No parcel lies at the property’s point, so there is no envelope.');
    const classification = assessment.classification;
    if (!classification) return gapped('no_parcel', 'The parcel could not be read.');
    if (!classification.ok) return gapped(classification.gap, classification.message);
    const envelope = buildEnvelope(parcel, classification.edges, assessment.provisions);
    if (envelope.gap) return gapped(envelope.gap.code, envelope.gap.message);
    const provisions = provisionsModel(assessment);
    return {
      status: assessment.status,
      ...credit,
      message: assessment.message,
      gap: null,
      data: {
        geometry: envelope.geometry,
        area_m2: envelope.area_m2,
        parcel_area_m2: envelope.parcel_area_m2,
        max_footprint_m2: envelope.max_footprint_m2,
        height_limit_m: assessment.provisions.height.max_m,
        max_storeys: assessment.provisions.height.storeys,
        conservative_fallback: assessment.provisions.conservative_fallback,
        levels: envelope.levels.map((level) => ({
          wall_height_m: level.wall_height_m,
          front_setback_m: level.setbacks.front,
          side_setback_m: level.setbacks.side,
          rear_setback_m: level.setbacks.rear,
          geometry: level.geometry,
          area_m2: level.area_m2,
        })),
        boundaries: classification.edges.map((edge) => ({
          edge: edge.index,
          kind: edge.kind,
          length_m: edge.length_m,
          facing_deg: edge.facing_deg,
          road_name: edge.road?.name ?? null,
          geometry: lineOf(edge.path),
        })),
        provisions,
      },
    };
  });
}
