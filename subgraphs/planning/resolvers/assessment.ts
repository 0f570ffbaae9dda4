/**
 * What the provisions and the envelope both stand on: the zone and overlays at the property's
 * point, the parcel's boundaries told apart by the roads around it, and the lot's measures
 * (completed or overridden by the caller's), with the credit of every dataset read.
 */
import type { GeoJSONGeometry } from '../../../core/geojson.ts';
import type { LayerResult, LayerStatus, Provenance } from '../../../core/layer.ts';
import { oldestFreshness } from '../../../core/layer.ts';
import type { PlanningAtPoint, PlanningContext, PlanningProperty } from '../data.ts';
import type { BoundaryClassification, RoadLine } from '../../../core/boundaries/boundaries.ts';
import { classifyBoundaries } from '../../../core/boundaries/boundaries.ts';
import { polygonArea, polygonsOf } from '../../../core/boundaries/plane.ts';
import { LocalFrame } from '../../../core/boundaries/projection.ts';
import type { LotCharacteristicsInput } from '../generated/resolvers-types.ts';
import type { Provisions } from '../provisions/index.ts';
import { provisionsFor, roadCategory } from '../provisions/index.ts';
import { planningLayer } from './planning-layer.ts';

export type LotFacts = {
  area_m2: number | null;
  frontage_m: number | null;
  depth_m: number | null;
  corner: boolean;
  source: 'parcel' | 'caller' | 'parcel+caller' | 'none';
};

export type Assessment = {
  /** ok where a zone (or a checked absence of one) was read; not_covered where no planning data reaches. */
  status: Exclude<LayerStatus, 'error'>;
  message: string | null;
  planning: PlanningAtPoint | null;
  classification: BoundaryClassification | null;
  lot: LotFacts;
  provisions: Provisions;
  wallHeightM: number | null;
  provenance: Provenance | null;
};

/** An assessment, or the layer to answer instead (the planning source failed, or no point to assess at). */
export type AssessmentOutcome = Assessment | LayerResult<never>;

/** Area of a parcel in square metres, on the ellipsoid (a local frame per polygon). */
export function parcelAreaM2(geometry: GeoJSONGeometry): number {
  return polygonsOf(geometry).reduce((sum, polygon) => {
    const outer = polygon[0];
    if (!outer || outer.length === 0) return sum;
    const frame = LocalFrame.around(outer);
    return sum + polygonArea(polygon.map((ring) => ring.map((p) => frame.toLocal(p))));
  }, 0);
}

/** Every credit read, joined so none is lost where a product mixes datasets. */
export function joinProvenance(parts: Array<Provenance | null | undefined>): Provenance | null {
  const present = parts.filter((p): p is Provenance => !!p);
  if (present.length === 0) return null;
  const unique = (values: string[]) => [...new Set(values)].join(' | ');
  return {
    attribution: unique(present.map((p) => p.attribution)),
    license: unique(present.map((p) => p.license)),
    source: unique(present.map((p) => p.source)),
    freshness: oldestFreshness(present.map((p) => p.freshness)),
  };
}

function lotFacts(
  measured: { area_m2: number; classification: BoundaryClassification | null } | null,
  given: LotCharacteristicsInput | null,
): LotFacts {
  const fromParcel = measured?.classification?.ok ? measured.classification : null;
  const facts = {
    area_m2: given?.lot_area_m2 ?? measured?.area_m2 ?? null,
    frontage_m: given?.frontage_m ?? fromParcel?.frontage_m ?? null,
    depth_m: given?.depth_m ?? fromParcel?.depth_m ?? null,
    corner: given?.corner ?? fromParcel?.corner ?? false,
  };
  const callerGave = !!given && Object.values(given).some((v) => v !== null && v !== undefined);
  const source = measured ? (callerGave ? 'parcel+caller' : 'parcel') : callerGave ? 'caller' : 'none';
  return { ...facts, source };
}

/**
 * The assessment of a property's lot, or the layer to answer instead when the planning source
 * failed or the property has no point to be assessed at.
 */
export function assess(
  property: PlanningProperty,
  given: LotCharacteristicsInput | null,
  ctx: PlanningContext,
): Promise<AssessmentOutcome> {
  // provisions and envelope of one property (the property graph asks both) share one assessment
  const { state, parcel_pfi, location } = property;
  const key = `assess:${state}:${parcel_pfi ?? ''}:${location?.lng},${location?.lat}:${JSON.stringify(given ?? {})}`;
  const known = ctx.products.assessments.get(key);
  if (known) return known;
  const made = assessLot(property, given, ctx);
  ctx.products.assessments.set(key, made);
  return made;
}

/**
 * The centrelines the roads subgraph found around the parcel (through @requires). A state it
 * does not cover has none, as an empty table had; its failure, or no answer at all, fails the
 * assessment like any source it stands on, so no lot is classified as fronting no road.
 */
function roadLinesOf(property: PlanningProperty): { lines: RoadLine[]; provenance: Provenance | undefined } {
  const layer = property.road_lines;
  if (!layer || layer.status === 'error') {
    throw new Error(`the roads subgraph gave no road lines for parcel ${property.parcel_pfi ?? '(none)'}`);
  }
  const lines = (layer.data ?? []).flatMap((line): RoadLine[] =>
    line.geometry.type === 'LineString'
      ? [{ name: line.name ?? null, road_class: line.road_class, coordinates: line.geometry.coordinates }]
      : [],
  );
  const { source, attribution, license, freshness } = layer;
  return {
    lines,
    provenance: source && attribution && license ? { source, attribution, license, freshness } : undefined,
  };
}

async function assessLot(
  property: PlanningProperty,
  given: LotCharacteristicsInput | null,
  ctx: PlanningContext,
): Promise<AssessmentOutcome> {
  const planning = await planningLayer(property, ctx);
  if (planning.status === 'error' || planning.status === 'skipped') {
    return { ...planning, data: null };
  }
  const zoneData = planning.status === 'ok' ? planning.data : null;
  const parcel = property.parcel_geometry;
  let classification: BoundaryClassification | null = null;
  let roadsProvenance: Provenance | undefined;
  if (parcel) {
    const roads = roadLinesOf(property);
    classification = classifyBoundaries(parcel, roads.lines);
    if (roads.lines.length > 0) roadsProvenance = roads.provenance;
  }
  const lot = lotFacts(parcel ? { area_m2: parcelAreaM2(parcel), classification } : null, given);
  const zone = zoneData?.zone ?? null;
  const frontRoad = classification?.ok ? classification.front_road_class : null;
  const provisions = provisionsFor({
    state: property.state,
    zone: zone ? { code: zone.code, description: zone.description, scheme_code: zone.scheme_code } : null,
    overlays: (zoneData?.overlays ?? []).map((o) => o.code),
    lot,
    front_road_class: frontRoad ? roadCategory(frontRoad) : null,
    wall_height_m: given?.wall_height_m ?? null,
  });
  const status = planning.status === 'not_covered' ? 'not_covered' : 'ok';
  const message =
    planning.status === 'ok'
      ? null
      : `${planning.message ?? 'No zone is known here.'} The figures are conservative defaults.`;
  const planningProvenance =
    planning.attribution && planning.license && planning.source
      ? {
          attribution: planning.attribution,
          license: planning.license,
          source: planning.source,
          freshness: planning.freshness,
        }
      : null;
  return {
    status,
    message,
    planning: zoneData,
    classification,
    lot,
    provisions,
    wallHeightM: given?.wall_height_m ?? null,
    provenance: joinProvenance([planningProvenance, roadsProvenance]),
  };
}
