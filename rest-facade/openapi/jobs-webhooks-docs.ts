/** OpenAPI docs and body schemas of the job status and webhook routes (rest-facade/routes/jobs.ts, webhooks.ts). */
import { JOB_STATES } from '../../platform/jobs/engine.ts';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../platform/webhooks/deliver.ts';
import { ALL_EVENT_TYPES } from '../../platform/webhooks/events.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const nullable = (type: 'string' | 'number' | 'integer' | 'object', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string, optional: string[] = []) => ({
  type: 'object' as const,
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
});

const endpointProps = {
  id: { type: 'string' },
  url: { type: 'string', description: 'https:// only.' },
  description: { type: 'string' },
  events: { type: 'array', items: { enum: ALL_EVENT_TYPES } },
  filters: object(
    {
      lga_code: { type: 'string' },
      bbox: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 },
    },
    'For development_application.updated: only DAs in the LGA and/or inside [west, south, east, north].',
    ['lga_code', 'bbox'],
  ),
  secret_prefix: { type: 'string', description: 'The first characters of the signing secret, to tell secrets apart.' },
  status: { enum: ['active', 'failing', 'disabled'] },
  created_at: { type: 'string' },
  rotated_at: nullable('string'),
  last_delivery_at: nullable('string', 'When a delivery was last attempted.'),
  last_success_at: nullable('string'),
  disabled_at: nullable('string', 'When the endpoint was disabled after failing for the whole retry window.'),
} satisfies Record<string, SchemaObject>;

export const JOBS_WEBHOOKS_SCHEMAS: Record<string, SchemaObject> = {
  Job: object(
    {
      id: { type: 'string' },
      kind: { type: 'string', description: 'What the job does (e.g. webhook.delivery).' },
      state: { enum: [...JOB_STATES] },
      progress: object({ rows_done: { type: 'integer', minimum: 0 }, rows_total: nullable('integer') }),
      attempts: { type: 'integer', minimum: 0 },
      result: nullable('object', 'Summary and location of the result once succeeded.'),
      error: nullable('string', 'Why the last attempt failed.'),
      created_at: { type: 'string' },
      started_at: nullable('string'),
      finished_at: nullable('string'),
      expires_at: nullable('string', 'When the result rows are removed (the job then reads expired).'),
    },
    'A durable job and its progress.',
  ),
  JobStatus: object({ success: { const: true }, job: schemaRef('Job') }, "One job of the caller's account."),
  JobList: object(
    {
      success: { const: true },
      jobs: { type: 'array', items: schemaRef('Job') },
      next_before: { type: ['string', 'null'], description: 'Pass as `before` for the next page; null on the last.' },
    },
    "The caller's account's jobs, newest first.",
  ),
  WebhookEndpoint: object(endpointProps, 'A webhook endpoint (never its secret).'),
  WebhookEndpointWithSecret: object(
    {
      success: { const: true },
      endpoint: schemaRef('WebhookEndpoint'),
      secret: { type: 'string', description: 'whsec_… (Standard Webhooks); shown in this answer only.' },
      note: { type: 'string' },
    },
    'An endpoint with its signing secret, shown once.',
  ),
  WebhookEndpointOne: object(
    { success: { const: true }, endpoint: schemaRef('WebhookEndpoint'), deleted: { const: true } },
    'One endpoint.',
    ['deleted'],
  ),
  WebhookEndpointList: object(
    {
      success: { const: true },
      endpoints: { type: 'array', items: schemaRef('WebhookEndpoint') },
      event_types: { type: 'object', additionalProperties: { type: 'string' }, description: 'Event kind → meaning.' },
    },
    "The account's endpoints and the event kinds.",
  ),
  WebhookTestQueued: object(
    { success: { const: true }, queued: { type: 'integer', minimum: 0 } },
    'The test event is queued for delivery.',
  ),
  WebhookDeliveries: object(
    {
      success: { const: true },
      deliveries: {
        type: 'array',
        items: object({
          id: { type: 'integer' },
          event_id: { type: 'string' },
          event_type: { type: 'string' },
          attempt: { type: 'integer' },
          status: { enum: ['delivered', 'failed', 'given_up'] },
          http_status: nullable('integer'),
          error: nullable('string'),
          duration_ms: nullable('integer'),
          at: { type: 'string' },
        }),
      },
    },
    'The delivery log, newest first.',
  ),
};

const noEndpoint = {
  description: "No endpoint with that id in the account (another account's endpoint included).",
  message: 'No webhook endpoint whsec_nope.',
};
const hours = (DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0) / 3_600_000).toFixed(1);
const signing =
  'Deliveries are POSTs of {id, type, created_at, data}, signed in the Standard Webhooks form: ' +
  'X-Service-Signature (v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">), X-Service-Webhook-Id and ' +
  'X-Service-Webhook-Timestamp (also sent as webhook-signature, webhook-id, webhook-timestamp). ' +
  `A failed delivery is retried ${DEFAULT_RETRY_SCHEDULE_MS.length} times over about ${hours} hours with jitter, ` +
  'in order per endpoint; after that the endpoint is disabled.';

export const JOBS_WEBHOOKS_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /v1/jobs/:id': {
    success: schemaRef('JobStatus'),
    successDescription: 'The job, its state and progress.',
    credited: false,
    notes:
      'States: awaiting_approval, queued, running, succeeded, failed, cancelled, expired. Results are kept for ' +
      'LANDGRAPH_JOB_RETENTION_HOURS (default 168) after the job finishes, then removed (state expired).',
    raises: {
      404: {
        description: "No such job in the caller's account (another account's job included).",
        message: 'No job job_nope.',
        hint: 'A job is readable only by the account that created it.',
      },
    },
  },
  'GET /v1/jobs': {
    success: schemaRef('JobList'),
    successDescription: "The account's jobs, newest first (at most 100 a page).",
    credited: false,
  },
  'POST /v1/jobs/:id/cancel': {
    success: schemaRef('JobStatus'),
    successDescription: 'The job, now cancelled; a running job stops at its next batch.',
    credited: false,
    notes: 'A job that has finished (succeeded, failed, cancelled or expired) answers 409 naming its state.',
    raises: {
      404: {
        description: "No such job in the caller's account (another account's job included).",
        message: 'No job job_nope.',
        hint: 'A job is readable only by the account that created it.',
      },
    },
    alsoReturns: {
      '409': { description: 'The job has finished; error names its state.', schema: schemaRef('PlainError') },
    },
  },
  'POST /v1/webhooks/endpoints': {
    success: schemaRef('WebhookEndpointWithSecret'),
    successStatus: '201',
    successDescription: 'Registered; the secret is in this answer only.',
    credited: false,
    notes: `${signing} Private, loopback, link-local and unique-local hosts are refused (every resolved address).`,
  },
  'GET /v1/webhooks/endpoints': {
    success: schemaRef('WebhookEndpointList'),
    successDescription: "The account's endpoints and the event kinds one may subscribe to.",
    credited: false,
  },
  'GET /v1/webhooks/endpoints/:id': {
    success: schemaRef('WebhookEndpointOne'),
    successDescription: 'The endpoint.',
    credited: false,
    raises: { 404: noEndpoint },
  },
  'DELETE /v1/webhooks/endpoints/:id': {
    success: schemaRef('WebhookEndpointOne'),
    successDescription: 'Deleted; waiting deliveries are cancelled, the log is kept.',
    credited: false,
    raises: { 404: noEndpoint },
  },
  'POST /v1/webhooks/endpoints/:id/rotate-secret': {
    success: schemaRef('WebhookEndpointWithSecret'),
    successDescription: 'The new secret (shown once); events and filters carry over (spec 5.4).',
    credited: false,
    raises: { 404: noEndpoint },
  },
  'POST /v1/webhooks/endpoints/:id/test': {
    success: schemaRef('WebhookTestQueued'),
    successStatus: '202',
    successDescription: 'A webhook.endpoint.test event is queued for the endpoint.',
    credited: false,
    notes: signing,
    raises: { 404: noEndpoint },
    alsoReturns: {
      '409': {
        description: 'The endpoint is disabled.',
        schema: schemaRef('PlainError'),
      },
    },
  },
  'GET /v1/webhooks/endpoints/:id/deliveries': {
    success: schemaRef('WebhookDeliveries'),
    successDescription: 'The delivery log, newest first (limit, default 50; before, a delivery id, to page).',
    credited: false,
    raises: { 404: noEndpoint },
  },
};
