import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import { MAX_PAD_LEVEL_M, MIN_PAD_LEVEL_M } from '../../core/limits.ts';
import type { EarthworksInput } from '../../platform/jobs/earthworks.ts';
import { EARTHWORKS_KIND } from '../../platform/jobs/earthworks.ts';
import { jobOfAccount, submitJob } from '../../platform/jobs/engine.ts';
import { unwrap } from '../graph-result.ts';
import { stateParam, textParam } from '../params.ts';
import type { RouteContext } from '../route.ts';
import { defineRoute } from '../route.ts';
import { jobId } from './jobs.ts';

const LOT_OF_PARCEL = `query EarthworksLot($pfi: String!, $state: String!) {
  property: propertyByParcel(parcel_pfi: $pfi, state: $state) { parcel_geometry }
}`;
const EARTHWORKS_SITE = `query EarthworksSite($state: String!, $footprint: GeoJSON!, $lot: GeoJSON!, $pad: Float) {
  site: earthworksSite(state: $state, footprint: $footprint, lot: $lot, pad_level_m: $pad) {
    status message available reason data { footprint_area_m2 ground_min_m ground_max_m balanced_pad_level_m }
  }
}`;

type SiteLayer = {
  status: string;
  message: string | null;
  available: boolean;
  reason: string | null;
  data: { footprint_area_m2: number; ground_min_m: number; ground_max_m: number; balanced_pad_level_m: number } | null;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const typeOf = (value: unknown) =>
  isObject(value) && typeof value.type === 'string'
    ? value.type.slice(0, 40)
    : Array.isArray(value)
      ? 'array'
      : typeof value;

/** A GeoJSON geometry of the named types, or a Feature holding one; rings and validity are the graph's rules. */
const geometryOf = (name: string, types: readonly [string, ...string[]], what: string) => {
  const geometry = z.object({ type: z.enum(types), coordinates: z.array(z.unknown()) });
  return z
    .union([geometry, z.object({ type: z.literal('Feature'), geometry })], {
      error: (issue) =>
        issue.input === undefined
          ? `${name} is required: ${what}.`
          : `${name} must be ${what}; got ${typeOf(issue.input)}.`,
    })
    .transform((value): GeoJSONGeometry => {
      const g = 'geometry' in value ? value.geometry : value;
      return { type: g.type, coordinates: g.coordinates } as GeoJSONGeometry;
    });
};

const padMessage = `pad_level_m must be a level in metres AHD from ${MIN_PAD_LEVEL_M} to ${MAX_PAD_LEVEL_M}.`;

const submitBody = z
  .strictObject(
    {
      state: z
        .string({ error: (i) => (i.input === undefined ? 'state is required.' : 'state must be a single value.') })
        .pipe(stateParam)
        .meta({ description: 'State of the lot (earthworks are served for VIC only).' }),
      pfi: textParam('pfi', 64)
        .optional()
        .meta({ description: 'The lot by its parcel PFI (with state); or send lot instead.' }),
      lot: geometryOf(
        'lot',
        ['Polygon', 'MultiPolygon'],
        'a GeoJSON Polygon or MultiPolygon (or a Feature holding one)',
      )
        .optional()
        .meta({ description: 'The lot boundary as a GeoJSON Polygon or MultiPolygon in WGS84; or send pfi instead.' }),
      footprint: geometryOf('footprint', ['Polygon'], 'a GeoJSON Polygon (or a Feature holding one)').meta({
        description:
          'The building footprint: a GeoJSON Polygon in WGS84 [lng, lat], valid (no self-intersection), inside the lot, at most 10 000 m².',
      }),
      pad_level_m: z
        .number({ error: padMessage })
        .min(MIN_PAD_LEVEL_M, { error: padMessage })
        .max(MAX_PAD_LEVEL_M, { error: padMessage })
        .optional()
        .meta({
          description:
            'Finished pad level, metres AHD, within 20 m of the ground under the footprint. Default: the level that balances cut and fill.',
        }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `The body takes state, pfi or lot, footprint and pad_level_m; remove ${issue.keys.map((k) => `'${k}'`).join(', ')}.`
          : undefined,
    },
  )
  .superRefine((body, ctx) => {
    if ((body.pfi === undefined) === (body.lot === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'Name the lot one way: pfi (with state), or lot (a GeoJSON polygon).' });
    }
  });

/** The lot's boundary: as sent, or the cadastre's for the PFI (404 when there is no such lot). */
async function lotOf(q: z.output<typeof submitBody>, { graph, scope }: RouteContext): Promise<GeoJSONGeometry> {
  if (q.lot) return q.lot;
  const { property } = unwrap(
    await graph.execute<{ property: { parcel_geometry: GeoJSONGeometry | null } | null }>(
      LOT_OF_PARCEL,
      { pfi: q.pfi, state: q.state },
      scope,
    ),
  );
  if (!property?.parcel_geometry) {
    throw new AppError(
      'NOT_FOUND',
      `No lot with PFI ${q.pfi} in ${q.state}.`,
      'Check the PFI and state, or send the lot boundary as lot.',
    );
  }
  return property.parcel_geometry;
}

export const earthworksSubmit = defineRoute({
  method: 'post',
  path: '/v1/siting/earthworks',
  tag: 'Siting',
  summary:
    'Queues the cut and fill of a level pad on a footprint from the terrain model (VIC); answers 202 with the job id to poll.',
  access: { scope: 'siting.earthworks' },
  query: submitBody,
  input: 'body',
  errorStyle: 'plain',
  async handle(q, ctx) {
    const lot = await lotOf(q, ctx);
    const pad = q.pad_level_m ?? null;
    // every refusal the job could meet is met here, synchronously: the job only does the sums
    const { site } = unwrap(
      await ctx.graph.execute<{ site: SiteLayer | null }>(
        EARTHWORKS_SITE,
        { state: q.state, footprint: q.footprint, lot, pad },
        ctx.scope,
      ),
    );
    if (!site) throw new AppError('INTERNAL', 'The graph returned no earthworks checks.');
    if (!site.available) {
      throw new AppError(
        'UNPROCESSABLE',
        site.reason ?? `Earthworks are not available in ${q.state}.`,
        'Earthworks need the Elevation terrain model: VIC only.',
      );
    }
    if (site.status === 'error') {
      throw new AppError('UPSTREAM_UNAVAILABLE', 'The terrain source failed for this footprint.', 'Retry shortly.');
    }
    if (site.status !== 'ok' || !site.data) {
      throw new AppError(
        'UNPROCESSABLE',
        site.message ?? 'The terrain model does not cover this footprint.',
        'Earthworks need terrain under the whole footprint; check the footprint is [lng, lat] and on the lot.',
      );
    }
    const input: EarthworksInput = {
      dataset: ctx.scope.dataset,
      state: q.state,
      footprint: q.footprint,
      lot,
      parcel_pfi: q.pfi ?? null,
      pad_level_m: pad,
    };
    const job = await submitJob(ctx.runtime.db, {
      kind: EARTHWORKS_KIND,
      accountId: ctx.key!.accountId,
      keyId: ctx.key!.id,
      input,
    });
    return {
      status: 202,
      body: {
        success: true,
        job_id: job.id,
        status: job.state,
        poll: `/v1/siting/earthworks/${job.id}`,
        checks: site.data,
      },
    };
  },
});

export const earthworksResult = defineRoute({
  method: 'get',
  path: '/v1/siting/earthworks/:id',
  tag: 'Siting',
  summary:
    "An earthworks job of the caller's account: its state, and once succeeded the cut, fill, pad level and setbacks.",
  access: { scope: 'siting.earthworks' },
  // the submit is the metered call; polling its answer is free, like the job status
  metered: false,
  query: z.object({ id: jobId }),
  errorStyle: 'plain',
  async handle(q, { runtime, key }) {
    const job = await jobOfAccount(runtime.db, key!.accountId, q.id);
    // another kind of job of the account is not an earthworks job: the same 404 as a missing one
    if (job.kind !== EARTHWORKS_KIND) {
      throw new AppError('NOT_FOUND', `No earthworks job ${q.id}.`, 'Poll the id POST /v1/siting/earthworks answered.');
    }
    const result = job.state === 'succeeded' ? job.result : null;
    const attribution = typeof result?.attribution === 'string' ? result.attribution : null;
    const license = typeof result?.license === 'string' ? result.license : null;
    return {
      body: {
        success: true,
        job_id: job.id,
        status: job.state,
        attempts: job.attempts,
        error: job.state === 'failed' ? job.error : null,
        created_at: job.createdAt.toISOString(),
        finished_at: job.finishedAt?.toISOString() ?? null,
        expires_at: job.expiresAt?.toISOString() ?? null,
        result,
        attribution,
        license,
      },
      credit: attribution && license ? { attribution, license } : null,
    };
  },
});
