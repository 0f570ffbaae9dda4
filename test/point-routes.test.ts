import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INTERNAL_SCOPE } from '../core/context.ts';
import type { OpenApiDocument } from '../rest-facade/openapi.ts';
import { buildOpenApiDocument } from '../rest-facade/openapi.ts';
import type { ParameterObject } from '../rest-facade/openapi/types.ts';
import { numeric } from '../rest-facade/params.ts';
import { defineRoute } from '../rest-facade/route.ts';
import { ROUTES } from '../rest-facade/routes/index.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

/**
 * The point routes that also take a parcel or an address (spec 2.1.2): the answer by pfi and
 * state is the answer at the property's own point.
 */
describe('GET /api/ugb/at-point and /api/climate-zone by parcel or address', () => {
  let t: TestRuntime;
  let f: Fixtures;
  /** The point the property graph analyses the fixture parcel at. */
  let location: { lat: number; lng: number };
  const get = (path: string, query: Record<string, string | number>, key: string | null = t.key) => {
    const call = request(t.app).get(path).query(query);
    return key === null ? call : call.set('Authorization', `Bearer ${key}`);
  };

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    const { data } = await t.runtime.graph.execute<{ property: { location: { lat: number; lng: number } } }>(
      'query($pfi: String!, $state: String!) { property: propertyByParcel(parcel_pfi: $pfi, state: $state) { location { lat lng } } }',
      { pfi: f.vicParcel.parcel_pfi, state: 'VIC' },
      INTERNAL_SCOPE,
    );
    if (!data?.property.location) throw new Error('the fixture parcel has no point');
    location = data.property.location;
  });

  it('answers the UGB by pfi and state as at the parcel point, echoing what was asked', async () => {
    const atPoint = await get('/api/ugb/at-point', location).expect(200);
    const byParcel = await get('/api/ugb/at-point', { pfi: f.vicParcel.parcel_pfi, state: 'VIC' }).expect(200);
    expect(atPoint.body.data.available).toBe(true);
    expect(byParcel.body.data).toEqual({ ...atPoint.body.data, query: { pfi: f.vicParcel.parcel_pfi, state: 'VIC' } });
    expect(byParcel.body.source).toBe(atPoint.body.source);
    expect(byParcel.headers['x-mirror-source']).toBe(atPoint.headers['x-mirror-source']);
    expect(byParcel.headers['x-service-license']).toBe('CC BY 4.0');
  });

  it('answers the UGB by gnaf_pid, at the property the address is on', async () => {
    const byAddress = await get('/api/ugb/at-point', { gnaf_pid: f.vicParcel.gnaf_pid }).expect(200);
    expect(byAddress.body.data).toMatchObject({
      state: 'VIC',
      available: true,
      query: { gnaf_pid: f.vicParcel.gnaf_pid },
    });
    expect(typeof byAddress.body.data.insideUGB).toBe('boolean');
  });

  it('answers the climate zone by pfi and state as at the parcel point', async () => {
    const atPoint = await get('/api/climate-zone', location).expect(200);
    const byParcel = await get('/api/climate-zone', { pfi: f.vicParcel.parcel_pfi, state: 'VIC' }).expect(200);
    expect(atPoint.body.available).toBe(true);
    const { query: _point, ...sameAnswer } = atPoint.body as Record<string, unknown>;
    expect(byParcel.body).toEqual({ ...sameAnswer, query: { pfi: f.vicParcel.parcel_pfi, state: 'VIC' } });
  });

  it('refuses both forms at once, half a form, and pfi without state, in each route error shape', async () => {
    const parcel = { pfi: f.vicParcel.parcel_pfi, state: 'VIC' };
    const ugbBoth = await get('/api/ugb/at-point', { ...location, ...parcel }).expect(400);
    expect(ugbBoth.body).toMatchObject({ success: false, data: null });
    expect(ugbBoth.body.error).toMatch(/one way: lat and lng, or pfi and state, or gnaf_pid/);
    const ugbTwo = await get('/api/ugb/at-point', { ...parcel, gnaf_pid: f.vicParcel.gnaf_pid }).expect(400);
    expect(ugbTwo.body.error).toMatch(/one way/);
    const climateBoth = await get('/api/climate-zone', { ...location, ...parcel }).expect(400);
    expect(climateBoth.body).toMatchObject({ success: false });
    expect(climateBoth.body.error).toMatch(/one way: lat and lng, or pfi and state\./);
    for (const path of ['/api/ugb/at-point', '/api/climate-zone']) {
      const noState = await get(path, { pfi: f.vicParcel.parcel_pfi }).expect(400);
      expect(noState.body.error).toMatch(/pfi needs state/);
      const half = await get(path, { lat: location.lat }).expect(400);
      expect(half.body.error).toMatch(/lat and lng must be given together/);
      const none = await get(path, {}).expect(400);
      expect(none.body.error).toMatch(/one way/);
    }
  });

  it('refuses gnaf_pid on the climate zone: envelope.read does not open the address entry point', async () => {
    const res = await get('/api/climate-zone', { gnaf_pid: f.vicParcel.gnaf_pid }).expect(400);
    expect(res.body.error).toBe('Give the place one way: lat and lng, or pfi and state.');
  });

  it('answers 404 for a parcel or an address that does not exist', async () => {
    for (const path of ['/api/ugb/at-point', '/api/climate-zone']) {
      const res = await get(path, { pfi: 'NO-SUCH-PFI', state: 'VIC' }).expect(404);
      expect(res.body.error).toBe('No parcel with PFI NO-SUCH-PFI in VIC.');
    }
    const address = await get('/api/ugb/at-point', { gnaf_pid: 'GAVIC000000000' }).expect(404);
    expect(address.body).toMatchObject({ success: false, error: 'No property with gnaf_pid GAVIC000000000.' });
  });

  it('keeps the scopes: ugb.read or envelope.read alone answers by parcel; neither is refused', async () => {
    const parcel = { pfi: f.vicParcel.parcel_pfi, state: 'VIC' };
    const ugbOnly = await createTestKey(t.runtime, { scopes: ['ugb.read'] });
    const ugb = await get('/api/ugb/at-point', parcel, ugbOnly).expect(200);
    expect(ugb.body.data.available).toBe(true);
    await get('/api/climate-zone', parcel, ugbOnly).expect(403);
    const envelopeOnly = await createTestKey(t.runtime, { scopes: ['envelope.read'] });
    const climate = await get('/api/climate-zone', parcel, envelopeOnly).expect(200);
    expect(climate.body.available).toBe(true);
    const denied = await get('/api/ugb/at-point', parcel, envelopeOnly).expect(403);
    expect(denied.body.error).toBe('Missing scope: ugb.read');
  });

  it('keeps the keyless map mount to points: a parcel or an address needs a key', async () => {
    await get('/api/ugb/at-point', location, null).expect(200);
    const asked: Array<Record<string, string>> = [
      { pfi: f.vicParcel.parcel_pfi, state: 'VIC' },
      { gnaf_pid: f.vicParcel.gnaf_pid },
    ];
    for (const query of asked) {
      // the key check of every keyed route: its plain shape and WWW-Authenticate
      const res = await get('/api/ugb/at-point', query, null).expect(401);
      expect(res.body).toMatchObject({ success: false, error: 'Missing API key' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });
});

/**
 * Routes that take a point and deliberately not a parcel, each for a reason: they are about a
 * place on the map, not about a property, so a parcel would have to be turned into a point the
 * caller did not choose.
 */
const POINT_ONLY: Record<string, string> = {
  'GET /api/roads/nearest':
    'the roads nearest a point the caller chose; for a parcel, GET /api/roads/fronting gives the roads along its boundary',
};

/** The documented routes that take lat and lng but do not document pfi and state beside them. */
function pointRoutesWithoutParcel(doc: OpenApiDocument): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, { parameters?: ParameterObject[] }>)) {
      const names = new Set((op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
      if (names.has('lat') && names.has('lng') && !(names.has('pfi') && names.has('state'))) {
        out.push(`${method.toUpperCase()} ${path}`);
      }
    }
  }
  return out.sort();
}

describe('every point route also takes pfi and state (spec 2.1.2)', () => {
  const doc = buildOpenApiDocument(ROUTES, { version: '1.0.0' });

  it('holds for the route table, but for the routes listed with a reason', () => {
    expect(pointRoutesWithoutParcel(doc)).toEqual(Object.keys(POINT_ONLY).sort());
  });

  it('would catch a route that takes only lat and lng', () => {
    const pointOnly = defineRoute({
      method: 'get',
      path: '/api/test-point-only',
      tag: 'Test',
      summary: 'A point route that forgot the parcel.',
      access: { scope: 'cadastre.read' },
      query: z.object({ lat: numeric('lat'), lng: numeric('lng') }),
      errorStyle: 'plain',
      handle: () => Promise.resolve({ body: {} }),
    });
    const withIt = buildOpenApiDocument([...ROUTES, pointOnly], { version: '1.0.0' });
    expect(pointRoutesWithoutParcel(withIt)).toContain('GET /api/test-point-only');
  });
});
