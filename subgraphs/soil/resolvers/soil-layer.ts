import type { GeoJSONGeometry } from '../../../core/geojson.ts';
import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import type { SoilContext, SoilLayerModel, SoilModel, SoilProperty } from '../data.ts';
import { INDICATIVE_NOTICE, bandOf, estimateSiteClass, severity } from '../site-class.ts';
import type { SoilPolygonRow } from '../sql.ts';

const uncovered = (state: string) => `Soil data does not cover ${state || 'this state'} yet.`;

/**
 * The figures of the most severe soil the place touches: a footing must suit the worst ground
 * under the lot, so a parcel across two soils takes the more reactive one.
 */
function worstSoil(polygons: readonly SoilPolygonRow[]): { soil: SoilModel; date: string } | null {
  let worst: { soil: SoilModel; date: string } | null = null;
  for (const polygon of polygons) {
    const estimate = estimateSiteClass(polygon.clay_percent, polygon.depth_m, polygon.reactivity);
    const current = worst?.soil;
    const worse =
      !current ||
      severity(estimate.site_class) > severity(current.site_class) ||
      (estimate.site_class === current.site_class && estimate.ys_estimate_mm > current.ys_estimate_mm);
    if (!worse) continue;
    worst = {
      date: polygon.source_date,
      soil: {
        ...estimate,
        indicative: true,
        notice: INDICATIVE_NOTICE,
        clay_percent: polygon.clay_percent,
        depth_m: polygon.depth_m,
        reactivity: polygon.reactivity,
        site_class_indicative: estimate.site_class,
        band: bandOf(estimate.site_class),
        polygons: polygons.length,
        product: polygon.source,
      },
    };
  }
  return worst;
}

const withoutFreshness = (layer: ReturnType<typeof layerEmpty<SoilModel>>): SoilLayerModel => ({
  ...layer,
  freshness: null,
});

/** The soil at a point or over a parcel, or why there is none. */
export async function soilLayer(
  state: string,
  place: { geometry: GeoJSONGeometry; what: 'point' | 'parcel' } | null,
  ctx: SoilContext,
): Promise<SoilLayerModel> {
  let freshness: string | null = null;
  const layer = await guardLayer<SoilModel>('soil', async () => {
    const provenance = await ctx.soil.provenance(state);
    if (!provenance) return layerEmpty('not_covered', uncovered(state));
    if (!place) return layerEmpty('skipped', 'The property has no parcel or point to look its soil up at.', provenance);
    const { covered, polygons } = await ctx.soil.atPlace.load({ state, geometry: place.geometry });
    if (!covered)
      return layerEmpty('not_covered', `The ${state} soil map does not reach this ${place.what}.`, provenance);
    const worst = worstSoil(polygons);
    if (!worst) {
      return layerEmpty('no_data', `No soil is mapped at this ${place.what}: the source left it unmapped.`, provenance);
    }
    freshness = worst.date;
    return layerOk(worst.soil, provenance);
  });
  return layer.status === 'ok' ? { ...layer, freshness } : withoutFreshness(layer);
}

/** The soil of a lot: over its parcel's boundary where it has one, else at its point. */
export function propertySoil(property: SoilProperty, ctx: SoilContext): Promise<SoilLayerModel> {
  const { parcel_geometry, location, state } = property;
  if (parcel_geometry) return soilLayer(state, { geometry: parcel_geometry, what: 'parcel' }, ctx);
  if (location) {
    return soilLayer(
      state,
      { geometry: { type: 'Point', coordinates: [location.lng, location.lat] }, what: 'point' },
      ctx,
    );
  }
  return soilLayer(state, null, ctx);
}
