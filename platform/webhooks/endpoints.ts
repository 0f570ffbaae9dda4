import type { Config } from '../../core/config.ts';
import type { Database } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../secrets.ts';
import { decryptSecret, encryptSecret, newSigningSecret, webhookKey } from './crypto.ts';
import type { BBox, EndpointFilters, EventType } from './events.ts';
import { FILTERABLE_EVENTS, isEventType } from './events.ts';
import type { Resolver } from './ssrf.ts';
import { checkWebhookUrl } from './ssrf.ts';

export type EndpointStatus = 'active' | 'failing' | 'disabled';

export type WebhookEndpoint = {
  id: string;
  accountId: string;
  url: string;
  description: string;
  events: EventType[];
  filters: EndpointFilters;
  secretPrefix: string;
  status: EndpointStatus;
  createdAt: Date;
  rotatedAt: Date | null;
  lastDeliveryAt: Date | null;
  lastSuccessAt: Date | null;
  disabledAt: Date | null;
};

type Row = {
  id: string;
  account_id: string;
  url: string;
  description: string;
  events: EventType[];
  filters: EndpointFilters;
  secret_ciphertext: string;
  secret_prefix: string;
  status: EndpointStatus;
  created_at: Date | string;
  rotated_at: Date | string | null;
  last_delivery_at: Date | string | null;
  last_success_at: Date | string | null;
  disabled_at: Date | string | null;
};

const d = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

function toEndpoint(row: Row): WebhookEndpoint {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    description: row.description,
    events: row.events,
    filters: row.filters ?? {},
    secretPrefix: row.secret_prefix,
    status: row.status,
    createdAt: d(row.created_at)!,
    rotatedAt: d(row.rotated_at),
    lastDeliveryAt: d(row.last_delivery_at),
    lastSuccessAt: d(row.last_success_at),
    disabledAt: d(row.disabled_at),
  };
}

/** The JSON an owner sees of an endpoint: never its secret (only its first characters). */
export function endpointView(endpoint: WebhookEndpoint): Record<string, unknown> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    filters: endpoint.filters,
    secret_prefix: endpoint.secretPrefix,
    status: endpoint.status,
    created_at: endpoint.createdAt.toISOString(),
    rotated_at: endpoint.rotatedAt?.toISOString() ?? null,
    last_delivery_at: endpoint.lastDeliveryAt?.toISOString() ?? null,
    last_success_at: endpoint.lastSuccessAt?.toISOString() ?? null,
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
  };
}

export type CreateEndpointInput = {
  url: string;
  events: string[];
  description?: string;
  filters?: { lga_code?: string; bbox?: number[] };
};

/** The most endpoints one account may register. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;

function checkEvents(events: string[]): EventType[] {
  if (events.length === 0) throw new AppError('BAD_REQUEST', 'events must name at least one event kind.');
  const unknown = events.filter((e) => !isEventType(e));
  if (unknown.length > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `events: unknown event kind ${unknown.map((e) => `'${e}'`).join(', ')}.`,
      'See GET /v1/webhooks/endpoints in /openapi.json for the event kinds.',
    );
  }
  return [...new Set(events)] as EventType[];
}

function checkFilters(filters: CreateEndpointInput['filters'], events: EventType[]): EndpointFilters {
  if (!filters || (filters.lga_code === undefined && filters.bbox === undefined)) return {};
  if (!events.some((e) => FILTERABLE_EVENTS.includes(e))) {
    throw new AppError('BAD_REQUEST', `filters apply only to ${FILTERABLE_EVENTS.join(', ')}.`);
  }
  const out: EndpointFilters = {};
  if (filters.lga_code !== undefined) {
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(filters.lga_code))
      throw new AppError('BAD_REQUEST', 'filters.lga_code must be an LGA code (letters, digits, - or _).');
    out.lga_code = filters.lga_code;
  }
  if (filters.bbox !== undefined) {
    const b = filters.bbox;
    const [west, south, east, north] = b as BBox;
    const ok =
      b.length === 4 &&
      b.every((n) => Number.isFinite(n)) &&
      west >= -180 &&
      east <= 180 &&
      south >= -90 &&
      north <= 90 &&
      west < east &&
      south < north;
    if (!ok) throw new AppError('BAD_REQUEST', 'filters.bbox must be [west, south, east, north] in degrees.');
    out.bbox = [west, south, east, north];
  }
  return out;
}

const COLUMNS = `id, account_id, url, description, events, filters, secret_ciphertext, secret_prefix, status,
  created_at, rotated_at, last_delivery_at, last_success_at, disabled_at`;

type StoreConfig = Pick<Config, 'webhookSecretKey' | 'dataDir' | 'databaseUrl' | 'webhookAllowLoopback'>;

/** Endpoint registration and administration for one database (routes and CLI alike). */
export class WebhookStore {
  constructor(
    private readonly db: Database,
    private readonly config: StoreConfig,
    private readonly resolver?: Resolver,
  ) {}

  private key(): Buffer {
    return webhookKey(this.config);
  }

  async create(accountId: string, input: CreateEndpointInput): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const events = checkEvents(input.events);
    const filters = checkFilters(input.filters, events);
    const description = input.description ?? '';
    if (description.length > 500) throw new AppError('BAD_REQUEST', 'description must be at most 500 characters.');
    const { url } = await checkWebhookUrl(input.url, {
      allowLoopback: this.config.webhookAllowLoopback,
      resolve: this.resolver,
    });
    const [{ n } = { n: 0 }] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM platform.webhook_endpoint WHERE account_id = $1 AND deleted_at IS NULL`,
      [accountId],
    );
    if (n >= MAX_ENDPOINTS_PER_ACCOUNT)
      throw new AppError('BAD_REQUEST', `An account may register at most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints.`);
    const secret = newSigningSecret();
    const [row] = await this.db.query<Row>(
      `INSERT INTO platform.webhook_endpoint (id, account_id, url, description, events, filters, secret_ciphertext, secret_prefix)
       VALUES ($1, $2, $3, $4, $5::text[], $6::jsonb, $7, $8) RETURNING ${COLUMNS}`,
      [
        newId('whep'),
        accountId,
        url.href,
        description,
        events,
        JSON.stringify(filters),
        encryptSecret(this.key(), secret),
        secret.slice(0, 10),
      ],
    );
    return { endpoint: toEndpoint(row!), secret };
  }

  async list(accountId?: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM platform.webhook_endpoint
       WHERE deleted_at IS NULL AND ($1::text IS NULL OR account_id = $1) ORDER BY created_at, id`,
      [accountId ?? null],
    );
    return rows.map(toEndpoint);
  }

  /** The account's endpoint, or 404 (another account's endpoint included). */
  async get(id: string, accountId?: string): Promise<WebhookEndpoint> {
    const [row] = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM platform.webhook_endpoint
       WHERE id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR account_id = $2)`,
      [id, accountId ?? null],
    );
    if (!row) throw new AppError('NOT_FOUND', `No webhook endpoint ${id}.`);
    return toEndpoint(row);
  }

  /** The signing secret, for the delivery worker. */
  async secretOf(id: string): Promise<string> {
    const [row] = await this.db.query<{ secret_ciphertext: string }>(
      `SELECT secret_ciphertext FROM platform.webhook_endpoint WHERE id = $1`,
      [id],
    );
    if (!row) throw new AppError('NOT_FOUND', `No webhook endpoint ${id}.`);
    return decryptSecret(this.key(), row.secret_ciphertext);
  }

  /** A new signing secret, shown once; URL, events, filters and log stay (spec 5.4). */
  async rotate(id: string, accountId?: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    await this.get(id, accountId);
    const secret = newSigningSecret();
    const [row] = await this.db.query<Row>(
      `UPDATE platform.webhook_endpoint SET secret_ciphertext = $2, secret_prefix = $3, rotated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, encryptSecret(this.key(), secret), secret.slice(0, 10)],
    );
    return { endpoint: toEndpoint(row!), secret };
  }

  /** Removes the endpoint from use: no further deliveries; its delivery log is kept. */
  async delete(id: string, accountId?: string): Promise<WebhookEndpoint> {
    await this.get(id, accountId);
    const [row] = await this.db.query<Row>(
      `UPDATE platform.webhook_endpoint SET deleted_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    await this.db.query(
      `UPDATE platform.job SET state = 'cancelled', error = 'endpoint deleted', finished_at = now(),
         lease_token = NULL, expires_at = now() + interval '7 days'
       WHERE queue_key = $1 AND state IN ('queued', 'awaiting_approval')`,
      [`webhook:${id}`],
    );
    return toEndpoint(row!);
  }

  /** Lifts a disabled endpoint back to active (the CLI's enable); new events are delivered again. */
  async enable(id: string, accountId?: string): Promise<WebhookEndpoint> {
    await this.get(id, accountId);
    const [row] = await this.db.query<Row>(
      `UPDATE platform.webhook_endpoint SET status = 'active', disabled_at = NULL WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    return toEndpoint(row!);
  }

  /** The delivery log, newest first. */
  async deliveries(
    id: string,
    accountId?: string,
    options: { limit?: number; before?: number } = {},
  ): Promise<Record<string, unknown>[]> {
    await this.get(id, accountId);
    const rows = await this.db.query<{
      id: string;
      event_id: string;
      event_type: string;
      attempt: number;
      status: string;
      http_status: number | null;
      error: string | null;
      duration_ms: number | null;
      at: Date | string;
    }>(
      `SELECT id::text, event_id, event_type, attempt, status, http_status, error, duration_ms, at
       FROM platform.webhook_delivery WHERE endpoint_id = $1 AND ($2::bigint IS NULL OR id < $2)
       ORDER BY id DESC LIMIT $3`,
      [id, options.before ?? null, options.limit ?? 50],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      event_id: r.event_id,
      event_type: r.event_type,
      attempt: r.attempt,
      status: r.status,
      http_status: r.http_status,
      error: r.error,
      duration_ms: r.duration_ms,
      at: d(r.at)!.toISOString(),
    }));
  }
}
