/** OpenAPI docs and body schemas of the Siting routes (rest-facade/routes/siting.ts). */
import {
  MAX_EARTHWORKS_DEPTH_M,
  MAX_EARTHWORKS_FOOTPRINT_M2,
  MAX_PAD_LEVEL_M,
  MIN_PAD_LEVEL_M,
} from '../../core/limits.ts';
import { JOB_STATES } from '../../platform/jobs/engine.ts';
import { COMPASS_16 } from '../../core/vocabulary.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const num = (description?: string): SchemaObject => ({ type: 'number', ...(description ? { description } : {}) });
const nullable = (type: 'string' | 'number', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description: string, optional: string[] = []) => ({
  type: 'object' as const,
  description,
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  additionalProperties: false,
});

export const SITING_SCHEMAS: Record<string, SchemaObject> = {
  EarthworksQueued: object(
    {
      success: { const: true },
      job_id: { type: 'string' },
      status: { enum: [...JOB_STATES], description: 'queued.' },
      poll: { type: 'string', description: 'GET this path for the state and, once succeeded, the result.' },
      checks: object(
        {
          footprint_area_m2: num('Area of the footprint on the WGS84 ellipsoid.'),
          ground_min_m: num('Lowest ground under the footprint, m AHD.'),
          ground_max_m: num('Highest ground under the footprint, m AHD.'),
          balanced_pad_level_m: num('The level at which cut equals fill.'),
        },
        'What the submit step found: the job will work out the volumes.',
      ),
    },
    'The earthworks job is queued.',
  ),
  EarthworksSetback: object(
    {
      edge: { type: 'integer', minimum: 0, description: "Index of the edge in the footprint's outer ring." },
      facing: { enum: [...COMPASS_16], description: 'The way the edge faces, outward.' },
      facing_deg: num('Bearing of that way, degrees clockwise from north.'),
      kind: { enum: ['cut', 'fill', 'none'] },
      batter_height_m: num('Largest pad-to-ground difference along the edge.'),
      batter_width_m: num('Twice the height: batters at 1:2 (rise:run).'),
      required_setback_m: num('1 m clearance plus the batter width.'),
      available_m: num('Shortest distance from the edge to the lot boundary.'),
      complies: { type: 'boolean' },
    },
    'The slope-adjusted setback of one edge of the footprint.',
  ),
  EarthworksResult: object(
    {
      state: { type: 'string' },
      parcel_pfi: nullable('string', 'The lot, when it was named by pfi.'),
      pad_level_m: num('The level the figures are for (m AHD): as given, or the balancing level.'),
      pad_level_source: { enum: ['given', 'balanced'] },
      balanced_pad_level_m: num('The level at which cut equals fill: the mean ground height over the footprint.'),
      cut_m3: num(),
      fill_m3: num(),
      net_m3: num('cut_m3 - fill_m3: positive leaves spoil to remove, negative needs fill brought in.'),
      max_cut_depth_m: num(),
      max_fill_depth_m: num(),
      footprint_area_m2: num(),
      ground_min_m: num(),
      ground_max_m: num(),
      ground_mean_m: num(),
      samples: { type: 'integer', description: 'Points the ground was sampled at, each an equal share of the area.' },
      sample_spacing_m: num(),
      cell_size_m: num('Side of a square of one DEM cell, metres.'),
      batter_ratio: { const: '1:2' },
      setbacks: { type: 'array', items: schemaRef('EarthworksSetback') },
      setbacks_comply: { type: 'boolean' },
      source: nullable('string', 'mirror:vic/terrain@<snapshot>.'),
      freshness: nullable('string'),
      attribution: nullable('string'),
      license: nullable('string'),
    },
    'Cut and fill of a level pad on the footprint, with slope-adjusted setbacks.',
  ),
  EarthworksJob: object(
    {
      success: { const: true },
      job_id: { type: 'string' },
      status: { enum: [...JOB_STATES] },
      attempts: { type: 'integer', minimum: 0 },
      error: nullable('string', 'Why the job failed (state failed only).'),
      created_at: { type: 'string' },
      finished_at: nullable('string'),
      expires_at: nullable('string', 'When the result is removed (the job then reads expired).'),
      result: { oneOf: [schemaRef('EarthworksResult'), { type: 'null' }], description: 'Once succeeded.' },
      attribution: nullable('string', 'The terrain credit, once succeeded.'),
      license: nullable('string'),
    },
    "An earthworks job of the caller's account.",
  ),
};

export const SITING_ROUTE_DOCS: Record<string, RouteDoc> = {
  'POST /v1/siting/earthworks': {
    success: schemaRef('EarthworksQueued'),
    successStatus: '202',
    successDescription: 'Checked and queued; poll the job for the cut and fill.',
    credited: false,
    notes:
      `Name the lot by pfi (with state) or send it as lot (a GeoJSON polygon). The footprint is a valid GeoJSON ` +
      `Polygon inside the lot of at most ${MAX_EARTHWORKS_FOOTPRINT_M2.toLocaleString('en-AU')} m²; pad_level_m ` +
      `(${MIN_PAD_LEVEL_M} to ${MAX_PAD_LEVEL_M} m AHD, within ${MAX_EARTHWORKS_DEPTH_M} m of the ground under the ` +
      'footprint) defaults to the level that balances cut and fill. Setbacks allow for batters at 1:2 (rise:run) plus ' +
      '1 m clearance on each edge. VIC only (the Elevation terrain model). earthworks.job.completed is published when ' +
      'the job succeeds.',
    raises: {
      404: {
        description: 'No lot with that PFI in the state.',
        message: 'No lot with PFI 999 in VIC.',
        hint: 'Check the PFI and state, or send the lot boundary as lot.',
      },
      422: {
        description:
          'The footprint is not inside the lot, the pad level is more than 20 m from the ground, the state is not ' +
          'served (VIC only), or the terrain model does not reach the footprint.',
        message: 'footprint is not inside the lot: part of it lies beyond the lot boundary.',
        hint: 'Move or shrink the footprint so the lot covers all of it (its boundary may touch).',
      },
      502: {
        description: 'The terrain source failed for this footprint.',
        message: 'The terrain source failed for this footprint.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /v1/siting/earthworks/:id': {
    success: schemaRef('EarthworksJob'),
    successDescription: 'The job; once succeeded, its result and the terrain credit.',
    credited: true,
    notes: 'Polling is not metered. States: queued, running, succeeded, failed, cancelled, expired.',
    raises: {
      404: {
        description: "No earthworks job with that id in the caller's account (another account's job included).",
        message: 'No job job_nope.',
        hint: 'A job is readable only by the account that created it.',
      },
    },
  },
};
