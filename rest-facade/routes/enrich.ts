import { z } from 'zod';
import { MAX_ENRICH_ROWS } from '../../platform/enrich/csv.ts';
import { ENRICH_BUNDLES, approveEnrich, enrichResult, enrichStatus, submitEnrich } from '../../platform/enrich/jobs.ts';
import { MAPPING_FIELDS } from '../../platform/enrich/mapping.ts';
import { defineRoute } from '../route.ts';
import { jobId } from './jobs.ts';

const bundlesMessage = `bundles must be an array drawn from ${ENRICH_BUNDLES.join(', ')}.`;

/** The JSON body may carry the 2 MB CSV escaped (quotes and line breaks take two characters each). */
const SUBMIT_BODY_BYTES = 6 * 1024 * 1024;

const submitBody = z.object({
  csv: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'csv is required: the CSV text, header first.'
          : 'csv must be a string of CSV text.',
    })
    .min(1, { error: 'csv must not be empty.' })
    .describe(`The CSV text: a header row, then at most ${MAX_ENRICH_ROWS} rows; at most 2 MB.`),
  bundles: z
    .array(z.enum(ENRICH_BUNDLES, { error: bundlesMessage }), { error: bundlesMessage })
    .max(ENRICH_BUNDLES.length * 2, { error: bundlesMessage })
    .optional()
    .describe(`Data appended to each row: any of ${ENRICH_BUNDLES.join(', ')} (none: the address match only).`),
});

const mappingMessage = `mapping must be an object of ${MAPPING_FIELDS.join(', ')}, each naming a column of the CSV.`;
const mappingSchema = z
  .object(
    Object.fromEntries(
      MAPPING_FIELDS.map((field) => [
        field,
        z
          .string({ error: `mapping.${field} must be a column name.` })
          .trim()
          .min(1, { error: `mapping.${field} must not be empty.` })
          .max(500, { error: `mapping.${field} must be at most 500 characters.` })
          .optional(),
      ]),
    ) as Record<(typeof MAPPING_FIELDS)[number], z.ZodOptional<z.ZodString>>,
    { error: mappingMessage },
  )
  .strict();

export const enrichSubmit = defineRoute({
  method: 'post',
  path: '/v1/enrich/jobs',
  tag: 'Enrich',
  summary:
    'Uploads a CSV of addresses: answers a job awaiting approval, the proposed column mapping and a preview of the rows as the matcher will read them.',
  access: { scope: 'enrich.submit' },
  // the rows are metered when the job completes (one per row); the upload itself is free
  metered: false,
  input: 'body',
  bodyLimit: {
    bytes: SUBMIT_BODY_BYTES,
    message: 'The request body is over 6 MB; an enrich job takes a CSV of at most 2 MB.',
    hint: `Split the file into jobs of at most ${MAX_ENRICH_ROWS} rows and 2 MB each.`,
  },
  query: submitBody,
  errorStyle: 'plain',
  async handle(body, { runtime, key }) {
    const submitted = await submitEnrich(
      runtime.db,
      runtime.config,
      { accountId: key!.accountId, keyId: key!.id, scopes: key!.scopes },
      { csv: body.csv, bundles: body.bundles ?? [] },
    );
    const { job, upload, proposal, gap, preview } = submitted;
    return {
      status: 202,
      headers: { Location: `/v1/enrich/jobs/${job.id}` },
      body: {
        success: true,
        job: { id: job.id, state: job.state, rows_total: upload.rows.length, created_at: job.createdAt.toISOString() },
        columns: upload.columns,
        bundles: [...new Set(body.bundles ?? [])],
        proposed_mapping: proposal.mapping,
        mapping_source: proposal.source,
        mapping_complete: gap === null,
        mapping_notes: gap ? [...proposal.notes, `incomplete: ${gap}`] : proposal.notes,
        preview,
        approve: `/v1/enrich/jobs/${job.id}/approve`,
        note: 'Nothing runs until the job is approved; the proposed mapping is applied only if the approve call sends no mapping of its own.',
      },
    };
  },
});

export const enrichApprove = defineRoute({
  method: 'post',
  path: '/v1/enrich/jobs/:id/approve',
  tag: 'Enrich',
  summary: 'Approves an enrich job, with a mapping of its own or the proposed one; only now does the job run.',
  access: { scope: 'enrich.submit' },
  metered: false,
  input: 'body',
  query: z.object({
    id: jobId,
    mapping: mappingSchema
      .optional()
      .describe(
        `Which columns hold the address: address, or number/street with locality, state, postcode; or lat and lng. Without it the proposed mapping is approved.`,
      ),
  }),
  errorStyle: 'plain',
  async handle(input, { runtime, key, scope }) {
    const approved = await approveEnrich(
      runtime.db,
      { accountId: key!.accountId, keyId: key!.id, dataset: scope.dataset, scopes: key!.scopes },
      input.id,
      input.mapping,
    );
    return {
      status: 202,
      headers: { Location: `/v1/enrich/jobs/${approved.job.id}` },
      body: {
        success: true,
        job: { id: approved.job.id, state: approved.job.state, rows_total: approved.job.rowsTotal },
        mapping: approved.mapping,
        preview: approved.preview,
      },
    };
  },
});

export const enrichJobStatus = defineRoute({
  method: 'get',
  path: '/v1/enrich/jobs/:id',
  tag: 'Enrich',
  summary: 'An enrich job: its state, mapping and progress row by row (how many rows matched so far).',
  access: { scope: 'enrich.read' },
  metered: false,
  query: z.object({ id: jobId }),
  errorStyle: 'plain',
  async handle(q, { runtime, key }) {
    const { job, credit } = await enrichStatus(runtime.db, key!.accountId, q.id);
    return {
      body: { success: true, job, attribution: credit?.attribution ?? null, license: credit?.license ?? null },
      credit,
    };
  },
});

export const enrichJobResult = defineRoute({
  method: 'get',
  path: '/v1/enrich/jobs/:id/result',
  tag: 'Enrich',
  summary:
    'The enriched CSV: the input columns, then match_status, gnaf_pid, matched_address, lat, lng, then the bundle columns.',
  access: { scope: 'enrich.read' },
  metered: false,
  query: z.object({ id: jobId }),
  errorStyle: 'plain',
  async handle(q, { runtime, key }) {
    const result = await enrichResult(runtime.db, key!.accountId, q.id);
    return {
      body: {},
      raw: { contentType: 'text/csv; charset=utf-8', content: result.csv },
      credit: result.credit,
      headers: { 'Content-Disposition': `attachment; filename="${q.id}.csv"` },
    };
  },
});
