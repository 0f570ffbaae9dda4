import { randomUUID } from 'node:crypto';
import { execute, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import type { Subgraph } from '../core/subgraph.ts';
import { buildSubgraphs } from '../app/runtime.ts';
import type { SubgraphName } from '../subgraphs/index.ts';
import { testConfig, testRuntime } from './support/runtime.ts';

/**
 * Each subgraph black-boxed the way Apollo's federation compatibility suite does it:
 * `_service { sdl }` and `_entities` for every key, plus the cost of a batch in queries.
 */
describe('subgraphs', () => {
  let db: Database;
  let subgraphs: Record<SubgraphName, Subgraph>;
  const queries: string[] = [];
  let parcels: Array<{ gnaf_pid: string; parcel_pfi: string; state: string; lat: number; lng: number }>;

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    db = await openDatabase(testConfig(), { onQuery: (sql) => queries.push(sql) });
    const catalog = new ProvenanceCatalog(db);
    subgraphs = buildSubgraphs(db, catalog);
    await catalog.get('sandbox', 'cadastre', 'VIC'); // credits are cached per process, not per request
    parcels = await db.query(
      `SELECT DISTINCT ON (p.parcel_pfi) a.gnaf_pid, p.parcel_pfi, p.state,
              ST_Y(ST_PointOnSurface(p.geom)) AS lat, ST_X(ST_PointOnSurface(p.geom)) AS lng
       FROM cadastre.parcel p JOIN address.address_detail a
         ON a.dataset = p.dataset AND a.state = p.state AND a.parcel_pfi = p.parcel_pfi
       WHERE p.dataset = 'sandbox' ORDER BY p.parcel_pfi, a.gnaf_pid LIMIT 25`,
    );
  });

  afterAll(async () => {
    await db.close();
  });

  async function run(name: SubgraphName, query: string, variables: Record<string, unknown> = {}) {
    queries.length = 0;
    const subgraph = subgraphs[name];
    const result = await execute({
      schema: subgraph.schema,
      document: parse(query),
      variableValues: variables,
      // each run is a request of its own (planning shares a request's answers between its fetches)
      contextValue: subgraph.createContext({ dataset: 'sandbox', requestId: randomUUID(), scopes: '*' }),
    });
    expect(result.errors).toBeUndefined();
    return result.data as Record<string, unknown>;
  }

  it.each([
    ['address', ['@key(fields: "gnaf_pid")', '@key(fields: "parcel_pfi state")']],
    ['cadastre', ['@key(fields: "parcel_pfi state")']],
    ['planning', ['@key(fields: "parcel_pfi state")', '@requires(fields: "location { lat lng }")']],
    ['roads', ['@key(fields: "parcel_pfi state")', '@requires(fields: "parcel_geometry")']],
  ] as const)('%s publishes its SDL with its Property keys through _service', async (name, directives) => {
    const data = await run(name, '{ _service { sdl } }');
    const sdl = (data._service as { sdl: string }).sdl;
    for (const directive of directives) expect(sdl).toContain(directive);
  });

  it('address resolves a batch of gnaf_pid references in one query, in key order', async () => {
    const reversed = [...parcels].reverse();
    const data = await run(
      'address',
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Property { gnaf_pid parcel_pfi address { status } } } }`,
      { r: reversed.map((p) => ({ __typename: 'Property', gnaf_pid: p.gnaf_pid })) },
    );
    expect(data._entities).toEqual(
      reversed.map((p) => ({ gnaf_pid: p.gnaf_pid, parcel_pfi: p.parcel_pfi, address: { status: 'ok' } })),
    );
    expect(queries).toHaveLength(1);
  });

  it('address resolves a batch of parcel_pfi + state references in one query', async () => {
    const data = await run(
      'address',
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Property { gnaf_pid parcel_pfi state } } }`,
      { r: parcels.map((p) => ({ __typename: 'Property', parcel_pfi: p.parcel_pfi, state: p.state })) },
    );
    const entities = data._entities as Array<{ gnaf_pid: string; parcel_pfi: string }>;
    expect(entities.map((e) => e.parcel_pfi)).toEqual(parcels.map((p) => p.parcel_pfi));
    expect(entities.every((e) => e.gnaf_pid.startsWith('GA'))).toBe(true);
    expect(queries).toHaveLength(1);
  });

  it('cadastre resolves a batch of parcel references with their parcels in one query', async () => {
    const data = await run(
      'cadastre',
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Property { parcel_pfi cadastre { status data { parcel_pfi area_m2 } } } } }`,
      { r: parcels.map((p) => ({ __typename: 'Property', parcel_pfi: p.parcel_pfi, state: p.state })) },
    );
    const entities = data._entities as Array<{
      parcel_pfi: string;
      cadastre: { status: string; data: { parcel_pfi: string; area_m2: number } };
    }>;
    expect(entities.map((e) => e.cadastre.data.parcel_pfi)).toEqual(parcels.map((p) => p.parcel_pfi));
    expect(entities.every((e) => e.cadastre.status === 'ok' && e.cadastre.data.area_m2 > 50)).toBe(true);
    expect(queries).toHaveLength(1);
  });

  it('planning resolves a batch of references with their required locations in one query', async () => {
    const data = await run(
      'planning',
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Property { planning { status data { zone { code } } } } } }`,
      {
        r: parcels.map((p) => ({
          __typename: 'Property',
          parcel_pfi: p.parcel_pfi,
          state: p.state,
          location: { lat: p.lat, lng: p.lng },
        })),
      },
    );
    expect((data._entities as unknown[]).length).toBe(parcels.length);
    expect(queries).toHaveLength(1);
  });

  it('roads finds the centrelines around a batch of parcels in one query; planning then needs one zone query', async () => {
    const shapes = await db.query<{ parcel_pfi: string; geometry: unknown }>(
      `SELECT parcel_pfi, ST_AsGeoJSON(geom, 7)::json AS geometry FROM cadastre.parcel
       WHERE dataset = 'sandbox' AND parcel_pfi = ANY($1::text[])`,
      [parcels.map((p) => p.parcel_pfi)],
    );
    const geometryOf = new Map(shapes.map((s) => [s.parcel_pfi, s.geometry]));
    // the roads the planning fields @require, as the gateway fetches them from the roads subgraph
    const lines = await run(
      'roads',
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Property {
        road_lines { status source attribution license data { name road_class geometry } } } } }`,
      {
        r: parcels.map((p) => ({
          __typename: 'Property',
          parcel_pfi: p.parcel_pfi,
          state: p.state,
          parcel_geometry: geometryOf.get(p.parcel_pfi),
        })),
      },
    );
    expect(queries).toHaveLength(1);
    const roadLines = (lines._entities as Array<{ road_lines: { status: string } }>).map((e) => e.road_lines);
    expect(roadLines.every((l) => l.status === 'ok')).toBe(true);
    const data = await run(
      'planning',
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Property {
        provisions { status data { regime lot { source } applied_rules { boundary } } }
        envelope { status gap data { area_m2 parcel_area_m2 } } } } }`,
      {
        r: parcels.map((p, i) => ({
          __typename: 'Property',
          parcel_pfi: p.parcel_pfi,
          state: p.state,
          location: { lat: p.lat, lng: p.lng },
          parcel_geometry: geometryOf.get(p.parcel_pfi),
          road_lines: roadLines[i],
        })),
      },
    );
    type Entity = {
      provisions: { status: string; data: { lot: { source: string } } };
      envelope: { status: string; gap: string | null; data: { area_m2: number; parcel_area_m2: number } | null };
    };
    const entities = data._entities as Entity[];
    expect(entities).toHaveLength(parcels.length);
    expect(entities.every((e) => e.provisions.data.lot.source === 'parcel')).toBe(true);
    const drawn = entities.filter((e) => e.envelope.data);
    expect(drawn.length).toBeGreaterThan(parcels.length / 2);
    for (const e of drawn) expect(e.envelope.data!.area_m2).toBeLessThan(e.envelope.data!.parcel_area_m2);
    // the zones at every point in one statement; the roads came with the representations
    expect(queries).toHaveLength(1);
  });

  it('keeps a layer failure inside that layer', async () => {
    // A real failure, not a stub: the planning table goes away for the length of one query.
    await db.exec('ALTER TABLE planning.overlay RENAME TO overlay_offline');
    try {
      const data = await run(
        'planning',
        `query($lat: Float!, $lng: Float!) { planningAt(lat: $lat, lng: $lng, state: "VIC") { status message data { zone { code } } } }`,
        { lat: parcels[0]!.lat, lng: parcels[0]!.lng },
      );
      expect(data.planningAt).toMatchObject({
        status: 'error',
        data: null,
        message: expect.stringMatching(/other layers are unaffected/),
      });
    } finally {
      await db.exec('ALTER TABLE planning.overlay_offline RENAME TO overlay');
    }
  });
});
