import type { Database, QueryFn } from '../core/db.ts';
import { logger } from '../core/logger.ts';

const FLUSH_INTERVAL_MS = 5_000;
/**
 * Distinct (key, month, route group) counters held while the database is away. Counts for a
 * counter already held keep adding up without bound; only counters that would be new past this
 * many are dropped (and logged), so a long outage costs memory in proportion to the active keys,
 * never to the number of calls.
 */
export const DEFAULT_MAX_PENDING = 50_000;

export type UsageMeterOptions = { maxPending?: number; flushIntervalMs?: number };

export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export type UsageLine = { route_group: string; calls: number };

type PendingKey = `${string}|${string}|${string}`;

/**
 * Metered calls per key, month and route group. Requests only bump an in-memory counter;
 * a timer adds the counts to Postgres in one upsert every few seconds (and at shutdown), so
 * no request waits on a database write. After each flush, keys over their contracted monthly
 * volume are flagged for a billing review (never refused: spec §8).
 */
export class UsageMeter {
  private pending = new Map<PendingKey, number>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  /** The billing month of the calls being recorded now, and the instants it starts and ends. */
  private current = { month: '', startsAt: 0, endsAt: 0 };
  private readonly maxPending: number;
  /** Calls not counted since the last report, because their counter would have passed maxPending. */
  private droppedCalls = 0;
  private droppedTotal = 0;

  constructor(
    private readonly db: Database,
    options: UsageMeterOptions = {},
  ) {
    this.maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  record(keyId: string, routeGroup: string, at?: Date): void {
    this.add(`${keyId}|${at ? monthOf(at) : this.monthNow()}|${routeGroup}`, 1);
  }

  /** Calls this meter has had to drop since it started (all of them logged). */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** How many distinct counters wait for the database. */
  get pendingCounters(): number {
    return this.pending.size;
  }

  private add(key: PendingKey, calls: number): void {
    const held = this.pending.get(key);
    if (held === undefined && this.pending.size >= this.maxPending) {
      this.droppedCalls += calls;
      this.droppedTotal += calls;
      return;
    }
    this.pending.set(key, (held ?? 0) + calls);
  }

  /** Every metered call asks for the month; working it out from a Date each time was a visible cost. */
  private monthNow(): string {
    const now = Date.now();
    if (now >= this.current.endsAt || now < this.current.startsAt) {
      const date = new Date(now);
      this.current = {
        month: monthOf(date),
        startsAt: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
        endsAt: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
      };
    }
    return this.current.month;
  }

  /** Writes what is pending; flushes never overlap, and a failed one keeps its counts for the next. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async usage(keyId: string, month: string): Promise<UsageLine[]> {
    const rows = await this.db.query<{ route_group: string; calls: string }>(
      'SELECT route_group, calls::text AS calls FROM platform.usage_monthly WHERE key_id = $1 AND month = $2',
      [keyId, month],
    );
    const totals = new Map(rows.map((r) => [r.route_group, Number(r.calls)]));
    for (const [key, calls] of this.pending) {
      const [pendingKey, pendingMonth, group] = key.split('|') as [string, string, string];
      if (pendingKey === keyId && pendingMonth === month) totals.set(group, (totals.get(group) ?? 0) + calls);
    }
    return [...totals]
      .map(([route_group, calls]) => ({ route_group, calls }))
      .sort((a, b) => a.route_group.localeCompare(b.route_group));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    // Nothing will retry after this: what the database did not take is lost, so say how much.
    if (this.pending.size > 0) {
      let calls = 0;
      for (const count of this.pending.values()) calls += count;
      logger.error('usage not written at shutdown: these calls are lost', { calls, counters: this.pending.size });
    }
  }

  private async write(): Promise<void> {
    this.reportDropped();
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const keys: string[] = [];
    const months: string[] = [];
    const groups: string[] = [];
    const calls: number[] = [];
    for (const [key, count] of batch) {
      const [keyId, month, group] = key.split('|') as [string, string, string];
      keys.push(keyId);
      months.push(month);
      groups.push(group);
      calls.push(count);
    }
    try {
      await this.db.query(
        `INSERT INTO platform.usage_monthly (key_id, month, route_group, calls)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
         ON CONFLICT (key_id, month, route_group) DO UPDATE SET calls = usage_monthly.calls + EXCLUDED.calls`,
        [keys, months, groups, calls],
      );
    } catch (error) {
      // The batch is older than what arrived during the write, so it goes back first and keeps
      // its place under the bound; newer counters are the ones dropped if anything is.
      const arrived = this.pending;
      this.pending = batch;
      for (const [key, count] of arrived) this.add(key, count);
      logger.error('usage flush failed; counts kept for the next flush', {
        error: (error as Error).message,
        pendingCounters: this.pending.size,
      });
      this.reportDropped();
      return;
    }
    // The counts are written: a failure from here on must not put them back, or they would be
    // written twice. The quota flag is caught up by the next flush of the same key and month.
    try {
      await this.flagOverQuota([...new Set(keys)], [...new Set(months)]);
    } catch (error) {
      logger.error('usage written, but the monthly quota check failed', { error: (error as Error).message });
    }
  }

  private reportDropped(): void {
    if (this.droppedCalls === 0) return;
    logger.error('usage meter full while the database is away: calls of new counters were not counted', {
      droppedCalls: this.droppedCalls,
      droppedTotal: this.droppedTotal,
      maxPending: this.maxPending,
    });
    this.droppedCalls = 0;
  }

  private async flagOverQuota(keyIds: string[], months: string[]): Promise<void> {
    const flagged = await this.db.query<{ id: string }>(
      `UPDATE platform.api_key k SET billing_review = true
       WHERE k.id = ANY($1::text[]) AND NOT k.billing_review AND k.monthly_quota IS NOT NULL
         AND EXISTS (SELECT 1 FROM platform.usage_monthly u
                     WHERE u.key_id = k.id AND u.month = ANY($2::text[])
                     GROUP BY u.month HAVING sum(u.calls) > k.monthly_quota)
       RETURNING k.id`,
      [keyIds, months],
    );
    for (const { id } of flagged) {
      await this.db.query(
        `INSERT INTO platform.audit_log (key_id, action, detail) VALUES ($1, 'key.billing_review', '{"reason":"monthly quota exceeded"}')`,
        [id],
      );
      logger.warn('key over its monthly quota: flagged for billing review', { keyId: id });
    }
  }
}

/**
 * Adds `calls` to a key's usage inside the caller's transaction, for work metered when it is
 * committed rather than when a request is answered: an enrich job's rows count exactly once, in
 * the transaction that marks the job succeeded, whichever worker (or process) finished it. The
 * same table, upsert and quota flag as the meter's flush.
 */
export async function meterWith(
  query: QueryFn,
  keyId: string,
  routeGroup: string,
  calls: number,
  at: Date = new Date(),
): Promise<void> {
  if (calls <= 0) return;
  const month = monthOf(at);
  await query(
    `INSERT INTO platform.usage_monthly (key_id, month, route_group, calls) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key_id, month, route_group) DO UPDATE SET calls = usage_monthly.calls + EXCLUDED.calls`,
    [keyId, month, routeGroup, calls],
  );
  const flagged = await query<{ id: string }>(
    `UPDATE platform.api_key k SET billing_review = true
     WHERE k.id = $1 AND NOT k.billing_review AND k.monthly_quota IS NOT NULL
       AND (SELECT sum(u.calls) FROM platform.usage_monthly u WHERE u.key_id = k.id AND u.month = $2) > k.monthly_quota
     RETURNING k.id`,
    [keyId, month],
  );
  if (flagged.length > 0) {
    await query(
      `INSERT INTO platform.audit_log (key_id, action, detail) VALUES ($1, 'key.billing_review', '{"reason":"monthly quota exceeded"}')`,
      [keyId],
    );
  }
}
