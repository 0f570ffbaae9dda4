import { execute, parse } from 'graphql';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { ProvenanceCatalog } from '../core/provenance.ts';
import { metresPerDegree } from '../subgraphs/terrain/dem.ts';
import { buildTerrainSubgraph } from '../subgraphs/terrain/server.ts';
import type { DemTileRow } from '../subgraphs/terrain/sql.ts';
import { DEM_TILES_FOR_WINDOWS, heightsFromArraySend } from '../subgraphs/terrain/sql.ts';
import { foldedSql } from '../core/folded-sql.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { demTileCache } from '../subgraphs/terrain/tile-cache.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

// Live-dataset DEM tiles made here (the live dataset holds no terrain of its own): a 4 % plane
// rising to the ENE near Huntly VIC, and flat ground in NSW, each 2 × 2 tiles of 20 × 20 cells.
const CELL = 0.0001;
const VIC = { west: 144.3, north: -36.7 };
const NSW = { west: 151.0, north: -33.8 };
const M = metresPerDegree(VIC.north);
const vicHeight = (lng: number, lat: number) =>
  100 + 0.032 * (lng - VIC.west) * M.lng + 0.024 * (lat - VIC.north) * M.lat;
const SNAPSHOT = 'terrain-routes-test';
const CREDIT = '© State of Victoria (Department of Energy, Environment and Climate Action), Vicmap Elevation';

async function insertTiles(
  db: Database,
  state: string,
  origin: typeof VIC,
  height: (lng: number, lat: number) => number,
) {
  for (let ty = 0; ty < 2; ty += 1) {
    for (let tx = 0; tx < 2; tx += 1) {
      const west = origin.west + tx * 20 * CELL;
      const north = origin.north - ty * 20 * CELL;
      const heights: number[] = [];
      for (let r = 0; r < 20; r += 1) {
        for (let c = 0; c < 20; c += 1) heights.push(height(west + (c + 0.5) * CELL, north - (r + 0.5) * CELL));
      }
      await db.query(
        `INSERT INTO terrain.dem_tile (dataset, state, tile_id, west, north, cell_lng, cell_lat, cols, rows, heights, extent)
         VALUES ('live', $1, $2, $3::float8, $4::float8, $5::float8, $5::float8, 20, 20, $6::float8[],
                 ST_MakeEnvelope($3::float8, $4::float8 - 20 * $5::float8, $3::float8 + 20 * $5::float8, $4::float8, 4326))`,
        [state, `${SNAPSHOT}-${tx}-${ty}`, west, north, CELL, heights],
      );
    }
  }
}

async function cleanUp(db: Database) {
  await db.query(`DELETE FROM terrain.dem_tile WHERE dataset = 'live' AND tile_id LIKE $1`, [`${SNAPSHOT}-%`]);
  await db.query(
    `DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'terrain' AND snapshot_id = $1`,
    [SNAPSHOT],
  );
}

const square = (west: number, south: number, size: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [west, south],
      [west + size, south],
      [west + size, south + size],
      [west, south + size],
      [west, south],
    ],
  ],
});

describe('terrain routes and graph', () => {
  let t: TestRuntime;
  let f: Fixtures;
  let live: string;
  const get = (path: string, query: Record<string, string>, key = live) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${key}`);
  const stats = (body: unknown, key = live) =>
    request(t.app)
      .post('/api/contours/terrain-stats')
      .send(body as object)
      .set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    await cleanUp(t.runtime.db);
    await insertTiles(t.runtime.db, 'VIC', VIC, vicHeight);
    await insertTiles(t.runtime.db, 'NSW', NSW, () => 30);
    for (const state of ['VIC', 'NSW']) {
      await t.runtime.db.query(
        `INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
         VALUES ('live', 'terrain', $1, $2, 'CC BY 4.0', $3)
         ON CONFLICT (dataset, layer, state) DO UPDATE SET attribution = $2, snapshot_id = $3`,
        [state, CREDIT, SNAPSHOT],
      );
    }
    t.runtime.catalog.invalidate();
    live = await createTestKey(t.runtime, { kind: 'live' });
  });

  afterAll(async () => {
    await cleanUp(t.runtime.db);
    t.runtime.catalog.invalidate();
  });

  it('draws the 1 m contours of a window at zoom 17: straight lines on their levels, index every 5 m, credited', async () => {
    const w = { west: 144.3005, south: -36.7035, east: 144.3035, north: -36.7005 };
    const res = await get('/api/contours/vector', {
      state: 'vic',
      bbox: `${w.west},${w.south},${w.east},${w.north}`,
      zoom: '17',
    });
    expect(res.status).toBe(200);
    const [low, high] = [vicHeight(w.west, w.south), vicHeight(w.east, w.north)];
    const levels = Array.from({ length: Math.floor(high) - Math.floor(low) }, (_x, i) => Math.floor(low) + 1 + i);
    expect(res.body).toMatchObject({
      type: 'FeatureCollection',
      success: true,
      error: null,
      hint: null,
      source: `mirror:vic/terrain@${SNAPSHOT}`,
      zoom: 17,
      zoom_source: 'given',
      interval_m: 1,
      index_interval_m: 5,
      attribution: CREDIT,
      license: 'CC BY 4.0',
    });
    const features = res.body.features as Array<{ properties: { elevation_m: number } }>;
    expect(features.map((x) => x.properties.elevation_m)).toEqual(levels);
    for (const feature of res.body.features) {
      expect(feature.properties.index).toBe(feature.properties.elevation_m % 5 === 0);
      expect(feature.geometry.type).toBe('LineString');
      expect(feature.geometry.coordinates).toHaveLength(2);
      for (const [lng, lat] of feature.geometry.coordinates as Array<[number, number]>) {
        expect(Math.abs(vicHeight(lng, lat) - feature.properties.elevation_m)).toBeLessThan(0.01);
      }
    }
    expect(res.headers['x-service-license']).toBe('CC BY 4.0');
  });

  it('picks the zoom from the window when none is given, and answers flat land with no lines but status ok', async () => {
    const vic = await get('/api/contours/vector', { state: 'VIC', bbox: '144.3005,-36.7035,144.3035,-36.7005' });
    expect(vic.body).toMatchObject({ zoom: 18, zoom_source: 'window', interval_m: 1 });
    const flat = await get('/api/contours/vector', { state: 'NSW', bbox: '151.0005,-33.8035,151.0035,-33.8005' });
    expect(flat.status).toBe(200);
    expect(flat.body).toMatchObject({ features: [], source: `mirror:nsw/terrain@${SNAPSHOT}`, attribution: CREDIT });
    expect(flat.body.hint).toMatch(/flat/);
  });

  it('answers not covered with an empty collection: a state without terrain, or a window beyond the model', async () => {
    const qld = await get('/api/contours/vector', { state: 'QLD', bbox: '153.0,-27.5,153.01,-27.49' });
    expect(qld.status).toBe(200);
    expect(qld.body).toMatchObject({ features: [], source: null, hint: 'Terrain data does not cover QLD yet.' });
    const beyond = await get('/api/contours/vector', { state: 'VIC', bbox: '144.5,-36.8,144.51,-36.79' });
    expect(beyond.body).toMatchObject({ features: [], source: `mirror:vic/terrain@${SNAPSHOT}` });
    expect(beyond.body.hint).toMatch(/does not reach this window/);
  });

  it.each([
    [{ state: 'VIC', bbox: '144.0,-36.8,144.2,-36.7' }, /limit is 0.1 degrees/],
    [{ state: 'VIC', bbox: '144.3,-36.71,144.31,-36.7', zoom: '23' }, /zoom must be at most 22/],
    [{ state: 'VIC', bbox: '144.3,-36.71,144.31,-36.7', zoom: '16.5' }, /zoom must be a whole number/],
    [{ bbox: '144.3,-36.71,144.31,-36.7' }, /state is required/],
  ])('refuses contours for %j with a 400 in the FeatureCollection shape', async (query, message) => {
    const res = await get('/api/contours/vector', query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: 'FeatureCollection', features: [], success: false });
    expect(res.body.error).toMatch(message);
  });

  it('gives the exact statistics of the cells inside a polygon, the same for a Feature holding it', async () => {
    // cell centres at 144.3 + (c + 0.5) / 10000: the square holds columns 10-29 and rows 10-29
    const polygon = square(144.30102, -36.70298, 0.00196);
    const res = await stats({ state: 'VIC', polygon });
    expect(res.status).toBe(200);
    const heights: number[] = [];
    for (let r = 10; r < 30; r += 1) {
      for (let c = 10; c < 30; c += 1)
        heights.push(vicHeight(VIC.west + (c + 0.5) * CELL, VIC.north - (r + 0.5) * CELL));
    }
    const [area] = await t.runtime.db.query<{ m2: number }>('SELECT ST_Area(ST_GeomFromGeoJSON($1)::geography) AS m2', [
      JSON.stringify(polygon),
    ]);
    const round2 = (x: number) => Math.round(x * 100) / 100;
    expect(res.body).toEqual({
      success: true,
      state: 'VIC',
      source: `mirror:vic/terrain@${SNAPSHOT}`,
      data: {
        min_m: round2(Math.min(...heights)),
        max_m: round2(Math.max(...heights)),
        mean_m: round2(heights.reduce((a, b) => a + b) / heights.length),
        fall_m: round2(Math.max(...heights) - Math.min(...heights)),
        slope_mean_percent: 4,
        slope_max_percent: 4,
        slope_mean_deg: 2.29,
        slope_max_deg: 2.29,
        aspect: 'SW',
        aspect_deg: 233.1,
        samples: 400,
        sampling: 'cells',
        cell_size_m: round2(Math.sqrt(CELL * M.lng * CELL * M.lat)),
        area_m2: expect.closeTo(area!.m2, 1) as number,
      },
      attribution: CREDIT,
      license: 'CC BY 4.0',
    });
    expect(res.headers['x-service-attribution']).toMatch(/Vicmap Elevation$/);
    const feature = await stats({ state: 'VIC', polygon: { type: 'Feature', properties: {}, geometry: polygon } });
    expect(feature.body.data).toEqual(res.body.data);
  });

  it("reads a tile's heights once per version of the tile: a rewritten tile is read again at the next call", async () => {
    const polygon = square(144.30102, -36.70298, 0.00196);
    const before = await stats({ state: 'VIC', polygon });
    expect(before.status).toBe(200);
    const cache = demTileCache(t.runtime.db);
    const held = cache.known(
      'live',
      [{ state: 'VIC', west: 144.301, south: -36.703, east: 144.303, north: -36.701 }],
      0,
    );
    expect(held.ids.sort()).toEqual([0, 1].flatMap((tx) => [0, 1].map((ty) => `${SNAPSHOT}-${tx}-${ty}`)).sort());
    // the statement leaves out the heights of the held versions only
    const rows = await t.runtime.db.sql<DemTileRow>(
      DEM_TILES_FOR_WINDOWS('live', ['VIC'], [144.301], [-36.703], [144.303], [-36.701], {
        states: held.states.slice(1),
        ids: held.ids.slice(1),
        versions: held.versions.slice(1),
      }),
    );
    expect(
      rows
        .filter((row) => row.heights === null)
        .map((row) => row.tile_id)
        .sort(),
    ).toEqual(held.ids.slice(1).sort());
    expect(rows.filter((row) => row.heights !== null).map((row) => row.tile_id)).toEqual([held.ids[0]]);

    const again = await stats({ state: 'VIC', polygon });
    expect(again.body).toEqual(before.body);
    await t.runtime.db.query(
      `UPDATE terrain.dem_tile SET heights = (SELECT array_agg(h + 10 ORDER BY n) FROM unnest(heights) WITH ORDINALITY AS u(h, n))
       WHERE dataset = 'live' AND state = 'VIC' AND tile_id LIKE $1`,
      [`${SNAPSHOT}-%`],
    );
    try {
      const raised = await stats({ state: 'VIC', polygon });
      expect(raised.body.data.mean_m).toBeCloseTo(before.body.data.mean_m + 10, 2);
      expect(raised.body.data.min_m).toBeCloseTo(before.body.data.min_m + 10, 2);
    } finally {
      await t.runtime.db.query(
        `UPDATE terrain.dem_tile SET heights = (SELECT array_agg(h - 10 ORDER BY n) FROM unnest(heights) WITH ORDINALITY AS u(h, n))
         WHERE dataset = 'live' AND state = 'VIC' AND tile_id LIKE $1`,
        [`${SNAPSHOT}-%`],
      );
    }
    expect((await stats({ state: 'VIC', polygon })).body).toEqual(before.body);
  });

  it('reads the same tiles folded with other statements (heights as JSON hex text) as alone (bytes)', async () => {
    const db = t.runtime.db;
    const none = { states: [], ids: [], versions: [] };
    const ask = () => DEM_TILES_FOR_WINDOWS('live', ['VIC'], [144.301], [-36.703], [144.303], [-36.701], none);
    const alone = await db.sql<DemTileRow>(ask());
    // two statements asked in the same turn go as one
    const [folded, other] = await Promise.all([
      foldedSql<DemTileRow>(db, ask()),
      foldedSql<{ one: number }>(db, Prisma.sql`SELECT 1 AS one`),
    ]);
    expect(other).toEqual([{ one: 1 }]);
    expect(folded.map((row) => typeof row.heights)).toEqual(alone.map(() => 'string'));
    expect(alone.length).toBe(4);
    for (const [i, row] of alone.entries()) {
      const { heights, ...header } = row;
      const { heights: foldedHeights, ...foldedHeader } = folded[i]!;
      expect(foldedHeader).toEqual(header);
      expect(heightsFromArraySend(foldedHeights!)).toEqual(heightsFromArraySend(heights!));
    }
  });

  it.each([
    [
      { state: 'VIC', polygon: square(144.301, -36.703, 0.001), buffer: 5 },
      /takes only state and polygon; remove 'buffer'/,
    ],
    [{ polygon: square(144.301, -36.703, 0.001) }, /state is required/],
    [{ state: 'VIC' }, /polygon is required/],
    [{ state: 'VIC', polygon: { type: 'Point', coordinates: [144.3, -36.7] } }, /Polygon or MultiPolygon.*got Point/],
    [
      {
        state: 'VIC',
        polygon: {
          type: 'Polygon',
          coordinates: [
            [
              [144.3, -36.7],
              [144.301, -36.7],
              [144.301, -36.701],
            ],
          ],
        },
      },
      /needs at least 4/,
    ],
    [{ state: 'VIC', polygon: square(144.3, -36.72, 0.02) }, /the limit is 1,000,000 m²/],
    [{ state: 'Atlantis', polygon: square(144.301, -36.703, 0.001) }, /Unknown state 'Atlantis'/],
  ])('refuses terrain statistics for %j with a 400 naming the problem', async (body, message) => {
    const res = await stats(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, data: null });
    expect(res.body.error).toMatch(message);
  });

  it('answers 404 where no terrain model covers the polygon, and 403 without envelope.read', async () => {
    const qld = await stats({ state: 'QLD', polygon: square(153.0, -27.5, 0.001) });
    expect(qld.status).toBe(404);
    expect(qld.body.error).toBe('Terrain data does not cover QLD yet.');
    const elevationOnly = await createTestKey(t.runtime, { kind: 'live', scopes: ['elevation.read'] });
    const denied = await stats({ state: 'VIC', polygon: square(144.301, -36.703, 0.001) }, elevationOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('Missing scope: envelope.read');
    const contours = await get(
      '/api/contours/vector',
      { state: 'VIC', bbox: '144.3005,-36.7035,144.3035,-36.7005' },
      elevationOnly,
    );
    expect(contours.status).toBe(403);
  });

  it('gives the Elevation group of a VIC window the same figures as terrain-stats, and NSW available: false', async () => {
    const bbox = { west: 144.30102, south: -36.70298, east: 144.30298, north: -36.70102 };
    const res = await get('/api/elevation/terrain', { bbox: Object.values(bbox).join(','), state: 'VIC' });
    expect(res.status).toBe(200);
    const same = await stats({ state: 'VIC', polygon: square(bbox.west, bbox.south, 0.00196) });
    expect(res.body).toEqual({
      success: true,
      state: 'VIC',
      parcel_pfi: null,
      available: true,
      reason: null,
      status: 'ok',
      source: `mirror:vic/terrain@${SNAPSHOT}`,
      data: same.body.data,
      attribution: CREDIT,
      license: 'CC BY 4.0',
    });
    // NSW has a terrain model here, but the Elevation group serves VIC only (spec 4.11)
    const nsw = await get('/api/elevation/terrain', { bbox: '151.001,-33.803,151.002,-33.802' });
    expect(nsw.status).toBe(200);
    expect(nsw.body).toMatchObject({ state: 'NSW', available: false, status: 'not_covered', data: null, source: null });
    expect(nsw.body.reason).toMatch(/VIC only/);
  });

  it('holds GraphQL callers to the field scopes: terrainOfBBox with elevation.read, contours only with envelope.read', async () => {
    const key = await createTestKey(t.runtime, { kind: 'live', scopes: ['elevation.read'] });
    const graphql = (query: string) =>
      request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query });
    const window = '{ west: 144.301, south: -36.703, east: 144.302, north: -36.702 }';
    const ok = await graphql(`{ terrainOfBBox(bbox: ${window}, state: "VIC") { status available data { samples } } }`);
    expect(ok.body.data.terrainOfBBox).toMatchObject({ status: 'ok', available: true, data: { samples: 100 } });
    const denied = await graphql(`{ contours(bbox: ${window}, state: "VIC") { status } }`);
    expect(denied.body.errors[0].message).toBe('Missing scope: envelope.read');
  });

  it("measures a sandbox lot by PFI and by a point on it, as terrain-stats measures the lot's outline", async () => {
    const lookup = await get('/api/cadastre/lookup', { pfi: f.vicParcel.parcel_pfi, state: 'VIC' }, t.key);
    const outline = await stats({ state: 'VIC', polygon: lookup.body.data.geometry }, t.key);
    expect(outline.status).toBe(200);
    const byPfi = await get('/api/elevation/terrain', { pfi: f.vicParcel.parcel_pfi, state: 'VIC' }, t.key);
    expect(byPfi.body).toMatchObject({ available: true, status: 'ok', parcel_pfi: f.vicParcel.parcel_pfi });
    expect(byPfi.body.data).toEqual(outline.body.data);
    const atPoint = await get(
      '/api/elevation/terrain',
      { lat: String(f.vicParcel.lat), lng: String(f.vicParcel.lng) },
      t.key,
    );
    expect(atPoint.body.data).toEqual(outline.body.data);
    const nsw = await get(
      '/api/elevation/terrain',
      { lat: String(f.nswParcel.lat), lng: String(f.nswParcel.lng) },
      t.key,
    );
    expect(nsw.body).toMatchObject({ state: 'NSW', available: false, data: null });
  });

  it('refuses an unknown lot with 404, a muddled request with 400, and a key without elevation.read with 403', async () => {
    const unknown = await get('/api/elevation/terrain', { pfi: '999999999', state: 'VIC' }, t.key);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('No parcel with PFI 999999999 in VIC.');
    const both = await get('/api/elevation/terrain', { pfi: '1', state: 'VIC', bbox: '144.3,-36.71,144.31,-36.7' });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/Name the land one way/);
    const tooBig = await get('/api/elevation/terrain', { bbox: '144.3,-36.72,144.32,-36.7' });
    expect(tooBig.body.error).toMatch(/^bbox covers [\d,]+ m²; the limit is 1,000,000 m²/);
    const contoursOnly = await createTestKey(t.runtime, { kind: 'live', scopes: ['envelope.read'] });
    const denied = await get('/api/elevation/terrain', { bbox: '144.301,-36.703,144.302,-36.702' }, contoursOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('Missing scope: elevation.read');
  });
});

describe('the terrain subgraph, black-boxed', () => {
  let db: Database;
  const queries: string[] = [];

  beforeAll(async () => {
    const t = await testRuntime();
    await insertTiles(t.runtime.db, 'VIC', VIC, vicHeight);
    await t.runtime.db.query(
      `INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
       VALUES ('live', 'terrain', 'VIC', $1, 'CC BY 4.0', $2) ON CONFLICT (dataset, layer, state) DO NOTHING`,
      [CREDIT, SNAPSHOT],
    );
    db = await openDatabase(testConfig(), { onQuery: (sql) => queries.push(sql) });
  });

  afterAll(async () => {
    await db?.close();
    const t = await testRuntime();
    await cleanUp(t.runtime.db);
    t.runtime.catalog.invalidate();
  });

  it('resolves a batch of Property references with their parcel outlines in one query, VIC only', async () => {
    const catalog = new ProvenanceCatalog(db);
    await catalog.get('live', 'terrain', 'VIC');
    const subgraph = buildTerrainSubgraph({ db, catalog });
    const lots = [0, 1, 2].map((i) => square(144.3005 + i * 0.001, -36.7025, 0.0005));
    const representations = [
      ...lots.map((geometry, i) => ({
        __typename: 'Property',
        parcel_pfi: `${i}`,
        state: 'VIC',
        parcel_geometry: geometry,
        location: null,
      })),
      { __typename: 'Property', parcel_pfi: '9', state: 'QLD', parcel_geometry: lots[0], location: null },
      {
        __typename: 'Property',
        parcel_pfi: '10',
        state: 'VIC',
        parcel_geometry: square(144.3, -36.72, 0.02),
        location: null,
      },
      { __typename: 'Property', parcel_pfi: '11', state: 'VIC', parcel_geometry: null, location: null },
    ];
    queries.length = 0;
    const result = await execute({
      schema: subgraph.schema,
      document: parse(
        'query($r: [_Any!]!) { _entities(representations: $r) { ... on Property { parcel_pfi terrain { status available reason message data { samples mean_m aspect } } } } }',
      ),
      variableValues: { r: representations },
      contextValue: subgraph.createContext({ dataset: 'live', requestId: 'test', scopes: '*' }),
    });
    expect(result.errors).toBeUndefined();
    const entities = (
      result.data as {
        _entities: Array<{
          terrain: { status: string; available: boolean; message: string | null; data: { mean_m: number } | null };
        }>;
      }
    )._entities;
    expect(entities.slice(0, 3).map((e) => [e.terrain.status, e.terrain.available])).toEqual([
      ['ok', true],
      ['ok', true],
      ['ok', true],
    ]);
    // the lots step 0.001° east on a plane rising 3.2 cm per metre east
    expect(entities[1]!.terrain.data!.mean_m - entities[0]!.terrain.data!.mean_m).toBeCloseTo(0.032 * 0.001 * M.lng, 1);
    expect(entities[3]!.terrain).toMatchObject({ status: 'not_covered', available: false, data: null });
    // a farm over the area limit, and a property off any parcel, say why they have no figures
    expect(entities[4]!.terrain).toMatchObject({ status: 'skipped', available: true, data: null });
    expect(entities[4]!.terrain.message).toMatch(/the lot covers [\d,]+ m²; the limit is 1,000,000 m²/);
    expect(entities[5]!.terrain).toMatchObject({ status: 'skipped', available: true, data: null });
    expect(queries.filter((sql) => sql.includes('terrain.dem_tile'))).toHaveLength(1);
  });
});
