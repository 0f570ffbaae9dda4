import request from 'supertest';
import type { App } from 'supertest/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../core/db.ts';
import type { Fixtures } from '../support/fixtures.ts';
import { loadFixtures } from '../support/fixtures.ts';

export type FacadeTarget = { app: App | string; db: Database; key: string };

const SYNTHETIC = /synthetic/i;

type Suggestion = { gnaf_pid: string; address: string; state: string };

/**
 * The REST facade's behaviour, run against the embedded mode (in-process app) and the
 * distributed mode (a real gateway process over subgraph processes) alike.
 */
export function facadeSuite(mode: string, target: () => Promise<FacadeTarget>): void {
  describe(`REST facade (${mode})`, () => {
    let app: App | string;
    let db: Database;
    let f: Fixtures;
    let key: string;
    const get = (path: string): request.Test => request(app).get(path).set('Authorization', `Bearer ${key}`);

    beforeAll(async () => {
      ({ app, db, key } = await target());
      f = await loadFixtures(db);
    });

    describe('GET /api/health', () => {
      it('answers without a key and reports the database and the graph healthy', async () => {
        const res = await get('/api/health').expect(200);
        expect(res.body).toMatchObject({
          status: 'healthy',
          checks: { database: { status: 'healthy' }, graph: { status: 'healthy' } },
        });
        expect(Date.parse(res.body.timestamp as string)).not.toBeNaN();
        expect(res.headers['x-request-id']).toMatch(/\S+/);
        if (mode === 'distributed') {
          expect(res.body.checks.subgraphs).toMatchObject({
            address: { status: 'healthy' },
            cadastre: { status: 'healthy' },
            planning: { status: 'healthy' },
          });
        }
      });
    });

    describe('GET /api/cadastre/lookup', () => {
      it('returns the parcel under a point as the spec envelope, credited in body and headers', async () => {
        const res = await get('/api/cadastre/lookup')
          .query({ lat: String(f.vicParcel.lat), lng: String(f.vicParcel.lng) })
          .expect(200);
        expect(Object.keys(res.body).sort()).toEqual([
          'attribution',
          'data',
          'error',
          'hint',
          'license',
          'source',
          'success',
        ]);
        expect(res.body.success).toBe(true);
        expect(res.body.source).toMatch(/^mirror:vic\/cadastre@/);
        expect(res.body.data.geometry.type).toBe('MultiPolygon');
        expect(res.body.data.properties).toMatchObject({ parcel_pfi: f.vicParcel.parcel_pfi });
        for (const key of ['parcel_spi', 'parcel_lot_number', 'parcel_plan_number', 'ezi_address']) {
          expect(res.body.data.properties).toHaveProperty(key);
        }
        expect(res.body.attribution).toMatch(SYNTHETIC);
        expect(res.body.license).toBe('CC BY 4.0');
        expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
        expect(res.headers['x-service-license']).toBe(res.body.license);
      });

      it('accepts numbers with whitespace and a lower-case state', async () => {
        const res = await get('/api/cadastre/lookup')
          .query({ lat: ` ${f.nswParcel.lat} `, lng: String(f.nswParcel.lng), state: 'nsw' })
          .expect(200);
        expect(res.body.data.properties.parcel_pfi).toBe(f.nswParcel.parcel_pfi);
      });

      it('looks a parcel up by pfi, bypassing lat and lng', async () => {
        const res = await get('/api/cadastre/lookup').query({ pfi: f.qldParcel.parcel_pfi, state: 'QLD' }).expect(200);
        expect(res.body.data.properties.parcel_pfi).toBe(f.qldParcel.parcel_pfi);
        expect(res.body.source).toMatch(/^mirror:qld\/cadastre@/);
      });

      it('answers 404 with a hint for a point on no parcel, and for a state the point is not in', async () => {
        const road = await get('/api/cadastre/lookup').query(f.roadReserve).expect(404);
        expect(road.body).toMatchObject({
          success: false,
          data: null,
          error: expect.stringMatching(/No parcel found/),
        });
        expect(road.body.hint).toMatch(/road reserve/);
        const wrongState = await get('/api/cadastre/lookup')
          .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng, state: 'NSW' })
          .expect(404);
        expect(wrongState.body.hint).toMatch(/looks to be in VIC: pass state=VIC/);
        const unknownPfi = await get('/api/cadastre/lookup').query({ pfi: '999999999999', state: 'VIC' }).expect(404);
        expect(unknownPfi.body.error).toBe('No parcel with PFI 999999999999 in VIC.');
      });
    });

    describe('GET /api/cadastre/bbox', () => {
      it('returns every parcel that truly intersects the window, whole and unclipped', async () => {
        const w = f.smallWindow;
        const res = await get('/api/cadastre/bbox')
          .query({ bbox: [w.west, w.south, w.east, w.north].join(',') })
          .expect(200);
        expect(res.body).toMatchObject({ type: 'FeatureCollection', success: true, error: null });
        expect(res.body.source).toMatch(/^mirror:vic\/cadastre@/);
        expect(res.headers['x-service-attribution']).toMatch(SYNTHETIC);
        const returned = (res.body.features as Array<{ properties: { parcel_pfi: string }; geometry: unknown }>)
          .map((x) => x.properties.parcel_pfi)
          .sort();
        const expected = await db.query<{ parcel_pfi: string; unclipped: boolean }>(
          `SELECT parcel_pfi FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'VIC'
             AND ST_Intersects(geom, ST_MakeEnvelope($1, $2, $3, $4, 4326)) ORDER BY parcel_pfi`,
          [w.west, w.south, w.east, w.north],
        );
        expect(returned.length).toBeGreaterThan(1);
        expect(returned).toEqual(expected.map((r) => r.parcel_pfi).sort());
        // Whole parcels: a returned geometry equals the stored one, and some reach past the window.
        const outside = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'VIC' AND parcel_pfi = ANY($1::text[])
             AND NOT ST_Within(geom, ST_MakeEnvelope($2, $3, $4, $5, 4326))`,
          [returned, w.west, w.south, w.east, w.north],
        );
        expect(outside[0]!.n).toBeGreaterThan(0);
      });

      it('answers an empty window with a 200 empty collection and a hint', async () => {
        const { lat, lng } = f.outsideCoverage;
        const res = await get('/api/cadastre/bbox')
          .query({ bbox: `${lng},${lat},${lng + 0.01},${lat + 0.01}` })
          .expect(200);
        expect(res.body).toMatchObject({ type: 'FeatureCollection', features: [], success: true });
        expect(res.body.hint).toMatch(/does not reach/);
        expect(res.headers['x-service-attribution']).toBeUndefined();
      });

      it('refuses a window holding more than 1000 parcels instead of truncating it', async () => {
        const w = f.crowdedWindow;
        const res = await get('/api/cadastre/bbox')
          .query({ bbox: [w.west, w.south, w.east, w.north].join(',') })
          .expect(400);
        expect(res.body).toMatchObject({ type: 'FeatureCollection', features: [], success: false });
        expect(res.body.error).toMatch(/more than 1000 parcels/);
        expect(res.body.hint).toMatch(/smaller bbox/);
      });
    });

    describe('GET /v1/property/graph', () => {
      it('fans out to every layer for a point, each with its status and credit', async () => {
        const res = await get('/v1/property/graph').query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng }).expect(200);
        expect(res.body.success).toBe(true);
        expect(res.body.property).toMatchObject({ parcel_pfi: f.vicParcel.parcel_pfi, state: 'VIC' });
        expect(res.body.property.gnaf_pid).toMatch(/^GAVIC/);
        expect(res.body.layers.cadastre).toMatchObject({ status: 'ok', license: 'CC BY 4.0' });
        expect(res.body.layers.cadastre.data.properties.parcel_pfi).toBe(f.vicParcel.parcel_pfi);
        expect(res.body.layers.planning.status).toBe('ok');
        expect(res.body.layers.planning.data.zone.code).toMatch(/^[A-Z0-9]+$/);
        expect(res.body.layers.planning.attribution).toMatch(SYNTHETIC);
        expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
        expect(res.headers['x-service-license']).toBe(res.body.license);
      });

      it('resolves the same property by gnaf_pid and by pfi + state', async () => {
        const byGnaf = await get('/v1/property/graph').query({ gnaf_pid: f.qldParcel.gnaf_pid }).expect(200);
        expect(byGnaf.body.property).toMatchObject({
          gnaf_pid: f.qldParcel.gnaf_pid,
          parcel_pfi: f.qldParcel.parcel_pfi,
          state: 'QLD',
        });
        expect(byGnaf.body.property.address).toBe(f.qldParcel.address);
        const byParcel = await get('/v1/property/graph')
          .query({ pfi: f.qldParcel.parcel_pfi, state: 'QLD' })
          .expect(200);
        expect(byParcel.body.property.parcel_pfi).toBe(f.qldParcel.parcel_pfi);
        expect(byParcel.body.layers.cadastre.data).toEqual(byGnaf.body.layers.cadastre.data);
        expect(byParcel.body.layers.planning.status).toBe('ok');
      });

      it('reports not_covered for planning where the planning mirror does not reach', async () => {
        const p = f.planningNotCovered;
        const res = await get('/v1/property/graph').query({ lat: p.lat, lng: p.lng }).expect(200);
        expect(res.body.layers.cadastre.status).toBe('ok');
        expect(res.body.layers.planning).toMatchObject({ status: 'not_covered', data: null });
      });

      it('reports no_data for the cadastre on a road reserve and not_covered far from the sandbox', async () => {
        const road = await get('/v1/property/graph').query(f.roadReserve).expect(200);
        expect(road.body.layers.cadastre.status).toBe('no_data');
        expect(road.body.property.parcel_pfi).toBeNull();
        const far = await get('/v1/property/graph').query(f.outsideCoverage).expect(200);
        expect(far.body.layers.cadastre.status).toBe('not_covered');
        expect(far.body.layers.planning.status).toBe('not_covered');
        expect(far.headers['x-service-attribution']).toBeUndefined();
      });

      it('answers 404 for an identifier that does not exist', async () => {
        const res = await get('/v1/property/graph').query({ gnaf_pid: 'GAVIC000000000' }).expect(404);
        expect(res.body).toEqual({
          success: false,
          error: 'No property with gnaf_pid GAVIC000000000.',
          hint: expect.any(String),
        });
      });
    });

    describe('Census demographics', () => {
      it('answers a point, a parcel and a suburb with the same SAL, and the property graph carries it', async () => {
        const at = await get('/api/locality/demographics')
          .query({ lat: f.nswParcel.lat, lng: f.nswParcel.lng })
          .expect(200);
        expect(at.body).toMatchObject({ status: 'ok', data: { census_year: 2021 } });
        const { sal, sa1 } = at.body.data as { sal: { code: string; name: string }; sa1: { code: string } };
        expect(sa1.code.startsWith('1')).toBe(true);
        expect(at.body.attribution).toMatch(SYNTHETIC);
        expect(at.headers['x-service-attribution']).toBe(at.body.attribution);
        const byParcel = await get('/api/locality/demographics')
          .query({ pfi: f.nswParcel.parcel_pfi, state: 'NSW' })
          .expect(200);
        expect(byParcel.body.data.sal.code).toBe(sal.code);
        const suburb = await get('/api/locality/demographics/suburb')
          .query({ state: 'NSW', suburb: sal.name })
          .expect(200);
        expect(suburb.body.data.code).toBe(sal.code);
        await get('/api/locality/demographics/suburb').query({ state: 'NSW', suburb: 'No Such Place' }).expect(404);
        const graph = await get('/v1/property/graph').query({ lat: f.nswParcel.lat, lng: f.nswParcel.lng }).expect(200);
        expect(graph.body.layers.demographics).toMatchObject({ status: 'ok', data: { sal: { code: sal.code } } });
      });
    });

    describe('locality and market', () => {
      it('walks a 15-minute catchment over the network and lists the amenities in it, credited to OpenStreetMap', async () => {
        const res = await get('/v1/catchment/walking')
          .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng, minutes: 15 })
          .expect(200);
        expect(res.body).toMatchObject({ approximate: false, budget_m: 1200 });
        expect(res.body.amenities.length).toBeGreaterThan(0);
        expect(res.headers['x-service-license']).toBe('ODbL');
        const schools = await get('/api/locality/schools')
          .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng, radius_m: 3000 })
          .expect(200);
        expect(schools.body.attribution).toBe(schools.headers['x-service-attribution']);
      });

      it("answers the property's suburb market in the graph, its trends, its sales and its suburb bundle", async () => {
        const graph = await get('/v1/property/graph').query({ pfi: f.vicParcel.parcel_pfi, state: 'VIC' }).expect(200);
        const trends = graph.body.layers.market_trends as { status: string; data: { suburb: string } };
        expect(trends.status).toBe('ok');
        const suburb = encodeURIComponent(trends.data.suburb);
        const series = await get(`/api/suburb-trends/VIC/${suburb}/prices`).expect(200);
        expect(series.body.attribution).toMatch(SYNTHETIC);
        const sales = await get('/api/property-sales')
          .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng, radius_m: 2000 })
          .expect(200);
        expect(sales.body.data.length).toBeGreaterThan(0);
        const bundle = await get(`/v1/suburb-analytics/VIC/${suburb}`).expect(200);
        expect(bundle.body.data.sections.market).not.toBeNull();
        expect(bundle.headers['x-service-attribution']).toBe(bundle.body.attribution);
      });
    });

    describe('address routes', () => {
      /** The fixture parcel's address as people write it: title case, street type spelled out, no postcode. */
      const messy = (address: string) =>
        address
          .replace(
            /, ([A-Z ]+) (VIC|NSW|QLD) \d{4}$/,
            (_m, locality: string, state: string) => `, ${locality.toLowerCase()} ${state}`,
          )
          .replace(/ ST,/, ' Street,')
          .replace(/ RD,/, ' Road,');

      it('by-address: a strict match returns the parcel with similarity 1 and both credits', async () => {
        const res = await get('/api/cadastre/by-address').query({ q: f.vicParcel.address }).expect(200);
        expect(res.body).toMatchObject({ success: true, similarity: 1, confidence: 1, error: null, hint: null });
        expect(res.body.data.properties).toMatchObject({
          parcel_pfi: f.vicParcel.parcel_pfi,
          ezi_address: f.vicParcel.address,
        });
        expect(res.body.data.geometry.type).toMatch(/Polygon/);
        expect(res.body.geocodeType).toMatch(/^(PC|FCS)$/);
        expect(res.body.attribution).toMatch(SYNTHETIC);
        expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
        expect(res.headers['x-service-license']).toBe(res.body.license);
      });

      it('by-address: the tolerant pass reports real similarity and confidence below 1', async () => {
        const res = await get('/api/cadastre/by-address')
          .query({ q: messy(f.nswParcel.address) })
          .expect(200);
        expect(res.body.data.properties.parcel_pfi).toBe(f.nswParcel.parcel_pfi);
        expect(res.body.similarity).toBeGreaterThan(0.5);
        expect(res.body.similarity).toBeLessThan(1);
        expect(res.body.confidence).toBeGreaterThanOrEqual(0.5);
        expect(res.body.confidence).toBeLessThan(1);
      });

      it('by-address: no candidate above the floor is a 404 in the cadastre shape with a hint', async () => {
        const res = await get('/api/cadastre/by-address')
          .query({ q: '99999 Nowhere Street, Huntly VIC 3551' })
          .expect(404);
        expect(res.body).toMatchObject({ success: false, data: null, source: null });
        expect(res.body.error).toMatch(/No address matches/);
        expect(res.body.hint).toMatch(/\S/);
        const vague = await get('/api/cadastre/by-address').query({ q: 'somewhere near the river' }).expect(404);
        expect(vague.body.error).toMatch(/No house number or lot number/);
      });

      it('by-address: postcode and state narrow the match, and a contradicting one finds nothing', async () => {
        const postcode = /(\d{4})$/.exec(f.qldParcel.address)![1]!;
        const ok = await get('/api/cadastre/by-address')
          .query({ q: messy(f.qldParcel.address), postcode, state: 'QLD' })
          .expect(200);
        expect(ok.body.data.properties.parcel_pfi).toBe(f.qldParcel.parcel_pfi);
        await get('/api/cadastre/by-address')
          .query({ q: messy(f.qldParcel.address), state: 'VIC' })
          .expect(404);
        await get('/api/cadastre/by-address')
          .query({ q: messy(f.qldParcel.address), postcode: '2000' })
          .expect(404);
      });

      it('by-address: garbage timeout_ms is ignored and the default budget applies', async () => {
        for (const timeout_ms of ['soon', '-5', '0', '1e400']) {
          const res = await get('/api/cadastre/by-address').query({ q: f.vicParcel.address, timeout_ms }).expect(200);
          expect(res.body.data.properties.parcel_pfi).toBe(f.vicParcel.parcel_pfi);
        }
        await get('/api/cadastre/by-address').query({ q: f.vicParcel.address, timeout_ms: '50' }).expect(200);
      });

      it('resolve: an address to gnaf_pid, state and parcel_pfi', async () => {
        const res = await get('/v1/property/resolve')
          .query({ q: messy(f.qldParcel.address) })
          .expect(200);
        expect(res.body.data).toMatchObject({
          gnaf_pid: f.qldParcel.gnaf_pid,
          state: 'QLD',
          parcel_pfi: f.qldParcel.parcel_pfi,
          address: f.qldParcel.address,
        });
        expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
        await get('/v1/property/resolve').query({ q: '1 Imaginary Lane, Nowhere NSW 2999' }).expect(404);
      });

      it('autocomplete: suggestions for a typed prefix, unit filter, state filter and limit', async () => {
        const [number, ...rest] = f.vicParcel.address.split(' ');
        const typed = `${number} ${rest[0]!.slice(0, 3).toLowerCase()}`;
        const res = await get('/api/address/autocomplete').query({ q: typed }).expect(200);
        expect(res.body.success).toBe(true);
        expect(res.body.suggestions.length).toBeGreaterThan(0);
        expect(res.body.suggestions.length).toBeLessThanOrEqual(10);
        for (const s of res.body.suggestions as Suggestion[])
          expect(s.address.startsWith(`${number} ${rest[0]!.slice(0, 3)}`)).toBe(true);
        expect((res.body.suggestions as Suggestion[]).map((s) => s.gnaf_pid)).toContain(f.vicParcel.gnaf_pid);
        expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
        const none = await get('/api/address/autocomplete').query({ q: typed, state: 'QLD' }).expect(200);
        expect((none.body.suggestions as Suggestion[]).every((s) => s.state === 'QLD')).toBe(true);
        const one = await get('/api/address/autocomplete').query({ q: typed, limit: '1' }).expect(200);
        expect(one.body.suggestions).toHaveLength(1);
        const spelled = f.vicParcel.address.replace(/ ST, .*/, ' Street').replace(/ RD, .*/, ' Road');
        if (spelled !== f.vicParcel.address) {
          const full = await get('/api/address/autocomplete').query({ q: spelled }).expect(200);
          expect((full.body.suggestions as Suggestion[]).map((s) => s.gnaf_pid)).toContain(f.vicParcel.gnaf_pid);
        }
      });

      it('validate: a real address is valid with its normalised form; a made-up one is not', async () => {
        const ok = await get('/api/address/validate')
          .query({ q: messy(f.nswParcel.address) })
          .expect(200);
        expect(ok.body).toMatchObject({ success: true, valid: true });
        expect(ok.body.data).toMatchObject({
          gnaf_pid: f.nswParcel.gnaf_pid,
          address: f.nswParcel.address,
          exact: false,
        });
        expect(ok.body.data.corrections).toContain('postcode not given');
        const bad = await get('/api/address/validate').query({ q: '1 Imaginary Lane, Huntly VIC 3551' }).expect(200);
        expect(bad.body).toMatchObject({ success: true, valid: false, data: null });
        expect(bad.body.error).toMatch(/No address matches/);
      });

      it('parse-lot: reads lot/plan references per state, and refuses text that is not one', async () => {
        const vic = await get('/api/cadastre/parse-lot').query({ q: 'Lot 3 PS612345' }).expect(200);
        expect(vic.body).toMatchObject({ success: true, source: 'parser', error: null });
        expect(vic.body.data).toMatchObject({
          lot: '3',
          plan: 'PS612345',
          plan_type: 'PS',
          state: 'VIC',
          spi: '3\\PS612345',
        });
        const nsw = await get('/api/cadastre/parse-lot').query({ q: '10//DP123456' }).expect(200);
        expect(nsw.body.data).toMatchObject({ lot: '10', plan: 'DP123456', state: 'NSW', spi: '10//DP123456' });
        const qld = await get('/api/cadastre/parse-lot').query({ q: '16/SP210455', state: 'QLD' }).expect(200);
        expect(qld.body.data).toMatchObject({ lot: '16', plan: 'SP210455', state: 'QLD', spi: '16SP210455' });
        const bad = await get('/api/cadastre/parse-lot').query({ q: 'the blue house' }).expect(400);
        expect(bad.body).toMatchObject({ success: false, data: null });
        expect(bad.body.hint).toMatch(/PS612345/);
      });

      it('lot-detail: the same lot by PFI, by gnaf_pid and by its lot/plan reference', async () => {
        const p = f.nswParcel;
        const byPfi = await get(`/api/cadastre/lot-detail/${p.parcel_pfi}`).query({ state: 'NSW' }).expect(200);
        expect(byPfi.body.success).toBe(true);
        expect(byPfi.body.data).toMatchObject({
          parcel_pfi: p.parcel_pfi,
          state: 'NSW',
          matched_by: 'pfi',
          plan_type: 'DP',
        });
        expect((byPfi.body.data.addresses as Suggestion[]).map((a) => a.gnaf_pid)).toContain(p.gnaf_pid);
        expect(byPfi.body.data.area_m2).toBeGreaterThan(50);
        const [west, south, east, north] = byPfi.body.data.bbox as number[];
        expect(byPfi.body.data.centroid.lng).toBeGreaterThan(west!);
        expect(byPfi.body.data.centroid.lng).toBeLessThan(east!);
        expect(byPfi.body.data.centroid.lat).toBeGreaterThan(south!);
        expect(byPfi.body.data.centroid.lat).toBeLessThan(north!);
        expect(byPfi.headers['x-service-attribution']).toBe(byPfi.body.attribution);
        const byGnaf = await get(`/api/cadastre/lot-detail/${p.gnaf_pid}`).expect(200);
        expect(byGnaf.body.data).toMatchObject({ parcel_pfi: p.parcel_pfi, matched_by: 'gnaf_pid' });
        const spi = byPfi.body.data.parcel_spi as string;
        const byLot = await get(`/api/cadastre/lot-detail/${encodeURIComponent(spi)}`)
          .query({ state: 'NSW' })
          .expect(200);
        expect(byLot.body.data).toMatchObject({
          parcel_pfi: p.parcel_pfi,
          matched_by: 'lot_plan',
          lot: byPfi.body.data.lot,
        });
        const missing = await get('/api/cadastre/lot-detail/999999999999').query({ state: 'NSW' }).expect(404);
        expect(missing.body).toMatchObject({
          success: false,
          data: null,
          error: "No parcel found for '999999999999'.",
        });
      });
    });

    describe('GET /api/spear/nearby', () => {
      // the lots under the point come from the cadastre subgraph (Place.parcel_pfis, @requires):
      // in the distributed mode that is the cadastre process's answer, sent on to the development's
      it('counts an application touching the lot under the point at 0 m though its own point is on another lot, by point and by parcel', async () => {
        const [spot] = await db.query<{ reference: string; pfi: string; lat: number; lng: number }>(
          `SELECT s.spear_reference AS reference, c.parcel_pfi AS pfi,
                  ST_Y(ST_PointOnSurface(c.geom)) AS lat, ST_X(ST_PointOnSurface(c.geom)) AS lng
           FROM development.spear_application s
           JOIN cadastre.parcel c ON c.dataset = s.dataset AND c.state = 'VIC'
             AND c.parcel_pfi = s.parcel_pfis[cardinality(s.parcel_pfis)]
           WHERE s.dataset = 'sandbox' AND cardinality(s.parcel_pfis) >= 2 AND NOT ST_Intersects(c.geom, s.geom)
             AND ST_Distance(s.geom::geography, ST_PointOnSurface(c.geom)::geography) > 1
           ORDER BY s.spear_reference LIMIT 1`,
        );
        expect(spot).toBeDefined();
        const byPoint = await get('/api/spear/nearby')
          .query({ lat: String(spot!.lat), lng: String(spot!.lng), radius_m: '1' })
          .expect(200);
        expect(byPoint.body).toMatchObject({ success: true, status: 'ok', query: { state: 'VIC', radius_m: 1 } });
        const hit = (byPoint.body.data as Array<{ spear_reference: string; distance_m: number }>).find(
          (a) => a.spear_reference === spot!.reference,
        );
        expect(hit?.distance_m).toBe(0);
        expect(byPoint.headers['x-service-attribution']).toBe(byPoint.body.attribution);
        const byParcel = await get('/api/spear/nearby')
          .query({ pfi: spot!.pfi, state: 'VIC', radius_m: '1' })
          .expect(200);
        expect(byParcel.body.property).toEqual({
          parcel_pfi: spot!.pfi,
          state: 'VIC',
          location: { lat: spot!.lat, lng: spot!.lng },
        });
        expect(byParcel.body.data).toEqual(byPoint.body.data);
      });

      it('answers not_covered in NSW, 404 for an unknown parcel and 400 for a radius over 2000 m', async () => {
        const nsw = await get('/api/spear/nearby')
          .query({ lat: String(f.nswParcel.lat), lng: String(f.nswParcel.lng) })
          .expect(200);
        expect(nsw.body).toMatchObject({ status: 'not_covered', query: { state: 'NSW' }, count: 0, data: [] });
        const unknown = await get('/api/spear/nearby').query({ pfi: 'NOPE999', state: 'VIC' }).expect(404);
        expect(unknown.body).toMatchObject({ success: false, error: 'No parcel with PFI NOPE999 in VIC.' });
        await get('/api/spear/nearby')
          .query({ lat: String(f.vicParcel.lat), lng: String(f.vicParcel.lng), radius_m: '2001' })
          .expect(400);
      });
    });

    describe('GraphQL at /graphql', () => {
      it('serves the composed graph with the same data as the REST facade', async () => {
        const res = await request(app)
          .post('/graphql')
          .set('Authorization', `Bearer ${key}`)
          .send({
            query:
              'query($pid: ID!) { propertyByGnafPid(gnaf_pid: $pid) { parcel_pfi cadastre { status } planning { status } } }',
            variables: { pid: f.vicParcel.gnaf_pid },
          })
          .expect(200);
        expect(res.body.data.propertyByGnafPid).toEqual({
          parcel_pfi: f.vicParcel.parcel_pfi,
          cadastre: { status: 'ok' },
          planning: { status: 'ok' },
        });
      });
    });
  });
}
