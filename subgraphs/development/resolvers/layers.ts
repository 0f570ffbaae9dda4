import { guardLayer, layerEmpty, layerOk } from '../../../core/layer.ts';
import type { LayerResult, Provenance } from '../../../core/layer.ts';
import type { DevelopmentContext, WithFreshness } from '../data.ts';
import type { DevelopmentRow } from '../sql.ts';

export type Judged<D> = WithFreshness<LayerResult<D>>;

/**
 * The credit of the applications in an answer: each record carries its publisher's, so an
 * answer mixing a state portal's records with an aggregator's credits both.
 */
export function creditOf(rows: readonly DevelopmentRow[], base: Provenance): Provenance {
  const join = (values: string[]) => [...new Set(values)].join(' | ');
  if (rows.length === 0) return base;
  return {
    source: base.source,
    attribution: join(rows.map((r) => r.attribution)),
    license: join(rows.map((r) => r.license)),
  };
}

/** The layer's answer for one place: ok with the applications, or why there are none. */
export async function judge<D>(
  ctx: DevelopmentContext,
  state: string,
  found: { freshness: string | null; features: DevelopmentRow[] },
  nothingHere: string,
  data: (features: DevelopmentRow[]) => D,
): Promise<Judged<D>> {
  const provenance = await ctx.development.provenance(state);
  if (!provenance) {
    const message = `The development applications layer does not cover ${state || 'this state'} yet.`;
    return { ...layerEmpty('not_covered', message), freshness: null };
  }
  if (found.features.length === 0) {
    return { ...layerEmpty('no_data', nothingHere, provenance), freshness: found.freshness };
  }
  return { ...layerOk(data(found.features), creditOf(found.features, provenance)), freshness: found.freshness };
}

/** Runs one lookup so that its failure stays inside the layer (status error, no freshness). */
export async function guarded<D>(lookup: () => Promise<Judged<D>>): Promise<Judged<D>> {
  let freshness: string | null = null;
  const layer = await guardLayer('development applications', async () => {
    const judged = await lookup();
    freshness = judged.freshness;
    return judged;
  });
  return { ...layer, freshness: layer.status === 'error' ? null : freshness };
}
