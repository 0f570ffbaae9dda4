import type { Database } from '../core/db.ts';
import { AppError } from '../core/errors.ts';
import type { RateLimiter, RatePolicy } from '../core/rate-limit.ts';
import type { Capability, Scope } from '../core/scopes.ts';
import { isCapability, isScope } from '../core/scopes.ts';
import type { ApiKey } from '../generated/prisma/client.ts';
import type { KeyKind } from './secrets.ts';
import { hashSecret, looksLikeSecret, newId, newSecret, sameHash, secretPrefix } from './secrets.ts';

/** The API terms a key is bound to; a rotated key takes the current ones (spec 5.4). */
export const CURRENT_TERMS_VERSION = '2026-11';
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;
const DEFAULT_ACCOUNT = 'default';
/** NOTIFY channel on which any process announces a key change (rotation, suspension, revocation). */
const KEY_CHANGES = 'landgraph_key_changes';
const CACHE_TTL_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;

export type KeyStatus = 'active' | 'suspended' | 'revoked';

/** A key as the platform uses it on every request: never its secret, never its hash. */
export type AuthenticatedKey = {
  id: string;
  accountId: string;
  name: string;
  kind: KeyKind;
  scopes: readonly string[];
  capabilities: readonly string[];
  rateLimitPerMinute: number;
  monthlyQuota: number | null;
  dailyCap: number | null;
  status: KeyStatus;
  /** Browser origins (scheme://host[:port]) whose pages may call the API with this key (CORS). */
  embedAllowList: readonly string[];
  /** Bulk-export rows a month; null: the configured default (LANDGRAPH_EXPORT_ROWS_MONTHLY). */
  exportRowsMonthly: number | null;
};

/** A key as administrators see it (the CLI's JSON). */
export type KeyView = AuthenticatedKey & {
  secretPrefix: string;
  auditRetentionDays: number;
  termsVersion: string;
  billingReview: boolean;
  createdAt: string;
  rotatedAt: string | null;
  revokedAt: string | null;
};

export type CreateKeyInput = {
  name: string;
  kind: KeyKind;
  scopes: string[];
  capabilities?: string[];
  rateLimitPerMinute?: number;
  monthlyQuota?: number | null;
  dailyCap?: number | null;
  embedAllowList?: string[];
  auditRetentionDays?: number;
  account?: string;
  /** The key's monthly bulk-export row allowance; unset: the configured default. */
  exportRowsMonthly?: number | null;
};

function toAuthenticated(row: ApiKey): AuthenticatedKey {
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    kind: row.kind as KeyKind,
    scopes: row.scopes,
    capabilities: row.capabilities,
    rateLimitPerMinute: row.rateLimitPerMinute,
    monthlyQuota: row.monthlyQuota,
    dailyCap: row.dailyCap,
    status: row.status as KeyStatus,
    embedAllowList: row.embedAllowList,
    exportRowsMonthly: row.exportRowsMonthly,
  };
}

export function toView(row: ApiKey): KeyView {
  return {
    ...toAuthenticated(row),
    secretPrefix: row.secretPrefix,
    auditRetentionDays: row.auditRetentionDays,
    termsVersion: row.termsVersion,
    billingReview: row.billingReview,
    createdAt: row.createdAt.toISOString(),
    rotatedAt: row.rotatedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

function validScopes(scopes: string[]): Scope[] {
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0)
    throw new AppError(
      'BAD_REQUEST',
      `Unknown scope: ${unknown.join(', ')}.`,
      'See the scope table in the API reference.',
    );
  if (scopes.length === 0) throw new AppError('BAD_REQUEST', 'A key needs at least one scope.');
  return [...new Set(scopes)] as Scope[];
}

function validCapabilities(capabilities: string[]): Capability[] {
  const unknown = capabilities.filter((c) => !isCapability(c));
  if (unknown.length > 0) throw new AppError('BAD_REQUEST', `Unknown capability: ${unknown.join(', ')}.`);
  return [...new Set(capabilities)] as Capability[];
}

/**
 * An allow-list entry as browsers send it in `Origin`: http or https, a host, a port only when not
 * the scheme's default, and nothing after. Anything else could never match and is refused at once.
 */
export function embedOrigin(value: string): string {
  const trimmed = value.trim().replace(/\/$/, '');
  let url: URL | undefined;
  try {
    url = new URL(trimmed);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin.toLowerCase() !== trimmed.toLowerCase()) {
    throw new AppError(
      'BAD_REQUEST',
      `Embed allow-list entry '${value}' is not an origin.`,
      'Give scheme and host (and a port if not the default), e.g. https://maps.example.com.',
    );
  }
  return url.origin;
}

function positive(name: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value <= 0)
    throw new AppError('BAD_REQUEST', `${name} must be a positive whole number.`);
  return value;
}

/** The most an integer column holds: a larger setting is refused with a message rather than failing the write. */
export const MAX_KEY_SETTING = 2_147_483_647;

function nonNegative(name: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 0 || value > MAX_KEY_SETTING)
    throw new AppError('BAD_REQUEST', `${name} must be a whole number from 0 to ${MAX_KEY_SETTING}.`);
  return value;
}

/**
 * API keys: creation (the secret is returned once and only its SHA-256 is stored), lookup by
 * hash on every request, rotation, suspension and revocation, each written to the audit log.
 */
export class KeyStore {
  private readonly cache = new Map<string, { key: AuthenticatedKey | null; expiresAt: number }>();
  private embedOrigins: { origins: Promise<Set<string>>; expiresAt: number } | undefined;
  private stopListening: (() => Promise<void>) | undefined;

  private constructor(
    private readonly db: Database,
    private readonly cached: boolean,
  ) {}

  /** A store that reads the database on every call (the CLI, one-off commands). */
  static direct(db: Database): KeyStore {
    return new KeyStore(db, false);
  }

  /**
   * A store for a serving process: authenticated keys are cached, so a request costs no key
   * query, and every key change made by any process (the CLI included) is announced with
   * NOTIFY and empties the cache at once, so a rotated or revoked secret still stops working
   * immediately. The TTL only bounds how long a missed notification could matter.
   */
  static async cachedFor(db: Database): Promise<KeyStore> {
    // PGlite hands a NOTIFY raised over its socket (by the CLI) to that socket only, never to
    // the owning process's listeners, so the embedded default reads keys on every request.
    if (db.kind === 'pglite') return KeyStore.direct(db);
    const store = new KeyStore(db, true);
    store.stopListening = await db.listen(KEY_CHANGES, () => store.forget());
    return store;
  }

  /** Drops what this store remembers of keys, after any key changed anywhere. */
  private forget(): void {
    this.cache.clear();
    this.embedOrigins = undefined;
  }

  /**
   * Whether any active key lists `origin` on its embed allow-list: what a CORS preflight, which
   * carries no key, is answered by. Read at most once a minute (and again after any key change
   * this process hears of), whatever the store's mode: a preflight grants nothing by itself, since
   * the request that follows gets CORS headers only from its own key's list.
   */
  async embedOriginKnown(origin: string): Promise<boolean> {
    if (!this.embedOrigins || this.embedOrigins.expiresAt <= Date.now()) {
      const origins = this.db.prisma.apiKey
        .findMany({
          where: { status: 'active', NOT: { embedAllowList: { isEmpty: true } } },
          select: { embedAllowList: true },
        })
        .then((rows) => new Set(rows.flatMap((row) => row.embedAllowList)));
      this.embedOrigins = { origins, expiresAt: Date.now() + CACHE_TTL_MS };
      // A failed read is not remembered: the next preflight asks again.
      origins.catch(() => {
        if (this.embedOrigins?.origins === origins) this.embedOrigins = undefined;
      });
    }
    return (await this.embedOrigins.origins).has(origin);
  }

  async close(): Promise<void> {
    await this.stopListening?.();
  }

  async create(input: CreateKeyInput): Promise<{ key: KeyView; secret: string }> {
    const name = input.name.trim();
    if (!name) throw new AppError('BAD_REQUEST', 'A key needs a name.');
    const scopes = validScopes(input.scopes);
    const capabilities = validCapabilities(input.capabilities ?? []);
    const secret = newSecret(input.kind);
    const accountId = input.account?.trim() || DEFAULT_ACCOUNT;
    const prisma = this.db.prisma;
    const row = await prisma.$transaction(async (tx) => {
      await tx.account.upsert({ where: { id: accountId }, update: {}, create: { id: accountId, name: accountId } });
      const created = await tx.apiKey.create({
        data: {
          id: newId('key'),
          accountId,
          name,
          kind: input.kind,
          secretPrefix: secretPrefix(secret),
          secretHash: hashSecret(secret),
          scopes,
          capabilities,
          rateLimitPerMinute: positive('rate limit', input.rateLimitPerMinute) ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
          monthlyQuota: positive('monthly quota', input.monthlyQuota),
          dailyCap: positive('daily cap', input.dailyCap),
          embedAllowList: [...new Set((input.embedAllowList ?? []).map(embedOrigin))],
          auditRetentionDays: positive('audit retention', input.auditRetentionDays) ?? 90,
          termsVersion: CURRENT_TERMS_VERSION,
          exportRowsMonthly: nonNegative('export row allowance', input.exportRowsMonthly),
        },
      });
      await tx.auditLog.create({
        data: { keyId: created.id, action: 'key.created', detail: { kind: input.kind, scopes } },
      });
      return created;
    });
    // A new key's origins count for preflights at once, in this process at least.
    this.embedOrigins = undefined;
    return { key: toView(row), secret };
  }

  /** The key for a presented secret, or null: unknown, malformed and revoked secrets look alike. */
  async authenticate(secret: string): Promise<AuthenticatedKey | null> {
    if (!looksLikeSecret(secret)) return null;
    const hash = hashSecret(secret);
    const hit = this.cached ? this.cache.get(hash) : undefined;
    if (hit && hit.expiresAt > Date.now()) return hit.key;
    const row = await this.db.prisma.apiKey.findUnique({ where: { secretHash: hash } });
    const key = !row || !sameHash(row.secretHash, hash) || row.status === 'revoked' ? null : toAuthenticated(row);
    if (this.cached) {
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
      this.cache.set(hash, { key, expiresAt: Date.now() + CACHE_TTL_MS });
    }
    return key;
  }

  /** Tells every process (this one included) that a key changed; runs inside the change's transaction. */
  private announce(tx: Pick<Database['prisma'], '$executeRaw'>, id: string) {
    this.forget();
    return tx.$executeRaw`SELECT pg_notify(${KEY_CHANGES}, ${id})`;
  }

  async list(): Promise<KeyView[]> {
    return (await this.db.prisma.apiKey.findMany({ orderBy: { createdAt: 'asc' } })).map(toView);
  }

  async show(id: string): Promise<KeyView> {
    return toView(await this.find(id));
  }

  /**
   * A new secret for the same key: scopes, limits, quota, allow-list, retention and webhook
   * subscriptions stay on the key, the old secret stops working at once, and the key moves
   * to the current API terms.
   */
  async rotate(id: string): Promise<{ key: KeyView; secret: string }> {
    const existing = await this.find(id);
    if (existing.status === 'revoked') throw new AppError('BAD_REQUEST', `Key ${id} is revoked and cannot be rotated.`);
    const secret = newSecret(existing.kind as KeyKind);
    const row = await this.db.prisma.$transaction(async (tx) => {
      const updated = await tx.apiKey.update({
        where: { id },
        data: {
          secretHash: hashSecret(secret),
          secretPrefix: secretPrefix(secret),
          rotatedAt: new Date(),
          termsVersion: CURRENT_TERMS_VERSION,
        },
      });
      await tx.auditLog.create({ data: { keyId: id, action: 'key.rotated', detail: {} } });
      await this.announce(tx, id);
      return updated;
    });
    return { key: toView(row), secret };
  }

  revoke(id: string): Promise<KeyView> {
    return this.setStatus(id, 'revoked', 'key.revoked');
  }

  suspend(id: string): Promise<KeyView> {
    return this.setStatus(id, 'suspended', 'key.suspended');
  }

  resume(id: string): Promise<KeyView> {
    return this.setStatus(id, 'active', 'key.resumed');
  }

  /**
   * The key's bulk-export rows a month from now on (null: the configured default), for the
   * month under way too: rows already exported this month still count against it.
   */
  async setExportAllowance(id: string, rows: number | null): Promise<KeyView> {
    const existing = await this.find(id);
    if (existing.status === 'revoked') throw new AppError('BAD_REQUEST', `Key ${id} is revoked; revocation is final.`);
    const exportRowsMonthly = nonNegative('export row allowance', rows);
    const row = await this.db.prisma.$transaction(async (tx) => {
      const updated = await tx.apiKey.update({ where: { id }, data: { exportRowsMonthly } });
      await tx.auditLog.create({
        data: {
          keyId: id,
          action: 'key.export_allowance_changed',
          detail: { from: existing.exportRowsMonthly, to: exportRowsMonthly },
        },
      });
      // a serving process caches the key with its allowance: the change must reach it at once
      await this.announce(tx, id);
      return updated;
    });
    return toView(row);
  }

  private async setStatus(id: string, status: KeyStatus, action: string): Promise<KeyView> {
    const existing = await this.find(id);
    if (existing.status === 'revoked') throw new AppError('BAD_REQUEST', `Key ${id} is revoked; revocation is final.`);
    const row = await this.db.prisma.$transaction(async (tx) => {
      const updated = await tx.apiKey.update({
        where: { id },
        data: { status, ...(status === 'revoked' ? { revokedAt: new Date() } : {}) },
      });
      await tx.auditLog.create({ data: { keyId: id, action, detail: {} } });
      await this.announce(tx, id);
      return updated;
    });
    return toView(row);
  }

  private async find(id: string): Promise<ApiKey> {
    const row = await this.db.prisma.apiKey.findUnique({ where: { id } });
    if (!row) throw new AppError('NOT_FOUND', `No key with id ${id}.`, 'List keys with `landgraph keys list`.');
    return row;
  }
}

/**
 * Failed key checks one client may make: a burst of 20, then one every 3 s. Secrets are 32
 * random characters, so this is not what keeps them unguessable; it keeps a client that cycles
 * through bad keys from costing a key lookup per request and from filling logs and caches.
 */
export const INVALID_KEY_POLICY: RatePolicy = Object.freeze({ capacity: 20, refillPerSecond: 1 / 3 });
const BLOCKED_CLIENTS_MAX = 10_000;

/**
 * Slows down a client (by IP address) that keeps presenting invalid keys. Failures are counted in
 * the service's rate limiter (shared through Redis when there is one); once a client is over the
 * limit this process refuses its keyed requests outright until Retry-After, before any lookup, so
 * a blocked client learns nothing about the keys it tries and valid requests pay no extra call.
 */
export class InvalidKeyGuard {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly policy: RatePolicy = INVALID_KEY_POLICY,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whole seconds the client must still wait, or 0. */
  retryAfter(client: string): number {
    const until = this.blockedUntil.get(client);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.blockedUntil.delete(client);
    return 0;
  }

  /** Counts one failed key check; the seconds to wait when it was over the limit, else 0. */
  async failed(client: string): Promise<number> {
    const decision = await this.limiter.take(`invalid-key:${client}`, this.policy);
    if (decision.allowed) return 0;
    if (this.blockedUntil.size >= BLOCKED_CLIENTS_MAX) {
      const now = this.now();
      for (const [name, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(name);
      // Still full: every entry is live. Forgetting them lets those clients one attempt further,
      // which the shared counter refuses again.
      if (this.blockedUntil.size >= BLOCKED_CLIENTS_MAX) this.blockedUntil.clear();
    }
    this.blockedUntil.set(client, this.now() + decision.retryAfter * 1000);
    return decision.retryAfter;
  }
}

const guards = new WeakMap<RateLimiter, InvalidKeyGuard>();

/** The guard of a limiter: one per running service, made on first use. */
export function invalidKeyGuard(limiter: RateLimiter): InvalidKeyGuard {
  let guard = guards.get(limiter);
  if (!guard) {
    guard = new InvalidKeyGuard(limiter);
    guards.set(limiter, guard);
  }
  return guard;
}
