import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../core/config.ts';
import type { Database } from '../../core/db.ts';
import { BoundedMemo } from '../../core/bounded-memo.ts';
import { logger } from '../../core/logger.ts';
import { decryptSecret, webhookKey } from './crypto.ts';
import type { Completion, Job } from '../jobs/engine.ts';
import type { JobHandler } from '../jobs/worker.ts';
import type { WebhookEvent } from './publish.ts';
import { WEBHOOK_DELIVERY_KIND, queueKeyOf } from './publish.ts';
import { checkWebhookUrl } from './ssrf.ts';

/**
 * The waits before each retry of a failed delivery (after attempt 1, 2, ...): 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h — eight attempts over about 27.6 hours ("about a day", DESIGN.md §4), each
 * wait jittered by ±20%. When the last attempt fails the endpoint is disabled.
 */
export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export function retrySchedule(config: Pick<Config, 'webhookRetryScheduleMs'>): number[] {
  return config.webhookRetryScheduleMs.length > 0 ? config.webhookRetryScheduleMs : DEFAULT_RETRY_SCHEDULE_MS;
}

/** The wait after `attempts` failed attempts, jittered; null when the schedule is spent. */
export function retryDelay(attempts: number, schedule: readonly number[], random = Math.random): number | null {
  const base = schedule[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** The headers of DESIGN.md §4, and the Standard Webhooks names so a stock verifier reads them too. */
export function signedHeaders(secret: string, event: WebhookEvent, body: string, at: Date): Record<string, string> {
  const signature = new Webhook(secret).sign(event.id, at, body);
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return {
    'X-Service-Webhook-Id': event.id,
    'X-Service-Webhook-Timestamp': timestamp,
    'X-Service-Signature': signature,
    'webhook-id': event.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
  };
}

/**
 * One keep-alive agent per trust store: consecutive deliveries to an endpoint reuse its TLS
 * connection instead of a handshake each. A pooled socket was opened to an address checked at
 * the time; every delivery still checks the URL again before it is sent.
 */
const agents = new Map<string, Agent>();
function agentFor(config: Pick<Config, 'webhookCaFile'>): Agent {
  const file = config.webhookCaFile ?? '';
  let agent = agents.get(file);
  if (!agent) {
    // A trust store given as `ca` is joined into the agent's pool key on every request (https
    // Agent.getName: some 200 KB with the root certificates, a tenth of the fan-out bench's CPU);
    // a secure context built once is not.
    const secureContext = file
      ? createSecureContext({ ca: [...rootCertificates, readFileSync(file, 'utf8')] })
      : undefined;
    agent = new Agent({ keepAlive: true, maxSockets: 8, maxFreeSockets: 8, timeout: 30_000, secureContext });
    agents.set(file, agent);
  }
  return agent;
}

/** Closes the pooled delivery connections (a worker stopping). */
export function closeDeliveryAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** Decrypted signing secrets by their stored ciphertext: a rotation changes the ciphertext, so it misses. */
const secrets = new BoundedMemo<string, string>(1_000);

type Outcome = { status: number | null; error: string | null };

/**
 * POSTs the body. The connection goes only to the addresses checked just now (a host that
 * changed its DNS to a private address since registration is refused), with a time budget.
 */
async function post(config: Config, url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
  let checked;
  try {
    checked = await checkWebhookUrl(url, { allowLoopback: config.webhookAllowLoopback });
  } catch (error) {
    return { status: null, error: (error as Error).message };
  }
  const [first] = checked.addresses;
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, checked.addresses);
    else callback(null, first!.address, first!.family);
  };
  return new Promise((resolve) => {
    const req = request(
      checked.url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'Landgraph-Webhooks/1', ...headers },
        timeout: config.webhookTimeoutMs,
        agent: agentFor(config),
        ...(isIP(checked.url.hostname.replace(/^\[|\]$/g, '')) ? {} : { lookup }),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? null, error: null }));
        res.on('error', (error) => resolve({ status: res.statusCode ?? null, error: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${config.webhookTimeoutMs} ms`)));
    req.on('error', (error) => resolve({ status: null, error: error.message }));
    req.end(body);
  });
}

async function logDelivery(
  db: Database,
  job: Job,
  event: WebhookEvent,
  endpointId: string,
  status: 'delivered' | 'failed' | 'given_up',
  outcome: Outcome,
  ms: number,
): Promise<void> {
  await db.query(
    `INSERT INTO platform.webhook_delivery (endpoint_id, job_id, event_id, event_type, attempt, status, http_status, error, duration_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [endpointId, job.id, event.id, event.type, job.attempts, status, outcome.status, outcome.error, ms],
  );
}

export class DeliveryFailed extends Error {}

/**
 * The window is spent: the endpoint is disabled and its waiting deliveries are given up (each
 * logged), so nothing more is sent or retried until it is enabled again; the log is kept. The
 * waiting deliveries include those claimed behind the failed one in the same run (running, not
 * reached): in a queue only the head's run can be running.
 */
async function disableEndpoint(db: Database, endpointId: string, failedJobId: string): Promise<void> {
  const disabled = await db.transaction(async (query) => {
    const changed = await query(
      `UPDATE platform.webhook_endpoint SET status = 'disabled', disabled_at = now() WHERE id = $1 AND status <> 'disabled' RETURNING id`,
      [endpointId],
    );
    const waiting = await query<{ id: string; input: { event: WebhookEvent } }>(
      `UPDATE platform.job SET state = 'cancelled', error = 'endpoint disabled after failing for the whole retry window',
         lease_token = NULL, lease_until = NULL, finished_at = now(), expires_at = now() + interval '7 days'
       WHERE queue_key = $1 AND id <> $2 AND state IN ('queued', 'running') RETURNING id, input`,
      [queueKeyOf(endpointId), failedJobId],
    );
    for (const w of waiting) {
      await query(
        `INSERT INTO platform.webhook_delivery (endpoint_id, job_id, event_id, event_type, attempt, status, error)
         VALUES ($1, $2, $3, $4, 0, 'given_up', 'endpoint disabled')`,
        [endpointId, w.id, w.input.event.id, w.input.event.type],
      );
    }
    return changed.length > 0;
  });
  if (disabled) logger.warn('webhook endpoint disabled after its retry window', { endpoint: endpointId });
}

/**
 * Deliveries to one endpoint a worker claims at once and sends one after another, in order: a
 * backlog behind an endpoint costs one claim per run instead of one per event (issue 14's fan-out
 * bench, docs/benchmarks.md). A failed delivery ends the run; the rest wait behind its retry.
 */
export const DELIVERY_RUN = 50;

/** How stale a run's copy of its endpoint may get before a delivery reads it again. */
export const ENDPOINT_READ_MAX_AGE_MS = 1_000;

export const webhookDeliveryHandler: JobHandler = {
  kind: WEBHOOK_DELIVERY_KIND,
  batch: DELIVERY_RUN,
  async run(job, ctx) {
    const endpointId = String(job.input.endpoint_id);
    const event = job.input.event as WebhookEvent;
    // Read once for a run of deliveries to this endpoint, not before each one: on the embedded
    // database the read was a third of the fan-out's time (docs/benchmarks.md). A deletion,
    // disabling or rotation still reaches the deliveries at most ENDPOINT_READ_MAX_AGE_MS later.
    const [endpoint] = await ctx.perRun(`webhook-endpoint:${endpointId}`, ENDPOINT_READ_MAX_AGE_MS, () =>
      ctx.db.query<{ url: string; status: string; deleted_at: unknown; secret_ciphertext: string }>(
        `SELECT url, status, deleted_at, secret_ciphertext FROM platform.webhook_endpoint WHERE id = $1`,
        [endpointId],
      ),
    );
    if (!endpoint || endpoint.deleted_at !== null || endpoint.status === 'disabled') {
      return { delivered: false, skipped: endpoint ? 'endpoint disabled or deleted' : 'endpoint gone' };
    }
    const secret = secrets.get(endpoint.secret_ciphertext, (stored) => decryptSecret(webhookKey(ctx.config), stored));
    const body = JSON.stringify(event);
    const started = Date.now();
    const outcome = await post(ctx.config, endpoint.url, signedHeaders(secret, event, body, new Date()), body);
    const ms = Date.now() - started;
    const ok = outcome.error === null && outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    if (ok) {
      // logged by recordSucceeded, in the transaction that records the job as succeeded
      return { delivered: true, http_status: outcome.status, attempts: job.attempts, duration_ms: ms };
    }
    await ctx.checkpoint();
    const finalAttempt = retryDelay(job.attempts, retrySchedule(ctx.config)) === null;
    await logDelivery(ctx.db, job, event, endpointId, finalAttempt ? 'given_up' : 'failed', outcome, ms);
    // before this job is marked failed, which would let the next event of the queue be claimed
    if (finalAttempt) await disableEndpoint(ctx.db, endpointId, job.id);
    await ctx.db.query(
      `UPDATE platform.webhook_endpoint SET status = CASE WHEN status = 'disabled' THEN status ELSE 'failing' END,
         last_delivery_at = now() WHERE id = $1`,
      [endpointId],
    );
    throw new DeliveryFailed(outcome.error ?? `HTTP ${outcome.status}`);
  },
  /** The log rows and the endpoints' times of a run's deliveries, committed with their completion. */
  async recordSucceeded(done, query) {
    const sent = done.filter((d) => d.result.delivered === true);
    if (sent.length === 0) return;
    const event = (d: Completion) => d.job.input.event as WebhookEvent;
    await query(
      `INSERT INTO platform.webhook_delivery (endpoint_id, job_id, event_id, event_type, attempt, status, http_status, error, duration_ms)
       SELECT t.endpoint_id, t.job_id, t.event_id, t.event_type, t.attempt, 'delivered', t.http_status, NULL, t.duration_ms
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[]) WITH ORDINALITY
         AS t(endpoint_id, job_id, event_id, event_type, attempt, http_status, duration_ms, n)
       ORDER BY t.n`,
      [
        sent.map((d) => String(d.job.input.endpoint_id)),
        sent.map((d) => d.job.id),
        sent.map((d) => event(d).id),
        sent.map((d) => event(d).type),
        sent.map((d) => d.job.attempts),
        sent.map((d) => Number(d.result.http_status)),
        sent.map((d) => Number(d.result.duration_ms)),
      ],
    );
    await query(
      `UPDATE platform.webhook_endpoint SET status = CASE WHEN status = 'disabled' THEN status ELSE 'active' END,
         last_delivery_at = now(), last_success_at = now() WHERE id = ANY($1::text[])`,
      [[...new Set(sent.map((d) => String(d.job.input.endpoint_id)))]],
    );
  },
  retryDelayMs(job, config) {
    return retryDelay(job.attempts, retrySchedule(config));
  },
  /** The window is spent (see disableEndpoint; already done by the last attempt, so a no-op unless it was cut short). */
  async onGiveUp(job, _error, { db }) {
    await disableEndpoint(db, String(job.input.endpoint_id), job.id);
  },
};
