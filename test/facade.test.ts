import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { badInputSuite } from './facade/bad-input-suite.ts';
import { facadeSuite } from './facade/suite.ts';
import { testRuntime } from './support/runtime.ts';

facadeSuite('embedded', async () => {
  const { app, runtime, key } = await testRuntime();
  return { app, db: runtime.db, key };
});

badInputSuite('embedded', testRuntime);

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
