import { Prisma } from '../generated/prisma/client.ts';
import type { Database } from './db.ts';
import { GENERIC_PLAN } from './db.ts';

/**
 * Statements asked of one database in the same turn of the event loop, sent as one statement.
 *
 * A whole-graph call asks most of its layers at once: once the parcel is known, the embedded
 * gateway runs the planning, land, development, soil, roads, demographics and climate fetches
 * side by side, and their loaders each send one small statement in the same turn. Each statement
 * costs the facade's Node thread a socket write (`writev`, the largest single item of the graph's
 * profile), a pool checkout and a protocol round, whatever the statement does; sent together as
 * `SELECT (SELECT json_agg(q) FROM (<first>) q), (SELECT json_agg(q) FROM (<second>) q), ...` they
 * cost one. PostgreSQL then runs them one after the other in one backend instead of side by side.
 *
 * Only for statements whose every column comes back the same through JSON as from the driver:
 * int4, text, boolean and json columns (a float8 column, whose NaN JSON spells as a string, or an
 * int8, numeric, date or bytea column must use `db.sql`). Rows keep the statement's own order: an
 * aggregate reads a sorted subquery in its order. The one exception is the terrain's tiles, whose
 * float8 header the table keeps finite (migration 0030) and whose bytea heights its loader reads in
 * either form (subgraphs/terrain/data.ts).
 *
 * Every statement folded here is a loader's keyed statement, so each runs with a generic plan
 * (core/db.ts, SqlOptions).
 *
 * A combined statement that fails is sent again statement by statement, so one layer's failure
 * stays that layer's (spec 7) and every caller gets its own rows or its own error.
 *
 * A combined statement holds each text at most once. Concurrent requests ask the same layers in the
 * same turn; folding every copy made a new text for each mix of requests (132 distinct texts in
 * ten seconds at 16 connections, and growing), each prepared and planned again on every pooled
 * connection and kept there. Rounds of distinct texts keep the combined texts to the few sets of
 * layers a call asks, planned once per connection.
 */
type Pending = { query: Prisma.Sql; resolve: (rows: unknown[]) => void; reject: (error: unknown) => void };

class Folder {
  private pending: Pending[] = [];

  constructor(private readonly db: Database) {}

  sql<T>(query: Prisma.Sql): Promise<T[]> {
    return new Promise<T[]>((resolve, reject) => {
      // the loaders of parallel fetches dispatch in later microtasks and ticks of this same turn:
      // setImmediate runs once all of them have asked
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ query, resolve: resolve as (rows: unknown[]) => void, reject });
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    // round n holds the n-th copy of each text asked this turn
    const rounds: Pending[][] = [];
    const copies = new Map<string, number>();
    for (const pending of batch) {
      const n = copies.get(pending.query.text) ?? 0;
      copies.set(pending.query.text, n + 1);
      (rounds[n] ??= []).push(pending);
    }
    for (const round of rounds) void this.send(round);
  }

  private async send(batch: Pending[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [Pending];
      return this.db.sql<unknown>(only.query, GENERIC_PLAN).then(only.resolve, only.reject);
    }
    // one order for the same set of statements, so the combined text is one prepared statement
    batch.sort((a, b) => (a.query.text < b.query.text ? -1 : a.query.text > b.query.text ? 1 : 0));
    const parts = batch.map(
      ({ query }, n) =>
        Prisma.sql`(SELECT coalesce(json_agg(q), '[]'::json) FROM (${query}) q) AS ${Prisma.raw(`s${n}`)}`,
    );
    let row: Record<string, unknown[]> | undefined;
    try {
      [row] = await this.db.sql<Record<string, unknown[]>>(
        Prisma.sql`SELECT ${Prisma.join(parts, ', ')}`,
        GENERIC_PLAN,
      );
    } catch {
      for (const { query, resolve, reject } of batch) this.db.sql<unknown>(query, GENERIC_PLAN).then(resolve, reject);
      return;
    }
    batch.forEach(({ resolve }, n) => resolve(row?.[`s${n}`] ?? []));
  }
}

const folders = new WeakMap<Database, Folder>();

/** `db.sql`, folded with the other statements asked of `db` in the same turn (see above for which statements may). */
export function foldedSql<T>(db: Database, query: Prisma.Sql): Promise<T[]> {
  let folder = folders.get(db);
  if (!folder) {
    folder = new Folder(db);
    folders.set(db, folder);
  }
  return folder.sql<T>(query);
}
