import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { badInputSuite } from './facade/bad-input-suite.ts';
import { planningSuite } from './facade/planning-suite.ts';
import { facadeSuite } from './facade/suite.ts';
import { ALL_SCOPES } from '../core/scopes.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

facadeSuite('embedded', async () => {
  const { app, runtime, key } = await testRuntime();
  return { app, db: runtime.db, key };
});

badInputSuite('embedded', testRuntime);

planningSuite('embedded', async () => {
  const { app, runtime, key } = await testRuntime();
  const keyWithout = (scopes: string[]) =>
    createTestKey(runtime, { scopes: ALL_SCOPES.filter((scope) => !scopes.includes(scope)) });
  return { app, db: runtime.db, key, keyWithout };
});

describe('property graph with a failing layer (embedded)', () => {
  it('still succeeds, with status error on that layer only', async () => {
    const { app, runtime, key } = await testRuntime();
    const [parcel] = await runtime.db.query<{ lat: number; lng: number }>(
      `SELECT ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng
       FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'VIC' ORDER BY parcel_pfi LIMIT 1`,
    );
    await runtime.db.exec('ALTER TABLE planning.zone RENAME TO zone_offline');
    try {
      const res = await request(app)
        .get('/v1/property/graph')
        .set('Authorization', `Bearer ${key}`)
        .query(parcel!)
        .expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.layers.cadastre.status).toBe('ok');
      expect(res.body.layers.planning).toMatchObject({ status: 'error', data: null });
      expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
      expect(res.body.attribution).toContain(res.body.layers.cadastre.attribution);
      expect(res.body.attribution).not.toMatch(/planning/i);
    } finally {
      await runtime.db.exec('ALTER TABLE planning.zone_offline RENAME TO zone');
    }
  });
});

describe('envelope by address when a later stage fails (embedded)', () => {
  async function grzAddress() {
    const { runtime } = await testRuntime();
    const [row] = await runtime.db.query<{ address: string }>(
      `SELECT a.formatted_address AS address FROM address.address_detail a
       JOIN cadastre.parcel p ON p.dataset = a.dataset AND p.state = a.state AND p.parcel_pfi = a.parcel_pfi
       JOIN planning.zone z ON z.dataset = p.dataset AND z.state = p.state AND ST_Intersects(z.geom, ST_PointOnSurface(p.geom))
       WHERE a.dataset = 'sandbox' AND a.state = 'VIC' AND z.scheme_code = 'GRZ' AND a.flat_number IS NULL
         AND a.number_last IS NULL AND a.geocode_type = 'PC'
       ORDER BY a.gnaf_pid LIMIT 1`,
    );
    return row!.address;
  }

  it('answers 422 at the envelope stage when no road fronts the parcel (a formula gap)', async () => {
    const { app, runtime, key } = await testRuntime();
    const address = await grzAddress();
    await runtime.db.exec(
      'ALTER TABLE roads.centreline RENAME TO centreline_offline; CREATE TABLE roads.centreline (LIKE roads.centreline_offline)',
    );
    try {
      const res = await request(app)
        .get('/v1/envelope-by-address')
        .set('Authorization', `Bearer ${key}`)
        .query({ address })
        .expect(422);
      expect(res.body).toMatchObject({ success: false, stage: 'envelope', retryable: false });
      expect(res.body.error).toMatch(/road/i);
      const stages = res.body.stages as Array<{ stage: string }>;
      expect(stages.map((s) => s.stage)).toEqual(['address', 'parcel', 'envelope']);
      expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
      const pfi = (res.body.stages as Array<{ detail: { parcel_pfi?: string } }>)[1]!.detail.parcel_pfi;
      const direct = await request(app)
        .get('/api/envelope')
        .set('Authorization', `Bearer ${key}`)
        .query({ pfi, state: 'VIC' })
        .expect(422);
      expect(direct.body).toMatchObject({ success: false, error: expect.stringMatching(/road/i) });
    } finally {
      await runtime.db.exec('DROP TABLE roads.centreline; ALTER TABLE roads.centreline_offline RENAME TO centreline');
    }
  });

  it('answers 502 at the envelope stage, retryable with Retry-After, when a planning source fails', async () => {
    const { app, runtime, key } = await testRuntime();
    const address = await grzAddress();
    await runtime.db.exec('ALTER TABLE roads.centreline RENAME TO centreline_offline');
    try {
      const res = await request(app)
        .get('/v1/envelope-by-address')
        .set('Authorization', `Bearer ${key}`)
        .query({ address })
        .expect(502);
      expect(res.body).toMatchObject({ success: false, stage: 'envelope', retryable: true });
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body.stages[1]).toMatchObject({ stage: 'parcel', status: 'ok' });
    } finally {
      await runtime.db.exec('ALTER TABLE roads.centreline_offline RENAME TO centreline');
    }
  });
});
