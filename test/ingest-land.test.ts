import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Feature } from 'geojson';
import { serialize as serializeFgb } from 'flatgeobuf/lib/mjs/geojson.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ingestBuildings, type BuildingsIngestResult } from '../cli/ingest/buildings.ts';
import { runIngestBuildingsCommand, formatBuildingsSummary, formatLandValuesSummary } from '../cli/ingest/land-cli.ts';
import { ingestLandValues, type LandValuesIngestResult } from '../cli/ingest/land-values.ts';
import { IngestError } from '../cli/ingest/gnaf-release.ts';
import { Progress } from '../cli/ingest/progress.ts';
import type { Database } from '../core/db.ts';
import { createTestKey, type TestRuntime, testRuntime } from './support/runtime.ts';

/*
 * `ingest buildings` on real OpenStreetMap footprints (Federation University's Mt Helen campus,
 * Ballarat, as line-delimited GeoJSON) and `ingest land-values` on a fixture in the NSW Valuer
 * General's bulk file layout, each then read back through the REST routes with a live key.
 */

const BALLARAT = fileURLToPath(
  new URL('../data/samples/osm-buildings-ballarat/fedUni-mt-helen-buildings.geojsonl', import.meta.url),
);
const LV = fileURLToPath(
  new URL('../test/fixtures/nsw-vg-land-values/LV_20240701_215_PARRAMATTA.csv', import.meta.url),
);
/** Real: the first 24 properties of the Valuer General's 1 November 2017 file for district 620 (Mudgee). */
const MUDGEE = fileURLToPath(
  new URL('../data/samples/nsw-vg-land-values-mudgee/620_LAND_VALUE_DATA_20171101.csv', import.meta.url),
);
const SAMPLE_LINES = readFileSync(BALLARAT, 'utf8').trim().split('\n');
const CAMPUS = '143.889,-37.629,143.896,-37.624';
/** A dataset nobody serves, for runs that need not be read through the routes. */
const SIDE = 'land_test';
const GDAL = 'land_test_gdal';
const FGB = 'land_test_fgb';
const SNAPSHOT = 'osm-ballarat-2026-05-09';

/** Two NSW test parcels (lots 1 and 2 of DP1234567) side by side in Parramatta, live. */
const PARCELS = [
  { pfi: 'LGT-NSW-1', spi: '1//DP1234567', lot: '1', west: 151.0, south: -33.815 },
  { pfi: 'LGT-NSW-2', spi: '2//DP1234567', lot: '2', west: 151.0003, south: -33.815 },
];

describe('ingest buildings and land-values', () => {
  let t: TestRuntime;
  let db: Database;
  let dir: string;
  let liveKey: string;
  let first: BuildingsIngestResult;
  let values: LandValuesIngestResult;
  const quiet = () => new Progress({ write: () => true, isTTY: false });
  const get = (path: string, query: Record<string, string | number>) =>
    request(t.app).get(path).query(query).set('Authorization', `Bearer ${liveKey}`);
  const count = async (sql: string) => (await db.query<{ n: number }>(sql))[0]!.n;

  async function cleanUp() {
    await db.exec(`
      DELETE FROM land.building_footprint WHERE dataset IN ('live', '${SIDE}', '${GDAL}', '${FGB}') AND state = 'VIC';
      DELETE FROM land.land_value WHERE dataset = 'live' AND state = 'NSW' AND parcel_pfi LIKE 'LGT-%';
      DELETE FROM land.land_value WHERE dataset = '${SIDE}';
      DELETE FROM cadastre.parcel WHERE dataset = '${SIDE}' AND parcel_pfi LIKE 'LGT-%';
      DELETE FROM land.coverage WHERE dataset IN ('live', '${SIDE}', '${GDAL}', '${FGB}') AND layer IN ('buildings', 'land-values');
      DELETE FROM public.dataset_source WHERE dataset IN ('live', '${SIDE}', '${GDAL}', '${FGB}') AND layer IN ('buildings', 'buildings-state', 'land-values');
      DELETE FROM cadastre.parcel WHERE dataset = 'live' AND parcel_pfi LIKE 'LGT-%';
      DELETE FROM cadastre.coverage WHERE dataset = 'live' AND name = 'LGT PARRAMATTA';
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'cadastre' AND state = 'NSW' AND snapshot_id = 'lgt-test';`);
    t.runtime.catalog.invalidate();
  }

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    dir = mkdtempSync(join(tmpdir(), 'landgraph-land-'));
    await cleanUp();
    const box = (w: number, s: number, d = 0.0002) => `ST_Multi(ST_MakeEnvelope(${w}, ${s}, ${w + d}, ${s + d}, 4326))`;
    for (const p of PARCELS) {
      await db.exec(`INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, parcel_lot_number,
          parcel_plan_number, area_m2, geom)
        VALUES ('live', 'NSW', '${p.pfi}', '${p.spi}', '${p.lot}', 'DP1234567', 400, ${box(p.west, p.south)})`);
    }
    await db.exec(`
      INSERT INTO cadastre.coverage (dataset, state, name, geom) VALUES ('live', 'NSW', 'LGT PARRAMATTA', ${box(150.99, -33.82, 0.02)});
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
        VALUES ('live', 'cadastre', 'NSW', 'test parcels', 'CC BY 4.0', 'lgt-test')
        ON CONFLICT (dataset, layer, state) DO NOTHING;`);
    first = await ingestBuildings(db, { file: BALLARAT, state: 'VIC', snapshot: SNAPSHOT, progress: quiet() });
    values = await ingestLandValues(db, { file: LV, state: 'NSW', progress: quiet() });
    t.runtime.catalog.invalidate();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['dossier.read'] });
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads every real Ballarat footprint from line-delimited GeoJSON, and says so', () => {
    expect(first).toMatchObject({
      dataset: 'live',
      state: 'VIC',
      source: 'osm',
      snapshotDate: '2026-05-09',
      read: 14,
      loaded: 14,
      elsewhere: 0,
      refused: [],
      file: { format: 'GeoJSONSeq' },
      credit: { license: 'ODbL' },
    });
    const summary = formatBuildingsSummary(first);
    expect(summary).toContain('read 14, loaded 14');
    expect(summary).toContain('OpenStreetMap contributors');
  });

  it('answers a live key with the footprints in a window, their OSM ids and the ODbL credit in body and headers', async () => {
    const res = await get('/api/buildings', { bbox: CAMPUS, state: 'VIC' }).expect(200);
    expect(res.body.status).toBe('ok');
    const ids = (res.body.features as Array<{ id?: string; properties: { id: string } }>).map(
      (f) => f.id ?? f.properties.id,
    );
    expect(ids).toHaveLength(14);
    expect(ids).toContain('way/130330647');
    expect(res.body.license).toBe('ODbL');
    expect(res.body.attribution).toMatch(/OpenStreetMap contributors/);
    expect(res.headers['x-service-license']).toBe('ODbL');
    // the P Building (way/130330647) holds this point
    const at = await get('/api/buildings', { lat: -37.6256, lng: 143.8911 }).expect(200);
    expect(at.body).toMatchObject({ status: 'ok', license: 'ODbL' });
    expect(at.body.features).toHaveLength(1);
    // between the buildings but inside the campus: the source reaches, nothing stands there
    expect((await get('/api/buildings', { lat: -37.6264, lng: 143.8925 }).expect(200)).body.status).toBe('no_data');
    // Ballarat's centre, 9 km away: the file does not reach
    expect((await get('/api/buildings', { lat: -37.5622, lng: 143.8503 }).expect(200)).body.status).toBe('not_covered');
  });

  it('replaces rather than duplicates on a rerun', async () => {
    await ingestBuildings(db, { file: BALLARAT, state: 'VIC', snapshot: SNAPSHOT, progress: quiet() });
    expect(
      await Promise.all([
        count(`SELECT count(*)::int AS n FROM land.building_footprint WHERE dataset = 'live' AND state = 'VIC'`),
        count(`SELECT count(*)::int AS n FROM land.coverage WHERE dataset = 'live' AND layer = 'buildings'`),
        count(`SELECT count(*)::int AS n FROM public.dataset_source WHERE dataset = 'live' AND layer = 'buildings'`),
      ]),
    ).toEqual([14, 1, 1]);
  });

  it('reads a GeoJSON FeatureCollection too, keeping heights and storeys and leaving other states for their run', async () => {
    const lines = SAMPLE_LINES.slice(0, 2).map((l) => JSON.parse(l) as { properties: Record<string, unknown> });
    lines[0]!.properties['building:levels'] = '3';
    lines[0]!.properties.height = '11.5 m';
    const sydney = {
      type: 'Feature',
      properties: { '@id': 'way/1' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [151.2, -33.87],
            [151.2001, -33.87],
            [151.2001, -33.8699],
            [151.2, -33.87],
          ],
        ],
      },
    };
    const file = join(dir, 'campus.geojson');
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [...lines, sydney] }));
    const result = await ingestBuildings(db, { file, state: 'VIC', dataset: SIDE, progress: quiet() });
    expect(result).toMatchObject({ read: 3, loaded: 2, elsewhere: 1, file: { format: 'GeoJSON' } });
    const rows = await db.query<{ id: string; height_m: number | null; storeys: number | null }>(
      `SELECT id, height_m, storeys FROM land.building_footprint WHERE dataset = '${SIDE}' ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: 'way/130330646', height_m: 11.5, storeys: 3 },
      { id: 'way/130330647', height_m: null, storeys: null },
    ]);
  });

  it('credits OpenStreetMap for an extract converted by GDAL (osm_id), Microsoft for outlines without ids', async () => {
    const [line] = SAMPLE_LINES.map((l) => JSON.parse(l) as { properties: Record<string, unknown>; id?: string });
    const gdal = join(dir, 'gdal.geojsonl');
    writeFileSync(gdal, JSON.stringify({ ...line, id: undefined, properties: { osm_id: 130330646, building: 'yes' } }));
    const osm = await ingestBuildings(db, { file: gdal, state: 'VIC', dataset: GDAL, progress: quiet() });
    expect(osm.credit.attribution).toMatch(/OpenStreetMap contributors/);
    const bare = join(dir, 'microsoft.geojsonl');
    writeFileSync(bare, JSON.stringify({ ...line, id: undefined, properties: { height: -1, confidence: -1 } }));
    const ms = await ingestBuildings(db, { file: bare, state: 'VIC', dataset: SIDE, progress: quiet() });
    expect(ms.credit.attribution).toContain('Microsoft');
    // the side dataset already held OpenStreetMap's outlines: both credits now stand
    expect(ms.credit.attribution).toMatch(/OpenStreetMap.* \| .*Microsoft/);
  });

  it('reads the same footprints from FlatGeobuf (the shared reader), with their OSM ids', async () => {
    const features = SAMPLE_LINES.map((l) => JSON.parse(l) as Feature);
    const fgb = join(dir, 'mt-helen.fgb');
    writeFileSync(fgb, serializeFgb({ type: 'FeatureCollection', features }, 4326));
    const result = await ingestBuildings(db, { file: fgb, state: 'VIC', dataset: FGB, progress: quiet() });
    expect(result).toMatchObject({
      read: 14,
      loaded: 14,
      refused: [],
      file: { format: 'FlatGeobuf', crs: 'WGS 84 (EPSG:4326)' },
    });
    const ids = await db.query<{ id: string }>(
      `SELECT id FROM land.building_footprint WHERE dataset = '${FGB}' ORDER BY id`,
    );
    expect(ids.map((r) => r.id)).toEqual(
      features.map((f) => String((f.properties as Record<string, unknown>)['@id'])).sort(),
    );
  });

  it('refuses the sandbox dataset, and a malformed line naming its number, writing nothing', async () => {
    await expect(
      ingestBuildings(db, { file: BALLARAT, state: 'VIC', dataset: 'sandbox', progress: quiet() }),
    ).rejects.toThrow(/sandbox dataset is generated/);
    await expect(
      ingestLandValues(db, { file: LV, state: 'NSW', dataset: 'sandbox', progress: quiet() }),
    ).rejects.toThrow(IngestError);
    const before = await count(`SELECT count(*)::int AS n FROM land.building_footprint WHERE dataset = '${SIDE}'`);
    const broken = join(dir, 'broken.geojsonl');
    writeFileSync(
      broken,
      [SAMPLE_LINES[2], SAMPLE_LINES[3], '{"type":"Feature","geometry":', SAMPLE_LINES[4]].join('\n'),
    );
    await expect(ingestBuildings(db, { file: broken, state: 'VIC', dataset: SIDE, progress: quiet() })).rejects.toThrow(
      /broken\.geojsonl line 3 is not valid JSON/,
    );
    expect(await count(`SELECT count(*)::int AS n FROM land.building_footprint WHERE dataset = '${SIDE}'`)).toBe(
      before,
    );
    const short = join(dir, 'LV_short.csv');
    const [header, row] = readFileSync(LV, 'utf8').split('\r\n');
    writeFileSync(short, `${header}\r\n${row}\r\n"215","PARRAMATTA","4100009"\r\n`);
    await expect(ingestLandValues(db, { file: short, state: 'NSW', dataset: SIDE, progress: quiet() })).rejects.toThrow(
      /LV_short\.csv line 3 has 3 fields where its header has 34/,
    );
  });

  it('says how to call it when the state is missing, before opening a database', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runIngestBuildingsCommand([BALLARAT])).toBe(2);
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/--state[\s\S]*Usage: landgraph ingest buildings/);
    } finally {
      stderr.mockRestore();
    }
  });

  it('ties NSW land values to parcels by lot and plan, listing the properties it cannot tie', () => {
    expect(values).toMatchObject({
      read: 6,
      loaded: 2,
      unvalued: 1,
      snapshotDate: '2024-07-01',
      districts: ['PARRAMATTA'],
    });
    expect(values.unlinked.map((u) => [u.feature, u.key])).toEqual([
      [4, '4100003'],
      [5, '4100004'],
      [6, '4100005'],
    ]);
    expect(values.unlinked.map((u) => u.reason)).toEqual([
      expect.stringMatching(/more than one lot/),
      expect.stringMatching(/part of a lot/),
      expect.stringMatching(/no parcel 9\/\/DP7654321/),
    ]);
    expect(formatLandValuesSummary(values)).toContain('loaded 2, not linked to a parcel 3');
  });

  it('answers a live key with the newest land value of the parcel and the Valuer General credit', async () => {
    const res = await get('/api/land-values', { pfi: 'LGT-NSW-1', state: 'NSW' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      data: {
        site_value: 1_250_000,
        base_date: '2024-07-01',
        valuer: 'NSW Valuer General',
        capital_improved_value: null,
      },
      license: 'CC BY 4.0',
    });
    expect(res.body.attribution).toMatch(/Valuer General/);
    expect(res.headers['x-service-attribution']).toMatch(/Valuer General/);
  });

  it('ties the real Valuer General file to parcels: plans by number alone, several lots and strata listed', async () => {
    // two Mudgee lots of DP802483 in the side dataset's cadastre, as the NSW DCDB writes their SPI
    for (const lot of ['18', '17']) {
      await db.exec(`INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, parcel_lot_number,
          parcel_plan_number, area_m2, geom)
        VALUES ('${SIDE}', 'NSW', 'LGT-MUDGEE-${lot}', '${lot}//DP802483', '${lot}', 'DP802483', 878.7,
          ST_Multi(ST_MakeEnvelope(149.58 + ${lot} * 0.0003, -32.6, 149.5802 + ${lot} * 0.0003, -32.5998, 4326)))`);
    }
    const real = await ingestLandValues(db, { file: MUDGEE, state: 'NSW', dataset: SIDE, progress: quiet() });
    expect(real).toMatchObject({
      read: 24,
      loaded: 2,
      unvalued: 0,
      snapshotDate: '2017-11-01',
      districts: ['MID WESTERN REGIONAL'],
    });
    const reasons = new Map(real.unlinked.map((u) => [u.key, u.reason]));
    expect(real.unlinked).toHaveLength(22);
    expect(reasons.get('1255675')).toBe(`no parcel 16//DP802483 in the NSW cadastre of '${SIDE}'`);
    expect(reasons.get('1255695')).toMatch(/"2\/37691 3\/159442" names more than one lot/);
    expect(reasons.get('1255697')).toMatch(/"1, 2, CP\/SP40975" names more than one lot/);
    const rows = await db.query<{ parcel_pfi: string; site_value: number; base_date: string }>(
      `SELECT parcel_pfi, site_value, base_date::text AS base_date FROM land.land_value
       WHERE dataset = '${SIDE}' ORDER BY parcel_pfi`,
    );
    expect(rows).toEqual([
      { parcel_pfi: 'LGT-MUDGEE-17', site_value: 132_000, base_date: '2016-07-01' },
      { parcel_pfi: 'LGT-MUDGEE-18', site_value: 132_000, base_date: '2016-07-01' },
    ]);
  });

  it('loads the valuation at --base-date, replacing the earlier run', async () => {
    await ingestLandValues(db, { file: LV, state: 'NSW', baseDate: '2023-07-01', progress: quiet() });
    const res = await get('/api/land-values', { pfi: 'LGT-NSW-2', state: 'NSW' }).expect(200);
    expect(res.body.data).toMatchObject({ site_value: 1_205_000, base_date: '2023-07-01' });
    expect(
      await count(`SELECT count(*)::int AS n FROM land.land_value WHERE dataset = 'live' AND parcel_pfi LIKE 'LGT-%'`),
    ).toBe(2);
    // a dataset without the NSW cadastre: nothing to hang the values on, and the message says so
    await expect(ingestLandValues(db, { file: LV, state: 'NSW', dataset: SIDE, progress: quiet() })).rejects.toThrow(
      /line 2: no parcel 1\/\/DP1234567 .*; load the NSW cadastre into 'land_test' first/,
    );
    await expect(
      ingestLandValues(db, { file: LV, state: 'NSW', baseDate: '2024-13-01', progress: quiet() }),
    ).rejects.toThrow(/--base-date 2024-13-01 is not a date/);
  });
});
