import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { decimalSpan } from '../core/geo.ts';
import { assertBBox } from '../core/validate.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

let t: TestRuntime;
let f: Fixtures;

beforeAll(async () => {
  t = await testRuntime();
  f = await loadFixtures(t.runtime.db);
});

const get = (url: string) => request(t.app).get(url).set('Authorization', `Bearer ${t.key}`);

/** A 400 in the spec's error shape whose message names what was wrong. */
function expectRefused(res: request.Response, error: RegExp): void {
  expect(res.status).toBe(400);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.success).toBe(false);
  expect(res.body.error).toMatch(error);
}

describe('text that is not text', () => {
  it.each([
    ['/api/cadastre/lookup?pfi=%00abc&state=VIC', /^pfi contains a NUL byte\.$/],
    ['/v1/property/graph?gnaf_pid=GA%00X', /^gnaf_pid contains a NUL byte\.$/],
    ['/api/address/autocomplete?q=72%00dwy', /^q contains a NUL byte\.$/],
    ['/api/cadastre/lookup?pfi=%FF&state=VIC', /^pfi is not valid UTF-8\.$/],
    ['/api/cadastre/by-address?q=1%C3%28A+St', /^q is not valid UTF-8\.$/],
    ['/api/address/validate?q=1+A+St&state=V%ED%A0%80', /^state is not valid UTF-8\.$/],
    ['/api/address/validate?q=1+A+St&%00=1', /^a parameter name contains a NUL byte\.$/],
  ])('%s is a 400 naming the parameter', async (url, error) => {
    const res = await get(url);
    expectRefused(res, error);
    expect(res.body.hint).toMatch(/UTF-8/);
  });

  it('refuses a NUL in a path parameter in the route’s own envelope', async () => {
    const res = await get('/api/cadastre/lot-detail/%00abc');
    expectRefused(res, /^propertyId contains a NUL byte\.$/);
    expect(res.body).toMatchObject({ data: null, source: null });
  });

  it('refuses a path parameter that is not UTF-8 in the route’s own envelope', async () => {
    const res = await get('/api/cadastre/lot-detail/3%FF%5CPS612345');
    expectRefused(res, /^propertyId is not valid UTF-8\.$/);
    expect(res.body).toMatchObject({ data: null, source: null });
  });

  it('reads a literal percent sign that starts no escape as text, not as bad UTF-8', async () => {
    const res = await get('/api/cadastre/parse-lot?q=Lot+3+PS612345%');
    expect(res.body.error).toBe("'Lot 3 PS612345%' is not a lot/plan reference.");
  });

  const stats = () =>
    request(t.app)
      .post('/api/contours/terrain-stats')
      .set('Authorization', `Bearer ${t.key}`)
      .set('Content-Type', 'application/json');

  it('refuses a NUL or a lone surrogate inside a JSON body, naming where it is', async () => {
    expectRefused(await stats().send('{"state":"VIC\\u0000","polygon":null}'), /^state contains a NUL byte\.$/);
    expectRefused(
      await stats().send('{"state":"VIC","polygon":{"type":"Polygon","coordinates":[["\\ud800"]]}}'),
      /^polygon\.coordinates\[0\]\[0\] is not valid UTF-8\.$/,
    );
  });

  it('refuses a JSON body whose bytes are not UTF-8', async () => {
    const body = Buffer.concat([Buffer.from('{"state":"VI'), Buffer.from([0xff]), Buffer.from('C"}')]);
    expectRefused(
      // sent as the bytes themselves: superagent would otherwise serialise the Buffer as JSON
      await stats()
        .serialize((raw: string) => raw)
        .send(body),
      /^state is not valid UTF-8\.$/,
    );
  });

  it('refuses a NUL in GraphQL variables with a GraphQL 400 naming the argument it fills', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.key}`)
      .send({
        query: 'query ($g: ID!) { propertyByGnafPid(gnaf_pid: $g) { gnaf_pid } }',
        variables: { g: 'GA\u0000X' },
      });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(res.body.errors[0].message).toMatch(/^gnaf_pid contains a NUL byte\.$/);
  });

  it('refuses bytes that are not UTF-8 in a GraphQL body before the graph reads it', async () => {
    const body = Buffer.concat([
      Buffer.from('{"query":"{ matchAddress(q: \\"72 DW'),
      Buffer.from([0xff]),
      Buffer.from('\\") { status } }"}'),
    ]);
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.key}`)
      .set('Content-Type', 'application/json')
      .serialize((raw: string) => raw)
      .send(body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/not valid UTF-8/);
  });
});

describe('numbers are decimals as documented', () => {
  it.each(['0x90', '0b1001', '0o220', '14 4.33', '+-144', '', '144.33abc', 'Infinity', '1e400', '1_44'])(
    "lng='%s' is a 400, not read as a number",
    async (lng) => {
      const res = await get('/api/cadastre/lookup').query({ lat: String(f.vicParcel.lat), lng });
      expectRefused(res, /^lng must be a number, got /);
    },
  );

  it('reads a decimal with an exponent as the same point', async () => {
    const plain = await get('/api/cadastre/lookup').query({
      lat: String(f.vicParcel.lat),
      lng: String(f.vicParcel.lng),
    });
    const exponent = await get('/api/cadastre/lookup').query({
      lat: `${f.vicParcel.lat * 10}e-1`,
      lng: `${f.vicParcel.lng / 100}E2`,
    });
    expect(plain.status).toBe(200);
    expect(exponent.status).toBe(200);
    expect(exponent.body.data.properties.parcel_pfi).toBe(plain.body.data.properties.parcel_pfi);
  });

  it('refuses hexadecimal inside a bbox', async () => {
    const res = await get('/api/cadastre/bbox').query({ bbox: '0x90,-36.7,144.31,-36.69' });
    expectRefused(res, /bbox must be four comma-separated numbers/);
  });

  it.each([
    ['lot_area_m2', '1e-300', /^lot_area_m2 must be from 10 to 1000000 m²; got 1e-300\.$/],
    ['lot_area_m2', '2000000', /^lot_area_m2 must be from 10 to 1000000 m²; got 2000000\.$/],
    ['frontage_m', '1e-7', /^frontage_m must be from 1 to 10000 m; got 1e-7\.$/],
    ['depth_m', '0.01', /^depth_m must be from 1 to 10000 m; got 0.01\.$/],
    ['wall_height_m', '0.1', /^wall_height_m must be from 0.5 to 200 m; got 0.1\.$/],
  ])('a physically meaningless %s=%s is refused with the accepted range', async (name, value, error) => {
    const res = await get('/v1/planning-provisions').query({
      lat: String(f.vicParcel.lat),
      lng: String(f.vicParcel.lng),
      [name]: value,
    });
    expectRefused(res, error);
  });
});

describe('lot figures over GraphQL', () => {
  const graphql = (query: string) =>
    request(t.app).post('/graphql').set('Authorization', `Bearer ${t.key}`).send({ query });

  it('refuses a meaningless lot figure on provisionsAt with the accepted range', async () => {
    const { lat, lng } = f.vicParcel;
    const res = await graphql(
      `{ provisionsAt(lat: ${lat}, lng: ${lng}, state: "VIC", lot: { frontage_m: 1e-7 }) { status } }`,
    );
    expect(res.body.errors[0]).toMatchObject({
      message: 'frontage_m must be from 1 to 10000 m; got 1e-7.',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('refuses a meaningless lot figure on a property’s envelope', async () => {
    const res = await graphql(
      `{ propertyByGnafPid(gnaf_pid: "${f.vicParcel.gnaf_pid}") { envelope(lot: { lot_area_m2: 1e-300 }) { status } } }`,
    );
    expect(res.body.errors[0]).toMatchObject({
      message: 'lot_area_m2 must be from 10 to 1000000 m²; got 1e-300.',
      extensions: { code: 'BAD_REQUEST' },
    });
  });
});

describe('window limits compare decimals as typed', () => {
  it('takes a span of exactly the limit, which float subtraction makes 0.10000000000002274', () => {
    expect(144.383 - 144.283).toBeGreaterThan(0.1);
    expect(decimalSpan(144.283, 144.383, 0.1)).toEqual({ exceeds: false, span: '0.1' });
    expect(decimalSpan(-36.719, -36.619, 0.1)).toEqual({ exceeds: false, span: '0.1' });
    expect(decimalSpan(144.283, 144.3831, 0.1)).toEqual({ exceeds: true, span: '0.1001' });
    expect(decimalSpan(1e-7, 2.5e-7, 0.1)).toEqual({ exceeds: false, span: '0.00000015' });
    expect(decimalSpan(-0.05, 0.05, 0.1)).toEqual({ exceeds: false, span: '0.1' });
    expect(() => assertBBox({ west: 144.283, south: -36.719, east: 144.383, north: -36.619 })).not.toThrow();
  });

  it('answers a bbox of exactly 0.1° per axis', async () => {
    const res = await get('/api/cadastre/bbox').query({ bbox: '140.283,-30.719,140.383,-30.619', state: 'SA' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'FeatureCollection', success: true });
  });

  it('refuses a wider bbox with its span as typed, and the credit keys of a FeatureCollection', async () => {
    const res = await get('/api/cadastre/bbox').query({ bbox: '144.283,-36.719,144.3831,-36.619' });
    expectRefused(res, /^bbox spans 0\.1001 by 0\.1 degrees; the limit is 0\.1 degrees per axis\.$/);
    expect(res.body).toMatchObject({ type: 'FeatureCollection', features: [], attribution: null, license: null });
  });
});
