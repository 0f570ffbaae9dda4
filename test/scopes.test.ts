import { readdirSync, readFileSync } from 'node:fs';
import type { GraphQLFormattedError, GraphQLObjectType } from 'graphql';
import { buildSchema, getNamedType, isObjectType } from 'graphql';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RequestScope } from '../core/context.ts';
import type { Scope } from '../core/scopes.ts';
import { FIELD_SCOPES, INTERNAL_GRANTS, OPEN_FIELDS, SCOPED_BY_PARENT, withGrant } from '../core/scopes.ts';
import { composeSupergraph } from '../gateway/compose.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

type GraphAnswer = {
  data?: Record<string, Record<string, unknown> | null> | null;
  errors?: readonly GraphQLFormattedError[];
};

const supergraph = buildSchema(composeSupergraph());
const objectTypes = Object.values(supergraph.getTypeMap()).filter(
  (type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'),
);

describe('the scope table covers the whole supergraph', () => {
  it('gives every field of Query and Property an explicit entry: scoped or open', () => {
    const unlisted: string[] = [];
    for (const typeName of ['Query', 'Property']) {
      const type = supergraph.getType(typeName) as GraphQLObjectType;
      for (const field of Object.keys(type.getFields())) {
        const coordinate = `${typeName}.${field}`;
        if (!(coordinate in FIELD_SCOPES) && !OPEN_FIELDS.includes(coordinate)) unlisted.push(coordinate);
      }
    }
    expect(unlisted, `fields with no entry in core/scopes.ts: ${unlisted.join(', ')}`).toEqual([]);
  });

  it('lists every other type as scoped by the field that reaches it, and none leads back to Query or Property', () => {
    const unlisted = objectTypes
      .map((type) => type.name)
      .filter((name) => name !== 'Query' && name !== 'Property' && !SCOPED_BY_PARENT.includes(name));
    expect(unlisted, `types with no entry in core/scopes.ts: ${unlisted.join(', ')}`).toEqual([]);
    const backdoors = objectTypes
      .filter((type) => SCOPED_BY_PARENT.includes(type.name))
      .flatMap((type) =>
        Object.values(type.getFields())
          .filter((field) => ['Query', 'Property'].includes(getNamedType(field.type).name))
          .map((field) => `${type.name}.${field.name}`),
      );
    expect(backdoors).toEqual([]);
  });

  it('has no stale entries: every listed field and type exists in the supergraph', () => {
    const stale = [...Object.keys(FIELD_SCOPES), ...OPEN_FIELDS].filter((coordinate) => {
      const [typeName, field] = coordinate.split('.') as [string, string];
      const type = supergraph.getType(typeName);
      return !type || !isObjectType(type) || !(field in type.getFields());
    });
    expect(stale).toEqual([]);
    expect(SCOPED_BY_PARENT.filter((name) => !supergraph.getType(name))).toEqual([]);
  });
});

describe('no route runs a graph operation with every scope', () => {
  it("no route file grants '*' or runs as the service's INTERNAL_SCOPE", () => {
    const dir = new URL('../rest-facade/routes/', import.meta.url);
    const offenders = readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /scopes:\s*'\*'|INTERNAL_SCOPE/.test(readFileSync(new URL(file, dir), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('no key can hold an internal grant', async () => {
    const t = await testRuntime();
    for (const grant of Object.keys(INTERNAL_GRANTS)) {
      await expect(createTestKey(t.runtime, { scopes: [grant] })).rejects.toThrow(/Unknown scope/);
    }
  });
});

describe('field scopes by GraphQL', () => {
  let t: TestRuntime;
  let f: Fixtures;

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
  });

  async function graphql(scopes: Scope[], query: string, variables: Record<string, unknown> = {}) {
    const key = await createTestKey(t.runtime, { scopes });
    const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query, variables });
    // an answer carrying data is 200; one whose every root was refused takes the refusal's status
    const answered = Object.values((res.body as GraphAnswer).data ?? {}).some((value) => value !== null);
    expect(res.status).toBe(answered ? 200 : 403);
    return res.body as GraphAnswer;
  }

  const refused = (answer: GraphAnswer) =>
    (answer.errors ?? [])
      .filter((error) => error.extensions?.code === 'FORBIDDEN')
      .map((error) => error.path?.join('.'))
      .sort();

  const IDENTITY = 'state gnaf_pid parcel_pfi location { lat lng } address_point { lat lng }';

  it('gives planning.read the zone at a point and none of the property identity', async () => {
    const answer = await graphql(
      ['planning.read'],
      `query($gnafPid: ID!) { p: propertyByGnafPid(gnaf_pid: $gnafPid) { ${IDENTITY} planning { status } } }`,
      { gnafPid: f.vicParcel.gnaf_pid },
    );
    expect(answer.data?.p).toEqual({
      state: 'VIC',
      gnaf_pid: null,
      parcel_pfi: null,
      location: null,
      address_point: null,
      planning: { status: 'ok' },
    });
    expect(refused(answer)).toEqual(['p.address_point', 'p.gnaf_pid', 'p.location', 'p.parcel_pfi']);
  });

  it("gives elevation.read and cadastre.read the parcel's identity but not the address's", async () => {
    for (const scope of ['elevation.read', 'cadastre.read'] as const) {
      const answer = await graphql(
        [scope],
        `query($pfi: String!) { p: propertyByParcel(parcel_pfi: $pfi, state: "VIC") { ${IDENTITY} } }`,
        { pfi: f.vicParcel.parcel_pfi },
      );
      expect(answer.data?.p).toMatchObject({ parcel_pfi: f.vicParcel.parcel_pfi, gnaf_pid: null, address_point: null });
      expect(answer.data?.p?.location).toEqual({ lat: expect.any(Number), lng: expect.any(Number) });
      expect(refused(answer)).toEqual(['p.address_point', 'p.gnaf_pid']);
    }
  });

  it('gives address.read the whole identity, withheld fields asked through fragments and aliases alike', async () => {
    const answer = await graphql(
      ['address.read'],
      `query($gnafPid: ID!) { p: propertyByGnafPid(gnaf_pid: $gnafPid) { ...Id id2: gnaf_pid } }
       fragment Id on Property { ${IDENTITY} }`,
      { gnafPid: f.vicParcel.gnaf_pid },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.p).toMatchObject({ gnaf_pid: f.vicParcel.gnaf_pid, id2: f.vicParcel.gnaf_pid });
    expect(answer.data?.p?.address_point).not.toBeNull();
  });

  it('withholds an identity field asked through a fragment from a key without its scope', async () => {
    const answer = await graphql(
      ['planning.read'],
      `
        query ($gnafPid: ID!) {
          p: propertyByGnafPid(gnaf_pid: $gnafPid) {
            ...Id
            pid: gnaf_pid
          }
        }
        fragment Id on Property {
          ... on Property {
            location {
              lat
            }
          }
        }
      `,
      { gnafPid: f.vicParcel.gnaf_pid },
    );
    expect(answer.data?.p).toEqual({ location: null, pid: null });
    expect(refused(answer)).toEqual(['p.location', 'p.pid']);
  });

  it('decides what to withhold per caller even when one document is asked again and again', async () => {
    // the gateway remembers, per parsed document, whether it selects a withheld field at all
    const query = `query($pfi: String!) { p: propertyByParcel(parcel_pfi: $pfi, state: "VIC") { ${IDENTITY} } }`;
    const variables = { pfi: f.vicParcel.parcel_pfi };
    for (let round = 0; round < 2; round += 1) {
      const open = await graphql(['address.read', 'cadastre.read'], query, variables);
      expect(open.errors).toBeUndefined();
      expect(open.data?.p?.gnaf_pid).not.toBeNull();
      const closed = await graphql(['cadastre.read'], query, variables);
      expect(refused(closed)).toEqual(['p.address_point', 'p.gnaf_pid']);
      expect(closed.data?.p).toMatchObject({ parcel_pfi: f.vicParcel.parcel_pfi, gnaf_pid: null });
    }
    // one document, two callers withheld different fields: nothing of this one's for the first, its point for the second
    const parcelOnly = `query($pfi: String!) { p: propertyByParcel(parcel_pfi: $pfi, state: "VIC") { parcel_pfi location { lat } } }`;
    for (let round = 0; round < 2; round += 1) {
      const cadastre = await graphql(['cadastre.read'], parcelOnly, variables);
      expect(cadastre.errors).toBeUndefined();
      const planning = await graphql(['planning.read'], parcelOnly, variables);
      expect(refused(planning)).toEqual(['p.location', 'p.parcel_pfi']);
    }
    // a document that selects no identity field is answered whole
    const plain = await graphql(
      ['cadastre.read'],
      `
        query ($pfi: String!) {
          p: propertyByParcel(parcel_pfi: $pfi, state: "VIC") {
            parcel_pfi
          }
        }
      `,
      variables,
    );
    expect(plain.errors).toBeUndefined();
    expect(plain.data?.p).toEqual({ parcel_pfi: f.vicParcel.parcel_pfi });
  });

  it('asks terrainStats for envelope.read, as POST /api/contours/terrain-stats does', async () => {
    const polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [144.301, -36.703],
          [144.302, -36.703],
          [144.302, -36.702],
          [144.301, -36.703],
        ],
      ],
    };
    const query = 'query($p: GeoJSON!) { terrainStats(state: "VIC", polygon: $p) { status } }';
    const elevation = await graphql(['elevation.read'], query, { p: polygon });
    expect(elevation.errors?.[0]?.message).toBe('Missing scope: envelope.read');
    const envelope = await graphql(['envelope.read'], query, { p: polygon });
    expect(envelope.errors).toBeUndefined();
    const key = await createTestKey(t.runtime, { scopes: ['elevation.read'] });
    const rest = await request(t.app)
      .post('/api/contours/terrain-stats')
      .set('Authorization', `Bearer ${key}`)
      .send({ state: 'VIC', polygon });
    expect(rest.status).toBe(403);
  });

  it('opens the ground profile (the BAL slope input) to the scopes of the hazards that read it, not to elevation.read', async () => {
    const query = `query($lat: Float!, $lng: Float!) { p: propertyAt(lat: $lat, lng: $lng, state: "VIC") {
      ground_profile { status data { step_m } } } }`;
    const point = { lat: f.vicParcel.lat, lng: f.vicParcel.lng };
    for (const scope of ['risk.read', 'risk.summary.read'] as const) {
      const answer = await graphql([scope], query, point);
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.p?.ground_profile).toEqual({ status: 'ok', data: { step_m: 10 } });
    }
    for (const scope of ['elevation.read', 'property-graph.read'] as const) {
      const answer = await graphql([scope], query, point);
      expect(answer.data?.p?.ground_profile).toBeNull();
      expect(refused(answer)).toEqual(['p.ground_profile']);
    }
  });

  it('fails a refused root field alone: the other roots of the query still answer', async () => {
    const answer = await graphql(
      ['address.read'],
      `
        query ($q: String!, $lat: Float!, $lng: Float!) {
          match: matchAddress(q: $q) {
            status
          }
          parcel: parcelAt(lat: $lat, lng: $lng, state: "VIC") {
            status
          }
        }
      `,
      { q: f.vicParcel.address, lat: f.vicParcel.lat, lng: f.vicParcel.lng },
    );
    expect(answer.data).toEqual({ match: { status: 'matched' }, parcel: null });
    expect(refused(answer)).toEqual(['parcel']);
  });
});

describe('internal grants open only their own lookup', () => {
  let t: TestRuntime;
  let f: Fixtures;

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
  });

  const caller = (scopes: Scope[]): RequestScope => ({ dataset: 'sandbox', requestId: 'scopes-test', scopes });
  const codes = (errors: GraphAnswer['errors']) =>
    (errors ?? []).map((error) => `${error.path?.join('.')}:${String(error.extensions?.code)}`).sort();

  it('the envelope-by-address grant reads the parcel stage, not the address or other layers', async () => {
    const scope = withGrant(caller(['envelope.by-address.read']), 'internal:envelope-parcel-stage');
    const result = await t.runtime.graph.execute<Record<string, Record<string, unknown>>>(
      `query($lat: Float!, $lng: Float!) {
        p: propertyAt(lat: $lat, lng: $lng, state: "VIC") {
          parcel_pfi cadastre { status } gnaf_pid address { status } planning { status } terrain { status }
        }
        byPfi: parcelByPfi(parcel_pfi: "1", state: "VIC") { status }
      }`,
      { lat: f.vicParcel.lat, lng: f.vicParcel.lng },
      scope,
    );
    expect(result.data?.p).toMatchObject({ parcel_pfi: f.vicParcel.parcel_pfi, cadastre: { status: 'ok' } });
    expect(codes(result.errors)).toEqual([
      'byPfi:FORBIDDEN',
      'p.address:FORBIDDEN',
      'p.gnaf_pid:FORBIDDEN',
      'p.planning:FORBIDDEN',
      'p.terrain:FORBIDDEN',
    ]);
  });

  it('the resolve grant reads the parcel under a point and nothing else of the cadastre', async () => {
    const scope = withGrant(caller(['address.read']), 'internal:address-to-parcel');
    const result = await t.runtime.graph.execute<Record<string, Record<string, unknown>>>(
      `query($lat: Float!, $lng: Float!) {
        at: parcelAt(lat: $lat, lng: $lng, state: "VIC") { status data { parcel_pfi } }
        p: propertyAt(lat: $lat, lng: $lng, state: "VIC") { state }
        byPfi: parcelByPfi(parcel_pfi: "1", state: "VIC") { status }
      }`,
      { lat: f.vicParcel.lat, lng: f.vicParcel.lng },
      scope,
    );
    expect(result.data?.at).toEqual({ status: 'ok', data: { parcel_pfi: f.vicParcel.parcel_pfi } });
    expect(codes(result.errors)).toEqual(['byPfi:FORBIDDEN', 'p:FORBIDDEN']);
  });

  it('envelope by address answers a key holding only envelope.by-address.read, with no address layer', async () => {
    const key = await createTestKey(t.runtime, { scopes: ['envelope.by-address.read'] });
    const res = await request(t.app)
      .get('/v1/envelope-by-address')
      .set('Authorization', `Bearer ${key}`)
      .query({ address: f.vicParcel.address });
    expect([200, 422]).toContain(res.status);
    const stages = (res.body.stages as Array<{ stage: string }>).map((stage) => stage.stage);
    expect(stages.slice(0, 2)).toEqual(['address', 'parcel']);
    expect(JSON.stringify(res.body)).not.toMatch(/address_point|"planning"|"terrain"/);
  });

  it('lot detail answers a cadastre.read key by gnaf_pid, its addresses included, without any wider grant', async () => {
    const key = await createTestKey(t.runtime, { scopes: ['cadastre.read'] });
    const res = await request(t.app)
      .get(`/api/cadastre/lot-detail/${f.vicParcel.gnaf_pid}`)
      .set('Authorization', `Bearer ${key}`)
      .expect(200);
    expect(res.body.data).toMatchObject({ parcel_pfi: f.vicParcel.parcel_pfi, matched_by: 'gnaf_pid' });
    expect(res.body.data.addresses.length).toBeGreaterThan(0);
  });
});
