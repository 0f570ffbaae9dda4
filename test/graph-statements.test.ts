/**
 * How many SQL statements one `/v1/property/graph` call with every layer scoped sends (the
 * embedded graph over a Database handle that records each statement, the way the hazards
 * batching test counts them). The count is exact: a layer that starts sending a statement per
 * item (N+1), or a statement sent twice, fails here and has to say why in this file.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../app/runtime.ts';
import { startRuntime } from '../app/runtime.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { ALL_SCOPES } from '../core/scopes.ts';
import { sandboxSamples } from '../prisma/sandbox/samples.ts';
import { createApp } from '../rest-facade/app.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

/**
 * The data statements of one whole-graph call, once the process has its credits cached: the
 * parcel; its address; one statement for each of the eleven layers the gateway asks side by side
 * once the parcel is known (planning's zone and overlays, shared by the planning layer and the
 * products; soil, roads, climate zone, easements, buildings, land value, DAs, SPEAR, demographics
 * and the terrain's DEM tiles), the hazards, and the market trends: one statement for every
 * suburb of the batch, its postcode, the state's newest sale, quarters, windows, rents and
 * approvals together (test/market.test.ts checks it stays one however many suburbs). The
 * platform's own statement (the key lookup) comes on top where no cache answers it: one on the
 * embedded default, none once Redis holds the key.
 *
 * core/folded-sql.ts sends the statements asked in the same turn as one, so what reaches the
 * database is fewer round trips: the eleven as one, and the hazards and the market together when
 * their fetches happen to ask in the same turn (which turn depends on when the fetches before them
 * finish). So the statements are counted inside the folded ones, exactly, and the round trips are
 * bounded.
 */
const STATEMENTS_PER_GRAPH = 15;
/** The parcel; the address; the eleven; the hazards and the market, together or apart. */
const ROUND_TRIPS_AT_MOST = 5;
/** The wrapper core/folded-sql.ts puts around each statement it folds. */
const FOLDED = /\(SELECT coalesce\(json_agg\(q\), '\[\]'::json\) FROM \(/g;
const PLATFORM = /"platform"\./;

/** The layers every-scope key gets (spec 2.6); the count above is for exactly these. */
const LAYERS = [
  'cadastre',
  'planning',
  'provisions',
  'demographics',
  'market_trends',
  'envelope',
  'terrain',
  'roads',
  'hazards',
  'climate_zone',
  'soil',
  'easements',
  'buildings',
  'land_value',
  'development_applications',
  'spear_applications',
];

describe('one whole-graph call sends a bounded number of SQL statements', () => {
  let db: Database;
  let runtime: Runtime;
  let key: string;
  const statements: string[] = [];

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    db = await openDatabase(testConfig(), { onQuery: (sql) => statements.push(sql) });
    runtime = await startRuntime(testConfig(), { db, prepare: false });
    key = await createTestKey(runtime, { scopes: [...ALL_SCOPES] });
  });

  afterAll(async () => {
    await runtime.close();
  });

  it(`sends ${STATEMENTS_PER_GRAPH} data statements in at most ${ROUND_TRIPS_AT_MOST} round trips (and at most the key lookup) for a property with every layer, whichever property`, async () => {
    const app = createApp(runtime);
    const parcels = (await sandboxSamples(db, 30)).filter((s) => s.state === 'VIC' && s.parcel_pfi).slice(0, 3);
    expect(parcels.length).toBe(3);
    const counts: number[] = [];
    const roundTrips: number[] = [];
    for (const [n, sample] of parcels.entries()) {
      statements.length = 0;
      const res = await request(app)
        .get('/v1/property/graph')
        .query({ pfi: sample.parcel_pfi!, state: 'VIC' })
        .set('Authorization', `Bearer ${key}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.layers).sort()).toEqual([...LAYERS].sort());
      const texts = statements.map((s) => s.replace(/\s+/g, ' '));
      // the first call also fills the process's credit cache
      const data = texts.filter((s) => !PLATFORM.test(s));
      if (n > 0) {
        counts.push(data.reduce((sum, text) => sum + Math.max(1, text.match(FOLDED)?.length ?? 0), 0));
        roundTrips.push(data.length);
      }
      expect(texts.filter((s) => PLATFORM.test(s)).length).toBeLessThanOrEqual(1);
      // the planning zone and overlay statement once, for the layer and the products together
      expect(texts.filter((s) => /FROM planning\.zone z/.test(s) && /FROM planning\.coverage c/.test(s))).toHaveLength(
        1,
      );
    }
    expect(counts).toEqual([STATEMENTS_PER_GRAPH, STATEMENTS_PER_GRAPH]);
    for (const trips of roundTrips) expect(trips).toBeLessThanOrEqual(ROUND_TRIPS_AT_MOST);
  });

  it('keeps every address point in range (migration 0032): a NaN, infinite or out-of-range point is refused', async () => {
    const [one] = await db.query<{ gnaf_pid: string }>(
      `SELECT gnaf_pid FROM address.address_detail WHERE dataset = 'sandbox' AND geom IS NOT NULL LIMIT 1`,
    );
    for (const [lng, lat] of [
      ["'NaN'::float8", '-37.8'],
      ['145.0', "'Infinity'::float8"],
      ['181.0', '-37.8'],
      ['145.0', '-91.0'],
    ]) {
      await expect(
        db.transaction(async (query) => {
          await query(
            `UPDATE address.address_detail SET geom = ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326)
             WHERE dataset = 'sandbox' AND gnaf_pid = $1`,
            [one!.gnaf_pid],
          );
        }),
        `${lng} ${lat}`,
      ).rejects.toThrow(/address_detail_geom_in_range/);
    }
  });
});
