import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import type { Runtime } from '../app/runtime.ts';
import { startRuntime } from '../app/runtime.ts';
import { createApp } from '../rest-facade/app.ts';
import { ArcGisLayerClient, esriRingsToGeoJSON } from '../core/sources/arcgis.ts';
import { SourceError } from '../core/sources/errors.ts';
import { ResilientService } from '../core/sources/resilient.ts';
import { CadastreFallbacks } from '../subgraphs/cadastre/sources/fallbacks.ts';
import type { ParcelGeometry } from '../core/polygons.ts';
import { areaM2, containsPoint, signedArea } from '../core/polygons.ts';
import { LiveCadastre } from '../subgraphs/cadastre/sources/live.ts';
import {
  FileObjectStore,
  ObjectStoreMirror,
  exportCadastreSnapshot,
} from '../subgraphs/cadastre/sources/object-store.ts';
import type { SnapshotExport } from '../subgraphs/cadastre/sources/object-store.ts';
import { STATE_ADAPTERS } from '../subgraphs/cadastre/sources/state-adapters.ts';
import type { ArcGisTestServer, FixtureFeature, FixtureGeometry } from './support/arcgis-server.ts';
import { startArcGisServer } from './support/arcgis-server.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

type MirrorParcel = {
  parcel_pfi: string;
  parcel_spi: string | null;
  parcel_lot_number: string | null;
  parcel_plan_number: string | null;
  ezi_address: string | null;
  area_m2: number;
  geometry: FixtureGeometry;
};

type Box = { west: number; south: number; east: number; north: number };

const MELBOURNE = { lng: 144.9631, lat: -37.8136 };
const square = (lng: number, lat: number, half: number) => [
  [lng - half, lat - half],
  [lng + half, lat - half],
  [lng + half, lat + half],
  [lng - half, lat + half],
  [lng - half, lat - half],
];
const vicmap = (pfi: string, plan: string, address: string | null) => ({
  PARCEL_PFI: pfi,
  PARCEL_SPI: `1\\${plan}`,
  PARCEL_LOT_NUMBER: '1',
  PARCEL_PLAN_NUMBER: plan,
  EZI_ADDRESS: address,
  PARCEL_STATUS: 'A',
});

/** A parcel round a courtyard that is not part of it, and a parcel in two pieces, both in central Melbourne. */
const COURTYARD: FixtureFeature = {
  geometry: {
    type: 'Polygon',
    coordinates: [square(MELBOURNE.lng, MELBOURNE.lat, 0.0004), square(MELBOURNE.lng, MELBOURNE.lat, 0.0001)],
  },
  properties: vicmap('990000001', 'TP990001', '1 SWANSTON STREET MELBOURNE 3000'),
};
const TWO_PIECES: FixtureFeature = {
  geometry: {
    type: 'MultiPolygon',
    coordinates: [
      [square(MELBOURNE.lng + 0.0015, MELBOURNE.lat, 0.0003)],
      [square(MELBOURNE.lng + 0.0025, MELBOURNE.lat, 0.0003)],
    ],
  },
  properties: vicmap('990000002', 'TP990002', null),
};

async function mirrorParcels(db: Database, state: string, where = 'true'): Promise<MirrorParcel[]> {
  return db.query<MirrorParcel>(
    `SELECT parcel_pfi, parcel_spi, parcel_lot_number, parcel_plan_number, ezi_address, area_m2,
            ST_AsGeoJSON(geom, 7)::json AS geometry
     FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = $1 AND ${where} ORDER BY parcel_pfi`,
    [state],
  );
}

/** The pfis PostGIS finds intersecting a window: the oracle for every window test here. */
async function pfisInWindow(db: Database, state: string, w: Box): Promise<string[]> {
  const rows = await db.query<{ parcel_pfi: string }>(
    `SELECT parcel_pfi FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = $1
       AND ST_Intersects(geom, ST_MakeEnvelope($2, $3, $4, $5, 4326)) ORDER BY parcel_pfi`,
    [state, w.west, w.south, w.east, w.north],
  );
  return rows.map((r) => r.parcel_pfi);
}

const sourceError = async (promise: Promise<unknown>): Promise<SourceError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
};

let db: Database;
let f: Fixtures;
let server: ArcGisTestServer;
let vicParcels: MirrorParcel[];
let nswParcels: MirrorParcel[];

beforeAll(async () => {
  db = (await testRuntime()).runtime.db;
  f = await loadFixtures(db);
  vicParcels = await mirrorParcels(db, 'VIC');
  nswParcels = await mirrorParcels(db, 'NSW');
  const lShape: FixtureFeature = {
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [145, -37.9],
          [145.003, -37.9],
          [145.003, -37.899],
          [145.001, -37.899],
          [145.001, -37.897],
          [145, -37.897],
          [145, -37.9],
        ],
      ],
    },
    properties: vicmap('990000010', 'TP990010', null),
  };
  server = await startArcGisServer({
    // Sandbox parcels under the state's own attribute names, as each state's service publishes them.
    Vicmap_Parcel: {
      features: [
        ...vicParcels.map((p) => ({
          geometry: p.geometry,
          properties: {
            PARCEL_PFI: p.parcel_pfi,
            PARCEL_SPI: p.parcel_spi,
            PARCEL_LOT_NUMBER: p.parcel_lot_number,
            PARCEL_PLAN_NUMBER: p.parcel_plan_number,
            EZI_ADDRESS: p.ezi_address,
            PARCEL_STATUS: 'A',
          },
        })),
        COURTYARD,
        TWO_PIECES,
      ],
    },
    NSW_Lot: {
      maxRecordCount: 400,
      features: nswParcels.map((p) => ({
        geometry: p.geometry,
        properties: {
          cadid: Number(p.parcel_pfi),
          lotnumber: p.parcel_lot_number,
          sectionnumber: null,
          planlabel: p.parcel_plan_number,
          lotidstring: p.parcel_spi,
          planlotarea: Math.round(p.area_m2),
        },
      })),
    },
    Paged: {
      maxRecordCount: 2,
      features: [0, 1, 2, 3, 4].map((i) => ({
        geometry: { type: 'Polygon', coordinates: [square(145.1 + i * 0.001, -37.9, 0.0003)] },
        properties: vicmap(`99000002${i}`, 'TP990020', null),
      })),
    },
    Careless: {
      envelopeByBoundingBox: true,
      features: [
        lShape,
        {
          geometry: { type: 'Polygon', coordinates: [square(145.0025, -37.8975, 0.0002)] },
          properties: vicmap('990000011', 'TP990011', null),
        },
      ],
    },
    NoIdentifiers: {
      features: [{ geometry: COURTYARD.geometry, properties: { OBJECT_NAME: 'courtyard' } }],
    },
  });
});

afterAll(async () => {
  await server?.close();
});

const client = (service: string, options: { timeoutMs?: number; format?: 'json' | 'geojson' } = {}) =>
  new ArcGisLayerClient({
    layerUrl: server.layerUrl(service),
    label: `test ${service} layer`,
    timeoutMs: options.timeoutMs ?? 2000,
    format: options.format,
  });
const live = (service: string, state: 'VIC' | 'NSW', timeoutMs = 2000) =>
  new LiveCadastre(
    STATE_ADAPTERS[state]!,
    new ArcGisLayerClient({ layerUrl: server.layerUrl(service), label: `live ${state} cadastre`, timeoutMs }),
    new ResilientService(`live ${state} cadastre`, { retries: 0, circuitThreshold: 5, circuitCooldownMs: 30_000 }),
  );

describe('cadastre source configuration', () => {
  it('reads live layers per state, the live timeout and the object-store folder, with defaults', () => {
    const config = loadConfig({
      LANDGRAPH_CADASTRE_LIVE:
        'vic=https://example.test/arcgis/rest/services/Vicmap_Parcel/MapServer/0/, NSW=https://example.test/x/FeatureServer/9',
      LANDGRAPH_OBJECT_STORE_DIR: 'snapshots',
    });
    expect(config.cadastreLive).toEqual({
      VIC: 'https://example.test/arcgis/rest/services/Vicmap_Parcel/MapServer/0',
      NSW: 'https://example.test/x/FeatureServer/9',
    });
    expect(config.cadastreLiveTimeoutMs).toBe(4000);
    expect(config.objectStoreDir).toBe(join(process.cwd(), 'snapshots'));
    expect(loadConfig({})).toMatchObject({ cadastreLive: {}, objectStoreDir: undefined });
  });

  it.each([
    ['VIC', /'VIC' is not STATE=URL/],
    ['XY=https://a.test/s/MapServer/0', /unknown state 'XY'/],
    ['VIC=ftp://a.test/s/MapServer/0', /not an http\(s\) URL/],
    ['VIC=https://a.test/arcgis/rest/services/x', /not an ArcGIS layer URL/],
    ['VIC=https://a.test/s/MapServer/0,VIC=https://b.test/s/MapServer/1', /VIC is given twice/],
  ])('fails fast on LANDGRAPH_CADASTRE_LIVE=%s', (value, message) => {
    expect(() => loadConfig({ LANDGRAPH_CADASTRE_LIVE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ LANDGRAPH_CADASTRE_LIVE: value })).toThrow(message);
  });

  it('fails fast on a live timeout that is not a whole number of milliseconds from 100 to 60000', () => {
    for (const value of ['soon', '50', '600000']) {
      expect(() => loadConfig({ LANDGRAPH_CADASTRE_LIVE_TIMEOUT_MS: value })).toThrow(
        /LANDGRAPH_CADASTRE_LIVE_TIMEOUT_MS/,
      );
    }
  });

  it('refuses at start a live layer for a state without an adapter', () => {
    const config = loadConfig({ LANDGRAPH_CADASTRE_LIVE: 'SA=https://a.test/s/MapServer/0' });
    expect(() => CadastreFallbacks.fromConfig(config)).toThrow(ConfigError);
    expect(() => CadastreFallbacks.fromConfig(config)).toThrow(
      /no live cadastre adapter for SA \(there are adapters for VIC, NSW, QLD\)/,
    );
  });
});

describe('Esri polygon rings to GeoJSON', () => {
  const cw = (ring: number[][]) => (signedArea(ring) < 0 ? ring : [...ring].reverse());
  const ccw = (ring: number[][]) => [...cw(ring)].reverse();

  it('tells holes from outer rings by orientation, in any order, and winds them as RFC 7946 asks', () => {
    const geometry = esriRingsToGeoJSON([ccw(square(0, 0, 1)), cw(square(0, 0, 4))]);
    expect(geometry?.type).toBe('Polygon');
    const [outer, hole] = (geometry as { coordinates: number[][][] }).coordinates;
    expect(signedArea(outer!)).toBeGreaterThan(0);
    expect(signedArea(hole!)).toBeLessThan(0);
    expect(Math.abs(signedArea(outer!))).toBeCloseTo(2 * 64);
  });

  it('gives each hole to the outer ring around it, and keeps a hole inside no outer ring as a piece', () => {
    const geometry = esriRingsToGeoJSON([
      cw(square(0, 0, 1)),
      ccw(square(10, 0, 1)),
      cw(square(10, 0, 3)),
      ccw(square(50, 50, 1)),
    ]) as Extract<ParcelGeometry, { type: 'MultiPolygon' }>;
    expect(geometry.type).toBe('MultiPolygon');
    expect(geometry.coordinates.map((p) => p.length).sort()).toEqual([1, 1, 2]);
    expect(containsPoint(geometry, 10, 0)).toBe(false);
    expect(containsPoint(geometry, 12, 0)).toBe(true);
    expect(containsPoint(geometry, 50, 50)).toBe(true);
  });

  it('closes open rings and drops degenerate ones', () => {
    const open = cw(square(0, 0, 1)).slice(0, -1);
    const geometry = esriRingsToGeoJSON([
      open,
      [
        [5, 5],
        [6, 6],
      ],
    ]);
    expect(geometry).toMatchObject({ type: 'Polygon' });
    expect((geometry as { coordinates: number[][][] }).coordinates[0]).toHaveLength(5);
    expect(esriRingsToGeoJSON([])).toBeNull();
  });
});

describe('ArcGIS REST client', () => {
  it('finds the parcel under a point, with every attribute and its hole', async () => {
    const inRing = await client('Vicmap_Parcel').query({
      filter: { kind: 'point', lng: MELBOURNE.lng + 0.0002, lat: MELBOURNE.lat },
    });
    expect(inRing).toHaveLength(1);
    expect(inRing[0]!.attributes).toMatchObject({ PARCEL_PFI: '990000001', PARCEL_STATUS: 'A' });
    expect(inRing[0]!.attributes.OBJECTID).toEqual(expect.any(Number));
    const geometry = inRing[0]!.geometry!;
    expect(geometry.type).toBe('Polygon');
    expect(geometry.coordinates).toHaveLength(2);
    expect(containsPoint(geometry, MELBOURNE.lng, MELBOURNE.lat)).toBe(false);
    const inHole = await client('Vicmap_Parcel').query({ filter: { kind: 'point', ...MELBOURNE } });
    expect(inHole).toEqual([]);
    const asked = server.requests.at(-1)!.params;
    expect(Object.fromEntries(asked)).toMatchObject({
      f: 'json',
      geometryType: 'esriGeometryPoint',
      inSR: '4326',
      outSR: '4326',
      spatialRel: 'esriSpatialRelIntersects',
      outFields: '*',
      returnGeometry: 'true',
    });
  });

  it('pages through a layer that sends fewer features than asked, until exceededTransferLimit clears', async () => {
    const before = server.requests.length;
    const features = await client('Paged').query({
      filter: { kind: 'envelope', west: 145.09, south: -37.91, east: 145.11, north: -37.89 },
    });
    expect(features.map((x) => x.attributes.PARCEL_PFI)).toEqual([0, 1, 2, 3, 4].map((i) => `99000002${i}`));
    const pages = server.requests.slice(before).map((r) => r.params.get('resultOffset'));
    expect(pages).toEqual(['0', '2', '4']);
  });

  it('reads GeoJSON answers (f=geojson) as it reads Esri JSON', async () => {
    const filter = { kind: 'envelope' as const, west: 145.09, south: -37.91, east: 145.11, north: -37.89 };
    const esri = await client('Paged').query({ filter });
    const geojson = await client('Paged', { format: 'geojson' }).query({ filter });
    expect(server.requests.at(-1)!.params.get('f')).toBe('geojson');
    expect(geojson.map((x) => x.attributes.PARCEL_PFI)).toEqual(esri.map((x) => x.attributes.PARCEL_PFI));
    for (const [i, feature] of geojson.entries()) {
      expect(areaM2(feature.geometry!)).toBeCloseTo(areaM2(esri[i]!.geometry!), 6);
    }
  });

  it('reports an HTTP error, an ArcGIS error body, a malformed answer and a refused connection, each by kind', async () => {
    const point = { filter: { kind: 'point' as const, ...MELBOURNE } };
    try {
      server.failWith({ kind: 'http', status: 500 });
      const http = await sourceError(client('Vicmap_Parcel').query(point));
      expect(http).toMatchObject({ failure: 'http', details: { status: 500 } });
      expect(http.message).toBe('The test Vicmap_Parcel layer answered HTTP 500.');

      server.failWith({ kind: 'arcgis-error', code: 400, message: 'Unable to complete operation.' });
      const arcgis = await sourceError(client('Vicmap_Parcel').query(point));
      expect(arcgis).toMatchObject({ failure: 'arcgis', details: { arcgisCode: 400 } });
      expect(arcgis.message).toMatch(/refused the query \(ArcGIS error 400: Unable to complete operation\.\)/);

      server.failWith({ kind: 'malformed' });
      expect(await sourceError(client('Vicmap_Parcel').query(point))).toMatchObject({ failure: 'malformed' });
    } finally {
      server.failWith(null);
    }
    const closed = new ArcGisLayerClient({
      layerUrl: 'http://127.0.0.1:1/arcgis/rest/services/Nowhere/MapServer/0',
      label: 'closed layer',
      timeoutMs: 2000,
    });
    const refused = await sourceError(closed.query(point));
    expect(refused.failure).toBe('unreachable');
    expect(refused.message).toMatch(/^The closed layer could not be reached/);
  });

  it('gives up when the budget runs out, without waiting for the slow answer', async () => {
    server.failWith({ kind: 'slow', delayMs: 1500 });
    const started = Date.now();
    try {
      const error = await sourceError(
        client('Vicmap_Parcel', { timeoutMs: 200 }).query({ filter: { kind: 'point', ...MELBOURNE } }),
      );
      expect(error.failure).toBe('timeout');
      expect(error.message).toBe('The test Vicmap_Parcel layer did not answer within 200 ms.');
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      server.failWith(null);
    }
  });

  it('passes a server refusal of its own parameters back as an ArcGIS error', async () => {
    const error = await sourceError(client('Vicmap_Parcel').query({ where: 'PARCEL_PFI LIKE 12' }));
    expect(error.failure).toBe('arcgis');
    expect(error.message).toMatch(/where/);
  });
});

describe('live state cadastre', () => {
  it('answers a point with the parcel the mirror holds there: identifiers, area and raw attributes', async () => {
    const parcel = await live('Vicmap_Parcel', 'VIC').atPoint(f.vicParcel.lng, f.vicParcel.lat);
    const mirror = vicParcels.find((p) => p.parcel_pfi === f.vicParcel.parcel_pfi)!;
    expect(parcel).toMatchObject({
      parcel_pfi: mirror.parcel_pfi,
      state: 'VIC',
      parcel_spi: mirror.parcel_spi,
      parcel_lot_number: mirror.parcel_lot_number,
      parcel_plan_number: mirror.parcel_plan_number,
      ezi_address: mirror.ezi_address,
      upstream_attributes: expect.objectContaining({ PARCEL_PFI: mirror.parcel_pfi, PARCEL_STATUS: 'A' }),
    });
    const [area] = await db.query<{ m2: number }>(
      `SELECT ST_Area(geom::geography) AS m2 FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'VIC' AND parcel_pfi = $1`,
      [mirror.parcel_pfi],
    );
    expect(Math.abs(parcel!.area_m2 - area!.m2) / area!.m2).toBeLessThan(1e-5);
    expect(containsPoint(parcel!.geometry as ParcelGeometry, parcel!.inside_lng, parcel!.inside_lat)).toBe(true);
  });

  it('maps NSW attribute names (cadid, lotidstring, planlabel) to the same identifiers as the mirror', async () => {
    const parcel = await live('NSW_Lot', 'NSW').atPoint(f.nswParcel.lng, f.nswParcel.lat);
    const mirror = nswParcels.find((p) => p.parcel_pfi === f.nswParcel.parcel_pfi)!;
    expect(parcel).toMatchObject({
      parcel_pfi: mirror.parcel_pfi,
      parcel_spi: mirror.parcel_spi,
      parcel_lot_number: mirror.parcel_lot_number,
      parcel_plan_number: mirror.parcel_plan_number,
      ezi_address: null,
    });
  });

  it('fetches parcels by PFI in batches, by form POST when the clause is long', async () => {
    const wanted = [...vicParcels.slice(0, 140).map((p) => p.parcel_pfi), 'NOT-A-PFI', "O'BRIEN"];
    const before = server.requests.length;
    const found = await live('Vicmap_Parcel', 'VIC').byPfis(wanted);
    expect([...found.keys()].sort()).toEqual(vicParcels.slice(0, 140).map((p) => p.parcel_pfi));
    const asked = server.requests.slice(before);
    expect(asked).toHaveLength(2);
    expect(asked.some((r) => r.method === 'POST')).toBe(true);
    const numeric = await live('NSW_Lot', 'NSW').byPfis([nswParcels[0]!.parcel_pfi, 'DP123']);
    expect([...numeric.keys()]).toEqual([nswParcels[0]!.parcel_pfi]);
  });

  it('returns every parcel genuinely intersecting a window, whole, as PostGIS finds them', async () => {
    const w = f.smallWindow;
    const parcels = await live('Vicmap_Parcel', 'VIC').inBBox(w, 1000);
    expect(parcels.map((p) => p.parcel_pfi)).toEqual(await pfisInWindow(db, 'VIC', w));
    expect(parcels.length).toBeGreaterThan(1);
  });

  it('drops features a careless service matched by bounding box only', async () => {
    const window = { west: 145.002, south: -37.898, east: 145.003, north: -37.897 };
    const raw = await client('Careless').query({ filter: { kind: 'envelope', ...window } });
    expect(raw.map((x) => x.attributes.PARCEL_PFI)).toEqual(['990000010', '990000011']);
    const parcels = await live('Careless', 'VIC').inBBox(window, 1000);
    expect(parcels.map((p) => p.parcel_pfi)).toEqual(['990000011']);
  });

  it('stops paging once a window is known to hold more than the limit', async () => {
    const { lng, lat } = f.nswParcel;
    const window = { west: lng - 0.01, south: lat - 0.01, east: lng + 0.01, north: lat + 0.01 };
    expect((await pfisInWindow(db, 'NSW', window)).length).toBeGreaterThan(800);
    const before = server.requests.length;
    const parcels = await live('NSW_Lot', 'NSW').inBBox(window, 500);
    expect(parcels).toHaveLength(501);
    // The layer pages at 400: two pages already hold more than 500.
    expect(server.requests.length - before).toBe(2);
  });

  it('reports a service whose parcels lack the identifier field as a schema change', async () => {
    const error = await sourceError(live('NoIdentifiers', 'VIC').atPoint(MELBOURNE.lng + 0.0002, MELBOURNE.lat));
    expect(error.failure).toBe('schema');
    expect(error.message).toBe(
      'The live VIC cadastre answered a parcel without PARCEL_PFI: its schema may have changed.',
    );
  });
});

describe('object-store mirror', () => {
  let dir: string;
  let exported: SnapshotExport;
  let mirror: ObjectStoreMirror;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'landgraph-objects-'));
    const store = new FileObjectStore(dir);
    exported = await exportCadastreSnapshot(db, store, { dataset: 'sandbox' });
    mirror = new ObjectStoreMirror(store);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exports every sandbox state as tiles with a manifest naming snapshot, zoom, tiles and credit', async () => {
    const sources = await db.query<{ state: string; snapshot_id: string; attribution: string }>(
      `SELECT state, snapshot_id, attribution FROM public.dataset_source WHERE dataset = 'sandbox' AND layer = 'cadastre' ORDER BY state`,
    );
    const counts = await db.query<{ state: string; n: number }>(
      `SELECT state, count(*)::int AS n FROM cadastre.parcel WHERE dataset = 'sandbox' GROUP BY state ORDER BY state`,
    );
    expect(exported.zoom).toBe(15);
    expect(exported.states.map((s) => [s.state, s.snapshot, s.parcels])).toEqual(
      sources.map((s) => [s.state, s.snapshot_id, counts.find((c) => c.state === s.state)!.n]),
    );
    expect(exported.tiles).toBe(exported.states.reduce((sum, s) => sum + s.tiles, 0));
    const manifest = JSON.parse(readFileSync(join(dir, 'cadastre', 'manifest.json'), 'utf8'));
    expect(manifest.datasets.sandbox.VIC).toMatchObject({
      snapshot: sources.find((s) => s.state === 'VIC')!.snapshot_id,
      zoom: 15,
      tiles: exported.states.find((s) => s.state === 'VIC')!.tiles,
      license: 'CC BY 4.0',
      attribution: expect.stringMatching(/synthetic/),
    });
  });

  it('answers points exactly as the database mirror does, on parcels, between them and beyond its coverage', async () => {
    const [extent] = await db.query<Box>(
      `SELECT ST_XMin(e) AS west, ST_YMin(e) AS south, ST_XMax(e) AS east, ST_YMax(e) AS north
       FROM (SELECT ST_Extent(geom)::geometry AS e FROM cadastre.coverage WHERE dataset = 'sandbox' AND state = 'VIC') x`,
    );
    const points: Array<{ lng: number; lat: number }> = [];
    for (let i = 0; i < 60; i += 1) {
      for (let j = 0; j < 60; j += 1) {
        points.push({
          lng: extent!.west + ((extent!.east - extent!.west) * (i + 0.37)) / 60,
          lat: extent!.south + ((extent!.north - extent!.south) * (j + 0.61)) / 60,
        });
      }
    }
    const expected = await db.query<{ i: number; parcel_pfi: string | null; covered: boolean }>(
      `SELECT k.i::int - 1 AS i,
              (SELECT min(p.parcel_pfi) FROM cadastre.parcel p WHERE p.dataset = 'sandbox' AND p.state = 'VIC'
                 AND ST_Intersects(p.geom, ST_SetSRID(ST_MakePoint(k.lng, k.lat), 4326))) AS parcel_pfi,
              EXISTS (SELECT 1 FROM cadastre.coverage c WHERE c.dataset = 'sandbox' AND c.state = 'VIC'
                 AND ST_Intersects(c.geom, ST_SetSRID(ST_MakePoint(k.lng, k.lat), 4326))) AS covered
       FROM unnest($1::float8[], $2::float8[]) WITH ORDINALITY AS k(lng, lat, i) ORDER BY k.i`,
      [points.map((p) => p.lng), points.map((p) => p.lat)],
    );
    const kinds = { parcel: 0, between: 0, beyond: 0 };
    for (const row of expected) {
      const { lng, lat } = points[row.i]!;
      const answer = await mirror.atPoint('sandbox', 'VIC', lng, lat);
      if (!row.covered) {
        expect(answer).toBeUndefined();
        kinds.beyond += 1;
      } else {
        expect(answer?.parcel?.parcel_pfi ?? null).toBe(row.parcel_pfi);
        kinds[row.parcel_pfi ? 'parcel' : 'between'] += 1;
      }
    }
    expect(kinds.parcel).toBeGreaterThan(50);
    expect(kinds.between).toBeGreaterThan(5);
    expect(kinds.beyond).toBeGreaterThan(50);
  });

  it('returns a parcel by PFI with the database geometry, area and credit', async () => {
    const answer = await mirror.byPfi('sandbox', 'NSW', f.nswParcel.parcel_pfi);
    const stored = nswParcels.find((p) => p.parcel_pfi === f.nswParcel.parcel_pfi)!;
    expect(answer?.parcel).toMatchObject({
      parcel_pfi: stored.parcel_pfi,
      area_m2: stored.area_m2,
      geometry: stored.geometry,
    });
    expect(answer?.provenance.source).toMatch(/^object-store:nsw\/cadastre@sandbox-/);
    expect(await mirror.byPfi('sandbox', 'NSW', 'NOT-A-PFI')).toBeUndefined();
    expect(await mirror.byPfi('live', 'NSW', f.nswParcel.parcel_pfi)).toBeUndefined();
  });

  it('answers windows as PostGIS does, says whether it holds them whole, and keeps one past the limit', async () => {
    const [inner] = await db.query<{ lng: number; lat: number }>(
      `SELECT ST_X(ST_PointOnSurface(geom)) AS lng, ST_Y(ST_PointOnSurface(geom)) AS lat
       FROM cadastre.coverage WHERE dataset = 'sandbox' AND state = 'VIC' ORDER BY name LIMIT 1`,
    );
    const d = 0.0008;
    const inside = { west: inner!.lng - d, south: inner!.lat - d, east: inner!.lng + d, north: inner!.lat + d };
    for (const w of [f.smallWindow, inside]) {
      const [covered] = await db.query<{ holds: boolean }>(
        `SELECT ST_Covers(ST_Union(geom), ST_MakeEnvelope($1, $2, $3, $4, 4326)) AS holds
         FROM cadastre.coverage WHERE dataset = 'sandbox' AND state = 'VIC'`,
        [w.west, w.south, w.east, w.north],
      );
      const answer = await mirror.inBBox('sandbox', 'VIC', w, 1000);
      expect(answer?.holds).toBe(covered!.holds);
      expect(answer?.features.map((p) => p.parcel_pfi)).toEqual(await pfisInWindow(db, 'VIC', w));
    }
    expect((await mirror.inBBox('sandbox', 'VIC', inside, 1000))?.holds).toBe(true);
    const crowded = await mirror.inBBox('sandbox', 'VIC', f.crowdedWindow, 1000);
    expect(crowded?.features).toHaveLength(1001);
    expect(crowded?.holds).toBe(false);
    const { lat, lng } = f.outsideCoverage;
    expect(
      await mirror.inBBox('sandbox', 'VIC', { west: lng, south: lat, east: lng + 0.01, north: lat + 0.01 }, 1000),
    ).toBeUndefined();
  });

  it('keeps keys inside its folder and writes objects whole', async () => {
    const store = new FileObjectStore(dir);
    await expect(store.put('../escape.json', '{}')).rejects.toThrow(/Invalid object key/);
    await expect(store.get('/etc/passwd')).rejects.toThrow(/Invalid object key/);
    await store.put('scratch/a.json', '{"a":1}');
    expect(new TextDecoder().decode((await store.get('scratch/a.json')) ?? undefined)).toBe('{"a":1}');
    expect(await store.get('scratch/missing.json')).toBeNull();
  });
});

describe('cadastre fallbacks through the REST facade', () => {
  let runtime: Runtime;
  let app: ReturnType<typeof createApp>;
  let dir: string;
  let liveKey: string;
  let testKey: string;
  const QLD_SNAPSHOT = 'qld-dcdb-test-20261122';

  /**
   * A live QLD snapshot in the object store that the database does not hold: the sandbox's QLD
   * parcels are loaded as live rows only for as long as the export takes.
   */
  async function exportLiveQldSnapshot(store: FileObjectStore): Promise<void> {
    await db.exec(`
      INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, parcel_lot_number, parcel_plan_number, ezi_address, area_m2, geom)
        SELECT 'live', state, parcel_pfi, parcel_spi, parcel_lot_number, parcel_plan_number, ezi_address, area_m2, geom
        FROM cadastre.parcel WHERE dataset = 'sandbox' AND state = 'QLD';
      INSERT INTO cadastre.coverage (dataset, state, name, geom)
        SELECT 'live', state, name, geom FROM cadastre.coverage WHERE dataset = 'sandbox' AND state = 'QLD';
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
        VALUES ('live', 'cadastre', 'QLD', '© State of Queensland (Department of Resources)', 'CC BY 4.0', '${QLD_SNAPSHOT}');`);
    try {
      await exportCadastreSnapshot(db, store, { dataset: 'live', state: 'QLD' });
    } finally {
      await db.exec(`
        DELETE FROM cadastre.parcel WHERE dataset = 'live';
        DELETE FROM cadastre.coverage WHERE dataset = 'live';
        DELETE FROM public.dataset_source WHERE dataset = 'live';`);
      (await testRuntime()).runtime.catalog.invalidate();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'landgraph-objects-'));
    await exportLiveQldSnapshot(new FileObjectStore(dir));
    const config = testConfig({
      LANDGRAPH_CADASTRE_LIVE: `VIC=${server.layerUrl('Vicmap_Parcel')},NSW=${server.layerUrl('NSW_Lot')}`,
      LANDGRAPH_CADASTRE_LIVE_TIMEOUT_MS: '400',
      // These cases fail the service many times in a row to see each failure's answer; the
      // circuit that would pause it after five has its own tests (test/sources.test.ts).
      LANDGRAPH_CADASTRE_CIRCUIT_THRESHOLD: '100',
      LANDGRAPH_OBJECT_STORE_DIR: dir,
    });
    runtime = await startRuntime(config, { db, prepare: false });
    app = createApp(runtime);
    liveKey = await createTestKey(runtime, { kind: 'live' });
    testKey = await createTestKey(runtime);
  });

  afterAll(async () => {
    server.failWith(null);
    await runtime?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string, key: string) => request(app).get(path).set('Authorization', `Bearer ${key}`);
  const VIC_CREDIT = '© State of Victoria (Department of Transport and Planning)';

  it('answers a live key from the live state service where the mirror does not reach, credited in body and headers', async () => {
    const res = await get('/api/cadastre/lookup', liveKey)
      .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng, state: 'VIC' })
      .expect(200);
    expect(res.body).toMatchObject({
      success: true,
      source: 'live:vic/cadastre',
      error: null,
      hint: null,
      attribution: VIC_CREDIT,
      license: 'CC BY 4.0',
      data: { type: 'Feature', properties: { parcel_pfi: f.vicParcel.parcel_pfi, state: 'VIC' } },
    });
    expect(res.headers['x-service-attribution']).toMatch(/State of Victoria \(Department of Transport and Planning\)$/);
    expect(res.headers['x-service-license']).toBe('CC BY 4.0');
    const byPfi = await get('/api/cadastre/lookup', liveKey).query({ pfi: '990000001', state: 'VIC' }).expect(200);
    expect(byPfi.body).toMatchObject({ source: 'live:vic/cadastre', data: { geometry: { type: 'Polygon' } } });
    expect(byPfi.body.data.geometry.coordinates).toHaveLength(2);
  });

  it('keeps test keys on the frozen sandbox: the live service is never asked for them', async () => {
    const before = server.requests.length;
    const sandbox = await get('/api/cadastre/lookup', testKey)
      .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng })
      .expect(200);
    expect(sandbox.body.source).toMatch(/^mirror:vic\/cadastre@sandbox-/);
    const beyond = await get('/api/cadastre/lookup', testKey).query(f.outsideCoverage).expect(404);
    expect(beyond.body.hint).toMatch(/mirror does not reach/);
    expect(server.requests.length).toBe(before);
  });

  it("answers a point in a live parcel's hole as no parcel, naming the live source", async () => {
    const res = await get('/api/cadastre/lookup', liveKey)
      .query({ ...MELBOURNE, state: 'VIC' })
      .expect(404);
    expect(res.body).toMatchObject({ success: false, data: null, error: 'No parcel found at this point in VIC.' });
    expect(res.body.hint).toMatch(/live VIC cadastre: it falls on a road reserve/);
  });

  it('answers from the object-store mirror where it holds the live snapshot the database lacks', async () => {
    const res = await get('/api/cadastre/lookup', liveKey)
      .query({ lat: f.qldParcel.lat, lng: f.qldParcel.lng, state: 'QLD' })
      .expect(200);
    expect(res.body).toMatchObject({
      source: `object-store:qld/cadastre@${QLD_SNAPSHOT}`,
      attribution: '© State of Queensland (Department of Resources)',
      data: { properties: { parcel_pfi: f.qldParcel.parcel_pfi } },
    });
    const byPfi = await get('/api/cadastre/lookup', liveKey)
      .query({ pfi: f.qldParcel.parcel_pfi, state: 'QLD' })
      .expect(200);
    expect(byPfi.body.data.geometry).toEqual(res.body.data.geometry);
    const beyond = await get('/api/cadastre/lookup', liveKey)
      .query({ lat: -27.47, lng: 153.02, state: 'QLD' })
      .expect(404);
    expect(beyond.body.hint).toMatch(/does not cover QLD/);
  });

  it('serves a live window whole and exact, and a clean live window as a 200 empty collection', async () => {
    const w = f.smallWindow;
    const res = await get('/api/cadastre/bbox', liveKey)
      .query({ bbox: [w.west, w.south, w.east, w.north].join(','), state: 'VIC' })
      .expect(200);
    expect(res.body).toMatchObject({
      type: 'FeatureCollection',
      success: true,
      source: 'live:vic/cadastre',
      attribution: VIC_CREDIT,
    });
    const features = res.body.features as Array<{ properties: { parcel_pfi: string } }>;
    expect(features.map((x) => x.properties.parcel_pfi)).toEqual(await pfisInWindow(db, 'VIC', w));
    expect(res.headers['x-service-attribution']).toBeDefined();
    const { lat, lng } = f.outsideCoverage;
    const empty = await get('/api/cadastre/bbox', liveKey)
      .query({ bbox: `${lng + 0.01},${lat + 0.01},${lng + 0.02},${lat + 0.02}`, state: 'VIC' })
      .expect(200);
    expect(empty.body).toMatchObject({
      features: [],
      success: true,
      error: null,
      source: 'live:vic/cadastre',
      hint: 'No parcels intersect this window.',
    });
    expect(empty.headers['x-service-attribution']).toBeUndefined();
  });

  it.each([
    [{ kind: 'http' as const, status: 503 }, /The live VIC cadastre answered HTTP 503\./],
    [
      { kind: 'arcgis-error' as const, code: 500, message: 'Unable to complete operation.' },
      /ArcGIS error 500: Unable to complete operation\./,
    ],
    [{ kind: 'slow' as const, delayMs: 1500 }, /The live VIC cadastre did not answer within 400 ms\./],
    [{ kind: 'malformed' as const }, /answered something that is not JSON/],
  ])(
    'turns a live failure (%o) into a retryable 502 naming it, for lookups and windows alike',
    async (mode, reason) => {
      server.failWith(mode);
      try {
        const lookup = await get('/api/cadastre/lookup', liveKey)
          .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng, state: 'VIC' })
          .expect(502);
        expect(lookup.body).toEqual({
          success: false,
          source: null,
          data: null,
          error: 'The cadastre source failed for this lookup.',
          hint: expect.stringMatching(reason),
          retryable: true,
        });
        expect(lookup.headers['retry-after']).toBe('5');
        const w = f.smallWindow;
        const window = await get('/api/cadastre/bbox', liveKey)
          .query({ bbox: [w.west, w.south, w.east, w.north].join(','), state: 'VIC' })
          .expect(502);
        expect(window.body).toMatchObject({
          type: 'FeatureCollection',
          features: [],
          success: false,
          error: expect.stringMatching(/unavailable/),
        });
      } finally {
        server.failWith(null);
      }
    },
  );

  it('keeps a live failure inside the cadastre layer of the property graph', async () => {
    server.failWith({ kind: 'http', status: 500 });
    try {
      const res = await get('/v1/property/graph', liveKey)
        .query({ lat: f.vicParcel.lat, lng: f.vicParcel.lng, state: 'VIC' })
        .expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.layers.cadastre).toMatchObject({ status: 'error', source: 'live:vic/cadastre', data: null });
      expect(res.body.layers.cadastre.message).toMatch(/answered HTTP 500/);
      expect(res.body.layers.planning.status).not.toBe('error');
    } finally {
      server.failWith(null);
    }
  });

  it('resolves a batch of live parcel references in one live query', async () => {
    const before = server.requests.length;
    const res = await request(app)
      .post('/graphql')
      .set('Authorization', `Bearer ${liveKey}`)
      .send({
        query: `query($a: String!, $b: String!) {
          a: parcelByPfi(parcel_pfi: $a, state: "VIC") { status source data { parcel_pfi upstream_attributes } }
          b: parcelByPfi(parcel_pfi: $b, state: "VIC") { status source data { parcel_pfi } }
        }`,
        variables: { a: vicParcels[0]!.parcel_pfi, b: vicParcels[1]!.parcel_pfi },
      })
      .expect(200);
    expect(res.body.data.a).toMatchObject({
      status: 'ok',
      source: 'live:vic/cadastre',
      data: { parcel_pfi: vicParcels[0]!.parcel_pfi },
    });
    expect(res.body.data.a.data.upstream_attributes).toMatchObject({ PARCEL_PFI: vicParcels[0]!.parcel_pfi });
    expect(res.body.data.b.data.parcel_pfi).toBe(vicParcels[1]!.parcel_pfi);
    expect(server.requests.length - before).toBe(1);
  });

  it('by-address and envelope-by-address match a live address and find its parcel live; an outage is 502, over budget 503', async () => {
    // The sandbox address of the VIC fixture parcel, held as live G-NAF data for this test only.
    await db.exec(`
      INSERT INTO address.locality (dataset, locality_pid, locality_name, state, postcode)
        SELECT 'live', l.locality_pid, l.locality_name, l.state, l.postcode FROM address.locality l
        JOIN address.address_detail a ON a.dataset = l.dataset AND a.locality_pid = l.locality_pid
        WHERE a.dataset = 'sandbox' AND a.gnaf_pid = '${f.vicParcel.gnaf_pid}';
      INSERT INTO address.street_locality (dataset, street_locality_pid, locality_pid, street_name, street_type_code, street_suffix_code)
        SELECT 'live', s.street_locality_pid, s.locality_pid, s.street_name, s.street_type_code, s.street_suffix_code
        FROM address.street_locality s JOIN address.address_detail a
          ON a.dataset = s.dataset AND a.street_locality_pid = s.street_locality_pid
        WHERE a.dataset = 'sandbox' AND a.gnaf_pid = '${f.vicParcel.gnaf_pid}';
      INSERT INTO address.address_detail (dataset, gnaf_pid, street_locality_pid, locality_pid, state, postcode,
          number_first, number_last, lot_number, flat_number, formatted_address, search_key, geocode_type, geom)
        SELECT 'live', gnaf_pid, street_locality_pid, locality_pid, state, postcode, number_first, number_last,
          lot_number, flat_number, formatted_address, search_key, geocode_type, geom
        FROM address.address_detail WHERE dataset = 'sandbox' AND gnaf_pid = '${f.vicParcel.gnaf_pid}';
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
        VALUES ('live', 'address', 'VIC', 'Incorporates or developed using G-NAF (c) Geoscape Australia', 'Open G-NAF EULA', 'gnaf-test');`);
    runtime.catalog.invalidate();
    try {
      const ok = await get('/api/cadastre/by-address', liveKey).query({ q: f.vicParcel.address }).expect(200);
      expect(ok.body).toMatchObject({
        success: true,
        source: 'live:vic/cadastre',
        similarity: 1,
        confidence: 1,
        data: { properties: { parcel_pfi: f.vicParcel.parcel_pfi, ezi_address: f.vicParcel.address } },
      });
      expect(ok.body.attribution).toContain(VIC_CREDIT);
      expect(ok.body.attribution).toContain('G-NAF');
      // envelope by address runs the same stages: the live parcel is found, but the live dataset holds no
      // road centrelines to tell its front from its sides, so the envelope formula has no answer (422)
      const gap = await get('/v1/envelope-by-address', liveKey).query({ address: f.vicParcel.address }).expect(422);
      expect(gap.body).toMatchObject({ success: false, stage: 'envelope', retryable: false });
      expect(gap.body.stages[1]).toMatchObject({ stage: 'parcel', status: 'ok', source: 'live:vic/cadastre' });
      // an upstream cadastre outage is the parcel stage's own 502, worth retrying
      server.failWith({ kind: 'http', status: 500 });
      const outage = await get('/v1/envelope-by-address', liveKey).query({ address: f.vicParcel.address }).expect(502);
      expect(outage.body).toMatchObject({ success: false, stage: 'parcel', retryable: true });
      expect(outage.headers['retry-after']).toBe('5');
      const stages = outage.body.stages as Array<{ stage: string }>;
      expect(stages.map((s) => s.stage)).toEqual(['address', 'parcel']);
      expect(outage.body.stages[1]).toMatchObject({ status: 'failed', source: 'live:vic/cadastre' });
      server.failWith({ kind: 'slow', delayMs: 3000 });
      const slow = await get('/api/cadastre/by-address', liveKey)
        .query({ q: f.vicParcel.address, timeout_ms: '300' })
        .expect(503);
      expect(slow.body).toMatchObject({ success: false, data: null });
      expect(slow.body.error).toMatch(/budget|cadastre source failed/);
      expect(slow.body.hint).toMatch(/\S/);
    } finally {
      server.failWith(null);
      await db.exec(`
        DELETE FROM address.address_detail WHERE dataset = 'live';
        DELETE FROM address.street_locality WHERE dataset = 'live';
        DELETE FROM address.locality WHERE dataset = 'live';
        DELETE FROM public.dataset_source WHERE dataset = 'live';`);
      runtime.catalog.invalidate();
    }
  });
});
