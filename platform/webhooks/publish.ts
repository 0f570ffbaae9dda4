import { randomUUID } from 'node:crypto';
import type { Database, QueryFn } from '../../core/db.ts';
import { newId } from '../secrets.ts';
import { JOBS_CHANNEL } from '../jobs/engine.ts';
import type { EndpointFilters, EventAttributes, EventType } from './events.ts';
import { filtersMatch } from './events.ts';

export const WEBHOOK_DELIVERY_KIND = 'webhook.delivery';

/** The body every delivery carries: the event's id, kind, time and data. */
export type WebhookEvent = { id: string; type: EventType; created_at: string; data: Record<string, unknown> };

export type PublishEvent = {
  type: EventType;
  /** Only this account's endpoints (a job's events); undefined: every subscribed endpoint (DA changes). */
  accountId?: string;
  data: Record<string, unknown>;
  /** What the endpoints' filters are matched against (development_application.updated). */
  attributes?: EventAttributes;
  /** Only this endpoint, whatever it subscribes to (the test event). */
  endpointId?: string;
};

/** One delivery job per matching endpoint, queued behind that endpoint's earlier deliveries. */
export const queueKeyOf = (endpointId: string) => `webhook:${endpointId}`;

/**
 * Fans events out to the endpoints subscribed to them, as delivery jobs on the job engine (one
 * per endpoint and event, in publication order per endpoint). Inside `query` when given, so the
 * events commit with the change they announce. Returns the deliveries queued.
 */
export function publishEvents(db: Database, events: readonly PublishEvent[], query?: QueryFn): Promise<number> {
  return publishEventsWith(query ?? ((sql, params) => db.query(sql, params)), events);
}

/** publishEvents on a transaction's query function (the events commit with it, or not at all). */
export async function publishEventsWith(run: QueryFn, events: readonly PublishEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const types = [...new Set(events.map((e) => e.type))];
  const directed = events.flatMap((e) => (e.endpointId === undefined ? [] : [e.endpointId]));
  const endpoints = await run<{ id: string; account_id: string; events: string[]; filters: EndpointFilters }>(
    `SELECT id, account_id, events, filters FROM platform.webhook_endpoint
     WHERE deleted_at IS NULL AND status <> 'disabled' AND (events && $1::text[] OR id = ANY($2::text[])) ORDER BY id`,
    [types, directed],
  );
  if (endpoints.length === 0) return 0;
  const ids: string[] = [];
  const accounts: string[] = [];
  const queues: string[] = [];
  const inputs: string[] = [];
  const now = new Date().toISOString();
  for (const event of events) {
    const body: WebhookEvent = { id: `evt_${randomUUID()}`, type: event.type, created_at: now, data: event.data };
    for (const endpoint of endpoints) {
      if (event.endpointId !== undefined ? endpoint.id !== event.endpointId : !endpoint.events.includes(event.type))
        continue;
      if (event.accountId !== undefined && endpoint.account_id !== event.accountId) continue;
      if (!filtersMatch(endpoint.filters ?? {}, event.attributes ?? {})) continue;
      ids.push(newId('job'));
      accounts.push(endpoint.account_id);
      queues.push(queueKeyOf(endpoint.id));
      inputs.push(JSON.stringify({ endpoint_id: endpoint.id, event: body }));
    }
  }
  if (ids.length === 0) return 0;
  // One statement for the whole fan-out; WITH ORDINALITY keeps seq in publication order.
  await run(
    `INSERT INTO platform.job (id, kind, account_id, input, queue_key, max_attempts)
     SELECT t.id, $1, t.account_id, t.input::jsonb, t.queue_key, 1000
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(id, account_id, queue_key, input, n)
     ORDER BY t.n`,
    [WEBHOOK_DELIVERY_KIND, ids, accounts, queues, inputs],
  );
  await run(`SELECT pg_notify($1, $2)`, [JOBS_CHANNEL, WEBHOOK_DELIVERY_KIND]);
  return ids.length;
}

/** One event: see publishEvents. */
export function publishEvent(db: Database, event: PublishEvent, query?: QueryFn): Promise<number> {
  return publishEvents(db, [event], query);
}
