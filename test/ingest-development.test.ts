/**
 * `landgraph ingest development-applications` against the database: the NSW Planning Portal
 * fixture and a file written in the PlanningAlerts shape at test parcels, loaded into the live
 * dataset and read back through the REST routes with a live key.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDevelopmentSummary, runIngestDevelopmentCommand } from '../cli/ingest/development-cli.ts';
import { loadDevelopmentApplications, prepareDevelopmentIngest } from '../cli/ingest/development.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

const NSW_FIXTURE = new URL('./fixtures/development-applications/nsw-portal-applications.json', import.meta.url)
  .pathname;
/** Real answers of the NSW portal's API (data/samples/nsw-planning-portal-online-da/SOURCE.txt). */
const NSW_SAMPLES = new URL('../data/samples/nsw-planning-portal-online-da/', import.meta.url).pathname;
const GEORGES_RIVER = join(NSW_SAMPLES, 'onlineda_pan-661190.json');
/** A test parcel, its address and locality in the live dataset, where one PlanningAlerts application stands. */
const PFI = 'DAT-1';
const GNAF = 'GAQLD_DAT_1';
const LNG = 152.5;
const LAT = -27.0;
const AUTHORITY = 'Ingest Test Council';

describe('ingest development-applications', () => {
  let t: TestRuntime;
  let liveKey: string;
  let dir: string;
  let planningAlerts: string;
  const rowsOf = (authority: string) =>
    t.runtime.db.query<{
      council_reference: string;
      status: string;
      parcel_pfi: string | null;
      gnaf_pid: string | null;
      lga_code: string | null;
      lga_name: string | null;
      suburb: string | null;
      updated_at: string;
      received_at: string;
    }>(
      `SELECT council_reference, status, parcel_pfi, gnaf_pid, lga_code, lga_name, suburb, updated_at::text, received_at::text
       FROM development.application WHERE dataset = 'live' AND authority = $1 ORDER BY council_reference`,
      [authority],
    );
  const cleanUp = () =>
    t.runtime.db.exec(`
      DELETE FROM development.application WHERE dataset = 'live'
        AND authority IN ('${AUTHORITY}', 'City of Parramatta Council', 'The Hills Shire Council',
          'Georges River Council', 'Council of the City of Sydney');
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'development-applications';
      DELETE FROM address.address_detail WHERE dataset = 'live' AND gnaf_pid = '${GNAF}';
      DELETE FROM address.locality WHERE dataset = 'live' AND locality_pid = 'DAT_LOC';
      DELETE FROM cadastre.parcel WHERE dataset = 'live' AND parcel_pfi = '${PFI}';
      DELETE FROM cadastre.coverage WHERE dataset = 'live' AND name = 'DAT TEST';
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'cadastre' AND snapshot_id = 'dat-test';`);

  /** A PlanningAlerts answer of one application at the test parcel, with the description given. */
  const writePlanningAlerts = (description: string) =>
    writeFileSync(
      planningAlerts,
      JSON.stringify([
        {
          application: {
            id: 1,
            council_reference: 'IT/1/2025',
            date_scraped: '2025-10-01T09:00:00+10:00',
            address: '1 Test Street, Testville QLD 4000 (test)',
            description,
            info_url: 'https://example.invalid/it/1',
            comment_url: null,
            date_received: '2025-09-30',
            on_notice_from: null,
            on_notice_to: null,
            lat: LAT,
            lng: LNG,
            authority: { full_name: AUTHORITY },
          },
        },
      ]),
    );

  beforeAll(async () => {
    t = await testRuntime();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['development-applications.read'] });
    dir = mkdtempSync(join(tmpdir(), 'landgraph-da-'));
    planningAlerts = join(dir, 'planningalerts.json');
    await cleanUp();
    const d = 0.0005;
    await t.runtime.db.exec(`
      INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, parcel_lot_number, parcel_plan_number, area_m2, geom)
        VALUES ('live', 'QLD', '${PFI}', '1RP999', '1', 'RP999', 900,
          ST_Multi(ST_MakeEnvelope(${LNG - d}, ${LAT - d}, ${LNG + d}, ${LAT + d}, 4326)));
      INSERT INTO address.locality (dataset, locality_pid, locality_name, state, postcode, lga_code, lga_name)
        VALUES ('live', 'DAT_LOC', 'TESTVILLE', 'QLD', '4000', '99999', 'TEST SHIRE');
      INSERT INTO address.address_detail (dataset, gnaf_pid, street_locality_pid, locality_pid, state, postcode,
          formatted_address, geocode_type, geom, parcel_pfi)
        VALUES ('live', '${GNAF}', 'DAT_STREET', 'DAT_LOC', 'QLD', '4000', '1 TEST ST, TESTVILLE QLD 4000', 'PC',
          ST_SetSRID(ST_MakePoint(${LNG}, ${LAT}), 4326), '${PFI}');
      INSERT INTO cadastre.coverage (dataset, state, name, geom)
        VALUES ('live', 'QLD', 'DAT TEST', ST_Multi(ST_MakeEnvelope(${LNG - 0.01}, ${LAT - 0.01}, ${LNG + 0.01}, ${LAT + 0.01}, 4326)));
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
        VALUES ('live', 'cadastre', 'QLD', 'test parcels', 'CC BY 4.0', 'dat-test')
        ON CONFLICT (dataset, layer, state) DO NOTHING;`);
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the NSW portal fixture, reports the unreadable records and credits the state; a rerun changes nothing', async () => {
    const run = await prepareDevelopmentIngest({ file: NSW_FIXTURE, format: 'nsw-portal', snapshot: 'nsw-da-test' });
    const first = await loadDevelopmentApplications(t.runtime.db, run);
    expect(first).toMatchObject({ read: 6, inserted: 4, updated: 0, unchanged: 0, states: ['NSW'], dataset: 'live' });
    expect(first.refused.map((n) => n.feature)).toEqual([5, 6]);
    const summary = formatDevelopmentSummary(first);
    expect(summary).toContain('read 6, inserted 4, updated 0, unchanged 0');
    expect(summary).toContain('nsw-portal-applications.json application 5 (PAN-900005): has an ApplicationStatus');
    const before = await rowsOf('City of Parramatta Council');
    expect(before.map((r) => [r.council_reference, r.status])).toEqual([
      ['DA/2025/0101', 'determined'],
      ['DA/2025/0202', 'under_assessment'],
    ]);
    const [source] = await t.runtime.db.query<{ attribution: string; license: string; snapshot_id: string }>(
      `SELECT attribution, license, snapshot_id FROM public.dataset_source
       WHERE dataset = 'live' AND layer = 'development-applications' AND state = 'NSW'`,
    );
    expect(source).toMatchObject({ license: 'CC BY 4.0', snapshot_id: 'nsw-da-test' });
    expect(source!.attribution).toMatch(/NSW Planning Portal/);

    const again = await loadDevelopmentApplications(t.runtime.db, run);
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 4 });
    // nothing changed, so nothing was stamped again: the feed does not send them twice
    expect(await rowsOf('City of Parramatta Council')).toEqual(before);
  });

  it('matches an application to the parcel and address under its point, filling its LGA and suburb', async () => {
    writePlanningAlerts('Construction of a new dwelling (test)');
    const result = await loadDevelopmentApplications(
      t.runtime.db,
      await prepareDevelopmentIngest({ file: planningAlerts, format: 'planningalerts' }),
    );
    expect(result).toMatchObject({ inserted: 1, matched: 1, states: ['QLD'] });
    t.runtime.catalog.invalidate();
    const [row] = await rowsOf(AUTHORITY);
    expect(row).toMatchObject({
      council_reference: 'IT/1/2025',
      status: 'lodged',
      parcel_pfi: PFI,
      gnaf_pid: GNAF,
      lga_code: '99999',
      lga_name: 'TEST SHIRE',
      suburb: 'TESTVILLE',
    });
    const res = await request(t.app)
      .get('/v1/development-applications/parcel')
      .query({ pfi: PFI, state: 'QLD' })
      .set('Authorization', `Bearer ${liveKey}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', count: 1 });
    expect(res.body.data[0]).toMatchObject({ council_reference: 'IT/1/2025', source: 'planningalerts' });
    expect(res.body.source).toMatch(/^mirror:qld\/development-applications@/);
    expect(res.body.attribution).toMatch(/PlanningAlerts/);
    // a source loaded again is credited once, not twice
    await loadDevelopmentApplications(
      t.runtime.db,
      await prepareDevelopmentIngest({ file: NSW_FIXTURE, format: 'nsw-portal', snapshot: 'nsw-da-test' }),
    );
    const [source] = await t.runtime.db.query<{ attribution: string }>(
      `SELECT attribution FROM public.dataset_source WHERE dataset = 'live' AND layer = 'development-applications' AND state = 'NSW'`,
    );
    expect(source!.attribution).toMatch(/NSW Planning Portal/);
    expect(source!.attribution.split(' | ')).toHaveLength(1);
  });

  it('bumps updated_at and received_at only on a real change', async () => {
    writePlanningAlerts('Construction of a new dwelling (test)');
    const [before] = await rowsOf(AUTHORITY);
    const same = await loadDevelopmentApplications(
      t.runtime.db,
      await prepareDevelopmentIngest({ file: planningAlerts, format: 'planningalerts' }),
    );
    expect(same).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
    expect((await rowsOf(AUTHORITY))[0]).toEqual(before);

    writePlanningAlerts('Construction of a new dwelling and a pool (test, amended)');
    const changed = await loadDevelopmentApplications(
      t.runtime.db,
      await prepareDevelopmentIngest({ file: planningAlerts, format: 'planningalerts' }),
    );
    expect(changed).toMatchObject({ inserted: 0, updated: 1, unchanged: 0 });
    const [after] = await rowsOf(AUTHORITY);
    expect(after!.received_at > before!.received_at).toBe(true);
    // PlanningAlerts' date_scraped is when it first found the application: the source's own time stays
    expect(after!.updated_at).toBe(before!.updated_at);
  });

  it('exits 2 with the usage for a bad command line and for a file that is not the format named', async () => {
    expect(await runIngestDevelopmentCommand([NSW_FIXTURE])).toBe(2);
    expect(await runIngestDevelopmentCommand([NSW_FIXTURE, '--format', 'council-csv'])).toBe(2);
    expect(await runIngestDevelopmentCommand([NSW_FIXTURE, '--format', 'planningalerts'])).toBe(2);
    expect(await runIngestDevelopmentCommand([NSW_FIXTURE, '--format', 'nsw-portal', '--dataset', 'sandbox'])).toBe(2);
    expect(await runIngestDevelopmentCommand([join(dir, 'missing.json'), '--format', 'nsw-portal'])).toBe(2);
  });

  describe('real answers of the NSW portal API', () => {
    /** The four City of Sydney records of the projection put into the API's envelope, the last-but-one changed as given. */
    const writeCityOfSydney = (file: string, change: Record<string, unknown> = {}) => {
      const projection = JSON.parse(readFileSync(join(NSW_SAMPLES, 'nswDa.fixture.json'), 'utf8')) as {
        records: Record<string, unknown>[];
      };
      const records = projection.records.map((r) =>
        r.PlanningPortalApplicationNumber === 'PAN-643200' ? { ...r, ...change } : r,
      );
      writeFileSync(
        file,
        JSON.stringify({ PageSize: 10, PageNumber: 1, TotalPages: 1, TotalCount: 4, Application: records }),
      );
      return file;
    };
    /** Each row's reference, status and source time in UTC (as the reader read it), with received_at. */
    const stamped = (authority: string) =>
      t.runtime.db.query<{ council_reference: string; status: string; updated: string; received_at: string }>(
        `SELECT council_reference, status, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS updated,
           received_at::text
         FROM development.application WHERE dataset = 'live' AND authority = $1 ORDER BY council_reference`,
        [authority],
      );

    it('reads the Georges River answer field by field, as published', async () => {
      const run = await prepareDevelopmentIngest({ file: GEORGES_RIVER, format: 'nsw-portal' });
      expect(run.read).toBe(1);
      expect(run.refused).toEqual([]);
      // every value below is read off onlineda_pan-661190.json by hand
      expect(run.records[0]).toMatchObject({
        source: 'nsw-portal',
        council_reference: 'DA2026/0359',
        authority: 'Georges River Council',
        state: 'NSW',
        // "On Exhibition"
        status: 'under_assessment',
        lodged_date: '2026-08-05',
        decided_date: null,
        estimated_cost: 825000,
        dwellings_proposed: 1,
        address: '65A VISTA STREET SANS SOUCI 2219',
        suburb: 'SANS SOUCI',
        // X and Y, published as strings
        lng: 151.123301432,
        lat: -33.998075822,
        // no DevelopmentDescription in the answer: the three development types stand in
        description: 'Alterations or additions to an existing building or structure; Demolition; Dwelling house',
        category: 'dwelling',
        // "2026-08-25T22:57:31.543" on Sydney's clock, AEST (UTC+10) in August
        updated_at: '2026-08-25T12:57:31.543Z',
        license: 'CC BY 4.0',
      });
      expect(run.records[0]!.source_url).toContain('PAN-661190');
    });

    it('reads the City of Sydney records: modifications and reviews, no council number, no dwellings given', async () => {
      const run = await prepareDevelopmentIngest({
        file: writeCityOfSydney(join(dir, 'sydney.json')),
        format: 'nsw-portal',
      });
      expect(run.refused).toEqual([]);
      // the projection has no CouncilApplicationNumber: the portal's own number stands in
      expect(
        run.records.map((r) => [r.council_reference, r.status, r.lodged_date, r.dwellings_proposed, r.updated_at]),
      ).toEqual([
        ['PAN-662735', 'under_assessment', '2026-08-05', null, '2026-08-06T13:33:16.937Z'],
        ['PAN-643200', 'under_assessment', '2026-08-14', 3, '2026-08-25T12:44:34.400Z'],
        ['PAN-661281', 'under_assessment', '2026-08-11', 1, '2026-08-26T12:54:41.387Z'],
        ['PAN-665815', 'under_assessment', '2026-08-18', 1, '2026-08-26T13:03:42.463Z'],
      ]);
      expect(run.records.every((r) => r.authority === 'Council of the City of Sydney' && r.lng === null)).toBe(true);
    });

    it('loads them idempotently: a rerun changes nothing, a changed record moves only its own times', async () => {
      const sydney = join(dir, 'sydney.json');
      const load = async (file: string) =>
        loadDevelopmentApplications(t.runtime.db, await prepareDevelopmentIngest({ file, format: 'nsw-portal' }));
      expect(await load(GEORGES_RIVER)).toMatchObject({ read: 1, inserted: 1, updated: 0, unchanged: 0 });
      expect(await load(writeCityOfSydney(sydney))).toMatchObject({ read: 4, inserted: 4, updated: 0, unchanged: 0 });
      const georges = await stamped('Georges River Council');
      expect(georges.map((r) => [r.council_reference, r.status, r.updated])).toEqual([
        ['DA2026/0359', 'under_assessment', '2026-08-25T12:57:31.543'],
      ]);
      const before = await stamped('Council of the City of Sydney');

      expect(await load(GEORGES_RIVER)).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
      expect(await load(sydney)).toMatchObject({ inserted: 0, updated: 0, unchanged: 4 });
      expect(await stamped('Georges River Council')).toEqual(georges);
      expect(await stamped('Council of the City of Sydney')).toEqual(before);

      // the portal determines PAN-643200 and stamps it
      writeCityOfSydney(sydney, {
        ApplicationStatus: 'Determined',
        DeterminationDate: '2026-09-01T00:00:00',
        DateLastUpdated: '2026-09-01T22:10:05.120',
      });
      expect(await load(sydney)).toMatchObject({ inserted: 0, updated: 1, unchanged: 3 });
      const after = await stamped('Council of the City of Sydney');
      const changed = after.find((r) => r.council_reference === 'PAN-643200')!;
      const was = before.find((r) => r.council_reference === 'PAN-643200')!;
      expect(changed).toMatchObject({ status: 'determined', updated: '2026-09-01T12:10:05.120' });
      expect(changed.received_at > was.received_at).toBe(true);
      expect(after.filter((r) => r !== changed)).toEqual(before.filter((r) => r.council_reference !== 'PAN-643200'));
      expect(await stamped('Georges River Council')).toEqual(georges);
    });
  });
});
