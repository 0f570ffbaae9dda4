import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';
import {
  growthPct,
  grossYieldPct,
  latestFullQuarterEnd,
  quarterLabel,
  suburbMarket,
  MIN_SALES_PER_YEAR,
} from '../subgraphs/market/trends.ts';

/*
 * The market layer (sales, comparables, suburb trends) on the sandbox: the graph, the REST
 * routes, the trends math on hand-made rows, the comparables' ranking and the scopes.
 */

type Place = { parcel_pfi: string; state: string; lat: number; lng: number; gnaf_pid: string; locality: string };

describe('market', () => {
  let t: TestRuntime;
  const get = (path: string, query: Record<string, string | number>, key = t.key) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);
  const graphql = (query: string, key = t.key) =>
    request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query });

  /** A sandbox house that sold, with its address. */
  async function soldHouse(state: string): Promise<Place> {
    const [row] = await t.runtime.db.query<Place>(
      `SELECT s.parcel_pfi, s.state, ST_Y(s.geom) AS lat, ST_X(s.geom) AS lng, s.gnaf_pid, s.locality
       FROM market.sale s WHERE s.dataset = 'sandbox' AND s.state = $1 AND s.property_type = 'house'
       ORDER BY s.source_record_id LIMIT 1`,
      [state],
    );
    if (!row) throw new Error(`no sandbox ${state} house sale`);
    return { ...row, lat: Number(row.lat), lng: Number(row.lng) };
  }

  let nsw: Place;
  beforeAll(async () => {
    t = await testRuntime();
    nsw = await soldHouse('NSW');
  });

  it('the graph answers a suburb market with series, growth and yields', async () => {
    const res =
      await graphql(`{ suburbMarket(state: "NSW", suburb: "${nsw.locality}") { status known message attribution license
      data { suburb latest_quarter summary { property_type median_price_12m sales_12m growth_1y_pct growth_3y_pct growth_5y_pct median_weekly_rent gross_yield_pct notes }
        quarters { period property_type median_price sales median_weekly_rent } sa2_code approvals { period dwelling_type value } } } }`);
    expect(res.body.errors).toBeUndefined();
    const layer = res.body.data.suburbMarket;
    console.log(JSON.stringify(layer.data.summary, null, 1), layer.data.quarters.slice(-4), layer.attribution);
    expect(layer.status).toBe('ok');
  });
});
