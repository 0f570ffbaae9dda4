import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { WebhookStore, endpointView } from '../../platform/webhooks/endpoints.ts';
import { ALL_EVENT_TYPES, EVENT_TYPES } from '../../platform/webhooks/events.ts';
import { publishEvent } from '../../platform/webhooks/publish.ts';
import type { RouteContext } from '../route.ts';
import { defineRoute } from '../route.ts';
import { textParam } from '../params.ts';

const store = (ctx: RouteContext) => new WebhookStore(ctx.runtime.db, ctx.runtime.config);
const account = (ctx: RouteContext) => ctx.key!.accountId;

const endpointId = z.object({ id: textParam('id', 64) });

const createBody = z.strictObject(
  {
    url: z
      .string({ error: 'url is required: the https:// address deliveries are POSTed to.' })
      .trim()
      .min(1, { error: 'url must not be empty.' })
      .max(2_000, { error: 'url must be at most 2000 characters.' })
      .meta({ description: 'https:// only; private, loopback and link-local hosts are refused.' }),
    events: z
      .array(z.string({ error: 'events must be a list of event kinds (strings).' }).max(100), {
        error: 'events is required: a list of event kinds.',
      })
      .min(1, { error: 'events must name at least one event kind.' })
      .max(ALL_EVENT_TYPES.length, { error: `events takes at most ${ALL_EVENT_TYPES.length} kinds.` })
      .meta({ description: `Event kinds: ${ALL_EVENT_TYPES.join(', ')}.` }),
    description: z
      .string({ error: 'description must be a string.' })
      .max(500, { error: 'description must be at most 500 characters.' })
      .optional(),
    filters: z
      .strictObject(
        {
          lga_code: z
            .string({ error: 'filters.lga_code must be a string.' })
            .max(32, { error: 'filters.lga_code must be at most 32 characters.' })
            .optional(),
          bbox: z
            .array(z.number({ error: 'filters.bbox must be four numbers.' }), {
              error: 'filters.bbox must be [west, south, east, north].',
            })
            .length(4, { error: 'filters.bbox must be [west, south, east, north].' })
            .optional(),
        },
        { error: 'filters takes only lga_code and bbox.' },
      )
      .optional()
      .meta({ description: 'For development_application.updated: only DAs in this LGA and/or bbox.' }),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `The body takes url, events, description and filters; remove ${issue.keys.map((k) => `'${k}'`).join(', ')}.`
        : undefined,
  },
);

export const webhookEndpointCreate = defineRoute({
  method: 'post',
  path: '/v1/webhooks/endpoints',
  tag: 'Webhooks',
  summary: 'Registers an https:// endpoint for the listed events; the signing secret is in this answer only.',
  access: { scope: 'webhooks.manage' },
  metered: false,
  query: createBody,
  input: 'body',
  errorStyle: 'plain',
  async handle(q, ctx) {
    const { endpoint, secret } = await store(ctx).create(account(ctx), q);
    return {
      status: 201,
      body: {
        success: true,
        endpoint: endpointView(endpoint),
        secret,
        note: 'The signing secret is shown once; store it to verify X-Service-Signature.',
      },
    };
  },
});

export const webhookEndpointList = defineRoute({
  method: 'get',
  path: '/v1/webhooks/endpoints',
  tag: 'Webhooks',
  summary: "The account's webhook endpoints (never their secrets) and the event kinds one may subscribe to.",
  access: { scope: 'webhooks.manage' },
  metered: false,
  query: z.object({}),
  errorStyle: 'plain',
  async handle(_q, ctx) {
    const endpoints = await store(ctx).list(account(ctx));
    return { body: { success: true, endpoints: endpoints.map(endpointView), event_types: EVENT_TYPES } };
  },
});

export const webhookEndpointShow = defineRoute({
  method: 'get',
  path: '/v1/webhooks/endpoints/:id',
  tag: 'Webhooks',
  summary: 'One endpoint: its events, filters, status and last delivery time.',
  access: { scope: 'webhooks.manage' },
  metered: false,
  query: endpointId,
  errorStyle: 'plain',
  async handle(q, ctx) {
    return { body: { success: true, endpoint: endpointView(await store(ctx).get(q.id, account(ctx))) } };
  },
});

export const webhookEndpointDelete = defineRoute({
  method: 'delete',
  path: '/v1/webhooks/endpoints/:id',
  tag: 'Webhooks',
  summary: 'Deletes an endpoint: nothing more is delivered to it; its delivery log is kept.',
  access: { scope: 'webhooks.manage' },
  metered: false,
  query: endpointId,
  errorStyle: 'plain',
  async handle(q, ctx) {
    const endpoint = await store(ctx).delete(q.id, account(ctx));
    return { body: { success: true, deleted: true, endpoint: endpointView(endpoint) } };
  },
});

export const webhookEndpointRotate = defineRoute({
  method: 'post',
  path: '/v1/webhooks/endpoints/:id/rotate-secret',
  tag: 'Webhooks',
  summary: 'A new signing secret (shown once); events, filters and the log carry over, the old secret stops signing.',
  access: { scope: 'webhooks.manage' },
  metered: false,
  query: endpointId,
  errorStyle: 'plain',
  async handle(q, ctx) {
    const { endpoint, secret } = await store(ctx).rotate(q.id, account(ctx));
    return {
      body: {
        success: true,
        endpoint: endpointView(endpoint),
        secret,
        note: 'The new secret is shown once; deliveries from now on are signed with it.',
      },
    };
  },
});

export const webhookEndpointTest = defineRoute({
  method: 'post',
  path: '/v1/webhooks/endpoints/:id/test',
  tag: 'Webhooks',
  summary: 'Queues a signed webhook.endpoint.test event to the endpoint (delivered like any event, in order).',
  access: { scope: 'webhooks.manage' },
  metered: false,
  query: endpointId,
  errorStyle: 'plain',
  async handle(q, ctx) {
    const endpoint = await store(ctx).get(q.id, account(ctx));
    if (endpoint.status === 'disabled') {
      throw new AppError(
        'CONFLICT',
        `Endpoint ${endpoint.id} is disabled.`,
        'Enable it with `landgraph webhooks enable`.',
      );
    }
    // The test event goes to this endpoint whatever it subscribes to.
    const queued = await publishEvent(ctx.runtime.db, {
      type: 'webhook.endpoint.test',
      accountId: endpoint.accountId,
      endpointId: endpoint.id,
      data: { endpoint_id: endpoint.id, message: 'A test event from Landgraph.' },
    });
    return { status: 202, body: { success: true, queued } };
  },
});

export const webhookEndpointDeliveries = defineRoute({
  method: 'get',
  path: '/v1/webhooks/endpoints/:id/deliveries',
  tag: 'Webhooks',
  summary: 'The delivery log of an endpoint, newest first: event, attempt, status, HTTP code and time.',
  access: { scope: 'webhooks.manage' },
  metered: false,
  query: endpointId.extend({
    limit: z.coerce
      .number({ error: 'limit must be a whole number from 1 to 200.' })
      .int({ error: 'limit must be a whole number from 1 to 200.' })
      .min(1, { error: 'limit must be a whole number from 1 to 200.' })
      .max(200, { error: 'limit must be a whole number from 1 to 200.' })
      .optional(),
    before: z.coerce
      .number({ error: 'before must be a delivery id (a positive whole number).' })
      .int({ error: 'before must be a delivery id (a positive whole number).' })
      .positive({ error: 'before must be a delivery id (a positive whole number).' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'before must be a delivery id (a positive whole number).' })
      .optional(),
  }),
  errorStyle: 'plain',
  async handle(q, ctx) {
    const deliveries = await store(ctx).deliveries(q.id, account(ctx), { limit: q.limit ?? 50, before: q.before });
    return { body: { success: true, deliveries } };
  },
});
