import request from 'supertest';
import type { App } from 'supertest/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../core/db.ts';
import { ALL_SCOPES } from '../../core/scopes.ts';

export type PlanningTarget = {
  app: App | string;
  db: Database;
  key: string;
  /** A key holding every scope but the ones named, for the 403 checks. */
  keyWithout(scopes: string[]): Promise<string>;
};

type Lot = {
  parcel_pfi: string;
  state: string;
  lat: number;
  lng: number;
  address: string;
  area_m2: number;
  zone: string;
};

/** A sandbox parcel with a parcel-grade address whose point lies in a zone of the given family. */
async function lotInZone(db: Database, state: string, family: string): Promise<Lot> {
  const [row] = await db.query<Lot>(
    `SELECT p.parcel_pfi, p.state, ST_Y(ST_PointOnSurface(p.geom)) AS lat, ST_X(ST_PointOnSurface(p.geom)) AS lng,
            a.formatted_address AS address, ST_Area(p.geom::geography) AS area_m2, z.zone_code AS zone
     FROM cadastre.parcel p
     JOIN address.address_detail a ON a.dataset = p.dataset AND a.state = p.state AND a.parcel_pfi = p.parcel_pfi
     JOIN planning.zone z ON z.dataset = p.dataset AND z.state = p.state AND ST_Intersects(z.geom, ST_PointOnSurface(p.geom))
     WHERE p.dataset = 'sandbox' AND p.state = $1 AND z.scheme_code = $2 AND a.flat_number IS NULL
       AND a.number_last IS NULL AND a.geocode_type = 'PC' AND p.area_m2 BETWEEN 300 AND 1200
       AND (SELECT count(*) FROM address.address_detail b WHERE b.dataset = p.dataset AND b.parcel_pfi = p.parcel_pfi AND b.state = p.state) = 1
     ORDER BY p.parcel_pfi LIMIT 1`,
    [state, family],
  );
  if (!row) throw new Error(`the sandbox has no ${state} ${family} lot`);
  return row;
}

/** The planning products through the REST facade: provisions, envelope by address, UGB, climate zone. */
export function planningSuite(mode: string, target: () => Promise<PlanningTarget>): void {
  describe(`planning products (${mode})`, () => {
    let t: PlanningTarget;
    let grz: Lot;
    let r2: Lot;
    let qld: Lot;
    const get = (path: string, key: string | null = t.key): request.Test => {
      const req = request(t.app).get(path);
      return key === null ? req : req.set('Authorization', `Bearer ${key}`);
    };

    beforeAll(async () => {
      t = await target();
      [grz, r2, qld] = await Promise.all([
        lotInZone(t.db, 'VIC', 'GRZ'),
        lotInZone(t.db, 'NSW', 'R2'),
        lotInZone(t.db, 'QLD', 'LDR'),
      ]);
    });

    describe('GET /v1/planning-provisions', () => {
      it('gives ResCode for a GRZ lot measured from its parcel, credited in body and headers', async () => {
        const res = await get('/v1/planning-provisions').query({ lat: grz.lat, lng: grz.lng }).expect(200);
        const data = res.body.data;
        expect(res.body.property).toEqual({ parcel_pfi: grz.parcel_pfi, state: 'VIC' });
        expect(data.zone.code).toBe(grz.zone);
        expect(data.regime).toMatch(/ResCode/);
        expect(data.setbacks.side).toMatchObject({ min_m: 1, reference: expect.stringMatching(/B17|A10/) });
        // B6: 4 m to a street outside the Road Zone when no abutting building sets another line
        expect(data.setbacks.front).toMatchObject({ min_m: 4, reference: expect.stringMatching(/B6/) });
        expect(data.height).toMatchObject({ max_m: 11, max_storeys: 3 });
        expect(data.site_coverage.max_percent).toBe(60);
        expect(data.permeability.min_percent).toBe(20);
        expect(data.lot.source).toBe('parcel');
        expect(data.lot.area_m2).toBeCloseTo(grz.area_m2, -1);
        const kinds = new Set((data.appliedRules as Array<{ boundary: string }>).map((r) => r.boundary));
        expect(kinds).toEqual(new Set(['front', 'side', 'rear']));
        expect(res.body.attribution).toMatch(/synthetic/i);
        expect(res.headers['x-service-attribution']).toBeDefined();
        expect(res.headers['x-service-license']).toBe(res.body.license);
      });

      it('applies the side setback for the wall height asked (7 m wall: 2.09 m under B17)', async () => {
        const res = await get('/v1/planning-provisions')
          .query({ lat: grz.lat, lng: grz.lng, wall_height_m: '7' })
          .expect(200);
        // a corner lot's side facing its second street takes the side-street setback instead
        const sides = (
          res.body.data.appliedRules as Array<{ boundary: string; setback_m: number; road_name: string | null }>
        ).filter((r) => r.boundary === 'side' && r.road_name === null);
        expect(sides.length).toBeGreaterThan(0);
        for (const side of sides) expect(side.setback_m).toBeCloseTo(2.09, 2);
      });

      it('answers the same by pfi and state, and takes the lot characteristics given', async () => {
        const byPoint = await get('/v1/planning-provisions').query({ lat: grz.lat, lng: grz.lng }).expect(200);
        const byPfi = await get('/v1/planning-provisions').query({ pfi: grz.parcel_pfi, state: 'VIC' }).expect(200);
        expect(byPfi.body.data).toEqual(byPoint.body.data);
        const given = await get('/v1/planning-provisions')
          .query({ pfi: grz.parcel_pfi, state: 'VIC', lot_area_m2: '450', frontage_m: '12.5' })
          .expect(200);
        expect(given.body.data.lot).toMatchObject({ area_m2: 450, frontage_m: 12.5, source: 'parcel+caller' });
        expect(given.body.data.garden_area.min_percent).toBe(25);
      });

      it('uses the NSW Housing Code for R2 and the Queensland Development Code for a Brisbane LDR lot', async () => {
        const nsw = await get('/v1/planning-provisions').query({ lat: r2.lat, lng: r2.lng }).expect(200);
        expect(nsw.body.data.regime).toMatch(/Housing Code/);
        expect(nsw.body.data.height.max_m).toBe(8.5);
        const q = await get('/v1/planning-provisions').query({ lat: qld.lat, lng: qld.lng }).expect(200);
        expect(q.body.data.regime).toMatch(/MP1\.[12]|Development Code/);
      });

      it('refuses bad input with the reason, and a key without the scope', async () => {
        const bad = await get('/v1/planning-provisions').query({ pfi: grz.parcel_pfi }).expect(400);
        expect(bad.body.error).toMatch(/pfi needs state/);
        const negative = await get('/v1/planning-provisions')
          .query({ lat: grz.lat, lng: grz.lng, lot_area_m2: '-5' })
          .expect(400);
        expect(negative.body.error).toMatch(/lot_area_m2/);
        await get('/v1/planning-provisions').query({ lat: grz.lat }).expect(400);
        await get('/v1/planning-provisions').query({ pfi: '999999999999', state: 'VIC' }).expect(404);
        const only = await t.keyWithout(ALL_SCOPES.filter((scope) => scope !== 'planning.provisions.read'));
        await get('/v1/planning-provisions', only).query({ lat: grz.lat, lng: grz.lng }).expect(200);
        await get('/v1/planning-provisions', only).query({ pfi: grz.parcel_pfi, state: 'VIC' }).expect(200);
        const other = await t.keyWithout(['planning.provisions.read']);
        const denied = await get('/v1/planning-provisions', other).query({ lat: grz.lat, lng: grz.lng }).expect(403);
        expect(denied.body.error).toBe('Missing scope: planning.provisions.read');
      });
    });

    describe('GET /v1/envelope-by-address', () => {
      it('runs address, parcel and envelope with provenance for each stage', async () => {
        const res = await get('/v1/envelope-by-address').query({ address: grz.address }).expect(200);
        expect(res.body.property).toMatchObject({ parcel_pfi: grz.parcel_pfi, state: 'VIC' });
        const stages = res.body.stages as Array<{ stage: string; status: string }>;
        expect(stages.map((s) => [s.stage, s.status])).toEqual([
          ['address', 'ok'],
          ['parcel', 'ok'],
          ['envelope', 'ok'],
        ]);
        for (const stage of res.body.stages) expect(stage.source).toMatch(/^mirror:vic\//);
        const envelope = res.body.envelope;
        expect(envelope.type).toBe('Feature');
        expect(envelope.geometry.type).toMatch(/Polygon/);
        expect(envelope.properties.area_m2).toBeGreaterThan(0);
        expect(envelope.properties.area_m2).toBeLessThan(envelope.properties.parcel_area_m2);
        expect(envelope.properties.parcel_area_m2).toBeCloseTo(grz.area_m2, -1);
        expect(envelope.levels[0].wall_height_m).toBe(3.6);
        const areas = (envelope.levels as Array<{ area_m2: number }>).map((l) => l.area_m2);
        expect([...areas].sort((a, b) => b - a)).toEqual(areas);
        const kinds = (envelope.boundaries.features as Array<{ properties: { kind: string } }>).map(
          (f) => f.properties.kind,
        );
        expect(kinds).toContain('front');
        expect(kinds).toContain('rear');
        expect(res.body.provisions.regime).toMatch(/ResCode/);
        expect(res.headers['x-service-attribution']).toBeDefined();
      });

      it('draws the same envelope for the parcel by pfi (GET /api/envelope), and none off a parcel', async () => {
        const byAddress = await get('/v1/envelope-by-address').query({ address: grz.address }).expect(200);
        const byPfi = await get('/api/envelope').query({ pfi: grz.parcel_pfi, state: 'VIC' }).expect(200);
        expect(byPfi.body.property).toEqual({ parcel_pfi: grz.parcel_pfi, state: 'VIC' });
        expect(byPfi.body.envelope).toEqual(byAddress.body.envelope);
        expect(byPfi.headers['x-service-attribution']).toBeDefined();
        const taller = await get('/api/envelope').query({ lat: grz.lat, lng: grz.lng, wall_height_m: '7' }).expect(200);
        expect(taller.body.property.parcel_pfi).toBe(grz.parcel_pfi);
        const other = await t.keyWithout(['envelope.read']);
        const denied = await get('/api/envelope', other).query({ pfi: grz.parcel_pfi, state: 'VIC' }).expect(403);
        expect(denied.body.error).toBe('Missing scope: envelope.read');
        await get('/api/envelope').query({ pfi: '999999999999', state: 'VIC' }).expect(404);
      });

      it('answers an unmatched address 404 at the address stage, not retryable', async () => {
        const res = await get('/v1/envelope-by-address')
          .query({ address: '1 Imaginary Lane, Nowhere VIC 3999' })
          .expect(404);
        expect(res.body).toMatchObject({ success: false, stage: 'address', retryable: false, stages: [] });
      });

      it('refuses a missing address, and a key without the scope', async () => {
        const res = await get('/v1/envelope-by-address').expect(400);
        expect(res.body.error).toMatch(/address is required/);
        const only = await t.keyWithout(ALL_SCOPES.filter((scope) => scope !== 'envelope.by-address.read'));
        await get('/v1/envelope-by-address', only).query({ address: grz.address }).expect(200);
        const other = await t.keyWithout(['envelope.by-address.read']);
        const denied = await get('/v1/envelope-by-address', other).query({ address: grz.address }).expect(403);
        expect(denied.body.error).toBe('Missing scope: envelope.by-address.read');
      });
    });

    describe('UGB', () => {
      it('says whether a Huntly point is inside the UGB, with the LGA and the zone there', async () => {
        const res = await get('/api/ugb/at-point').query({ lat: grz.lat, lng: grz.lng, state: 'VIC' }).expect(200);
        expect(res.body.data).toMatchObject({ state: 'VIC', available: true, query: { lat: grz.lat, lng: grz.lng } });
        expect(typeof res.body.data.insideUGB).toBe('boolean');
        expect(res.body.source).toMatch(/^mirror:vic\/ugb@/);
        expect(res.headers['x-mirror-source']).toBe(res.body.source);
        expect(res.headers['x-service-license']).toBe('CC BY 4.0');
      });

      it('answers other states available: false, and the vector route an empty collection for them', async () => {
        const nsw = await get('/api/ugb/at-point').query({ lat: r2.lat, lng: r2.lng, state: 'NSW' }).expect(200);
        expect(nsw.body.data).toMatchObject({ available: false, insideUGB: null });
        expect(nsw.body.data.reason).toMatch(/Victorian/);
        const bbox = `${r2.lng - 0.01},${r2.lat - 0.01},${r2.lng + 0.01},${r2.lat + 0.01}`;
        const empty = await get('/api/ugb/vector').query({ bbox, state: 'NSW' }).expect(200);
        expect(empty.body).toMatchObject({ type: 'FeatureCollection', features: [], success: true });
      });

      it('serves the VIC polygons of a window, and is open to keyless callers (the map mount)', async () => {
        const bbox = `${grz.lng - 0.05},${grz.lat - 0.05},${grz.lng + 0.05},${grz.lat + 0.05}`;
        const res = await get('/api/ugb/vector').query({ bbox }).expect(200);
        expect(res.body.features.length).toBeGreaterThan(0);
        expect(res.body.features[0]).toMatchObject({ type: 'Feature', properties: { lga_name: expect.any(String) } });
        expect(res.headers['x-mirror-source']).toMatch(/^mirror:vic\/ugb@/);
        await get('/api/ugb/vector', null).query({ bbox }).expect(200);
        const other = await t.keyWithout(['ugb.read']);
        const denied = await get('/api/ugb/vector', other).query({ bbox }).expect(403);
        expect(denied.body.error).toBe('Missing scope: ugb.read');
      });
    });

    describe('GET /api/climate-zone', () => {
      it('gives the NCC climate zone of a point, and available: false far from our map', async () => {
        const vic = await get('/api/climate-zone').query({ lat: grz.lat, lng: grz.lng }).expect(200);
        expect(vic.body).toMatchObject({ available: true, query: { state: 'VIC' } });
        expect(vic.body.data.climate_zone).toBeGreaterThanOrEqual(1);
        const brisbane = await get('/api/climate-zone').query({ lat: qld.lat, lng: qld.lng }).expect(200);
        expect(brisbane.body.data).toEqual({ climate_zone: 2, description: 'Warm humid summer, mild winter' });
        const far = await get('/api/climate-zone').query({ lat: -31.95, lng: 115.86 }).expect(200);
        expect(far.body).toMatchObject({ available: false, data: null });
      });
    });
  });
}
