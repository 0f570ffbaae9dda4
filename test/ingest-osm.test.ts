import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestError } from '../cli/ingest/gnaf-release.ts';
import { classifyAmenity, isWalkable, schoolLevel, schoolSector, transportMode } from '../cli/ingest/osm-classify.ts';
import { formatOsmSummary } from '../cli/ingest/osm-cli.ts';
import { readOsm } from '../cli/ingest/osm-read.ts';
import { ingestOsm, type OsmIngestResult } from '../cli/ingest/osm.ts';
import { Progress } from '../cli/ingest/progress.ts';
import type { Database } from '../core/db.ts';
import { encodeOsmPbf } from './support/osm-pbf.ts';
import { createTestKey, type TestRuntime, testRuntime } from './support/runtime.ts';

/*
 * `ingest osm` on a real OpenStreetMap export (data/samples/osm-ultimo-sydney: UTS's Alumni Green
 * in Ultimo, Sydney, ODbL), then the walking catchment and the nearby routes read it back with a
 * live key.
 */
const SAMPLE = fileURLToPath(new URL('../data/samples/osm-ultimo-sydney/ultimo-uts.osm', import.meta.url));
/** On the footways of the Alumni Green, beside the Cornerstone Cafe. */
const GREEN = { lat: -33.8832, lng: 151.1998 };

describe('OpenStreetMap tags to amenities and walkable ways', () => {
  it('classes schools with sector and level from the tags Australian mappers use', () => {
    expect(classifyAmenity({ amenity: 'school', 'operator:type': 'government', 'isced:level': '1' })).toMatchObject({
      category: 'school',
      school_sector: 'government',
      school_level: 'primary',
    });
    expect(schoolSector({ operator: 'Catholic Education Melbourne' })).toBe('catholic');
    expect(schoolSector({ 'operator:type': 'private' })).toBe('independent');
    expect(schoolSector({})).toBeNull();
    expect(schoolLevel({ 'isced:level': '2;3' })).toBe('secondary');
    expect(schoolLevel({ 'isced:level': '1;2;3' })).toBe('combined');
    expect(schoolLevel({ name: 'Glebe Public School' })).toBe('primary');
    expect(schoolLevel({ name: 'Somewhere' })).toBeNull();
  });

  it('classes stops with their mode, and the other categories', () => {
    expect(transportMode({ highway: 'bus_stop' })).toBe('bus');
    expect(transportMode({ railway: 'tram_stop' })).toBe('tram');
    expect(classifyAmenity({ public_transport: 'platform', railway: 'platform', light_rail: 'yes' })).toMatchObject({
      category: 'transport',
      transport_mode: 'light_rail',
    });
    expect(classifyAmenity({ railway: 'station', public_transport: 'station', train: 'yes' })?.transport_mode).toBe(
      'train',
    );
    expect(classifyAmenity({ amenity: 'kindergarten' })?.category).toBe('childcare');
    expect(classifyAmenity({ shop: 'supermarket', brand: 'Woolworths' })?.category).toBe('supermarket');
    expect(classifyAmenity({ shop: 'bakery' })?.category).toBe('retail');
    expect(classifyAmenity({ leisure: 'playground' })?.category).toBe('recreation');
    expect(classifyAmenity({ amenity: 'cafe' })?.category).toBe('cafe');
    expect(classifyAmenity({ amenity: 'hospital' })?.category).toBe('hospital');
    expect(classifyAmenity({ amenity: 'bench' })).toBeNull();
    expect(classifyAmenity({ public_transport: 'platform' })).toBeNull();
  });

  it('walks footways and streets, never motorways, trunk roads or ways closed to feet', () => {
    expect(isWalkable({ highway: 'footway' })).toBe(true);
    expect(isWalkable({ highway: 'residential' })).toBe(true);
    expect(isWalkable({ highway: 'steps' })).toBe(true);
    expect(isWalkable({ highway: 'motorway' })).toBe(false);
    expect(isWalkable({ highway: 'trunk' })).toBe(false);
    expect(isWalkable({ highway: 'residential', foot: 'no' })).toBe(false);
    expect(isWalkable({ highway: 'service', access: 'private', foot: 'yes' })).toBe(true);
    expect(isWalkable({ highway: 'cycleway' })).toBe(false);
    expect(isWalkable({ highway: 'cycleway', foot: 'yes' })).toBe(true);
    expect(isWalkable({ building: 'yes' })).toBe(false);
  });
});

describe('landgraph ingest osm (real OpenStreetMap export of Ultimo, Sydney)', () => {
  let t: TestRuntime;
  let db: Database;
  let first: OsmIngestResult;
  let liveKey: string;
  const quiet = () => new Progress({ write: () => true, isTTY: false });
  const count = async (sql: string) => (await db.query<{ n: number }>(sql))[0]!.n;

  async function cleanUp() {
    await db.exec(`
      DELETE FROM amenities.amenity WHERE dataset = 'live' AND state = 'NSW';
      DELETE FROM amenities.walk_edge WHERE dataset = 'live' AND state = 'NSW';
      DELETE FROM amenities.walk_node WHERE dataset = 'live' AND state = 'NSW';
      DELETE FROM amenities.coverage WHERE dataset = 'live' AND state = 'NSW';
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'amenities' AND state = 'NSW';`);
    t.runtime.catalog.invalidate();
  }

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    await cleanUp();
    first = await ingestOsm(db, { file: SAMPLE, progress: quiet(), snapshot: 'ultimo-uts-2022-11-02' });
    t.runtime.catalog.invalidate();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['catchment.read', 'locality.read'] });
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
  });

  it('reads the export as the API wrote it: every node, way and relation', async () => {
    const kinds = { node: 0, way: 0, relation: 0 };
    for await (const e of readOsm(SAMPLE)) kinds[e.type] += 1;
    expect(kinds).toEqual({ node: 430, way: 80, relation: 2 });
  });

  it('loads its amenities and its walking network, split where ways meet, in NSW', async () => {
    expect(first).toMatchObject({
      dataset: 'live',
      snapshotDate: '2022-11-02',
      read: { nodes: 430, ways: 80, relations: 2 },
      states: ['NSW'],
    });
    expect(first.byCategory.cafe).toBe(1);
    expect(first.byCategory.recreation).toBeGreaterThanOrEqual(2);
    expect(first.edges).toBeGreaterThan(first.walkableWays);
    const cafe = await db.query<{ name: string; osm_type: string; category: string }>(
      `SELECT name, osm_type, category FROM amenities.amenity WHERE dataset = 'live' AND id = 'node/5732865622'`,
    );
    expect(cafe).toEqual([{ name: 'Cornerstone Cafe', osm_type: 'node', category: 'cafe' }]);
    // the park is a closed way, loaded at a point inside its outline
    const inside = await count(`SELECT count(*)::int AS n FROM amenities.amenity a
      WHERE a.dataset = 'live' AND a.osm_type = 'way' AND a.category = 'recreation' AND a.tags->>'leisure' = 'park'`);
    expect(inside).toBeGreaterThanOrEqual(1);
    // every edge's ends are network nodes, and no edge holds a node another way shares in its middle
    expect(
      await count(`SELECT count(*)::int AS n FROM amenities.walk_edge e
        WHERE e.dataset = 'live' AND e.state = 'NSW' AND NOT EXISTS (
          SELECT 1 FROM amenities.walk_node n WHERE n.dataset = 'live' AND n.id = e.source)`),
    ).toBe(0);
    // the export's cycleways are all shared paths (foot=designated), so they are walked; nothing else of a
    // class people cannot walk is
    expect(
      await count(`SELECT count(*)::int AS n FROM amenities.walk_edge WHERE dataset = 'live' AND highway = 'cycleway'`),
    ).toBeGreaterThan(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM amenities.walk_edge
        WHERE dataset = 'live' AND highway NOT IN ('footway', 'pedestrian', 'steps', 'cycleway', 'unclassified', 'service', 'path')`),
    ).toBe(0);
    expect(formatOsmSummary(first)).toContain('credit: © OpenStreetMap contributors (ODbL)');
  });

  it('is idempotent: a second run replaces its rows', async () => {
    const before = await count(`SELECT count(*)::int AS n FROM amenities.walk_edge WHERE dataset = 'live'`);
    const again = await ingestOsm(db, { file: SAMPLE, progress: quiet(), snapshot: 'ultimo-uts-2022-11-02' });
    expect(again.edges).toBe(first.edges);
    expect(await count(`SELECT count(*)::int AS n FROM amenities.walk_edge WHERE dataset = 'live'`)).toBe(before);
    t.runtime.catalog.invalidate();
  });

  it('refuses what it cannot read, and a state the extract does not reach', async () => {
    await expect(ingestOsm(db, { file: SAMPLE, state: 'VIC', progress: quiet() })).rejects.toThrow(IngestError);
    await expect(ingestOsm(db, { file: 'extract.geojson', progress: quiet() })).rejects.toThrow(/\.osm/);
  });

  it('answers a walking catchment over the real footways, credited to OpenStreetMap', async () => {
    const res = await request(t.app)
      .get('/v1/catchment/walking')
      .query({ lat: GREEN.lat, lng: GREEN.lng, minutes: 5 })
      .set('Authorization', `Bearer ${liveKey}`)
      .expect(200);
    expect(res.body).toMatchObject({ success: true, status: 'ok', approximate: false, state: 'NSW', license: 'ODbL' });
    expect(res.headers['x-service-license']).toBe('ODbL');
    expect(res.headers['x-service-attribution']).toMatch(/OpenStreetMap contributors/);
    expect(res.body.reached.edges).toBeGreaterThan(5);
    expect(['Polygon', 'MultiPolygon']).toContain(res.body.polygon.type);
    const cafe = (
      res.body.amenities as Array<{
        name: string;
        distance_m: number;
        walking_distance_m: number;
        walking_minutes: number;
      }>
    ).find((a) => a.name === 'Cornerstone Cafe')!;
    expect(cafe).toBeDefined();
    expect(cafe.walking_distance_m).toBeGreaterThanOrEqual(cafe.distance_m - 1);
    expect(cafe.walking_minutes).toBeCloseTo(cafe.walking_distance_m / 80, 1);
  });
});

describe('landgraph ingest osm reads PBF as it reads XML', () => {
  let t: TestRuntime;
  let db: Database;
  let dir: string;
  let pbf: string;
  const quiet = () => new Progress({ write: () => true, isTTY: false });
  const rows = async (dataset: string) =>
    db.query<{ id: string; category: string; x: number; y: number }>(
      `SELECT id, category, round(ST_X(geom)::numeric, 6)::float8 AS x, round(ST_Y(geom)::numeric, 6)::float8 AS y
       FROM amenities.amenity WHERE dataset = $1 ORDER BY id`,
      [dataset],
    );
  const edges = async (dataset: string) =>
    db.query<{ id: string; source: string; target: string; length_m: number }>(
      `SELECT id, source, target, round(length_m::numeric, 2)::float8 AS length_m FROM amenities.walk_edge
       WHERE dataset = $1 ORDER BY id`,
      [dataset],
    );
  async function cleanUp() {
    for (const table of ['amenity', 'walk_edge', 'walk_node', 'coverage']) {
      await db.exec(`DELETE FROM amenities.${table} WHERE dataset IN ('osm_xml_test', 'osm_pbf_test')`);
    }
    await db.exec(`DELETE FROM public.dataset_source WHERE dataset IN ('osm_xml_test', 'osm_pbf_test')`);
  }

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    await cleanUp();
    dir = mkdtempSync(join(tmpdir(), 'landgraph-osm-'));
    const elements = [];
    for await (const e of readOsm(SAMPLE)) elements.push(e);
    // the same real export, written as PBF (test/support/osm-pbf.ts)
    pbf = join(dir, 'ultimo-uts-2022-11-02.osm.pbf');
    writeFileSync(pbf, encodeOsmPbf(elements));
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the same elements from the PBF form of the export', async () => {
    const fromXml = [];
    for await (const e of readOsm(SAMPLE)) fromXml.push(e);
    const fromPbf = [];
    for await (const e of readOsm(pbf)) fromPbf.push(e);
    expect(fromPbf).toHaveLength(fromXml.length);
    expect(fromPbf.filter((e) => e.type === 'way')).toEqual(fromXml.filter((e) => e.type === 'way'));
    const cafe = fromPbf.find((e) => e.id === 5732865622)!;
    expect(cafe).toMatchObject({ type: 'node', tags: { amenity: 'cafe', name: 'Cornerstone Cafe' } });
    expect(cafe.type === 'node' && cafe.lat).toBeCloseTo(-33.8830953, 7);
  });

  it('loads the same amenities and network from either form', async () => {
    const xml = await ingestOsm(db, { file: SAMPLE, dataset: 'osm_xml_test', progress: quiet() });
    const fromPbf = await ingestOsm(db, { file: pbf, dataset: 'osm_pbf_test', progress: quiet() });
    expect(fromPbf.file.format).toBe('OSM PBF');
    expect(fromPbf.snapshotDate).toBe('2022-11-02');
    expect({ ...fromPbf.byCategory, edges: fromPbf.edges, nodes: fromPbf.nodes }).toEqual({
      ...xml.byCategory,
      edges: xml.edges,
      nodes: xml.nodes,
    });
    expect(await rows('osm_pbf_test')).toEqual(await rows('osm_xml_test'));
    expect(await edges('osm_pbf_test')).toEqual(await edges('osm_xml_test'));
  });
});
