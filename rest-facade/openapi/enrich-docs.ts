/** OpenAPI docs and body schemas of the enrich routes (rest-facade/routes/enrich.ts). */
import { ROW_STATUSES } from '../../platform/batch/layers.ts';
import { MAX_ENRICH_ROWS } from '../../platform/enrich/csv.ts';
import { JOB_STATES } from '../../platform/jobs/engine.ts';
import { MAPPING_FIELDS } from '../../platform/enrich/mapping.ts';
import { MATCH_STATUSES } from '../../platform/enrich/match.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const nullable = (type: 'string' | 'number' | 'integer', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string, optional: string[] = []) => ({
  type: 'object' as const,
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
});

const mapping: SchemaObject = {
  type: 'object',
  description: 'Mapping field → the header of the CSV column holding it.',
  properties: Object.fromEntries(MAPPING_FIELDS.map((field) => [field, { type: 'string' }])),
  additionalProperties: false,
};

const previewRow = object(
  {
    row: { type: 'integer', minimum: 1 },
    query: nullable('string', 'The address text as the matcher reads it.'),
    state: nullable('string'),
    postcode: nullable('string'),
    lat: nullable('number'),
    lng: nullable('number'),
    problem: nullable('string', 'Why the row cannot be located under this mapping.'),
  },
  'One row as the matcher will read it.',
);

const notFound = {
  description: "No enrich job with that id in the caller's account (another account's job included).",
  message: 'No job job_nope.',
  hint: 'A job is readable only by the account that created it.',
};

export const ENRICH_SCHEMAS: Record<string, SchemaObject> = {
  EnrichSubmitted: object(
    {
      success: { const: true },
      job: object({
        id: { type: 'string' },
        state: { const: 'awaiting_approval' },
        rows_total: { type: 'integer' },
        created_at: { type: 'string' },
      }),
      columns: { type: 'array', items: { type: 'string' } },
      bundles: { type: 'array', items: { type: 'string' } },
      proposed_mapping: mapping,
      mapping_source: { enum: ['heuristic', 'llm'] },
      mapping_complete: { type: 'boolean', description: 'Whether the proposal can locate a row as it stands.' },
      mapping_notes: { type: 'array', items: { type: 'string' } },
      preview: { type: 'array', items: previewRow },
      approve: { type: 'string' },
      note: { type: 'string' },
    },
    'The job awaiting approval, the proposed mapping and a preview of the first rows.',
  ),
  EnrichApproved: object(
    {
      success: { const: true },
      job: object({ id: { type: 'string' }, state: { const: 'queued' }, rows_total: nullable('integer') }),
      mapping,
      preview: { type: 'array', items: previewRow },
    },
    'The job, queued with the approved mapping.',
  ),
  EnrichStatus: object(
    {
      success: { const: true },
      job: object({
        id: { type: 'string' },
        state: { enum: [...JOB_STATES] },
        bundles: { type: 'array', items: { type: 'string' } },
        proposed_mapping: mapping,
        mapping_source: { enum: ['heuristic', 'llm'] },
        mapping: { anyOf: [mapping, { type: 'null' }], description: 'The approved mapping; null until approved.' },
        progress: object({
          rows_done: { type: 'integer' },
          rows_total: { type: 'integer' },
          percent: { type: 'number' },
          rows: object(Object.fromEntries(MATCH_STATUSES.map((s) => [s, { type: 'integer' }]))),
        }),
        attempts: { type: 'integer' },
        error: nullable('string'),
        result: nullable('string', 'Where the CSV is, once succeeded.'),
        created_at: { type: 'string' },
        approved_at: nullable('string'),
        started_at: nullable('string'),
        finished_at: nullable('string'),
        expires_at: nullable('string'),
      }),
      attribution: nullable('string'),
      license: nullable('string'),
    },
    'An enrich job and its progress.',
  ),
};

const conflict = (message: string) => ({ description: 'The job is not in a state that allows this.', message });

export const ENRICH_ROUTE_DOCS: Record<string, RouteDoc> = {
  'POST /v1/enrich/jobs': {
    success: schemaRef('EnrichSubmitted'),
    successStatus: '202',
    successDescription: 'Stored, awaiting approval.',
    credited: false,
    notes:
      `At most ${MAX_ENRICH_ROWS} data rows and 2 MB of CSV (comma-separated, a header row, RFC 4180 quoting); ` +
      'more is 413, never truncated; a malformed file is 400 naming the line. The proposed mapping comes from the ' +
      'headers and values (or a configured language model) and is never applied by itself: nothing runs until ' +
      'approve. A bundle the key cannot read is 403 Missing scope.',
  },
  'POST /v1/enrich/jobs/:id/approve': {
    success: schemaRef('EnrichApproved'),
    successStatus: '202',
    successDescription: 'Queued: the job runs now.',
    credited: false,
    notes:
      'The mapping sent is checked against the CSV columns (400 naming what is wrong); without one the ' +
      'proposed mapping is approved, or 422 when it cannot locate a row.',
    raises: {
      404: notFound,
      409: conflict('Enrich job job_x is queued; only a job awaiting approval can be approved.'),
      422: {
        description: 'No mapping was sent and the proposed one cannot locate a row.',
        message:
          'The proposed mapping cannot locate a row (no address, street or lat/lng column is mapped); approve with a mapping of your own.',
      },
    },
  },
  'GET /v1/enrich/jobs/:id': {
    success: schemaRef('EnrichStatus'),
    successDescription: 'The job, its mapping and progress row by row.',
    credited: true,
    notes: `Row statuses: ${MATCH_STATUSES.join(', ')}.`,
    raises: { 404: notFound },
  },
  'GET /v1/enrich/jobs/:id/result': {
    success: { type: 'string', description: 'CSV with a header row.' },
    contentType: 'text/csv',
    successDescription:
      'The input columns, then match_status, gnaf_pid, matched_address, lat, lng, then per bundle ' +
      `<bundle>_status (${ROW_STATUSES.join(', ')}) and its data columns; a bundle that is not ok carries its ` +
      'status in every data cell. Credits in X-Service-Attribution and X-Service-License.',
    credited: true,
    raises: {
      404: notFound,
      409: conflict('Enrich job job_x has no result: it is running.'),
    },
  },
};
