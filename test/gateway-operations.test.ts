import { GraphQLDataSourceRequestKind } from '@apollo/gateway/dist/datasources/types.js';
import type { GraphQLRequest } from '@apollo/server';
import { execute, parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RequestScope } from '../core/context.ts';
import { INTERNAL_SCOPE } from '../core/context.ts';
import { InProcessSubgraphDataSource } from '../gateway/datasources.ts';
import { operationMemoStats } from '../gateway/operation-memo.ts';
import type { Runtime } from '../app/runtime.ts';
import { buildSubgraphs } from '../app/runtime.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import { testRuntime } from './support/runtime.ts';

/**
 * The facade runs its operations on the gateway's executor directly, and the in-process
 * subgraphs run compiled operations: both must answer exactly as the standard path
 * (Apollo Server's executeOperation; graphql-js's execute) does, data and errors alike.
 */
const scope: RequestScope = { dataset: 'sandbox', requestId: 'gateway-operations', scopes: ['cadastre.read'] };

const PARCEL_AT = `query ParcelAt($lat: Float!, $lng: Float!, $state: String!) {
  parcelAt(lat: $lat, lng: $lng, state: $state) { status source attribution license message data { parcel_pfi state area_m2 geometry } }
}`;
const PARCELS_IN_BBOX = `query Window($bbox: BBoxInput!, $state: String!) {
  parcelsInBBox(bbox: $bbox, state: $state) { status features { parcel_pfi } }
}`;

let runtime: Runtime;
let f: Fixtures;

beforeAll(async () => {
  runtime = (await testRuntime()).runtime;
  f = await loadFixtures(runtime.db);
});

async function viaApolloServer(query: string, variables: Record<string, unknown>) {
  const response = await runtime.graph.apollo.executeOperation({ query, variables } satisfies GraphQLRequest, {
    contextValue: { scope },
  });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  return response.body.singleResult;
}

describe("the facade's operations on the gateway executor (graph.execute)", () => {
  it('returns the data Apollo Server returns for the same operation', async () => {
    const variables = { lat: f.vicParcel.lat, lng: f.vicParcel.lng, state: 'VIC' };
    const direct = await runtime.graph.execute<{ parcelAt: { status: string; data: { parcel_pfi: string } } }>(
      PARCEL_AT,
      variables,
      scope,
    );
    expect(direct.errors).toBeUndefined();
    expect(direct.data?.parcelAt.status).toBe('ok');
    expect(direct.data?.parcelAt.data.parcel_pfi).toBe(f.vicParcel.parcel_pfi);
    expect(direct.data).toEqual((await viaApolloServer(PARCEL_AT, variables)).data);
  });

  it("keeps a resolver's error code, status and hint, as Apollo Server reports them", async () => {
    const variables = { bbox: { west: 144, south: -37, east: 145, north: -36 }, state: 'VIC' }; // 1° wide
    const direct = await runtime.graph.execute(PARCELS_IN_BBOX, variables, scope);
    const standard = await viaApolloServer(PARCELS_IN_BBOX, variables);
    expect(direct.errors).toHaveLength(1);
    expect(direct.errors?.[0]).toMatchObject({
      message: standard.errors?.[0]?.message,
      extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
    });
    expect(direct.errors?.[0]?.extensions?.hint).toBe(standard.errors?.[0]?.extensions?.hint);
    expect(direct.data).toEqual(standard.data);
  });

  it('answers an invalid operation with validation errors, every time, without throwing', async () => {
    const invalid = '{ parcelAt(lat: 1, lng: 2, state: "VIC") { no_such_field } }';
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const result = await runtime.graph.execute(invalid, {}, scope);
      expect(result.data).toBeUndefined();
      expect(result.errors?.[0]?.message).toMatch(/no_such_field/);
    }
    const unparsable = await runtime.graph.execute('{ parcelAt(', {}, scope);
    expect(unparsable.errors?.[0]?.message).toMatch(/Syntax Error/);
  });

  it('refuses variables of the wrong type as an error, not an exception', async () => {
    const result = await runtime.graph.execute(PARCEL_AT, { lat: 'north', lng: 144, state: 'VIC' }, scope);
    expect(result.errors?.[0]?.message).toMatch(/\$lat/);
  });
});

describe("the gateway's operation memo (gateway/operation-memo.ts)", () => {
  const WITH_FRAGMENT = `query ParcelAtWithFragment($lat: Float!, $lng: Float!, $state: String!) {
    parcelAt(lat: $lat, lng: $lng, state: $state) { ...parcelResult }
  }
  fragment parcelResult on CadastreLayer { status data { parcel_pfi state } }`;

  it('converts each cached operation once and answers every call with its own variables', async () => {
    const ask = (p: Fixtures['vicParcel'], state: string) =>
      runtime.graph.execute<{ parcelAt: { data: { parcel_pfi: string } } }>(
        PARCEL_AT,
        { lat: p.lat, lng: p.lng, state },
        scope,
      );
    await ask(f.vicParcel, 'VIC');
    const before = { ...operationMemoStats };
    const vic = await ask(f.vicParcel, 'VIC');
    const nsw = await ask(f.nswParcel, 'NSW');
    expect(operationMemoStats.hits - before.hits).toBe(2); // Apollo's executeQueryPlan reached the memo
    expect(operationMemoStats.misses).toBe(before.misses);
    expect(vic.data?.parcelAt.data.parcel_pfi).toBe(f.vicParcel.parcel_pfi);
    expect(nsw.data?.parcelAt.data.parcel_pfi).toBe(f.nswParcel.parcel_pfi);
  });

  it("answers an operation with fragments through Apollo Server as graphql-js would, from the memo's second call", async () => {
    const variables = { lat: f.qldParcel.lat, lng: f.qldParcel.lng, state: 'QLD' };
    const first = await viaApolloServer(WITH_FRAGMENT, variables);
    const before = operationMemoStats.hits;
    const second = await viaApolloServer(WITH_FRAGMENT, variables);
    expect(operationMemoStats.hits).toBeGreaterThan(before);
    expect(first.errors).toBeUndefined();
    expect(second).toEqual(first);
    expect(second.data).toEqual({
      parcelAt: { status: 'ok', data: { parcel_pfi: f.qldParcel.parcel_pfi, state: 'QLD' } },
    });
  });
});

describe('in-process subgraphs run compiled operations', () => {
  const ENTITIES = `query Entities($representations: [_Any!]!) {
    _entities(representations: $representations) { ... on Property { parcel_pfi state cadastre { status data { parcel_pfi area_m2 } } } }
  }`;

  /** The same operation through the compiled data source and through graphql-js, as plain JSON. */
  async function bothWays(query: string, variables: Record<string, unknown>) {
    const subgraph = buildSubgraphs(runtime.db, runtime.catalog).cadastre;
    // Outside an incoming request the data source runs as the service itself (INTERNAL_SCOPE).
    const compiled = await new InProcessSubgraphDataSource(subgraph).process({
      request: { query, variables },
      kind: GraphQLDataSourceRequestKind.HEALTH_CHECK,
      context: {},
    });
    const interpreted = await execute({
      schema: subgraph.schema,
      document: parse(query),
      variableValues: variables,
      contextValue: subgraph.createContext(INTERNAL_SCOPE),
    });
    const plain = (result: { data?: unknown; errors?: readonly unknown[] }) =>
      JSON.parse(JSON.stringify({ data: result.data ?? null, errors: result.errors ?? [] })) as {
        data: unknown;
        errors: Array<{ message: string; path?: unknown[]; extensions?: Record<string, unknown> }>;
      };
    return { compiled: plain(compiled), interpreted: plain(interpreted) };
  }

  it('gives _entities for both keys the result graphql-js gives, batch order kept', async () => {
    const { compiled, interpreted } = await bothWays(ENTITIES, {
      representations: [
        { __typename: 'Property', parcel_pfi: f.vicParcel.parcel_pfi, state: 'VIC' },
        { __typename: 'Property', parcel_pfi: 'NO-SUCH-PFI', state: 'VIC' },
        { __typename: 'Property', parcel_pfi: f.nswParcel.parcel_pfi, state: 'NSW' },
      ],
    });
    expect(compiled.errors).toEqual([]);
    expect(compiled.data).toEqual(interpreted.data);
    const pfis = (compiled.data as { _entities: Array<{ cadastre: { data: { parcel_pfi: string } | null } }> })
      ._entities;
    expect(pfis.map((e) => e.cadastre.data?.parcel_pfi ?? null)).toEqual([
      f.vicParcel.parcel_pfi,
      null,
      f.nswParcel.parcel_pfi,
    ]);
  });

  it("reports a resolver's error with the message, path and extensions graphql-js gives", async () => {
    const { compiled, interpreted } = await bothWays(
      'query Window($bbox: BBoxInput!) { parcelsInBBox(bbox: $bbox, state: "VIC") { status } }',
      { bbox: { west: 144, south: -37, east: 145, north: -36 } },
    );
    expect(compiled.errors).toHaveLength(1);
    expect(compiled.errors[0]).toMatchObject({ path: ['parcelsInBBox'], extensions: { code: 'BAD_REQUEST' } });
    expect(compiled.errors.map(({ message, path, extensions }) => ({ message, path, extensions }))).toEqual(
      interpreted.errors.map(({ message, path, extensions }) => ({ message, path, extensions })),
    );
    expect(compiled.data).toEqual(interpreted.data);
  });

  it('refuses a variable of the wrong type, as graphql-js does, before any resolver runs', async () => {
    const { compiled, interpreted } = await bothWays(
      'query At($lat: Float!) { parcelAt(lat: $lat, lng: 144.28, state: "VIC") { status } }',
      { lat: 'north' },
    );
    expect(compiled.data).toBeNull();
    expect(interpreted.data).toBeNull();
    // The wording differs a little (graphql-jit adds "Expected type Float"); the gateway checks
    // variables against the whole graph before any subgraph sees them, so callers get its words.
    expect(compiled.errors).toHaveLength(1);
    expect(compiled.errors[0]?.message).toMatch(/\$lat.*north.*Float cannot represent/);
  });
});
