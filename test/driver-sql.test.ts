import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../core/db.ts';
import { GENERIC_PLAN, openDatabase } from '../core/db.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { PARCELS_AT_POINTS, PARCELS_BY_PFI } from '../subgraphs/cadastre/sql.ts';
import { testConfig, testRuntime } from './support/runtime.ts';

/**
 * `db.sql` runs the layers' statements on Prisma's driver adapter instead of Prisma Client's
 * `$queryRaw`: the same statement must give the same rows, values and errors either way.
 */
describe('named SQL through the driver adapter (db.sql)', () => {
  let db: Database;
  const queries: string[] = [];

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    db = await openDatabase(testConfig(), { onQuery: (sql) => queries.push(sql) });
  });

  afterAll(async () => {
    await db.close();
  });

  async function bothWays(query: Prisma.Sql) {
    const [viaDriver, viaClient] = await Promise.all([
      db.sql<Record<string, unknown>>(query),
      db.prisma.$queryRaw<Record<string, unknown>[]>(query),
    ]);
    return { viaDriver, viaClient };
  }

  it('returns every column type as $queryRaw does: numbers, bigints, decimals, JSON, dates, bytes, arrays and nulls', async () => {
    const { viaDriver, viaClient } = await bothWays(Prisma.sql`
      SELECT 7::int4 AS int4, 9007199254740993::int8 AS int8, 1.5::float4 AS float4, 144.9631::float8 AS float8,
             12345.6789::numeric AS numeric, true AS bool, 'Bendigo'::text AS text, 'VIC'::varchar(3) AS varchar,
             'x'::char(1) AS char, '{"a":[1,2]}'::json AS json, '{"b":{"c":null}}'::jsonb AS jsonb,
             '2026-11-22T10:30:00.123Z'::timestamptz AS timestamptz, '2026-11-22 10:30:00'::timestamp AS timestamp,
             '2026-11-22'::date AS date, '10:30:15'::time AS time, '\\x0102ff'::bytea AS bytea,
             '5b4b3c2a-1d2e-4f60-8a9b-0c1d2e3f4a5b'::uuid AS uuid,
             ARRAY[1, 2]::int4[] AS int4s, ARRAY[9007199254740993]::int8[] AS int8s, ARRAY['a', 'b']::text[] AS texts,
             ARRAY[1.25, 2.5]::float8[] AS float8s, ARRAY[1.1]::numeric[] AS numerics, ARRAY[true, false] AS bools,
             ARRAY['2026-11-22']::date[] AS dates, NULL::int4 AS null_int, NULL::text AS null_text,
             ST_AsGeoJSON(ST_MakePoint(144.28, -36.76))::json AS geometry`);
    expect(viaDriver).toHaveLength(1);
    const [driverRow, clientRow] = [viaDriver[0] ?? {}, viaClient[0] ?? {}];
    expect(Object.keys(driverRow)).toEqual(Object.keys(clientRow));
    for (const column of Object.keys(clientRow)) {
      const [mine, theirs] = [driverRow[column], clientRow[column]];
      if (Prisma.Decimal.isDecimal(theirs)) expect(String(mine), column).toBe(String(theirs));
      else if (Array.isArray(theirs) && theirs.some((v) => Prisma.Decimal.isDecimal(v)))
        expect((mine as unknown[]).map(String), column).toEqual(theirs.map(String));
      else expect(mine, column).toEqual(theirs);
    }
    expect(driverRow.int8).toBe(9007199254740993n);
    expect(Prisma.Decimal.isDecimal(driverRow.numeric)).toBe(true);
    expect(driverRow.geometry).toEqual({ type: 'Point', coordinates: [144.28, -36.76] });
    expect(driverRow.timestamptz).toEqual(new Date('2026-11-22T10:30:00.123Z'));
    expect(driverRow.null_int).toBeNull();
  });

  it('binds every kind of parameter as $queryRaw does', async () => {
    const params = {
      number: -36.7601,
      string: "O'Keefe St",
      bigint: 9007199254740993n,
      date: new Date('2026-11-22T10:30:00.000Z'),
      decimal: new Prisma.Decimal('12.34'),
      bytes: new Uint8Array([1, 2, 255]),
      object: { zone: 'GRZ1', overlays: ['HO'] },
      numbers: [144.28, 144.29],
      strings: ['VIC', 'NSW'],
    };
    const { viaDriver, viaClient } = await bothWays(Prisma.sql`
      SELECT ${params.number}::float8 AS number, ${params.string}::text AS string, ${params.bigint}::int8 AS bigint,
             ${params.date}::timestamptz AS date, ${params.decimal}::numeric AS decimal, ${params.bytes}::bytea AS bytes,
             ${params.object}::jsonb AS object, ${params.numbers}::float8[] AS numbers, ${params.strings}::text[] AS strings,
             ${null}::text AS nothing`);
    expect(String(viaDriver[0]?.decimal)).toBe(String(viaClient[0]?.decimal));
    expect({ ...viaDriver[0], decimal: null }).toEqual({ ...viaClient[0], decimal: null });
    expect(viaDriver[0]).toMatchObject({
      number: -36.7601,
      string: "O'Keefe St",
      bigint: 9007199254740993n,
      date: params.date,
      bytes: params.bytes,
      object: params.object,
      numbers: params.numbers,
      strings: params.strings,
      nothing: null,
    });
  });

  it("gives the cadastre's named statements the rows $queryRaw gives", async () => {
    const parcels = await db.query<{ parcel_pfi: string; state: string; lat: number; lng: number }>(
      `SELECT parcel_pfi, state, ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng
       FROM cadastre.parcel WHERE dataset = 'sandbox' ORDER BY parcel_pfi LIMIT 5`,
    );
    const atPoints = await bothWays(
      PARCELS_AT_POINTS(
        'sandbox',
        parcels.map((p) => p.state),
        parcels.map((p) => p.lng),
        parcels.map((p) => p.lat),
      ),
    );
    expect(atPoints.viaDriver).toHaveLength(5);
    expect(atPoints.viaDriver).toEqual(atPoints.viaClient);
    const byPfi = await bothWays(
      PARCELS_BY_PFI(
        'sandbox',
        parcels.map((p) => p.state),
        parcels.map((p) => p.parcel_pfi),
      ),
    );
    expect(byPfi.viaDriver.map((r) => r.parcel_pfi).sort()).toEqual(parcels.map((p) => p.parcel_pfi).sort());
    expect(byPfi.viaDriver).toEqual(byPfi.viaClient);
  });

  it('rejects a failing statement with the PostgreSQL code and message, as $queryRaw words it', async () => {
    const failing = Prisma.sql`SELECT 1 / ${0}::int AS x`;
    const [mine, theirs] = await Promise.all([
      db.sql(failing).then(
        () => null,
        (error: unknown) => error as Error,
      ),
      db.prisma.$queryRaw(failing).then(
        () => null,
        (error: unknown) => error as Error,
      ),
    ]);
    expect(mine?.message).toContain('22012');
    expect(mine?.message).toContain('division by zero');
    expect(theirs?.message).toContain('22012');
    // the database connection is still usable after the error
    await expect(db.sql(Prisma.sql`SELECT 1::int AS one`)).resolves.toEqual([{ one: 1 }]);
  });

  it('reports each statement it sends to the onQuery hook', async () => {
    queries.length = 0;
    await db.sql(Prisma.sql`SELECT ${'hook'}::text AS seen`);
    expect(queries).toEqual([expect.stringContaining('AS seen')]);
  });

  it("runs a loader's keyed statement with a generic plan on PostgreSQL, and every other statement as PostgreSQL chooses", async () => {
    const mode = Prisma.sql`SELECT current_setting('plan_cache_mode') AS mode`;
    const [keyed] = await db.sql<{ mode: string }>(mode, GENERIC_PLAN);
    const [plain] = await db.sql<{ mode: string }>(mode);
    // PGlite is one backend for every statement: the option is left unapplied there (core/db.ts)
    expect(keyed?.mode).toBe(db.kind === 'postgres' ? 'force_generic_plan' : 'auto');
    expect(plain?.mode).toBe('auto');
    // and the keyed statement gives the rows it gives without the option
    const parcels = await db.query<{ parcel_pfi: string; state: string }>(
      `SELECT parcel_pfi, state FROM cadastre.parcel WHERE dataset = 'sandbox' ORDER BY parcel_pfi DESC LIMIT 3`,
    );
    const statement = PARCELS_BY_PFI(
      'sandbox',
      parcels.map((p) => p.state),
      parcels.map((p) => p.parcel_pfi),
    );
    const generic = await db.sql(statement, GENERIC_PLAN);
    expect(generic).toHaveLength(3);
    expect(generic).toEqual(await db.sql(statement));
  });
});
