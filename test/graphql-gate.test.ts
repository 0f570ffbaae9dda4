import { createHash } from 'node:crypto';
import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OPERATION_LIMITS } from '../core/operation-limits.ts';
import { InProcessSubgraphDataSource } from '../gateway/datasources.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

/**
 * /graphql lets nobody in without a key (but a browser to the Sandbox page), measures every
 * operation before any subgraph is called, and charges what it costs to the key's bucket.
 */
let t: TestRuntime;
let f: Fixtures;

beforeAll(async () => {
  t = await testRuntime();
  f = await loadFixtures(t.runtime.db);
});

afterEach(() => {
  vi.restoreAllMocks();
});

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

/** Counts subgraph fetches (the real data source still runs): a refused operation makes none. */
function countSubgraphCalls() {
  return vi.spyOn(InProcessSubgraphDataSource.prototype, 'process');
}

function aliases(count: number, selection: string): string {
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${selection}`).join(' ')} }`;
}

/** Aliases below one root field, so only the alias limit is passed. */
function nestedAliases(count: number): string {
  return `{ parcelAt(lat: 1, lng: 2, state: "VIC") { ${Array.from({ length: count }, (_, i) => `a${i}: status`).join(' ')} } }`;
}

const TYPENAME_QUERY = '{ __typename }';
const persistedQuery = {
  version: 1,
  sha256Hash: createHash('sha256').update(TYPENAME_QUERY).digest('hex'),
};

describe('/graphql without a key', () => {
  it('serves the Sandbox page only to exactly the landing-page request', async () => {
    const page = await request(t.app).get('/graphql').set('Accept', 'text/html').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toMatch(/<html/i);
    // A browser's own Accept header.
    await request(t.app)
      .get('/graphql')
      .set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')
      .expect(200);
  });

  it('refuses the persisted-query replay (401, not data), even after a keyed client sent the operation', async () => {
    const keyed = await request(t.app)
      .post('/graphql')
      .set(bearer(t.key))
      .send({ query: TYPENAME_QUERY, extensions: { persistedQuery } });
    expect(keyed.status).toBe(400);
    const res = await request(t.app)
      .get('/graphql')
      .query({ extensions: JSON.stringify({ persistedQuery }) })
      .set('apollo-require-preflight', 'true')
      .set('Accept', 'application/graphql-response+json, text/html;q=0.9')
      .expect(401);
    expect(res.body).toEqual({
      success: false,
      error: 'Missing API key',
      hint: 'Send Authorization: Bearer <your API key>.',
    });
    expect(res.body.data).toBeUndefined();
  });

  it('refuses every operation by any method, whatever the Accept header says', async () => {
    const attempts = [
      request(t.app).get('/graphql').query({ query: TYPENAME_QUERY }).set('Accept', 'text/html'),
      request(t.app).get('/graphql').query({ operationName: 'X' }).set('Accept', 'text/html'),
      request(t.app).get('/graphql').set('Accept', 'application/graphql-response+json, text/html;q=0.9'),
      request(t.app).get('/graphql').set('Accept', 'application/json'),
      request(t.app).post('/graphql').set('Accept', 'text/html').send({ query: TYPENAME_QUERY }),
      request(t.app).head('/graphql').set('Accept', 'text/html'),
    ];
    for (const attempt of attempts) {
      const res = await attempt.set('apollo-require-preflight', 'true');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="landgraph"');
    }
  });
});

describe('/graphql automatic persisted queries (off)', () => {
  it('answers a keyed hash-only request with 400 PERSISTED_QUERY_NOT_SUPPORTED in the plain error shape', async () => {
    const res = await request(t.app)
      .get('/graphql')
      .query({ extensions: JSON.stringify({ persistedQuery }) })
      .set('apollo-require-preflight', 'true')
      .set(bearer(t.key))
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      error: 'PERSISTED_QUERY_NOT_SUPPORTED: automatic persisted queries are turned off.',
      hint: 'Send the whole operation in query; Apollo Client falls back to that by itself.',
    });
  });

  it('still runs the same operation sent whole', async () => {
    const res = await request(t.app).post('/graphql').set(bearer(t.key)).send({ query: TYPENAME_QUERY }).expect(200);
    expect(res.body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('/graphql operation limits', () => {
  it('refuses the 2,000-alias flood with 400 naming the limit, before any subgraph is called or the call metered', async () => {
    const secret = await createTestKey(t.runtime, { rateLimitPerMinute: 1000 });
    const calls = countSubgraphCalls();
    const record = vi.spyOn(t.runtime.meter, 'record');
    const flood = aliases(
      2000,
      `propertyAt(lat: ${f.vicParcel.lat}, lng: ${f.vicParcel.lng}, state: "VIC") { envelope { status } provisions { status } terrain { status } climate_zone { status } planning { status } }`,
    );
    const res = await request(t.app).post('/graphql').set(bearer(secret)).send({ query: flood }).expect(400);
    expect(res.body).toMatchObject({ success: false });
    expect(res.body.error).toBe(
      `The operation is over its limits: GraphQL tokens over ${OPERATION_LIMITS.tokens} (limit ${OPERATION_LIMITS.tokens}).`,
    );
    expect(calls).not.toHaveBeenCalled();
    expect(record).not.toHaveBeenCalled();
    // The refusal itself takes one token, not nothing and not the flood's cost.
    expect(res.headers['x-ratelimit-remaining']).toBe('999');
  });

  it('names every limit an operation passes, with its value, before any subgraph is called', async () => {
    const calls = countSubgraphCalls();
    const query = aliases(
      60,
      `propertyAt(lat: ${f.vicParcel.lat}, lng: ${f.vicParcel.lng}, state: "VIC") { cadastre { status } planning { status } }`,
    );
    const res = await request(t.app).post('/graphql').set(bearer(t.key)).send({ query }).expect(400);
    // Each alias costs 1 (root) + 2 (layers) + 1 (planning's subgraph beyond cadastre's).
    expect(res.body.error).toBe(
      'The operation is over its limits: aliases 60 (limit 30), root fields 60 (limit 25), cost 240 (limit 100).',
    );
    expect(calls).not.toHaveBeenCalled();
  });

  it('refuses depth, aliases and selected fields on their own, even for fields that do not exist', async () => {
    const cases: Array<[string, string]> = [
      [`{ ${'a { '.repeat(13)}b${' }'.repeat(13)} }`, 'depth 14 (limit 12)'],
      [nestedAliases(31), 'aliases 31 (limit 30)'],
      [aliases(26, '__typename'), 'root fields 26 (limit 25)'],
      [
        `{ parcelAt(lat: 1, lng: 2, state: "VIC") { ...F ...F } } fragment F on CadastreLayer { ${Array.from({ length: 501 }, (_, i) => `f${i}: status`).join(' ')} }`,
        'aliases 1002 (limit 30), selected fields 1003 (limit 1000)',
      ],
    ];
    for (const [query, named] of cases) {
      const res = await request(t.app).post('/graphql').set(bearer(t.key)).send({ query }).expect(400);
      expect(res.body.error).toBe(`The operation is over its limits: ${named}.`);
    }
  });

  it('stops counting a fragment bomb early and still refuses it', async () => {
    const levels = Array.from(
      { length: 16 },
      (_, i) => `fragment L${i} on Query { ${i === 15 ? '__typename' : `...L${i + 1} x: __typename ...L${i + 1}`} }`,
    );
    const query = `{ ...L0 } ${levels.join(' ')}`;
    const res = await request(t.app).post('/graphql').set(bearer(t.key)).send({ query }).expect(400);
    // 2^16 fields once spread; counting stops at 20,000, so the values are lower bounds.
    expect(res.body.error).toMatch(
      /^The operation is over its limits: aliases over \d+ \(limit 30\), .*selected fields over \d+ \(limit 1000\)/,
    );
  });

  it('lets a keyed caller introspect the whole schema (Apollo Sandbox)', async () => {
    const res = await request(t.app)
      .post('/graphql')
      .set(bearer(t.key))
      .send({
        query: getIntrospectionQuery({
          descriptions: true,
          specifiedByUrl: true,
          directiveIsRepeatable: true,
          schemaDescription: true,
          inputValueDeprecation: true,
        }),
      })
      .expect(200);
    expect(res.body.errors).toBeUndefined();
    const types = (res.body.data.__schema.types as Array<{ name: string }>).map((type) => type.name);
    expect(types).toContain('Property');
    expect(res.headers['x-query-cost']).toBe('1');
  });
});

describe('/graphql cost charged to the rate limit', () => {
  it("takes ceil(cost / 10) tokens of the key's bucket and says so", async () => {
    const secret = await createTestKey(t.runtime, { rateLimitPerMinute: 600 });
    const calls = countSubgraphCalls();
    // 25 aliases × (1 root + 2 layers + 1 further subgraph) = 100 units: 10 tokens.
    const query = aliases(
      25,
      `propertyAt(lat: ${f.vicParcel.lat}, lng: ${f.vicParcel.lng}, state: "VIC") { cadastre { status } planning { status } }`,
    );
    const first = await request(t.app).post('/graphql').set(bearer(secret)).send({ query }).expect(200);
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.a24.cadastre.status).toBe('ok');
    expect(calls).toHaveBeenCalled();
    expect(first.headers['x-query-cost']).toBe('100');
    expect(first.headers['x-query-tokens']).toBe('10');
    expect(first.headers['x-ratelimit-remaining']).toBe('590');
    const cheap = await request(t.app).post('/graphql').set(bearer(secret)).send({ query: TYPENAME_QUERY }).expect(200);
    expect(cheap.headers['x-query-cost']).toBe('1');
    expect(cheap.headers['x-query-tokens']).toBe('1');
  });

  it('refuses with 429 when the bucket cannot pay the cost, and never takes more than the bucket holds', async () => {
    const secret = await createTestKey(t.runtime, { rateLimitPerMinute: 5 });
    const query = aliases(
      25,
      `propertyAt(lat: ${f.vicParcel.lat}, lng: ${f.vicParcel.lng}, state: "VIC") { cadastre { status } }`,
    );
    // 25 × 2 = 50 units: 5 tokens, all this bucket holds.
    const paid = await request(t.app).post('/graphql').set(bearer(secret)).send({ query }).expect(200);
    expect(paid.headers['x-query-tokens']).toBe('5');
    expect(paid.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await request(t.app).post('/graphql').set(bearer(secret)).send({ query }).expect(429);
    expect(refused.body.error).toBe('Rate limit of 5 requests per minute exceeded: this operation costs 5.');
  });
});

describe('/graphql against a stream of distinct operations', () => {
  it("is cut off by the key's bucket: each new operation takes a token before Apollo parses or plans it", async () => {
    const secret = await createTestKey(t.runtime, { rateLimitPerMinute: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await request(t.app)
        .post('/graphql')
        .set(bearer(secret))
        .send({ query: `{ distinct${i}: __typename }` });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });
});

describe("the facade's own operations", () => {
  it('are held to the same limits: one over them fails as our error, not the caller’s', async () => {
    const scope = { dataset: 'sandbox' as const, requestId: 'graphql-gate', scopes: [] };
    const result = await t.runtime.graph.execute(nestedAliases(31), {}, scope);
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0]).toMatchObject({
      message: 'The operation is over its limits: aliases 31 (limit 30).',
      extensions: { code: 'INTERNAL', http: { status: 500 } },
    });
  });
});
