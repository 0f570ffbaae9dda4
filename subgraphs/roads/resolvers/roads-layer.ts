import type { LayerResult } from '../../../core/layer.ts';
import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import { classifyBoundaries } from '../../../core/boundaries/boundaries.ts';
import type {
  FrontingRoadModel,
  NearbyRoadsLayerModel,
  RoadLinesLayerModel,
  RoadsContext,
  RoadsLayerModel,
  RoadsProperty,
} from '../data.ts';
import { NEAREST_ROAD_REACH_M } from '../../../core/limits.ts';
import { NO_PARCEL_FOR_ROADS } from '../../../core/vocabulary.ts';

const uncovered = (state: string) => `Road data does not cover ${state || 'this state'} yet.`;
const cm = (metres: number): number => Math.round(metres * 100) / 100;

/** The centrelines within reach of a parcel, or why there are none to give. */
async function linesOf(property: RoadsProperty, ctx: RoadsContext): Promise<RoadLinesLayerModel> {
  const { state, parcel_geometry } = property;
  const provenance = await ctx.roads.provenance(state);
  if (!provenance) return layerEmpty('not_covered', uncovered(state));
  if (!parcel_geometry) return layerEmpty('skipped', NO_PARCEL_FOR_ROADS, provenance);
  return layerOk(await ctx.roads.linesNear.load({ state, geometry: parcel_geometry }), provenance);
}

/** The centrelines around a parcel, for the planning products' boundary classification. */
export function roadLinesLayer(property: RoadsProperty, ctx: RoadsContext): Promise<RoadLinesLayerModel> {
  return guardLayer('roads', () => linesOf(property, ctx));
}

/**
 * The roads a lot fronts, by the same classification the envelope and provisions use: the
 * boundaries facing one road (a street split at intersections is one road) are summed.
 */
export function frontingRoadsLayer(property: RoadsProperty, ctx: RoadsContext): Promise<RoadsLayerModel> {
  return guardLayer('roads', async (): Promise<LayerResult<FrontingRoadModel[]>> => {
    const lines = await linesOf(property, ctx);
    if (lines.status !== 'ok' || !lines.data || !property.parcel_geometry) return { ...lines, data: null };
    const provenance = {
      source: lines.source!,
      attribution: lines.attribution!,
      license: lines.license!,
      freshness: lines.freshness ?? null,
    };
    const classification = classifyBoundaries(property.parcel_geometry, lines.data);
    if (!classification.ok) {
      const status = classification.gap === 'no_front_boundary' ? 'no_data' : 'skipped';
      return layerEmpty(status, `${classification.message}.`, provenance);
    }
    const byRoad = new Map<string, FrontingRoadModel>();
    for (const edge of classification.edges) {
      if (!edge.road) continue;
      const key = `${edge.road.name?.trim().toUpperCase() ?? ''}|${edge.road.road_class}`;
      const known = byRoad.get(key);
      if (known) {
        known.frontage_m += edge.length_m;
        known.distance_m = Math.min(known.distance_m, edge.road.distance_m);
        known.front ||= edge.kind === 'front';
      } else {
        byRoad.set(key, {
          name: edge.road.name,
          road_class: edge.road.road_class,
          frontage_m: edge.length_m,
          distance_m: edge.road.distance_m,
          front: edge.kind === 'front',
        });
      }
    }
    const roads = [...byRoad.values()]
      .map((road) => ({ ...road, frontage_m: cm(road.frontage_m) }))
      .sort((a, b) => Number(b.front) - Number(a.front) || b.frontage_m - a.frontage_m);
    return layerOk(roads, provenance);
  });
}

/** The centrelines nearest a point already checked by assertPoint. */
export function nearestRoadsLayer(
  state: string,
  lat: number,
  lng: number,
  limit: number,
  ctx: RoadsContext,
): Promise<NearbyRoadsLayerModel> {
  return guardLayer('roads', async () => {
    const provenance = await ctx.roads.provenance(state);
    if (!provenance) return layerEmpty('not_covered', uncovered(state));
    const roads = await ctx.roads.nearest(state, lat, lng, limit, NEAREST_ROAD_REACH_M);
    if (roads.length === 0)
      return layerEmpty(
        'no_data',
        `No road centreline lies within ${NEAREST_ROAD_REACH_M} m of the point.`,
        provenance,
      );
    return layerOk(roads, provenance);
  });
}
