import { badRequest } from '../../../core/errors.ts';
import type { LayerResult, Provenance } from '../../../core/layer.ts';
import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import { MAX_BBOX_FEATURES } from '../../../core/validate.ts';
import type { LandContext, WithFreshness } from '../data.ts';
import type { BuildingRow, Found, LandLayerName } from '../sql.ts';

const LABEL: Record<LandLayerName, string> = {
  easements: 'easement',
  buildings: 'building footprint',
  'land-values': 'land value',
};

const NOTHING_HERE: Record<LandLayerName, string> = {
  easements: 'No easement is registered on this land.',
  buildings: 'No building footprint is mapped here.',
  'land-values': 'The valuer-general publishes no land value for this parcel (crown or unrated land).',
};

export type Judged<D> = WithFreshness<LayerResult<D>>;

/** A layer's answer for one place: ok with the features, or why there are none. */
export async function judge<T, D>(
  ctx: LandContext,
  layer: LandLayerName,
  state: string,
  found: Found<T>,
  where: string,
  data: (features: T[]) => D,
  credit: (features: T[], base: Provenance) => Promise<Provenance> = async (_f, base) => base,
): Promise<Judged<D>> {
  const provenance = await ctx.land.provenance(layer, state);
  if (!provenance) {
    return {
      ...layerEmpty('not_covered', `The ${LABEL[layer]} layer does not cover ${state || 'this state'} yet.`),
      freshness: null,
    };
  }
  if (found.freshness === null) {
    const message = `The ${state} ${LABEL[layer]} source does not reach ${where}.`;
    return { ...layerEmpty('not_covered', message, provenance), freshness: null };
  }
  if (found.features.length === 0) {
    return { ...layerEmpty('no_data', NOTHING_HERE[layer], provenance), freshness: found.freshness };
  }
  return { ...layerOk(data(found.features), await credit(found.features, provenance)), freshness: found.freshness };
}

/**
 * Footprints carry the credit of each source whose outlines they include: OpenStreetMap's
 * (ODbL) and, where used, the state's building layer (CC BY 4.0), as spec 2.2 asks.
 */
export async function buildingCredit(ctx: LandContext, state: string, features: BuildingRow[], osm: Provenance) {
  const credits: Provenance[] = [];
  if (features.some((f) => f.source === 'osm')) credits.push(osm);
  if (features.some((f) => f.source === 'state')) {
    const stateSource = await ctx.land.provenance('buildings-state', state);
    credits.push(stateSource ?? osm);
  }
  if (credits.length <= 1) return credits[0] ?? osm;
  const join = (pick: (p: Provenance) => string) => [...new Set(credits.map(pick))].join(' | ');
  return { source: join((p) => p.source), attribution: join((p) => p.attribution), license: join((p) => p.license) };
}

/** Runs one layer's lookup so that its failure stays inside the layer (status error, no freshness). */
export async function guarded<D>(name: string, lookup: () => Promise<Judged<D>>): Promise<Judged<D>> {
  let freshness: string | null = null;
  const layer = await guardLayer(name, async () => {
    const judged = await lookup();
    freshness = judged.freshness;
    return judged;
  });
  return { ...layer, freshness: layer.status === 'error' ? null : freshness };
}

/** A layer's answer as a collection of features (bbox and point queries), refusing an over-full window. */
export function asCollection<T>(judged: Judged<T[]>, noun: string): Omit<Judged<never>, 'data'> & { features: T[] } {
  const { data, ...rest } = judged;
  const features = data ?? [];
  if (features.length > MAX_BBOX_FEATURES) {
    throw badRequest(
      `The window holds more than ${MAX_BBOX_FEATURES} ${noun}.`,
      'Request a smaller bbox (split it into tiles); results are never truncated.',
    );
  }
  return { ...rest, features };
}
