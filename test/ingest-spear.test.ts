/**
 * `landgraph ingest spear` against the database: the labelled fixture in the SPEAR public-search
 * shape, loaded into the live dataset over two test VIC lots and read back through the REST
 * routes with a live key.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf, parseSpear, spearStatusOf, spearTypeOf } from '../cli/ingest/spear-formats.ts';
import { formatSpearSummary } from '../cli/ingest/spear-cli.ts';
import { loadSpear, prepareSpearIngest } from '../cli/ingest/spear.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

const FIXTURE = new URL('./fixtures/spear/spear-public-search.json', import.meta.url).pathname;
const CSV_FIXTURE = new URL('./fixtures/spear/spear-report.csv', import.meta.url).pathname;
// two side-by-side test lots: SPT-1 west of 145.5, SPT-2 east of it
const LNG = 145.5;
const LAT = -37.9;
const D = 0.0005;

describe('ingest spear', () => {
  let t: TestRuntime;
  let liveKey: string;
  let dir: string;
  const rows = () =>
    t.runtime.db.query<{
      spear_reference: string;
      application_type: string;
      status: string;
      parcel_pfis: string[];
      lodged_date: string | null;
      decided_date: string | null;
      has_point: boolean;
      received_at: string;
    }>(
      `SELECT spear_reference, application_type, status, parcel_pfis, lodged_date::text, decided_date::text,
         geom IS NOT NULL AS has_point, received_at::text
       FROM development.spear_application WHERE dataset = 'live' AND spear_reference LIKE 'SFIX%'
       ORDER BY spear_reference`,
    );
  const cleanUp = () =>
    t.runtime.db.exec(`
      DELETE FROM development.spear_application WHERE dataset = 'live' AND spear_reference LIKE 'SFIX%';
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'spear';
      DELETE FROM cadastre.parcel WHERE dataset = 'live' AND parcel_pfi IN ('SPT-1', 'SPT-2');
      DELETE FROM cadastre.coverage WHERE dataset = 'live' AND name = 'SPEAR TEST';
      DELETE FROM public.dataset_source WHERE dataset = 'live' AND layer = 'cadastre' AND snapshot_id = 'spear-test';`);

  beforeAll(async () => {
    t = await testRuntime();
    liveKey = await createTestKey(t.runtime, { kind: 'live', scopes: ['spear.read'] });
    dir = mkdtempSync(join(tmpdir(), 'landgraph-spear-'));
    await cleanUp();
    await t.runtime.db.exec(`
      INSERT INTO cadastre.parcel (dataset, state, parcel_pfi, parcel_spi, parcel_lot_number, parcel_plan_number, area_m2, geom)
        VALUES ('live', 'VIC', 'SPT-1', '1\\PS999', '1', 'PS999', 900,
          ST_Multi(ST_MakeEnvelope(${LNG - 2 * D}, ${LAT - D}, ${LNG}, ${LAT + D}, 4326))),
               ('live', 'VIC', 'SPT-2', '2\\PS999', '2', 'PS999', 900,
          ST_Multi(ST_MakeEnvelope(${LNG}, ${LAT - D}, ${LNG + 2 * D}, ${LAT + D}, 4326)));
      INSERT INTO cadastre.coverage (dataset, state, name, geom)
        VALUES ('live', 'VIC', 'SPEAR TEST', ST_Multi(ST_MakeEnvelope(${LNG - 0.01}, ${LAT - 0.01}, ${LNG + 0.01}, ${LAT + 0.01}, 4326)));
      INSERT INTO public.dataset_source (dataset, layer, state, attribution, license, snapshot_id)
        VALUES ('live', 'cadastre', 'VIC', 'test parcels', 'CC BY 4.0', 'spear-test')
        ON CONFLICT (dataset, layer, state) DO NOTHING;`);
    // the runtime is shared across files: an earlier file may have cached the live credits without these
    t.runtime.catalog.invalidate();
  }, 120_000);

  afterAll(async () => {
    await cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('maps SPEAR words to one vocabulary and reads its dates', () => {
    expect(spearTypeOf('Planning Permit')).toBe('planning_permit');
    expect(spearTypeOf('Planning Permit (Subdivision)')).toBe('subdivision_permit');
    expect(spearTypeOf('Planning Permit and Certification')).toBe('permit_and_certification');
    expect(spearTypeOf('Certification')).toBe('certification');
    expect(spearTypeOf('Statement of Compliance')).toBe('statement_of_compliance');
    expect(spearTypeOf('Plan of Subdivision')).toBe('plan_of_subdivision');
    expect(spearTypeOf('Boundary realignment')).toBe('other');
    expect(spearStatusOf('Permit Issued')).toBe('approved');
    expect(spearStatusOf('In Progress - Referral')).toBe('under_assessment');
    expect(spearStatusOf('Submitted')).toBe('lodged');
    expect(spearStatusOf('Lapsed')).toBe('lapsed');
    expect(spearStatusOf('Registered')).toBe('registered');
    expect(spearStatusOf('Statement of Compliance Issued')).toBe('compliance_issued');
    expect(spearStatusOf('Eaten by the dog')).toBeNull();
    expect(dayOf('3/2/2025')).toBe('2025-02-03');
    expect(dayOf('2025-02-03')).toBe('2025-02-03');
    expect(dayOf('31/02/2025')).toBeUndefined();
    expect(dayOf(null)).toBeNull();
    expect(parseSpear({ nope: 1 }, 'x.json', '2025-01-01T00:00:00Z')).toHaveProperty('error');
    const bare = parseSpear([{ spearReference: 'S1', responsibleAuthority: 'A', parcelPfis: ['1'] }], 'x', 'now');
    expect(bare).toMatchObject({ read: 1, refused: [] });
  });

  it('loads the fixture: lots by PFI, by point and several at once; bad rows reported; credit recorded; a rerun changes nothing', async () => {
    const run = await prepareSpearIngest({ file: FIXTURE, snapshot: 'spear-fixture' });
    const first = await loadSpear(t.runtime.db, run);
    expect(first).toMatchObject({ read: 8, inserted: 4, updated: 0, unchanged: 0, on_lot: 4, dataset: 'live' });
    expect(first.refused.map((n) => n.feature)).toEqual([5, 6, 7, 8]);
    const summary = formatSpearSummary(first);
    expect(summary).toContain('read 8, inserted 4, updated 0, unchanged 0');
    expect(summary).toContain('unknown status "Eaten by the dog"');
    const before = await rows();
    expect(before.map((r) => [r.spear_reference, r.application_type, r.status, r.parcel_pfis])).toEqual([
      ['SFIX0001A', 'planning_permit', 'approved', ['SPT-1']],
      ['SFIX0002A', 'permit_and_certification', 'under_assessment', ['SPT-1', 'SPT-2']],
      // given only its point, it touches the lot under it
      ['SFIX0003A', 'certification', 'certified', ['SPT-2']],
      ['SFIX0004A', 'statement_of_compliance', 'compliance_issued', ['SPT-2']],
    ]);
    // given only its lots, each gets a point on its first lot
    expect(before.every((r) => r.has_point)).toBe(true);
    expect(before[0]).toMatchObject({ lodged_date: '2025-02-03', decided_date: '2025-05-14' });
    const [source] = await t.runtime.db.query<{ attribution: string; license: string; snapshot_id: string }>(
      `SELECT attribution, license, snapshot_id FROM public.dataset_source WHERE dataset = 'live' AND layer = 'spear'`,
    );
    expect(source).toMatchObject({ snapshot_id: 'spear-fixture' });
    expect(source!.attribution).toMatch(/State of Victoria/);
    expect(source!.license).toMatch(/Not openly licensed/);

    const again = await loadSpear(t.runtime.db, run);
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 4 });
    expect(await rows()).toEqual(before);
  });

  it('reads the same applications from a CSV export: the same records, refusals by line, and loading it changes nothing', async () => {
    const json = await prepareSpearIngest({ file: FIXTURE, snapshot: 'spear-fixture' });
    const csv = await prepareSpearIngest({ file: CSV_FIXTURE, snapshot: 'spear-fixture' });
    const withoutSeq = (records: typeof json.records) => records.map(({ seq: _seq, ...rest }) => rest);
    expect(csv.read).toBe(8);
    expect(withoutSeq(csv.records)).toEqual(withoutSeq(json.records));
    // the CSV's rows are on lines 2-9
    expect(csv.records.map((r) => r.seq)).toEqual([2, 3, 4, 5]);
    expect(csv.refused.map((n) => [n.feature, n.reason])).toEqual(json.refused.map((n) => [n.feature + 1, n.reason]));
    const before = await rows();
    const result = await loadSpear(t.runtime.db, csv);
    expect(result).toMatchObject({ read: 8, inserted: 0, updated: 0, unchanged: 4 });
    expect(formatSpearSummary(result)).toContain('spear-report.csv line 7 (SFIX0006A): unknown status');
    expect(await rows()).toEqual(before);
  });

  it('refuses a CSV export lacking a required column, naming it', async () => {
    const noAuthority = join(dir, 'no-authority.csv');
    writeFileSync(noAuthority, 'SPEAR Reference,Status,Parcel PFIs\nS1,Submitted,SPT-1\n');
    await expect(prepareSpearIngest({ file: noAuthority })).rejects.toThrow(
      /no-authority\.csv is not a SPEAR export: it lacks a responsibleAuthority column \(responsibleauthority, authority, council\)/,
    );
    const nowhere = join(dir, 'nowhere.csv');
    writeFileSync(nowhere, 'spearReference,responsibleAuthority,Latitude\nS1,A,-37.9\n');
    await expect(prepareSpearIngest({ file: nowhere })).rejects.toThrow(/lacks a lng column/);
  });

  it('updates a row that changed and only that one', async () => {
    const body = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { data: { resultRows: Array<Record<string, unknown>> } };
    body.data.resultRows[1]!.status = 'Permit Issued';
    body.data.resultRows[1]!.decisionDate = '10/11/2025';
    const changed = join(dir, 'changed.json');
    writeFileSync(changed, JSON.stringify(body));
    const before = await rows();
    const result = await loadSpear(
      t.runtime.db,
      await prepareSpearIngest({ file: changed, snapshot: 'spear-fixture-2' }),
    );
    expect(result).toMatchObject({ inserted: 0, updated: 1, unchanged: 3 });
    const after = await rows();
    expect(after[1]).toMatchObject({ status: 'approved', decided_date: '2025-11-10' });
    expect(after[1]!.received_at > before[1]!.received_at).toBe(true);
    for (const i of [0, 2, 3]) expect(after[i]).toEqual(before[i]);
  });

  it('serves the loaded lots to a live key: a lot touched by several applications, by PFI, point and window', async () => {
    const get = (path: string, query: Record<string, string>) =>
      request(t.app).get(path).query(query).set('Authorization', `Bearer ${liveKey}`);
    t.runtime.catalog.invalidate();
    const second = await get('/api/spear/parcel', { pfi: 'SPT-2', state: 'VIC' });
    expect(second.status).toBe(200);
    expect(second.body.status).toBe('ok');
    expect((second.body.data as Array<{ spear_reference: string }>).map((d) => d.spear_reference).sort()).toEqual([
      'SFIX0002A',
      'SFIX0003A',
      'SFIX0004A',
    ]);
    expect(second.body.attribution).toMatch(/State of Victoria/);
    expect(second.headers['x-service-attribution']).toBe(second.body.attribution);
    const near = await get('/api/spear/nearby', { lat: String(LAT), lng: String(LNG), radius_m: '200' });
    expect(near.body).toMatchObject({ status: 'ok', count: 4 });
    const box = await get('/api/spear/bbox', { bbox: `${LNG - 0.01},${LAT - 0.01},${LNG + 0.01},${LAT + 0.01}` });
    expect(box.body).toMatchObject({ status: 'ok', count: 4 });
  });

  it('refuses a file that is not JSON or not a SPEAR body', async () => {
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{');
    await expect(prepareSpearIngest({ file: notJson })).rejects.toThrow(/is not JSON/);
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ data: {} }));
    await expect(prepareSpearIngest({ file: other })).rejects.toThrow(/resultRows/);
    await expect(prepareSpearIngest({ file: join(dir, 'missing.json') })).rejects.toThrow(/cannot read/);
  });
});
