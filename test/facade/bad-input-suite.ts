import request from 'supertest';
import type { App } from 'supertest/types.js';
import { beforeAll, describe, expect, it } from 'vitest';

type BadCase = {
  path: string;
  query: Record<string, string | string[]>;
  error: RegExp;
  shape: 'envelope' | 'featureCollection' | 'plain';
};

const BASE = { lat: '-36.66', lng: '144.33' };

/** Every route refuses each kind of bad input with a 400 in its own body shape and words that say what to fix. */
export const BAD_INPUTS: BadCase[] = [
  { path: '/api/cadastre/lookup', query: {}, error: /Pass lat and lng/, shape: 'envelope' },
  { path: '/api/cadastre/lookup', query: { lat: '-36.66' }, error: /Pass lat and lng/, shape: 'envelope' },
  {
    path: '/api/cadastre/lookup',
    query: { ...BASE, lat: 'north' },
    error: /lat must be a number, got 'north'/,
    shape: 'envelope',
  },
  { path: '/api/cadastre/lookup', query: { ...BASE, lng: '' }, error: /lng must be a number/, shape: 'envelope' },
  { path: '/api/cadastre/lookup', query: { ...BASE, lat: 'NaN' }, error: /lat must be a number/, shape: 'envelope' },
  {
    path: '/api/cadastre/lookup',
    query: { ...BASE, lat: ['-36.66', '-36.67'] },
    error: /lat must be a single number/,
    shape: 'envelope',
  },
  {
    path: '/api/cadastre/lookup',
    query: { lat: '144.33', lng: '-36.66' },
    error: /lat must be a number between -90 and 90/,
    shape: 'envelope',
  },
  { path: '/api/cadastre/lookup', query: { lat: '51.5', lng: '-0.12' }, error: /outside Australia/, shape: 'envelope' },
  { path: '/api/cadastre/lookup', query: { ...BASE, state: 'XX' }, error: /Unknown state 'XX'/, shape: 'envelope' },
  { path: '/api/cadastre/lookup', query: { pfi: '' }, error: /pfi must not be empty/, shape: 'envelope' },
  { path: '/api/cadastre/bbox', query: {}, error: /bbox/, shape: 'featureCollection' },
  {
    path: '/api/cadastre/bbox',
    query: { bbox: '144.3,-36.7,144.31' },
    error: /four comma-separated numbers/,
    shape: 'featureCollection',
  },
  {
    path: '/api/cadastre/bbox',
    query: { bbox: '144.3,-36.7,a,-36.6' },
    error: /four comma-separated numbers/,
    shape: 'featureCollection',
  },
  {
    path: '/api/cadastre/bbox',
    query: { bbox: '144.31,-36.7,144.30,-36.69' },
    error: /inverted/,
    shape: 'featureCollection',
  },
  {
    path: '/api/cadastre/bbox',
    query: { bbox: '144.0,-36.7,144.2,-36.69' },
    error: /limit is 0.1 degrees/,
    shape: 'featureCollection',
  },
  {
    path: '/api/cadastre/bbox',
    query: { bbox: '10,10,10.05,10.05' },
    error: /outside Australia/,
    shape: 'featureCollection',
  },
  {
    path: '/api/cadastre/bbox',
    query: { bbox: '144.3,-36.7,144.31,-36.69', state: 'Victoria!' },
    error: /Unknown state/,
    shape: 'featureCollection',
  },
  { path: '/v1/property/graph', query: {}, error: /Identify the property one way/, shape: 'plain' },
  {
    path: '/v1/property/graph',
    query: { ...BASE, gnaf_pid: 'GAVIC1' },
    error: /Identify the property one way/,
    shape: 'plain',
  },
  { path: '/v1/property/graph', query: { lat: '-36.66' }, error: /lat and lng must be given together/, shape: 'plain' },
  { path: '/v1/property/graph', query: { pfi: '123' }, error: /pfi needs state/, shape: 'plain' },
  { path: '/v1/property/graph', query: { lat: '0', lng: '0' }, error: /outside Australia/, shape: 'plain' },
  { path: '/v1/property/graph', query: { ...BASE, state: 'ZZ' }, error: /Unknown state/, shape: 'plain' },
  { path: '/v1/property/graph', query: { gnaf_pid: 'G'.repeat(40) }, error: /at most 32 characters/, shape: 'plain' },
  { path: '/api/cadastre/by-address', query: {}, error: /q is required/, shape: 'envelope' },
  { path: '/api/cadastre/by-address', query: { q: '  ' }, error: /q must not be empty/, shape: 'envelope' },
  {
    path: '/api/cadastre/by-address',
    query: { q: 'x'.repeat(301) },
    error: /at most 300 characters/,
    shape: 'envelope',
  },
  {
    path: '/api/cadastre/by-address',
    query: { q: '1 A St', postcode: '355' },
    error: /postcode must be 4 digits/,
    shape: 'envelope',
  },
  {
    path: '/api/cadastre/by-address',
    query: { q: '1 A St', state: 'Vic.' },
    error: /Unknown state/,
    shape: 'envelope',
  },
  {
    path: '/api/cadastre/by-address',
    query: { q: '1 A St', near: '-36.6' },
    error: /near must be 'lat,lng'/,
    shape: 'envelope',
  },
  {
    path: '/api/cadastre/by-address',
    query: { q: '1 A St', near: '144.3,-36.6' },
    error: /outside Australia/,
    shape: 'envelope',
  },
  { path: '/v1/property/resolve', query: {}, error: /q is required/, shape: 'plain' },
  {
    path: '/v1/property/resolve',
    query: { q: '1 A St', postcode: 'ABCD' },
    error: /postcode must be 4 digits/,
    shape: 'plain',
  },
  { path: '/api/address/autocomplete', query: { q: 'a' }, error: /at least 2 characters/, shape: 'plain' },
  {
    path: '/api/address/autocomplete',
    query: { q: '72 dw', limit: '50' },
    error: /limit must be a whole number from 1 to 20/,
    shape: 'plain',
  },
  {
    path: '/api/address/autocomplete',
    query: { q: '72 dw', limit: 'ten' },
    error: /limit must be a whole number/,
    shape: 'plain',
  },
  {
    path: '/api/address/validate',
    query: { q: ['1 A St', '2 B St'] },
    error: /q must be a single value/,
    shape: 'plain',
  },
];

export function badInputSuite(mode: string, target: () => Promise<{ app: App | string; key: string }>): void {
  describe(`bad input (${mode})`, () => {
    let app: App | string;
    let key: string;
    beforeAll(async () => {
      ({ app, key } = await target());
    });

    it.each(BAD_INPUTS)('$path $query → 400 $error', async ({ path, query, error, shape }) => {
      const res = await request(app).get(path).set('Authorization', `Bearer ${key}`).query(query);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(error);
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
      if (shape === 'envelope') expect(res.body).toMatchObject({ data: null, source: null });
      if (shape === 'featureCollection') expect(res.body).toMatchObject({ type: 'FeatureCollection', features: [] });
    });

    it('answers unknown routes 404 and wrong methods 405 in JSON', async () => {
      const missing = await request(app).get('/api/nowhere').expect(404);
      expect(missing.body).toMatchObject({ success: false, error: 'No route GET /api/nowhere.' });
      const wrongMethod = await request(app)
        .post('/api/cadastre/lookup')
        .set('Authorization', `Bearer ${key}`)
        .send({})
        .expect(405);
      expect(wrongMethod.headers.allow).toBe('GET');
      expect(wrongMethod.body.error).toMatch(/POST is not allowed/);
    });

    it('answers a malformed JSON body with 400 in JSON, never an HTML page', async () => {
      const res = await request(app)
        .post('/api/contours/terrain-stats')
        .set('Authorization', `Bearer ${key}`)
        .set('Content-Type', 'application/json')
        .send('{"lat": ')
        .expect(400);
      expect(res.body).toMatchObject({ success: false, error: 'The request body is not valid JSON.' });
    });

    it('reads no body before the key, and none on a route that takes no POST (docs/decisions.md)', async () => {
      const keyless = await request(app)
        .post('/api/contours/terrain-stats')
        .set('Content-Type', 'application/json')
        .send('{"lat": ')
        .expect(401);
      expect(keyless.body).toMatchObject({ success: false });
      const wrongMethod = await request(app)
        .post('/api/cadastre/lookup')
        .set('Content-Type', 'application/json')
        .send('{"lat": ')
        .expect(405);
      expect(wrongMethod.body).toMatchObject({ success: false });
    });
  });
}
