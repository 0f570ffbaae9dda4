import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_SCOPE } from '../core/context.ts';
import type { Database } from '../core/db.ts';
import type { GeoJSONGeometry, Position } from '../core/geojson.ts';
import type { ParcelGeometry } from '../core/polygons.ts';
import { areaM2, interiorPoint } from '../core/polygons.ts';
import { EARTHWORKS_KIND, earthworksHandler } from '../platform/jobs/earthworks.ts';
import { submitJob } from '../platform/jobs/engine.ts';
import { JobRegistry, JobWorker } from '../platform/jobs/worker.ts';
import { WebhookStore } from '../platform/webhooks/endpoints.ts';
import type { DemTile, Grid } from '../subgraphs/terrain/dem.ts';
import { metresPerDegree, mosaic } from '../subgraphs/terrain/dem.ts';
import { BATTER_RUN_PER_RISE, BOUNDARY_CLEARANCE_M, earthworks } from '../subgraphs/terrain/earthworks.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

// Live-dataset DEM tiles made here, away from test/terrain-routes.test.ts's: 2 × 2 tiles of
// 20 × 20 cells of 0.0001° (about 8.9 m east-west, 11.1 m north-south) near Huntly VIC.
const CELL = 0.0001;
const ORIGIN = { west: 144.35, north: -36.75 };
const M = metresPerDegree(ORIGIN.north);
const SNAPSHOT = 'earthworks-test';
const CREDIT = '© State of Victoria (Department of Energy, Environment and Climate Action), Vicmap Elevation';

type Surface = (lng: number, lat: number) => number;
/** A plane `base` metres high at the origin, rising `east` metres per metre eastwards. */
const eastPlane =
  (base: number, east: number): Surface =>
  (lng) =>
    base + east * (lng - ORIGIN.west) * M.lng;
const flat =
  (level: number): Surface =>
  () =>
    level;

function tilesOf(surface: Surface): DemTile[] {
  const tiles: DemTile[] = [];
  for (let ty = 0; ty < 2; ty += 1) {
    for (let tx = 0; tx < 2; tx += 1) {
      const west = ORIGIN.west + tx * 20 * CELL;
      const north = ORIGIN.north - ty * 20 * CELL;
      const heights: number[] = [];
      for (let r = 0; r < 20; r += 1) {
        for (let c = 0; c < 20; c += 1) heights.push(surface(west + (c + 0.5) * CELL, north - (r + 0.5) * CELL));
      }
      tiles.push({
        tile_id: `${SNAPSHOT}-${tx}-${ty}`,
        west,
        north,
        cell_lng: CELL,
        cell_lat: CELL,
        cols: 20,
        rows: 20,
        heights,
      });
    }
  }
  return tiles;
}

/** A rectangle `width` m east-west by `depth` m north-south centred `dx`, `dy` metres from the tiles' middle. */
function rect(width: number, depth: number, dx = 0, dy = 0): Extract<ParcelGeometry, { type: 'Polygon' }> {
  const cx = ORIGIN.west + 20 * CELL + dx / M.lng;
  const cy = ORIGIN.north - 20 * CELL + dy / M.lat;
  const w = width / 2 / M.lng;
  const h = depth / 2 / M.lat;
  const ring: Position[] = [
    [cx - w, cy - h],
    [cx + w, cy - h],
    [cx + w, cy + h],
    [cx - w, cy + h],
    [cx - w, cy - h],
  ];
  return { type: 'Polygon', coordinates: [ring] };
}

const gridOf = (surface: Surface): Grid => {
  const window = {
    west: ORIGIN.west,
    south: ORIGIN.north - 40 * CELL,
    east: ORIGIN.west + 40 * CELL,
    north: ORIGIN.north,
  };
  const grid = mosaic(tilesOf(surface), window);
  if (!grid) throw new Error('no grid');
  return grid;
};

describe('earthworks arithmetic on synthetic planes', () => {
  const footprint = rect(20, 10);
  const lot = rect(40, 30);
  const area = areaM2(footprint);

  it('finds no cut or fill on flat ground at its own level, and balances there', () => {
    const result = earthworks(gridOf(flat(50)), footprint, lot, area, 50)!;
    expect(result).toMatchObject({ cut_m3: 0, fill_m3: 0, net_m3: 0, max_cut_depth_m: 0, max_fill_depth_m: 0 });
    expect(result.balanced_pad_level_m).toBe(50);
    expect(result.setbacks.every((s) => s.kind === 'none' && s.required_setback_m === BOUNDARY_CLEARANCE_M)).toBe(true);
  });

  it('fills the whole footprint 1.2 m deep for a pad 1.2 m above flat ground, and cuts 0.75 m deep for one below', () => {
    const grid = gridOf(flat(50));
    const above = earthworks(grid, footprint, lot, area, 51.2)!;
    expect(above.fill_m3).toBeCloseTo(1.2 * area, 1);
    expect(above).toMatchObject({ cut_m3: 0, max_fill_depth_m: 1.2, pad_level_source: 'given', net_m3: above.net_m3 });
    expect(above.net_m3).toBeCloseTo(-1.2 * area, 1);
    const below = earthworks(grid, footprint, lot, area, 49.25)!;
    expect(below.cut_m3).toBeCloseTo(0.75 * area, 1);
    expect(below).toMatchObject({ fill_m3: 0, max_cut_depth_m: 0.75 });
    // every side is a fill batter 1.2 m tall, 2.4 m wide at 1:2, and needs 1 m + 2.4 m of the 10 m it has
    for (const side of above.setbacks) {
      expect(side).toMatchObject({ kind: 'fill', batter_height_m: 1.2, batter_width_m: 1.2 * BATTER_RUN_PER_RISE });
      expect(side.required_setback_m).toBeCloseTo(BOUNDARY_CLEARANCE_M + 2.4, 6);
      expect(side.available_m).toBeCloseTo(10, 1);
      expect(side.complies).toBe(true);
    }
  });

  it('balances a 5 % plane at its height under the centroid, with cut = fill = W·g·L²/8', () => {
    const g = 0.05;
    const surface = eastPlane(100, g);
    const result = earthworks(gridOf(surface), footprint, lot, area, null)!;
    const centre = ORIGIN.west + 20 * CELL;
    expect(result.pad_level_source).toBe('balanced');
    expect(result.pad_level_m).toBeCloseTo(surface(centre, 0), 2);
    // L = 20 m along the gradient, W = 10 m across: 10 × 0.05 × 400 / 8 = 25 m³, scaled to the exact area
    const analytic = ((area / 20) * g * 20 ** 2) / 8;
    expect(result.cut_m3).toBeCloseTo(analytic, 1);
    expect(result.fill_m3).toBeCloseTo(analytic, 1);
    expect(Math.abs(result.net_m3)).toBeLessThan(0.05);
    // the deepest cut is at the east edge's samples, half a lattice step in from it
    expect(result.max_cut_depth_m).toBeCloseTo(g * (10 - result.sample_spacing_m / 2), 2);
    const east = result.setbacks.find((s) => s.facing === 'E')!;
    const west = result.setbacks.find((s) => s.facing === 'W')!;
    expect(east).toMatchObject({ kind: 'cut', batter_height_m: 0.5, batter_width_m: 1 });
    expect(west).toMatchObject({ kind: 'fill', batter_height_m: 0.5, batter_width_m: 1 });
    expect(east.available_m).toBeCloseTo(10, 1);
    expect(result.setbacks.map((s) => s.facing).sort()).toEqual(['E', 'N', 'S', 'W']);
  });

  it('grows the setback with the batter: a pad 3 m above a 5 % plane needs 1 m + 2 × 3.5 m on its west side', () => {
    const surface = eastPlane(100, 0.05);
    const centreHeight = surface(ORIGIN.west + 20 * CELL, 0);
    // a footprint 2 m from the lot's west boundary
    const result = earthworks(gridOf(surface), footprint, rect(24, 30, 2), area, centreHeight + 3)!;
    const west = result.setbacks.find((s) => s.facing === 'W')!;
    expect(west).toMatchObject({ kind: 'fill', batter_height_m: 3.5, batter_width_m: 7, required_setback_m: 8 });
    expect(west.available_m).toBeCloseTo(0, 1);
    expect(west.complies).toBe(false);
    expect(result.setbacks_comply).toBe(false);
  });
});

async function insertTiles(db: Database, state: string, surface: Surface) {
  for (const tile of tilesOf(surface)) {
    await db.query(
      `INSERT INTO terrain.dem_tile (dataset, state, tile_id, west, north, cell_lng, cell_lat, cols, rows, heights, extent)
       VALUES ('live', $1, $2, $3::float8, $4::float8, $5::float8, $5::float8, 20, 20, $6::float8[],
               ST_MakeEnvelope($3::float8, $4::float8 - 20 * $5::float8, $3::float8 + 20 * $5::float8, $4::float8, 4326))`,
      [state, tile.tile_id, tile.west, tile.north, CELL, tile.heights],
    );
  }
}

async function cleanUp(db: Database) {
  await db.query(`DELETE FROM terrain.dem_tile WHERE dataset = 'live' AND tile_id LIKE $1`, [`${SNAPSHOT}-%`]);
  await db.query(
    `DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'terrain' AND snapshot_id = $1`,
    [SNAPSHOT],
  );
}

describe('POST /v1/siting/earthworks and its result', () => {
  let t: TestRuntime;
  let f: Fixtures;
  let live: string;
  let worker: JobWorker;
  const GRADIENT = 0.05;
  const surface = eastPlane(100, GRADIENT);
  const account = `acct-earthworks-${Date.now()}`;
  const footprint = rect(20, 10);
  const lot = rect(40, 30);

  const submit = (body: unknown, key = live) =>
    request(t.app)
      .post('/v1/siting/earthworks')
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);
  /** Runs every queued earthworks job (other files' too, which share the database) until none is left. */
  const drain = async () => {
    while (await worker.runOnce()) {
      /* next */
    }
  };
  const poll = (id: string, key = live) =>
    request(t.app).get(`/v1/siting/earthworks/${id}`).set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    await cleanUp(t.runtime.db);
    await insertTiles(t.runtime.db, 'VIC', surface);
    await t.runtime.db.query(
      `INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
       VALUES ('live', 'terrain', 'VIC', $1, 'CC BY 4.0', $2)
       ON CONFLICT (dataset, layer, state) DO UPDATE SET attribution = $1, snapshot_id = $2`,
      [CREDIT, SNAPSHOT],
    );
    t.runtime.catalog.invalidate();
    live = await createTestKey(t.runtime, { kind: 'live', account });
    worker = new JobWorker(t.runtime.db, new JobRegistry().register(earthworksHandler), t.config, {
      sweepEveryMs: null,
      graph: t.runtime.graph,
    });
  });

  afterAll(async () => {
    await cleanUp(t.runtime.db);
    t.runtime.catalog.invalidate();
  });

  it('answers 202 with a job id, runs through the graph, and polls to the cut and fill, credited', async () => {
    const store = new WebhookStore(t.runtime.db, t.config, () =>
      Promise.resolve([{ address: '93.184.216.34', family: 4 }]),
    );
    await store.create(account, { url: 'https://hooks.example.com/earthworks', events: ['earthworks.job.completed'] });
    const res = await submit({ state: 'VIC', lot, footprint });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      success: true,
      status: 'queued',
      poll: `/v1/siting/earthworks/${res.body.job_id}`,
    });
    expect(res.body.checks.ground_max_m - res.body.checks.ground_min_m).toBeCloseTo(GRADIENT * 20, 1);
    const id = res.body.job_id as string;
    const before = await poll(id);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ status: 'queued', result: null, attribution: null });

    await drain();
    const done = await poll(id);
    expect(done.status).toBe(200);
    const area = areaM2(footprint);
    const analytic = ((area / 20) * GRADIENT * 20 ** 2) / 8;
    expect(done.body).toMatchObject({ success: true, status: 'succeeded', attribution: CREDIT, license: 'CC BY 4.0' });
    expect(done.body.result).toMatchObject({
      state: 'VIC',
      parcel_pfi: null,
      pad_level_source: 'balanced',
      batter_ratio: '1:2',
      source: `mirror:vic/terrain@${SNAPSHOT}`,
      attribution: CREDIT,
    });
    expect(done.body.result.cut_m3).toBeCloseTo(analytic, 0);
    expect(done.body.result.fill_m3).toBeCloseTo(analytic, 0);
    expect(done.body.result.pad_level_m).toBeCloseTo(surface(ORIGIN.west + 20 * CELL, 0), 2);
    expect(done.body.result.footprint_area_m2).toBeCloseTo(area, 0);
    // headers carry the credit in ASCII (rest-facade writes © as (c))
    expect(done.headers['x-service-attribution']).toBe(CREDIT.replace('©', '(c)'));
    expect(done.headers['x-service-license']).toBe('CC BY 4.0');

    const [event] = await t.runtime.db.query<{ data: Record<string, unknown> }>(
      `SELECT input->'event'->'data' AS data FROM platform.job
       WHERE kind = 'webhook.delivery' AND account_id = $1 AND input->'event'->>'type' = 'earthworks.job.completed'`,
      [account],
    );
    expect(event?.data).toMatchObject({ job_id: id, state: 'VIC', cut_m3: done.body.result.cut_m3 });
  });

  it('works out a given pad level: 1 m above the centroid on the plane cuts less and fills more', async () => {
    const level = surface(ORIGIN.west + 20 * CELL, 0) + 1;
    const res = await submit({ state: 'VIC', lot, footprint, pad_level_m: level });
    expect(res.status).toBe(202);
    await drain();
    const { body } = await poll(res.body.job_id as string);
    expect(body.result).toMatchObject({ pad_level_source: 'given' });
    expect(body.result.pad_level_m).toBeCloseTo(level, 3);
    // the ground (±0.5 m about the centroid) lies wholly below the pad: fill = area × 1 m, no cut
    expect(body.result.cut_m3).toBe(0);
    expect(body.result.fill_m3).toBeCloseTo(areaM2(footprint), 0);
  });

  it("answers 404 for another account's earthworks job and for a job of another kind, as for a missing one", async () => {
    const res = await submit({ state: 'VIC', lot, footprint });
    const other = await createTestKey(t.runtime, { kind: 'live', account: `${account}-other` });
    const theirs = await poll(res.body.job_id as string, other);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ success: false, error: `No job ${res.body.job_id}.` });
    const missing = await poll('job_0000000000000000');
    expect(missing.status).toBe(404);
    const notEarthworks = await submitJob(t.runtime.db, { kind: 'something.else', accountId: account });
    const wrongKind = await poll(notEarthworks.id);
    expect(wrongKind.status).toBe(404);
    expect(wrongKind.body.error).toBe(`No earthworks job ${notEarthworks.id}.`);
    await t.runtime.db.query(`DELETE FROM platform.job WHERE id = $1`, [notEarthworks.id]);
    await drain();
  });

  it('takes the lot by pfi and state from the cadastre, echoing the pfi (sandbox)', async () => {
    const { data } = await t.runtime.graph.execute<{ property: { parcel_geometry: ParcelGeometry } }>(
      `query ($pfi: String!, $state: String!) { property: propertyByParcel(parcel_pfi: $pfi, state: $state) { parcel_geometry } }`,
      { pfi: f.vicParcel.parcel_pfi, state: 'VIC' },
      INTERNAL_SCOPE,
    );
    const p = interiorPoint(data!.property.parcel_geometry);
    const d = 1.5;
    const small: GeoJSONGeometry = {
      type: 'Polygon',
      coordinates: [
        [
          [p.lng - d / M.lng, p.lat - d / M.lat],
          [p.lng + d / M.lng, p.lat - d / M.lat],
          [p.lng + d / M.lng, p.lat + d / M.lat],
          [p.lng - d / M.lng, p.lat + d / M.lat],
          [p.lng - d / M.lng, p.lat - d / M.lat],
        ],
      ],
    };
    // a key with siting.earthworks alone: the lot's boundary is opened to it, nothing else of the parcel
    const only = await createTestKey(t.runtime, { scopes: ['siting.earthworks'] });
    const res = await submit({ state: 'VIC', pfi: f.vicParcel.parcel_pfi, footprint: small }, only);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await drain();
    const { body } = await poll(res.body.job_id as string, only);
    expect(body).toMatchObject({ status: 'succeeded', result: { parcel_pfi: f.vicParcel.parcel_pfi, state: 'VIC' } });
    expect(body.result.setbacks).toHaveLength(4);
  });

  /** A closed ring of `positions` positions, radius 4 m, about the tiles' middle. */
  const circle = (positions: number): GeoJSONGeometry => {
    const [cx, cy] = [ORIGIN.west + 20 * CELL, ORIGIN.north - 20 * CELL];
    const ring = Array.from({ length: positions - 1 }, (_x, i) => {
      const a = (2 * Math.PI * i) / (positions - 1);
      return [cx + (4 * Math.cos(a)) / M.lng, cy + (4 * Math.sin(a)) / M.lat];
    });
    return { type: 'Polygon', coordinates: [[...ring, ring[0]!]] };
  };

  const bowtie: GeoJSONGeometry = {
    type: 'Polygon',
    coordinates: [
      [
        [144.352, -36.752],
        [144.3522, -36.7518],
        [144.3522, -36.752],
        [144.352, -36.7519],
        [144.352, -36.752],
      ],
    ],
  };

  it.each([
    [
      'a footprint that is a Point',
      () => ({ state: 'VIC', lot, footprint: { type: 'Point', coordinates: [144.352, -36.752] } }),
      400,
      /footprint must be a GeoJSON Polygon.*got Point/,
    ],
    [
      'a footprint that is a MultiPolygon',
      () => ({ state: 'VIC', lot, footprint: { type: 'MultiPolygon', coordinates: [footprint.coordinates] } }),
      400,
      /footprint must be a GeoJSON Polygon.*got MultiPolygon/,
    ],
    [
      'a self-intersecting footprint',
      () => ({ state: 'VIC', lot, footprint: bowtie }),
      400,
      /footprint is not a valid polygon: Self-intersection/,
    ],
    [
      'an open ring',
      () => ({
        state: 'VIC',
        lot,
        footprint: { type: 'Polygon', coordinates: [footprint.coordinates[0]!.slice(0, 4)] },
      }),
      400,
      /footprint: polygon ring 0 is not closed/,
    ],
    [
      'a footprint beyond the lot',
      () => ({ state: 'VIC', lot, footprint: rect(20, 10, 15) }),
      422,
      /footprint is not inside the lot/,
    ],
    [
      'a footprint over 10 000 m²',
      () => ({ state: 'VIC', lot: rect(200, 200), footprint: rect(120, 100) }),
      400,
      /footprint covers 12,0\d\d m²; the limit is 10,000 m²/,
    ],
    [
      'a footprint of more than 1 000 positions',
      () => ({ state: 'VIC', lot, footprint: circle(1001) }),
      400,
      /footprint has 1001 positions; the limit is 1000/,
    ],
    [
      'a pad level no land has',
      () => ({ state: 'VIC', lot, footprint, pad_level_m: 5000 }),
      400,
      /pad_level_m must be a level in metres AHD from -50 to 2300/,
    ],
    [
      'a pad level 200 m above the ground',
      () => ({ state: 'VIC', lot, footprint, pad_level_m: 300 }),
      422,
      /pad_level_m 300 m AHD is 19\d\.\d m above the lowest ground/,
    ],
    [
      'a pad level given as text',
      () => ({ state: 'VIC', lot, footprint, pad_level_m: '100' }),
      400,
      /pad_level_m must be a level/,
    ],
    ['both pfi and lot', () => ({ state: 'VIC', pfi: '1', lot, footprint }), 400, /Name the lot one way/],
    ['neither pfi nor lot', () => ({ state: 'VIC', footprint }), 400, /Name the lot one way/],
    [
      'a lot that is not there',
      () => ({ state: 'VIC', pfi: 'no-such-lot', footprint }),
      404,
      /No lot with PFI no-such-lot in VIC/,
    ],
    [
      'a state the Elevation group does not serve',
      () => ({ state: 'NSW', lot, footprint }),
      422,
      /VIC only; NSW is not available/,
    ],
    [
      'a VIC lot beyond the terrain model',
      () => ({ state: 'VIC', lot: rect(40, 30, 20_000), footprint: rect(20, 10, 20_000) }),
      422,
      /does not reach this footprint/,
    ],
    ['an unknown field', () => ({ state: 'VIC', lot, footprint, depth: 1 }), 400, /remove 'depth'/],
  ])('refuses %s with %i in the plain error shape, queuing nothing', async (_label, body, status, message) => {
    const [{ n: before } = { n: 0 }] = await t.runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM platform.job WHERE kind = $1`,
      [EARTHWORKS_KIND],
    );
    const res = await submit(body());
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject({ success: false });
    expect(res.body.error).toMatch(message);
    expect(typeof res.body.hint).toBe('string');
    const [{ n: after } = { n: 0 }] = await t.runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM platform.job WHERE kind = $1`,
      [EARTHWORKS_KIND],
    );
    expect(after).toBe(before);
  });

  it('answers Query.earthworks on the graph for siting.earthworks only, with the same refusals', async () => {
    const query = `query ($f: GeoJSON!, $l: GeoJSON!) {
      earthworks(state: "VIC", footprint: $f, lot: $l) { status available data { cut_m3 fill_m3 pad_level_source } }
    }`;
    const graphql = (variables: object, key: string) =>
      request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query, variables });
    const ok = await graphql({ f: footprint, l: lot }, live);
    expect(ok.body.data.earthworks).toMatchObject({
      status: 'ok',
      available: true,
      data: { pad_level_source: 'balanced' },
    });
    expect(ok.body.data.earthworks.data.cut_m3).toBeCloseTo(ok.body.data.earthworks.data.fill_m3, 1);
    const point = await graphql({ f: { type: 'Point', coordinates: [144.352, -36.752] }, l: lot }, live);
    expect(point.status).toBe(400);
    expect(point.body.errors[0].message).toBe('footprint must be a GeoJSON Polygon; got Point.');
    const narrow = await createTestKey(t.runtime, { kind: 'live', account, scopes: ['elevation.read'] });
    const refused = await graphql({ f: footprint, l: lot }, narrow);
    expect(refused.body.errors[0].message).toBe('Missing scope: siting.earthworks');
  });

  it('needs scope siting.earthworks to submit and to poll', async () => {
    const narrow = await createTestKey(t.runtime, { kind: 'live', account, scopes: ['elevation.read'] });
    const res = await submit({ state: 'VIC', lot, footprint }, narrow);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Missing scope: siting.earthworks');
    expect((await poll('job_0000000000000000', narrow)).status).toBe(403);
  });
});
