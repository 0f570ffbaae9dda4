import { execute, parse } from 'graphql';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubgraphs } from '../app/runtime.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import { sandboxSamples } from '../prisma/sandbox/samples.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

/*
 * Easements, building footprints and land values (the land subgraph) through the REST routes,
 * the property graph and /graphql, on the sandbox: each status, the credits in body and
 * headers, the scopes and the window limits.
 */

type Place = { parcel_pfi: string; state: string; lat: number; lng: number; gnaf_pid: string | null };

describe('land layers', () => {
  let t: TestRuntime;
  let f: Fixtures;
  let all: string;
  const get = (path: string, query: Record<string, string | number>, key = all) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);
  const graphql = (query: string, key = all) =>
    request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query });

  /** A sandbox parcel (with its address where it has one) meeting a condition on `p`. */
  async function parcel(state: string, condition: string): Promise<Place> {
    const [row] = await t.runtime.db.query<Place>(
      `SELECT p.parcel_pfi, p.state, ST_Y(ST_PointOnSurface(p.geom)) AS lat, ST_X(ST_PointOnSurface(p.geom)) AS lng,
              (SELECT a.gnaf_pid FROM address.address_detail a WHERE a.dataset = p.dataset AND a.state = p.state
                 AND a.parcel_pfi = p.parcel_pfi ORDER BY a.gnaf_pid LIMIT 1) AS gnaf_pid
       FROM cadastre.parcel p
       WHERE p.dataset = 'sandbox' AND p.state = $1 AND ${condition}
       ORDER BY p.parcel_pfi LIMIT 1`,
      [state],
    );
    if (!row) throw new Error(`the sandbox has no ${state} parcel where ${condition}`);
    return { ...row, lat: Number(row.lat), lng: Number(row.lng) };
  }
  const EASEMENT = `EXISTS (SELECT 1 FROM land.easement e WHERE e.dataset = p.dataset AND e.state = p.state
    AND e.parcel_pfi = p.parcel_pfi)`;
  const STATE_BUILDING = `EXISTS (SELECT 1 FROM land.building_footprint b WHERE b.dataset = p.dataset
    AND b.state = p.state AND b.source = 'state' AND ST_Intersects(p.geom, ST_PointOnSurface(b.geom)))`;
  const NO_BUILDING = `NOT EXISTS (SELECT 1 FROM land.building_footprint b WHERE b.dataset = p.dataset
    AND b.state = p.state AND ST_Intersects(p.geom, ST_PointOnSurface(b.geom)))`;
  const VALUED = `EXISTS (SELECT 1 FROM land.land_value v WHERE v.dataset = p.dataset AND v.state = p.state
    AND v.parcel_pfi = p.parcel_pfi)`;

  let vic: Place;
  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    all = t.key;
    vic = await parcel('VIC', `${EASEMENT} AND ${STATE_BUILDING} AND ${VALUED}`);
  });

  it('answers every land layer of a parcel in the property graph, with freshness and every credit in body and headers', async () => {
    const res = await get('/v1/property/graph', { pfi: vic.parcel_pfi, state: 'VIC' }).expect(200);
    const { easements, buildings, land_value } = res.body.layers;
    expect(easements).toMatchObject({
      status: 'ok',
      license: 'CC BY 4.0',
      source: expect.stringMatching(/^mirror:vic\/easements@/),
    });
    expect(easements.freshness).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(easements.data[0]).toMatchObject({
      type: 'Feature',
      geometry: { type: 'MultiPolygon' },
      properties: { parcel_pfi: vic.parcel_pfi, easement_type: expect.stringMatching(/drainage|sewerage|carriageway/) },
    });
    expect(buildings.status).toBe('ok');
    const sources = (buildings.data as Array<{ properties: { source: string } }>).map((b) => b.properties.source);
    expect(sources).toContain('state');
    expect(land_value).toMatchObject({
      status: 'ok',
      data: { parcel_pfi: vic.parcel_pfi, state: 'VIC', valuer: 'Valuer-General Victoria', base_date: '2025-01-01' },
    });
    expect(land_value.data.site_value).toBeGreaterThan(0);
    expect(land_value.data.capital_improved_value).toBeGreaterThanOrEqual(land_value.data.site_value);
    // the parcel's one footprint is the state's outline: the state's CC BY credit, not OpenStreetMap's
    expect(buildings).toMatchObject({ license: 'CC BY 4.0', attribution: expect.stringMatching(/Vicmap Buildings/) });
    expect(res.body.license).not.toContain('ODbL');
    expect(res.headers['x-service-attribution']).toBe(res.body.attribution);
    expect(res.body.attribution).toContain(buildings.attribution);
    expect(res.body.attribution).toContain(easements.attribution);
    expect(res.body.attribution).toContain(land_value.attribution);

    const osm = await parcel('VIC', STATE_BUILDING.replace("b.source = 'state'", "b.source = 'osm'"));
    const osmGraph = await get('/v1/property/graph', { pfi: osm.parcel_pfi, state: 'VIC' }).expect(200);
    expect(osmGraph.body.layers.buildings).toMatchObject({ status: 'ok', license: 'ODbL' });
    expect(osmGraph.headers['x-service-license']).toContain('ODbL');
    expect(osmGraph.headers['x-service-attribution']).toContain('OpenStreetMap');
  });

  it('says no_data where the source reaches but holds nothing for the parcel', async () => {
    const bare = await parcel('VIC', `NOT ${EASEMENT} AND ${NO_BUILDING} AND NOT ${VALUED}`);
    const res = await get('/v1/property/graph', { pfi: bare.parcel_pfi, state: 'VIC' }).expect(200);
    for (const layer of ['easements', 'buildings', 'land_value']) {
      expect(res.body.layers[layer], layer).toMatchObject({
        status: 'no_data',
        data: null,
        freshness: expect.any(String),
      });
      expect(res.body.layers[layer].attribution, layer).toMatch(/synthetic demo data/);
    }
    const easements = await get('/api/easements', { pfi: bare.parcel_pfi, state: 'VIC' }).expect(200);
    expect(easements.body).toMatchObject({
      type: 'FeatureCollection',
      features: [],
      status: 'no_data',
      hint: expect.any(String),
    });
    expect(easements.headers['x-service-attribution']).toBeUndefined();
  });

  it('says not_covered where the source does not reach the parcel, or the state at all', async () => {
    const res = await get('/v1/property/graph', { pfi: f.planningNotCovered.parcel_pfi, state: 'NSW' }).expect(200);
    for (const layer of ['easements', 'buildings', 'land_value']) {
      expect(res.body.layers[layer], layer).toMatchObject({ status: 'not_covered', data: null, freshness: null });
      expect(res.body.layers[layer].message, layer).toMatch(/does not reach this parcel/);
    }
    const sa = await get('/api/buildings', { lat: -34.9285, lng: 138.6007 }).expect(200);
    expect(sa.body).toMatchObject({ status: 'not_covered', features: [], query: { state: 'SA' } });
    expect(sa.body.hint).toMatch(/does not cover SA/);
  });

  it('skips the parcel layers at a point on no parcel', async () => {
    const res = await get('/v1/property/graph', f.roadReserve).expect(200);
    for (const layer of ['easements', 'buildings', 'land_value']) {
      expect(res.body.layers[layer], layer).toMatchObject({ status: 'skipped', data: null });
    }
    const value = await get('/api/land-values', f.roadReserve).expect(200);
    expect(value.body).toMatchObject({ success: true, parcel_pfi: null, status: 'skipped', data: null });
  });

  it('fails one layer alone when its source fails: error in the graph, 502 on its route', async () => {
    await t.runtime.db.exec('ALTER TABLE land.easement RENAME TO easement_offline');
    try {
      const res = await get('/v1/property/graph', { pfi: vic.parcel_pfi, state: 'VIC' }).expect(200);
      expect(res.body.layers.easements).toMatchObject({ status: 'error', data: null, attribution: null });
      expect(res.body.layers.buildings.status).toBe('ok');
      expect(res.body.layers.land_value.status).toBe('ok');
      expect(res.body.layers.cadastre.status).toBe('ok');
      const route = await get('/api/easements', { pfi: vic.parcel_pfi, state: 'VIC' }).expect(502);
      expect(route.body.error).toBe('The easements source failed for this request.');
    } finally {
      await t.runtime.db.exec('ALTER TABLE land.easement_offline RENAME TO easement');
    }
  });

  it('serves easements and footprints by window, refusing a window over the span or feature limit', async () => {
    const bbox = `${f.smallWindow.west},${f.smallWindow.south},${f.smallWindow.east},${f.smallWindow.north}`;
    const footprints = await get('/api/buildings', { bbox, state: 'VIC' }).expect(200);
    expect(footprints.body.status).toBe('ok');
    expect(footprints.body.features.length).toBeGreaterThan(0);
    expect(footprints.headers['x-service-license']).toBe(footprints.body.license);
    // OpenStreetMap's outlines and the state's side by side: both credits, in body and headers
    expect(footprints.body.license).toBe('ODbL | CC BY 4.0');
    expect(footprints.body.attribution).toMatch(/OpenStreetMap.* \| .*Vicmap Buildings/);
    const c = f.crowdedWindow;
    const crowded = await get('/api/buildings', {
      bbox: `${c.west},${c.south},${c.east},${c.north}`,
      state: 'VIC',
    }).expect(400);
    expect(JSON.stringify(crowded.body)).toMatch(/more than 1000 building footprints/);
    const wide = await get('/api/easements', { bbox: '144.2,-36.8,144.4,-36.6', state: 'VIC' }).expect(400);
    expect(JSON.stringify(wide.body)).toMatch(/the limit is 0.1 degrees per axis/);
    const easements = await get('/api/easements', { bbox: `${c.west},${c.south},${c.east},${c.north}`, state: 'VIC' });
    // the VIC sandbox holds fewer than a thousand easements in the window, so they all come back
    expect(easements.status).toBe(200);
    expect(easements.body.features.length).toBeGreaterThan(0);
  });

  it('finds the footprint holding a point, and the land value by point, parcel and address', async () => {
    const [inside] = await t.runtime.db.query<{ lat: number; lng: number }>(
      `SELECT ST_Y(ST_PointOnSurface(b.geom)) AS lat, ST_X(ST_PointOnSurface(b.geom)) AS lng
       FROM land.building_footprint b WHERE b.dataset = 'sandbox' AND b.state = 'QLD' ORDER BY b.id LIMIT 1`,
    );
    const at = await get('/api/buildings', { lat: inside!.lat, lng: inside!.lng }).expect(200);
    expect(at.body).toMatchObject({ status: 'ok', query: { state: 'QLD' } });
    expect(at.body.features).toHaveLength(1);
    // QLD footprints are OpenStreetMap's alone
    expect(at.body.license).toBe('ODbL');
    const nsw = await parcel(
      'NSW',
      `${VALUED} AND EXISTS (SELECT 1 FROM address.address_detail a
      WHERE a.dataset = p.dataset AND a.state = p.state AND a.parcel_pfi = p.parcel_pfi)`,
    );
    const byPfi = await get('/api/land-values', { pfi: nsw.parcel_pfi, state: 'NSW' }).expect(200);
    expect(byPfi.body).toMatchObject({
      status: 'ok',
      parcel_pfi: nsw.parcel_pfi,
      data: { valuer: 'NSW Valuer General', capital_improved_value: null },
    });
    expect(byPfi.headers['x-service-attribution']).toBe(byPfi.body.attribution);
    const byPoint = await get('/api/land-values', { lat: nsw.lat, lng: nsw.lng }).expect(200);
    expect(byPoint.body.data).toEqual(byPfi.body.data);
    const byAddress = await get('/api/land-values', { gnaf_pid: nsw.gnaf_pid! }).expect(200);
    expect(byAddress.body.data).toEqual(byPfi.body.data);
    await get('/api/land-values', { pfi: 'NO-SUCH-PFI', state: 'NSW' }).expect(404);
    const twoWays = await get('/api/land-values', { pfi: nsw.parcel_pfi, state: 'NSW', lat: nsw.lat, lng: nsw.lng });
    expect(twoWays.status).toBe(400);
    expect(JSON.stringify(twoWays.body)).toMatch(/Identify the land one way/);
  });

  it('offers a sandbox sample whose parcel has every land layer', async () => {
    const sample = (await sandboxSamples(t.runtime.db, 50)).find((s) => s.note.startsWith('easement, building'));
    expect(sample).toBeDefined();
    const res = await get('/v1/property/graph', { gnaf_pid: sample!.gnaf_pid }).expect(200);
    expect(res.body.property.parcel_pfi).toBe(sample!.parcel_pfi);
    for (const layer of ['easements', 'buildings', 'land_value'])
      expect(res.body.layers[layer].status, layer).toBe('ok');
  });

  it('gives each layer only to keys holding its scope', async () => {
    const graphOnly = await createTestKey(t.runtime, { scopes: ['property-graph.read', 'cadastre.read'] });
    const res = await get('/v1/property/graph', { pfi: vic.parcel_pfi, state: 'VIC' }, graphOnly).expect(200);
    expect(Object.keys(res.body.layers)).not.toContain('easements');
    expect(Object.keys(res.body.layers)).not.toContain('buildings');
    expect(Object.keys(res.body.layers)).not.toContain('land_value');
    expect(res.body.license).not.toContain('ODbL');

    const easementOnly = await createTestKey(t.runtime, { scopes: ['easement.read'] });
    await get('/api/easements', { pfi: vic.parcel_pfi, state: 'VIC' }, easementOnly).expect(200);
    const refused = await get('/api/buildings', { pfi: vic.parcel_pfi, state: 'VIC' }, easementOnly).expect(403);
    expect(JSON.stringify(refused.body)).toMatch(/Missing scope: dossier.read/);
    await get('/api/land-values', { pfi: vic.parcel_pfi, state: 'VIC' }, easementOnly).expect(403);

    const dossier = await createTestKey(t.runtime, { scopes: ['dossier.read'] });
    await get('/api/buildings', { pfi: vic.parcel_pfi, state: 'VIC' }, dossier).expect(200);
    await get('/api/land-values', { pfi: vic.parcel_pfi, state: 'VIC' }, dossier).expect(200);
    await get('/api/easements', { pfi: vic.parcel_pfi, state: 'VIC' }, dossier).expect(403);
    const window = `{ west: ${f.smallWindow.west}, south: ${f.smallWindow.south}, east: ${f.smallWindow.east}, north: ${f.smallWindow.north} }`;
    const denied = await graphql(`{ easementsInBBox(bbox: ${window}, state: "VIC") { status } }`, dossier);
    expect(denied.body.errors?.[0]?.message).toMatch(/Missing scope: easement.read/);
    const allowed = await graphql(
      `{ buildingsInBBox(bbox: ${window}, state: "VIC") { status features { id } } }`,
      dossier,
    );
    expect(allowed.body.data.buildingsInBBox.status).toBe('ok');
  });
});

describe('land subgraph batching', () => {
  let db: Database;
  const queries: string[] = [];

  beforeAll(async () => {
    await testRuntime(); // the tier's shared database is open (on PGlite, this process owns it)
    db = await openDatabase(testConfig(), { onQuery: (sql) => queries.push(sql) });
  });

  afterAll(async () => {
    await db.close();
  });

  it('answers all three layers of a batch of properties in one statement (one per layer, folded: core/folded-sql.ts)', async () => {
    const catalog = new ProvenanceCatalog(db);
    const land = buildSubgraphs(db, catalog).land;
    await catalog.get('sandbox', 'easements', 'VIC'); // credits are cached per process, not per request
    const parcels = await db.query<{ parcel_pfi: string; state: string; lat: number; lng: number; geometry: unknown }>(
      `SELECT p.parcel_pfi, p.state, ST_Y(ST_PointOnSurface(p.geom)) AS lat, ST_X(ST_PointOnSurface(p.geom)) AS lng,
              ST_AsGeoJSON(p.geom, 7)::json AS geometry
       FROM cadastre.parcel p WHERE p.dataset = 'sandbox' ORDER BY p.parcel_pfi LIMIT 25`,
    );
    queries.length = 0;
    const result = await execute({
      schema: land.schema,
      document: parse(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Property {
        easements { status } buildings { status data { id } } land_value { status data { parcel_pfi } } } } }`),
      variableValues: {
        r: parcels.map((p) => ({
          __typename: 'Property',
          parcel_pfi: p.parcel_pfi,
          state: p.state,
          location: { lat: p.lat, lng: p.lng },
          parcel_geometry: p.geometry,
        })),
      },
      contextValue: land.createContext({ dataset: 'sandbox', requestId: 'test', scopes: '*' }),
    });
    expect(result.errors).toBeUndefined();
    type Entity = {
      land_value: { status: string; data: { parcel_pfi: string } | null };
      buildings: { status: string };
    };
    const entities = (result.data as { _entities: Entity[] })._entities;
    expect(entities).toHaveLength(parcels.length);
    // answers come back in key order
    for (const [i, e] of entities.entries()) {
      if (e.land_value.data) expect(e.land_value.data.parcel_pfi).toBe(parcels[i]!.parcel_pfi);
    }
    expect(entities.filter((e) => e.buildings.status === 'ok').length).toBeGreaterThan(parcels.length / 2);
    // the three layers' batched statements, asked in the same turn, go as one
    expect(queries).toHaveLength(1);
  });
});
