import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import type { LayerResult } from '../../../core/layer.ts';
import { suburbKey } from '../../../core/suburb-metrics.ts';
import type {
  DemographicsContext,
  DemographicsLayerModel,
  DemographicsModel,
  DemographicsProperty,
  SuburbDemographicsLayerModel,
} from '../data.ts';
import type { ProfileModel } from '../profile.ts';
import { toProfile, withoutAbsSuffix } from '../profile.ts';

/** The Census the figures come from. */
export const CENSUS_YEAR = 2021;

const uncovered = (state: string) => `Census demographics are not loaded for ${state || 'this state'} yet.`;

/** Keeps the freshness of an answer with figures, and drops it from an error. */
async function guarded<T>(
  lookup: () => Promise<LayerResult<T>>,
): Promise<LayerResult<T> & { freshness: string | null }> {
  const layer = await guardLayer<T>('demographics', lookup);
  return { ...layer, freshness: layer.status === 'error' ? null : (layer.freshness ?? null) };
}

/** The SA1 and SAL figures at a point, or why there are none. */
export function demographicsLayer(
  state: string,
  point: { lat: number; lng: number } | null,
  ctx: DemographicsContext,
): Promise<DemographicsLayerModel> {
  return guarded<DemographicsModel>(async () => {
    const provenance = await ctx.demographics.provenance(state);
    if (!provenance) return layerEmpty('not_covered', uncovered(state));
    if (!point) return layerEmpty('skipped', 'The property has no point to look its Census areas up at.', provenance);
    const { sa1, sal } = await ctx.demographics.atPoint.load({ state, ...point });
    if (!sa1 && !sal) {
      return layerEmpty('no_data', `No ${state} Census 2021 SA1 or suburb boundary holds this point.`, provenance);
    }
    return layerOk(
      { census_year: CENSUS_YEAR, sa1: sa1 ? toProfile(sa1) : null, sal: sal ? toProfile(sal) : null },
      provenance,
    );
  });
}

export function propertyDemographics(
  property: DemographicsProperty,
  ctx: DemographicsContext,
): Promise<DemographicsLayerModel> {
  return demographicsLayer(property.state, property.location, ctx);
}

/** Every SAL of the state with the name asked for (its ABS suffix optional), most populous first. */
export function suburbDemographicsLayer(
  state: string,
  suburb: string,
  ctx: DemographicsContext,
): Promise<SuburbDemographicsLayerModel> {
  return guarded<ProfileModel[]>(async () => {
    const provenance = await ctx.demographics.provenance(state);
    if (!provenance) return layerEmpty('not_covered', uncovered(state));
    const rows = await ctx.demographics.suburb(state, suburbKey(withoutAbsSuffix(suburb)));
    // "Richmond (Vic.)" asked in full: its suffix must match, not only the bare name
    const exact = rows.filter((r) => suburbKey(r.name) === suburbKey(suburb));
    const found = exact.length > 0 ? exact : rows;
    if (found.length === 0)
      return layerEmpty('no_data', `No suburb or locality named ${suburb} in ${state}.`, provenance);
    return layerOk(found.map(toProfile), provenance);
  });
}
