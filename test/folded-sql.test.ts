import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { foldedSql } from '../core/folded-sql.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { testConfig, testRuntime } from './support/runtime.ts';

/**
 * foldedSql sends the statements asked in one turn as one statement; each caller must get exactly
 * the rows `db.sql` gives for its own statement, in its order, and a failing statement must fail
 * only its own caller.
 */
describe('statements folded into one (foldedSql)', () => {
  let db: Database;
  const queries: string[] = [];

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    db = await openDatabase(testConfig(), { onQuery: (sql) => queries.push(sql) });
  });

  afterAll(async () => {
    await db.close();
  });

  // int4, text, boolean and json columns, ordered by the statement, with a parameter each
  const numbers = (from: number) => Prisma.sql`
    SELECT (n * 2)::int AS i, 'n' || n::text AS label, n % 2 = 0 AS even, json_build_object('n', n, 'x', n / 4.0) AS doc
    FROM generate_series(${from}::int, ${from}::int + 4) AS n ORDER BY n DESC`;
  const letters = (word: string) => Prisma.sql`
    SELECT (k.i)::int AS i, k.c AS label, NULL::text AS nothing
    FROM unnest(string_to_array(${word}::text, NULL)) WITH ORDINALITY AS k(c, i) ORDER BY k.i`;
  const none = Prisma.sql`SELECT 1::int AS i WHERE false`;

  it('sends the statements of one turn as one, each caller getting the rows db.sql gives it', async () => {
    const alone = await Promise.all([db.sql(numbers(3)), db.sql(letters('fold')), db.sql(none)]);
    queries.length = 0;
    const folded = await Promise.all([foldedSql(db, numbers(3)), foldedSql(db, letters('fold')), foldedSql(db, none)]);
    expect(queries).toHaveLength(1);
    expect(folded).toEqual(alone);
    expect(folded[0].map((row) => (row as { i: number }).i)).toEqual([14, 12, 10, 8, 6]);
  });

  it('holds each text once per combined statement: copies asked in the same turn go in later rounds', async () => {
    // concurrent requests ask the same layers' statements (same text, other keys) in one turn
    const alone = await Promise.all([
      db.sql(numbers(1)),
      db.sql(numbers(20)),
      db.sql(letters('xy')),
      db.sql(numbers(40)),
    ]);
    queries.length = 0;
    const folded = await Promise.all([
      foldedSql(db, numbers(1)),
      foldedSql(db, numbers(20)),
      foldedSql(db, letters('xy')),
      foldedSql(db, numbers(40)),
    ]);
    expect(folded).toEqual(alone);
    // round one: numbers and letters combined; round two and three: the further copies of numbers, alone
    expect(queries).toHaveLength(3);
    expect(queries.filter((sql) => sql.includes('json_agg(q)'))).toHaveLength(1);
    expect(queries.find((sql) => sql.includes('json_agg(q)'))?.match(/json_agg\(q\)/g)).toHaveLength(2);
  });

  it('sends a statement asked alone as it is', async () => {
    queries.length = 0;
    const rows = await foldedSql(db, letters('ab'));
    expect(queries).toHaveLength(1);
    expect(queries[0]).not.toContain('json_agg(q)');
    expect(rows).toEqual([
      { i: 1, label: 'a', nothing: null },
      { i: 2, label: 'b', nothing: null },
    ]);
  });

  it('fails only the caller whose statement fails; the others get their rows', async () => {
    const broken = Prisma.sql`SELECT (1 / (${0}::int))::int AS i`;
    const [good, bad, other] = await Promise.allSettled([
      foldedSql(db, numbers(10)),
      foldedSql(db, broken),
      foldedSql(db, letters('ok')),
    ]);
    expect(good).toEqual({ status: 'fulfilled', value: await db.sql(numbers(10)) });
    expect(bad.status).toBe('rejected');
    expect(String((bad as PromiseRejectedResult).reason)).toMatch(/division by zero/i);
    expect(other).toEqual({ status: 'fulfilled', value: await db.sql(letters('ok')) });
  });
});
