import type { ChildProcess } from 'node:child_process';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Database } from '../core/db.ts';
import { generateInternalSecret } from '../core/internal-auth.ts';
import type { Job } from '../platform/jobs/engine.ts';
import { getJob } from '../platform/jobs/engine.ts';
import { ROW_STATUSES, batchLayer } from '../platform/batch/layers.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';
import type { ServedDistributed } from './support/serve-distributed.ts';
import { expectSpawnedDistributedWorker, serveDistributed } from './support/serve-distributed.ts';
import { startWorkerProcess, until } from './support/worker-process.ts';

/** Ports of this file's subgraph services, clear of the other distributed e2e files' (4611, 4711-4770, 4791). */
const BASE_PORT = 4811;
const ACCOUNT = 'acct-batch-distributed';
const EXPORT_LAYERS = ['parcel', 'planning', 'soil'];
const UNMATCHED = '1 Nowhere Lane, Faketown VIC 3999';
const FINAL = ['succeeded', 'failed', 'cancelled', 'expired'];

type Answer = { status: number; text: string; headers: IncomingHttpHeaders; json<T = Record<string, unknown>>(): T };

/**
 * Bulk export and enrich through `landgraph serve --distributed` as a user starts it: submitted to
 * the REST facade of the gateway process, run by the worker process it spawned, which reads every
 * layer through the subgraph services over signed HTTP. One start serves both products (a start
 * costs tens of seconds on two cores); their inputs are small.
 *
 * The enrich job is queued before the start, as a job left in the queue across a restart, and a
 * second distributed worker (`landgraph worker`, as an operator adds one) is already running: it
 * must wait for the subgraph services rather than claim the job at once, when every row would
 * read `unavailable`. It is stopped before the export, so the export is the spawned worker's.
 */
describe('bulk export and enrich through serve --distributed and its spawned worker', () => {
  let t: TestRuntime;
  let db: Database;
  let served: ServedDistributed;
  let key = '';
  let addresses: { gnaf_pid: string; address: string; parcel_pfi: string }[] = [];
  let enrichId = '';
  let standalone: { child: ChildProcess; exited: Promise<void>; log(): string };
  /** The enrich job as it was while the standalone worker waited for the services. */
  let whileWaiting: Job;

  /**
   * One call to the facade on a connection of its own. This process serves the embedded database
   * to every other one, and a pooled connection's idle timer run late here would reuse a
   * connection the server has already closed ("other side closed"; see the notes).
   */
  const call = (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = { Authorization: `Bearer ${key}`, ...(payload ? { 'Content-Type': 'application/json' } : {}) };
      const sent = httpRequest(`${served.url}${path}`, { method, agent: false, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, text, headers: res.headers, json: <T>() => JSON.parse(text) as T });
        });
      });
      sent.once('error', reject);
      sent.end(payload);
    });
  /** The serving processes' log tail, so a failed assertion names its cause. */
  const tail = () => served.log().slice(-4000);

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    key = await createTestKey(t.runtime, {
      account: ACCOUNT,
      scopes: ['cadastre.read', 'planning.read', 'soil.read', 'enrich.submit', 'enrich.read'],
      capabilities: ['bulk_export'],
    });
    addresses = await db.query(
      `SELECT gnaf_pid, formatted_address AS address, parcel_pfi FROM address.address_detail
       WHERE dataset = 'sandbox' AND state = 'VIC' AND parcel_pfi IS NOT NULL AND flat_number IS NULL
       ORDER BY gnaf_pid LIMIT 4`,
    );
    const csv = ['ref,Property Address', ...addresses.map((a, i) => `R${i + 1},"${a.address}"`), `R5,"${UNMATCHED}"`];
    // queued through this process's facade on the same database; this process runs no worker
    const auth = { Authorization: `Bearer ${key}` };
    const submitted = await request(t.app)
      .post('/v1/enrich/jobs')
      .set(auth)
      .send({ csv: csv.join('\n'), bundles: ['parcel'] });
    expect(submitted.status, submitted.text).toBe(202);
    enrichId = (submitted.body as { job: { id: string } }).job.id;
    const approved = await request(t.app).post(`/v1/enrich/jobs/${enrichId}/approve`).set(auth).send({});
    expect(approved.status, approved.text).toBe(202);

    const secret = generateInternalSecret();
    standalone = startWorkerProcess(testConfig(), {
      leaseMs: 30_000,
      env: {
        LANDGRAPH_MODE: 'distributed',
        LANDGRAPH_SUBGRAPH_BASE_PORT: String(BASE_PORT),
        LANDGRAPH_INTERNAL_SECRET: secret,
        LANDGRAPH_LOG_LEVEL: 'info',
      },
    });
    await until(
      'the distributed worker to wait for the subgraph services',
      () => Promise.resolve(standalone.log()),
      (log) => log.includes('waiting for the subgraph services before claiming jobs'),
    );
    whileWaiting = (await getJob(db, enrichId))!;
    served = await serveDistributed(testConfig(), BASE_PORT, { LANDGRAPH_INTERNAL_SECRET: secret });
  });

  afterAll(async () => {
    if (standalone && standalone.child.exitCode === null && standalone.child.signalCode === null) {
      standalone.child.kill('SIGTERM');
      await standalone.exited;
    }
    await served?.stop();
  });

  it('enriches a CSV queued before the start once the services answer, and exports a suburb, every layer answered', async () => {
    // a failed assertion below (a layer unavailable) is named by the serving processes' warnings
    onTestFailed(() => {
      const warnings = served
        .log()
        .split('\n')
        .filter((line) => /"level":"(warn|error)"/.test(line));
      console.error(`serve --distributed warned:\n${warnings.join('\n')}`);
    });
    // the suburb's addresses, as the export must list them (one row each)
    const expected = await db.query<{ gnaf_pid: string; parcel_pfi: string | null }>(
      `SELECT a.gnaf_pid, a.parcel_pfi FROM address.address_detail a JOIN address.locality l
         ON l.dataset = a.dataset AND l.locality_pid = a.locality_pid
       WHERE a.dataset = 'sandbox' AND l.locality_name = 'HUNTLY' AND a.state = 'VIC' AND a.geom IS NOT NULL
       ORDER BY a.gnaf_pid`,
    );
    expect(expected.length).toBeGreaterThan(0);
    // nothing claimed the job while the services were not up
    expect(whileWaiting).toMatchObject({ state: 'queued', attempts: 0, rowsDone: 0 });
    const enrichDone = await until(
      'a distributed worker to finish the enrich job once the services answer',
      async () => (await call('GET', `/v1/enrich/jobs/${enrichId}`)).json<{ job: Record<string, unknown> }>().job,
      (job) => FINAL.includes(job.state as string),
      { everyMs: 250 },
    );
    expect(enrichDone, `${standalone.log().slice(-3000)}\n${tail()}`).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      error: null,
    });
    expect(enrichDone.progress).toMatchObject({ rows_done: 5, rows_total: 5, rows: { matched: 4, no_match: 1 } });
    // from here the spawned worker is the only one
    standalone.child.kill('SIGTERM');
    await standalone.exited;

    const exported = await call('POST', '/v1/exports', {
      selection: { type: 'suburb', name: 'Huntly', state: 'VIC' },
      layers: EXPORT_LAYERS,
    });
    expect(exported.status, `${exported.text}\n${tail()}`).toBe(202);
    expect(exported.json()).toMatchObject({ requestedRows: expected.length, layers: EXPORT_LAYERS });
    const exportId = exported.json<{ jobId: string }>().jobId;

    const exportDone = await until(
      'the spawned worker to finish the export',
      async () => (await call('GET', `/v1/exports/${exportId}`)).json(),
      (body) => FINAL.includes(body.state as string),
      { everyMs: 250 },
    );
    expect(exportDone, tail()).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      error: null,
      rowsProcessed: expected.length,
      requestedRows: expected.length,
    });
    // the export's CSV: one row per address of the suburb, every layer answered over HTTP
    const result = await call('GET', `/v1/exports/${exportId}/result`);
    expect(result.status, result.text).toBe(200);
    expect(result.headers['content-type']).toMatch(/^text\/csv/);
    expect(result.headers['x-service-attribution']).toBeTruthy();
    const rows = parse<Record<string, string>>(result.text, { columns: true });
    expect(rows.map((r) => r.gnaf_pid).sort()).toEqual(expected.map((e) => e.gnaf_pid));
    const pfiOf = new Map(expected.map((e) => [e.gnaf_pid, e.parcel_pfi]));
    for (const row of rows) {
      expect(row).toMatchObject({ state: 'VIC', locality: 'HUNTLY' });
      for (const name of EXPORT_LAYERS) {
        const status = row[`${name}_status`]!;
        expect(ROW_STATUSES).toContain(status);
        // a subgraph that did not answer would show here as unavailable
        expect(status, `${name} of ${row.gnaf_pid}`).not.toBe('unavailable');
        if (status !== 'ok') for (const column of batchLayer(name)!.columns) expect(row[column]).toBe(status);
      }
      if (row.parcel_status === 'ok') expect(row.parcel_pfi).toBe(pfiOf.get(row.gnaf_pid!));
    }
    expect(rows.filter((r) => r.parcel_status === 'ok').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.planning_status === 'ok').length).toBeGreaterThan(0);

    const manifest = await call('GET', `/v1/exports/${exportId}/manifest`);
    expect(manifest.status, manifest.text).toBe(200);
    const m = manifest.json<{
      complete: boolean;
      attribution: string;
      identity: { credits: unknown[] };
      layers: { layer: string; credits: { attribution: string; license: string }[] }[];
    }>();
    expect(m.complete).toBe(true);
    expect(m.identity.credits.length).toBeGreaterThan(0);
    expect(m.layers.map((l) => l.layer)).toEqual(EXPORT_LAYERS);
    for (const layer of m.layers.filter((l) => l.layer !== 'soil')) {
      expect(layer.credits[0], layer.layer).toMatchObject({
        attribution: expect.any(String),
        license: expect.any(String),
      });
      expect(m.attribution).toContain(layer.credits[0]!.attribution);
    }

    // the enriched CSV: the input rows in order, each matched to its own address, the parcel bundle beside it
    const enriched = await call('GET', `/v1/enrich/jobs/${enrichId}/result`);
    expect(enriched.status, enriched.text).toBe(200);
    expect(enriched.headers['x-service-attribution']).toBeTruthy();
    const [header, ...out]: string[][] = parse(enriched.text);
    expect(header!.slice(0, 7)).toEqual([
      'ref',
      'Property Address',
      'match_status',
      'gnaf_pid',
      'matched_address',
      'lat',
      'lng',
    ]);
    const column = (name: string) => header!.indexOf(name);
    expect(out.map((r) => r[0])).toEqual(['R1', 'R2', 'R3', 'R4', 'R5']);
    addresses.forEach((a, i) => {
      const row = out[i]!;
      expect(row.slice(2, 5)).toEqual(['matched', a.gnaf_pid, a.address]);
      expect(row[column('parcel_status')]).toBe('ok');
      expect(row[column('parcel_pfi')]).toBe(a.parcel_pfi);
    });
    expect(out[4]![column('match_status')]).toBe('no_match');
    expect(out[4]![column('parcel_status')]).toBe('no_identifier');

    expectSpawnedDistributedWorker(served.log());
  });
});
