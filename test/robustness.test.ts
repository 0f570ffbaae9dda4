import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../rest-facade/routes/index.ts';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

let t: TestRuntime;

beforeAll(async () => {
  t = await testRuntime();
});

/** Every answer that is not a success is JSON in the spec's error shape: no HTML page, no stack trace. */
function expectErrorShape(res: request.Response, status: number): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.success).toBe(false);
  expect(typeof res.body.error).toBe('string');
  expect(res.text).not.toMatch(/<html|<pre>|\bat [\w.<>]+ \(|node_modules/i);
}

const paths = [...new Set(ROUTES.map((r) => r.path)), '/graphql'];

describe.each(paths)('%s under hostile requests', (path) => {
  const keyed = () => ({ Authorization: `Bearer ${t.key}` });

  it.each(['put', 'delete', 'patch'] as const)('answers %s with a JSON 405 or 404', async (method) => {
    const res = await request(t.app)[method](path).set(keyed()).send({});
    expect([404, 405]).toContain(res.status);
    expectErrorShape(res, res.status);
  });

  // A body is read only for a route that takes one, once the caller is known: a POST to a route that
  // does not take POST is a 405 whatever its body, and a keyless caller is a 401 (docs/decisions.md).
  const takesPost = path === '/graphql' || ROUTES.some((r) => r.path === path && r.method === 'post');
  const postOpen = ROUTES.some((r) => r.path === path && r.method === 'post' && r.access === 'open');
  // the test key holds no add-on capability: a route that admits by capability refuses it (402) before the body
  const refusedBeforeBody = ROUTES.some((r) => r.path === path && r.method === 'post' && r.admit !== undefined);
  const bodyStatus = (status: number) => (!takesPost ? 405 : refusedBeforeBody ? 402 : status);

  it('answers a malformed JSON body with a JSON 400 (405 where the route takes no POST)', async () => {
    const res = await request(t.app)
      .post(path)
      .set(keyed())
      .set('Content-Type', 'application/json')
      .send('{"lat": -36.7,');
    expectErrorShape(res, bodyStatus(400));
  });

  it('answers an oversized body with a JSON 413 (405 where the route takes no POST)', async () => {
    // past the route's own limit where it sets one (enrich takes a 2 MB CSV escaped in JSON), else the 1 MB default
    const limit = Math.max(1_000_000, ...ROUTES.filter((r) => r.path === path).map((r) => r.bodyLimit?.bytes ?? 0));
    const res = await request(t.app)
      .post(path)
      .set(keyed())
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ blob: 'x'.repeat(limit + 100_000) }));
    expectErrorShape(res, bodyStatus(413));
  });

  it.skipIf(!takesPost || postOpen)(
    'reads no body before the key: a keyless malformed or oversized body is a 401',
    async () => {
      for (const body of ['{"lat": -36.7,', JSON.stringify({ blob: 'x'.repeat(3_000_000) })]) {
        const res = await request(t.app).post(path).set('Content-Type', 'application/json').send(body);
        expectErrorShape(res, 401);
      }
    },
  );

  it('answers garbage credentials with a JSON 401 (or serves an open route)', async () => {
    const route = ROUTES.find((r) => r.path === path);
    for (const header of ['Bearer \u00ff\u00fe', `Bearer ${'k'.repeat(5000)}`, 'Token abc', 'Bearer landgraph_live_']) {
      const res = await request(t.app)
        [route?.method ?? 'get'](path)
        .set('Authorization', header)
        .set('Accept', 'application/json');
      if (route?.access === 'open') expect(res.status).toBe(200);
      else expectErrorShape(res, 401);
    }
  });

  it('still answers JSON when the client asks for something else', async () => {
    const res = await request(t.app)
      .get(path)
      .set(keyed())
      .set('Accept', 'image/png')
      .set('X-Request-Id', 'x'.repeat(500));
    expect(res.status).toBeLessThan(500);
    expect(res.headers['x-request-id']).not.toBe('x'.repeat(500));
    if (path !== '/changelog' && path !== '/graphql') expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('unknown routes', () => {
  it.each([
    '/',
    '/api',
    '/api/cadastre',
    '/v1/property/graph/extra',
    '/v2/property/graph',
    '/%E0%A4%A',
    '/api/../etc/passwd',
  ])('answers %s with a JSON 404', async (path) => {
    const res = await request(t.app).get(path).set('Authorization', `Bearer ${t.key}`);
    expect([400, 404]).toContain(res.status);
    expectErrorShape(res, res.status);
  });
});
