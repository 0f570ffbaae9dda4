import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

type Answer = {
  status: number;
  body: { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
};

let t: TestRuntime;

beforeAll(async () => {
  t = await testRuntime();
});

async function graphql(query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${t.key}`).send({ query, variables });
  return { status: res.status, body: res.body as Answer['body'] };
}

/** Nothing internal leaks: no database text, no stack, no internal-only code. */
function expectNoLeak(answer: Answer): void {
  const text = JSON.stringify(answer.body);
  expect(text).not.toMatch(/Raw query failed|Code: \d{5}|invalid byte sequence|prisma|stacktrace|node_modules/i);
  for (const error of answer.body.errors ?? []) {
    expect(['DOWNSTREAM_SERVICE_ERROR', 'INTERNAL_SERVER_ERROR']).not.toContain(error.extensions?.code);
  }
}

function expectBadRequest(answer: Answer, message: RegExp): void {
  expect(answer.status).toBe(400);
  expectNoLeak(answer);
  const [error] = answer.body.errors ?? [];
  expect(error?.extensions?.code).toBe('BAD_REQUEST');
  expect(error?.extensions?.http).toEqual({ status: 400 });
  expect(error?.message).toMatch(message);
}

describe('GraphQL answers client mistakes like the REST routes: 400 with a clear message', () => {
  it('a NUL byte in a string argument', async () => {
    const answer = await graphql('query($pid: ID!) { propertyByGnafPid(gnaf_pid: $pid) { state } }', {
      pid: 'GA\u0000X',
    });
    expectBadRequest(answer, /gnaf_pid.*NUL/);
  });

  it('a NUL byte in a literal, nested in an input object', async () => {
    const answer = await graphql('{ matchAddress(q: "72\\u0000 DWYER ST") { status } }');
    expectBadRequest(answer, /q.*NUL/);
  });

  it('a mutation, and a subscription: the graph only answers queries', async () => {
    expectBadRequest(await graphql('mutation { __typename }'), /quer/i);
    expectBadRequest(await graphql('subscription { __typename }'), /quer/i);
  });

  it('a Float beyond the double range', async () => {
    expectBadRequest(await graphql('{ parcelAt(lat: 1e309, lng: 144.9, state: "VIC") { status } }'), /Float|lat/);
    expectBadRequest(
      await graphql('query($lat: Float!) { parcelAt(lat: $lat, lng: 144.9, state: "VIC") { status } }', {
        lat: '1e309',
      }),
      /Float|lat/,
    );
  });

  it('a badly shaped GeoJSON argument', async () => {
    const query = 'query($p: GeoJSON!) { terrainStats(state: "VIC", polygon: $p) { status } }';
    expectBadRequest(
      await graphql(query, { p: { type: 'Polygon', coordinates: 'nope' } }),
      /polygon|GeoJSON|coordinates/i,
    );
    expectBadRequest(await graphql(query, { p: 'POLYGON((0 0))' }), /polygon|GeoJSON/i);
  });

  it('a query that does not parse, and a field that does not exist', async () => {
    expectBadRequest(await graphql('{ parcelAt('), /Syntax/);
    expectBadRequest(await graphql('{ noSuchField }'), /noSuchField/);
  });
});

describe('GraphQL never hands an internal error to the caller as raw text', () => {
  it('answers a failing database with a generic message, the request id and no SQL', async () => {
    await t.runtime.db.exec('ALTER TABLE address.address_detail RENAME TO address_detail_offline');
    const logged: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string | Uint8Array) => logged.push(String(chunk)) > 0;
    let answer: Answer;
    let requestId: string;
    try {
      const res = await request(t.app)
        .post('/graphql')
        .set('Authorization', `Bearer ${t.key}`)
        .send({ query: '{ propertyByGnafPid(gnaf_pid: "GAVIC1") { state } }' });
      answer = { status: res.status, body: res.body as Answer['body'] };
      requestId = String(res.headers['x-request-id']);
    } finally {
      process.stderr.write = write;
      await t.runtime.db.exec('ALTER TABLE address.address_detail_offline RENAME TO address_detail');
    }
    // the cause is in the log under the id the caller is told to quote
    const line = logged.find((entry) => entry.includes('graphql internal error'));
    expect(line).toContain(requestId);
    expect(line).toMatch(/address_detail/);
    expectNoLeak(answer);
    const [error] = answer.body.errors ?? [];
    expect(error?.message).toBe('The request could not be completed.');
    expect(error?.extensions?.code).toBe('INTERNAL');
    expect(String(error?.extensions?.hint)).toMatch(/X-Request-Id/);
    expect(answer.status).toBe(500);
  });
});
