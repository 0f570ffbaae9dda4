import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type EasementsIngestResult, ingestEasements, purposeOf, widthOf } from '../cli/ingest/easements.ts';
import { formatEasementsSummary, runIngestEasementsCommand } from '../cli/ingest/easements-cli.ts';
import { IngestError } from '../cli/ingest/gnaf-release.ts';
import { Progress } from '../cli/ingest/progress.ts';
import type { Database } from '../core/db.ts';
import { createTestKey, type TestRuntime, testRuntime } from './support/runtime.ts';

/*
 * `ingest easements` on a fixture in the NSW Digital Cadastral Database's layout (no real
 * extract of the easement layer could be found: see the fixture's README), tied to two live
 * test parcels, then read back through GET /api/easements (by parcel through the property
 * graph's easements field, and by bbox) with a live key.
 */

const EASEMENTS = fileURLToPath(
  new URL('./fixtures/nsw-dcdb-easements/Easement_DP1234568_20250915.geojson', import.meta.url),
);
const SIDE = 'easement_test';
/** Lots 1 and 2 of DP1234568, side by side; the first fixture easement runs across both backs. */
const PARCELS = [
  { pfi: 'SET-ESMT-1', spi: '1//DP1234568', lot: '1', west: 151.02 },
  { pfi: 'SET-ESMT-2', spi: '2//DP1234568', lot: '2', west: 151.0202 },
];
const SOUTH = -33.84;
const SIZE = 0.0002;

const box = (w: number, s: number, e: number, n: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ],
});

type Feature = { id?: string; properties: Record<string, unknown> };

describe('landgraph ingest easements', () => {
  let t: TestRuntime;
  let db: Database;
  let dir: string;
  let liveKey: string;
  let first: EasementsIngestResult;
  const quiet = () => new Progress({ write: () => true, isTTY: false });
  const count = async (sql: string) => (await db.query<{ n: number }>(sql))[0]!.n;
  const easements = (query: Record<string, string | number>) =>
    request(t.app).get('/api/easements').query(query).set('Authorization', `Bearer ${liveKey}`);
  const idsOf = (features: Feature[]) => features.map((f) => f.id ?? (f.properties.id as string)).sort();

  async function cleanUp() {
    await db.exec(`
      DELETE FROM land.easement WHERE dataset IN ('live', '${SIDE}') AND state IN ('NSW', 'QLD');
      DELETE FROM land.coverage WHERE dataset IN ('live', '${SIDE}') AND layer = 'easements';
      DELETE FROM public.dataset_source WHERE dataset IN ('live', '${SIDE}') AND layer = 'easements';
      DELETE FROM cadastre.parcel WHERE dataset = 'live' AND parcel_pfi LIKE 'SET-ESMT-%';
      DELETE FROM cadastre.coverage WHERE dataset = 'live' AND name = 'SET ESMT PARRAMATTA';
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'cadastre' AND state = 'NSW' AND snapshot_id = 'set-esmt-test';`);
    t.runtime.catalog.invalidate();
  }

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    dir = mkdtempSync(join(tmpdir(), 'landgraph-easements-'));
    await cleanUp();
    for (const p of PARCELS) {
      await db.exec(`INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, parcel_lot_number,
          parcel_plan_number, area_m2, geom)
        VALUES ('live', 'NSW', '${p.pfi}', '${p.spi}', '${p.lot}', 'DP1234568', 400,
          ST_Multi(ST_MakeEnvelope(${p.west}, ${SOUTH}, ${p.west + SIZE}, ${SOUTH + SIZE}, 4326)))`);
    }
    await db.exec(`
      INSERT INTO cadastre.coverage (dataset, state, name, geom)
        VALUES ('live', 'NSW', 'SET ESMT PARRAMATTA', ST_Multi(ST_MakeEnvelope(151.01, -33.86, 151.04, -33.83, 4326)));
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
        VALUES ('live', 'cadastre', 'NSW', 'test parcels', 'CC BY 4.0', 'set-esmt-test')
        ON CONFLICT (dataset, layer, state) DO NOTHING;`);
    first = await ingestEasements(db, { file: EASEMENTS, state: 'NSW', progress: quiet() });
    t.runtime.catalog.invalidate();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['easement.read'] });
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the easements, cut into their part on each parcel they burden, and lists what it could not', () => {
    expect(first).toMatchObject({
      dataset: 'live',
      state: 'NSW',
      snapshotDate: '2025-09-15',
      read: 5,
      loaded: 3,
      parts: 4,
      untyped: 3,
      elsewhere: 1,
      repaired: [],
      credit: { license: 'CC BY 4.0' },
    });
    expect(first.unlinked.map((u) => [u.feature, u.key, u.reason])).toEqual([
      [3, 'NSW-easement-900003', 'it lies on no parcel of the cadastre'],
    ]);
    expect(first.refused.map((r) => [r.feature, r.reason])).toEqual([
      [4, expect.stringMatching(/LineString, not a polygon .*easement line layer/)],
    ]);
    const summary = formatEasementsSummary(first);
    expect(summary).toContain('read 5, loaded 3 as 4 parcel parts, not on a parcel 1, purpose unknown 3');
    expect(summary).toContain('Spatial Services');
  });

  it('answers a live key by parcel with the parts on that parcel, the plan and the cadastre credit', async () => {
    const one = await easements({ pfi: 'SET-ESMT-1', state: 'NSW' }).expect(200);
    expect(one.body).toMatchObject({ status: 'ok', freshness: '2025-09-15', license: 'CC BY 4.0' });
    expect(one.body.attribution).toMatch(/NSW Digital Cadastral Database/);
    const features = one.body.features as Array<Feature & { properties: Record<string, unknown> }>;
    expect(idsOf(features)).toEqual(['NSW-easement-900001@SET-ESMT-1', 'NSW-easement-900002@SET-ESMT-1']);
    expect(features.map((f) => f.properties)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          parcel_pfi: 'SET-ESMT-1',
          easement_type: 'unknown',
          width_m: null,
          plan_number: 'DP1234568',
        }),
      ]),
    );
    const two = await easements({ pfi: 'SET-ESMT-2', state: 'NSW' }).expect(200);
    expect(idsOf(two.body.features as Feature[])).toEqual(['NSW-easement-900001@SET-ESMT-2']);
    // the strip's part on lot 2 is about half of it: 0.0002° by 0.00003° (about 18.5 m by 3.3 m)
    const area = (two.body.features as Array<{ properties: { area_m2: number } }>)[0]!.properties.area_m2;
    expect(area).toBeGreaterThan(55);
    expect(area).toBeLessThan(70);
  });

  it('answers a window with every part and the easement on no parcel, and not covered far off', async () => {
    const res = await easements({ bbox: '151.019,-33.851,151.031,-33.839', state: 'NSW' }).expect(200);
    expect(res.body.status).toBe('ok');
    expect(idsOf(res.body.features as Feature[])).toEqual([
      'NSW-easement-900001@SET-ESMT-1',
      'NSW-easement-900001@SET-ESMT-2',
      'NSW-easement-900002@SET-ESMT-1',
      'NSW-easement-900003',
    ]);
    const far = await easements({ bbox: '151.2,-33.9,151.21,-33.89', state: 'NSW' }).expect(200);
    expect(far.body.status).toBe('not_covered');
  });

  it('replaces rather than duplicates on a rerun', async () => {
    await ingestEasements(db, { file: EASEMENTS, state: 'NSW', progress: quiet() });
    expect(
      await Promise.all([
        count(`SELECT count(*)::int AS n FROM land.easement WHERE dataset = 'live' AND state = 'NSW'`),
        count(`SELECT count(*)::int AS n FROM land.coverage WHERE dataset = 'live' AND layer = 'easements'`),
        count(`SELECT count(*)::int AS n FROM public.dataset_source WHERE dataset = 'live' AND layer = 'easements'`),
      ]),
    ).toEqual([4, 1, 1]);
  });

  it('reads a purpose and width where the layer gives them (Queensland lot-on-plan easements)', async () => {
    const file = join(dir, 'qld.geojson');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { LOT: 'A', PLAN: 'SP123456', LOTPLAN: 'ASP123456', PURPOSE: 'EASEMENT FOR DRAINAGE 3 WIDE' },
            geometry: box(153.03, -27.45, 153.0301, -27.4499),
          },
          {
            type: 'Feature',
            properties: { LOT: 'B', PLAN: 'SP123456', LOTPLAN: 'BSP123456', PURPOSE: 'Right of carriageway', WIDTH: 4 },
            geometry: box(153.0302, -27.45, 153.0303, -27.4499),
          },
        ],
      }),
    );
    const result = await ingestEasements(db, { file, state: 'QLD', dataset: SIDE, progress: quiet() });
    // no QLD cadastre in the side dataset: loaded, each listed as on no parcel, and why
    expect(result).toMatchObject({ loaded: 2, parts: 2, untyped: 0 });
    expect(result.unlinked.map((u) => u.reason)).toEqual([
      "no QLD cadastre in 'easement_test'",
      "no QLD cadastre in 'easement_test'",
    ]);
    const rows = await db.query<{ id: string; easement_type: string; width_m: number | null; plan_number: string }>(
      `SELECT id, easement_type, width_m, plan_number FROM land.easement WHERE dataset = '${SIDE}' ORDER BY id`,
    );
    expect(rows.map((r) => [r.id.replace(/-g[0-9a-f]{8}$/, ''), r.easement_type, r.width_m, r.plan_number])).toEqual([
      ['QLD-easement-ASP123456', 'drainage', 3, 'SP123456'],
      ['QLD-easement-BSP123456', 'carriageway', 4, 'SP123456'],
    ]);
    expect([purposeOf('SEWERAGE'), purposeOf(null), purposeOf('Party Wall')]).toEqual([
      'sewerage',
      'unknown',
      'party wall',
    ]);
    expect([widthOf(undefined, 'DRAINAGE 2.5m wide'), widthOf('1.5 m', null), widthOf(undefined, 'SUPPORT')]).toEqual([
      2.5,
      1.5,
      null,
    ]);
  });

  it('refuses a bad file, a file of lines only, the sandbox and a wrong state, writing nothing', async () => {
    const before = await count(`SELECT count(*)::int AS n FROM land.easement WHERE dataset = '${SIDE}'`);
    const broken = join(dir, 'broken.geojson');
    writeFileSync(broken, readFileSync(EASEMENTS, 'utf8').slice(0, 200));
    await expect(ingestEasements(db, { file: broken, state: 'NSW', dataset: SIDE, progress: quiet() })).rejects.toThrow(
      /broken\.geojson is not valid JSON/,
    );
    const lines = join(dir, 'lines.geojson');
    writeFileSync(
      lines,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { PFI: 1 },
            geometry: {
              type: 'LineString',
              coordinates: [
                [144.95, -37.81],
                [144.951, -37.81],
              ],
            },
          },
        ],
      }),
    );
    await expect(ingestEasements(db, { file: lines, state: 'VIC', dataset: SIDE, progress: quiet() })).rejects.toThrow(
      /no easement of lines\.geojson could be loaded \(feature 1: its geometry is a LineString/,
    );
    await expect(
      ingestEasements(db, { file: EASEMENTS, state: 'NSW', dataset: 'sandbox', progress: quiet() }),
    ).rejects.toThrow(IngestError);
    await expect(ingestEasements(db, { file: EASEMENTS, state: 'WA', progress: quiet() })).rejects.toThrow(
      /--state WA: easements load for VIC, NSW, QLD/,
    );
    expect(await count(`SELECT count(*)::int AS n FROM land.easement WHERE dataset = '${SIDE}'`)).toBe(before);
  });

  it('says how to call it when the state is missing, before opening a database (exit 2)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runIngestEasementsCommand([EASEMENTS])).toBe(2);
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/--state[\s\S]*Usage: landgraph ingest easements/);
    } finally {
      stderr.mockRestore();
    }
  });
});
