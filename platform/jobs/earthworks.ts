import type { Dataset } from '../../core/context.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import { publishEvent } from '../webhooks/publish.ts';
import type { JobHandler } from './worker.ts';

/**
 * The Siting group's async DEM earthworks (spec 4.11, spec 3 gated flow 3): the job asks the
 * terrain subgraph, through the graph, for the cut and fill of the footprint, and keeps its
 * answer as the job's result. POST /v1/siting/earthworks has already run the same checks
 * synchronously (Query.earthworksSite), so a failure here is the data changing underneath or a
 * source failing, and is retried like any job.
 */
export const EARTHWORKS_KIND = 'siting.earthworks';

/** What the submit step stores: the lot's boundary is resolved at submit time, so the job is what was checked. */
export type EarthworksInput = {
  dataset: Dataset;
  state: string;
  footprint: GeoJSONGeometry;
  lot: GeoJSONGeometry;
  parcel_pfi: string | null;
  pad_level_m: number | null;
};

export const EARTHWORKS_FIELDS = `pad_level_m pad_level_source balanced_pad_level_m cut_m3 fill_m3 net_m3
  max_cut_depth_m max_fill_depth_m footprint_area_m2 ground_min_m ground_max_m ground_mean_m samples
  sample_spacing_m cell_size_m batter_ratio setbacks_comply
  setbacks { edge facing facing_deg kind batter_height_m batter_width_m required_setback_m available_m complies }`;

const EARTHWORKS = `query Earthworks($state: String!, $footprint: GeoJSON!, $lot: GeoJSON!, $pad: Float) {
  earthworks(state: $state, footprint: $footprint, lot: $lot, pad_level_m: $pad) {
    status source attribution license message freshness available reason data { ${EARTHWORKS_FIELDS} }
  }
}`;

type Layer = {
  status: string;
  source: string | null;
  attribution: string | null;
  license: string | null;
  message: string | null;
  freshness: string | null;
  available: boolean;
  reason: string | null;
  data: Record<string, unknown> | null;
};

export const earthworksHandler: JobHandler = {
  kind: EARTHWORKS_KIND,
  async run(job, ctx) {
    const input = job.input as EarthworksInput;
    const result = await ctx.graph().execute<{ earthworks: Layer | null }>(
      EARTHWORKS,
      { state: input.state, footprint: input.footprint, lot: input.lot, pad: input.pad_level_m },
      // the job reads the one field it was submitted for, in the dataset of the key that submitted it
      { dataset: input.dataset, requestId: job.id, scopes: ['siting.earthworks'] },
    );
    if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '));
    const layer = result.data?.earthworks;
    if (!layer) throw new Error('the graph returned no earthworks');
    if (layer.status !== 'ok' || !layer.data) {
      throw new Error(layer.reason ?? layer.message ?? `earthworks came back ${layer.status}`);
    }
    const body = {
      state: input.state,
      parcel_pfi: input.parcel_pfi,
      ...layer.data,
      source: layer.source,
      freshness: layer.freshness,
      attribution: layer.attribution,
      license: layer.license,
    };
    // the event commits with the job's success, so a receiver never hears of a job that did not finish
    ctx.onComplete((query) =>
      publishEvent(
        ctx.db,
        {
          type: 'earthworks.job.completed',
          accountId: job.accountId,
          data: {
            job_id: job.id,
            state: input.state,
            parcel_pfi: input.parcel_pfi,
            pad_level_m: layer.data?.pad_level_m ?? null,
            cut_m3: layer.data?.cut_m3 ?? null,
            fill_m3: layer.data?.fill_m3 ?? null,
          },
        },
        query,
      ).then(() => undefined),
    );
    return body;
  },
};
