import type { LayerResult, Provenance } from '../../../core/layer.ts';
import { guardLayer, layerEmpty, layerOk, oldestFreshness } from '../../../core/layer.ts';
import type { PipelineRow } from '../sql.ts';
import type { GnafLocality, MarketContext, SuburbEntity } from '../data.ts';
import type { SuburbMarketModel } from '../trends.ts';
import { judged } from './layers.ts';

/**
 * A suburb's market as a layer: not_covered where the state holds no sales source, no_data where
 * the suburb has neither sales nor rents nor approvals; `unknown` says the suburb is not one the
 * data knows at all (the REST route's 404). `locality` is what G-NAF holds of the name, from the
 * address subgraph through the graph; null where it did not come (that subgraph failed): the layer
 * then fails alone.
 */
export async function suburbLayer(
  ctx: MarketContext,
  state: string,
  suburb: string,
  postcode: string | null,
  propertyType: string | null,
  locality: GnafLocality | null,
): Promise<LayerResult<SuburbMarketModel> & { unknown?: boolean }> {
  let unknown = false;
  const layer = await judged<SuburbMarketModel>(ctx, 'market-sales', state, 'market trends', async (provenance) => {
    if (!locality) throw new Error("the suburb's G-NAF locality did not come through the graph");
    const found = await ctx.market.suburb(state, suburb, postcode, propertyType, locality);
    unknown = !found.known;
    const { market } = found;
    if (market.quarters.length === 0 && market.rents.length === 0 && market.approvals.length === 0) {
      return { data: null, empty: `No sales, rents or approvals are held for ${market.suburb} ${state}.` };
    }
    // the trends mix the sales source's credit with the rents' and approvals' where those are in
    const credits = [provenance];
    if (market.rents.length > 0) {
      const rents = await ctx.market.provenance('market-rents', state);
      if (rents) credits.push(rents);
    }
    if (market.approvals.length > 0) {
      const approvals = await ctx.market.provenance('market-approvals', state);
      if (approvals) credits.push(approvals);
    }

    const join = (pick: (p: (typeof credits)[number]) => string) => [...new Set(credits.map(pick))].join(' | ');
    return {
      data: market,
      empty: '',
      credit: {
        source: join((p) => p.source),
        attribution: join((p) => p.attribution),
        license: join((p) => p.license),
      },
    };
  });
  return { ...layer, unknown };
}

/**
 * A suburb's supply pipeline: its development applications and land-supply lots (counted by the
 * development and supply subgraphs, brought by the graph), credited with the sources its counts
 * come from; not_covered where the state holds neither.
 */
export async function pipelineLayer(ctx: MarketContext, suburb: SuburbEntity) {
  const { state, name } = suburb;
  return guardLayer('supply pipeline', async () => {
    const [das, supply] = await Promise.all([
      ctx.market.provenance('development-applications', state),
      ctx.market.provenance('land-supply', state),
    ]);
    if (!das && !supply) {
      return layerEmpty<PipelineRow>(
        'not_covered',
        `No development applications or land supply are held for ${state}.`,
      );
    }
    // a layer that failed to give its counts fails the pipeline (guardLayer: status error)
    if (!suburb.development_pipeline || !suburb.land_supply_pipeline) {
      throw new Error('the development or land-supply counts did not come through the graph');
    }
    const pipeline: PipelineRow = { ...suburb.development_pipeline, ...suburb.land_supply_pipeline };
    const credits = [
      ...(das && pipeline.das_pending + pipeline.das_approved > 0 ? [das] : []),
      ...(supply && pipeline.lots_available + pipeline.estates_selling > 0 ? [supply] : []),
    ];
    if (credits.length === 0) {
      return layerEmpty<PipelineRow>(
        'no_data',
        `No development application or land-supply lot names ${name}.`,
        das ?? supply,
      );
    }
    const join = (pick: (p: Provenance) => string) => [...new Set(credits.map(pick))].join(' | ');
    return {
      ...layerOk(pipeline, {
        source: join((p) => p.source),
        attribution: join((p) => p.attribution),
        license: join((p) => p.license),
      }),
      freshness: oldestFreshness(credits.map((c) => c.freshness)),
    };
  });
}
