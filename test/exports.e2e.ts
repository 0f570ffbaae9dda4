import type { ChildProcess } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import { getJob } from '../platform/jobs/engine.ts';
import { EXPORT_BATCH } from '../platform/exports/job.ts';
import { testConfig, testRuntime } from './support/runtime.ts';
import { startWorkerProcess, until } from './support/worker-process.ts';
import type { TestRuntime } from './support/runtime.ts';

const LEASE_MS = 3_000;

describe('an export whose worker is killed mid-job', () => {
  let t: TestRuntime;
  let db: Database;
  let config: Config;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    config = testConfig();
  });

  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  });

  it('is finished by another worker process, and its CSV has every address of the selection exactly once', async () => {
    const { secret } = await t.runtime.keys.create({
      name: 'export-e2e',
      kind: 'test',
      scopes: ['cadastre.read', 'planning.read', 'soil.read', 'locality.read'],
      capabilities: ['bulk_export'],
      account: 'acct-export-e2e',
      rateLimitPerMinute: 10_000,
    });
    // every VIC address of the sandbox: an area over the state's addresses
    const [box] = await db.query<{ w: number; s: number; e: number; n: number }>(
      `SELECT ST_XMin(e) w, ST_YMin(e) s, ST_XMax(e) e, ST_YMax(e) n FROM
        (SELECT ST_Extent(geom) e FROM address.address_detail WHERE dataset = 'sandbox' AND state = 'VIC') t`,
    );
    const [w, s, e, n] = [box!.w - 0.001, box!.s - 0.001, box!.e + 0.001, box!.n + 0.001];
    const polygon = {
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
    };
    const expected = await db.query<{ gnaf_pid: string }>(
      `SELECT gnaf_pid FROM address.address_detail WHERE dataset = 'sandbox' AND geom IS NOT NULL
         AND ST_Intersects(geom, ST_MakeEnvelope($1, $2, $3, $4, 4326)) ORDER BY gnaf_pid`,
      [w, s, e, n],
    );
    // enough rows for several batches, so the kill lands between them
    expect(expected.length).toBeGreaterThan(EXPORT_BATCH * 3);

    const submitted = await request(t.app)
      .post('/v1/exports')
      .set('Authorization', `Bearer ${secret}`)
      .send({ selection: { type: 'area', polygon }, layers: ['parcel', 'planning', 'soil', 'demographics'] });
    expect(submitted.status).toBe(202);
    expect(submitted.body.requestedRows).toBe(expected.length);
    const id = submitted.body.jobId as string;

    const first = startWorkerProcess(config, { leaseMs: LEASE_MS });
    workers.push(first.child);
    await until(
      'the first worker to commit a batch',
      async () => (await getJob(db, id))!,
      (j) => j.rowsDone >= EXPORT_BATCH,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = (await getJob(db, id))!;
    expect(atKill.state).toBe('running');
    expect(atKill.rowsDone).toBeLessThan(expected.length);

    const second = startWorkerProcess(config, { leaseMs: LEASE_MS });
    workers.push(second.child);
    const done = await until(
      'the second worker to finish the export',
      async () => (await getJob(db, id))!,
      (j) => j.state === 'succeeded' || j.state === 'failed',
    );
    second.child.kill('SIGTERM');
    await second.exited;
    expect(done.state).toBe('succeeded');
    expect(done.error).toBeNull();
    // the second worker's claim came after the kill; a lease that lapsed under load may add one more (docs/notes-export.md)
    expect(done.attempts).toBeGreaterThan(atKill.attempts);
    expect(done.rowsDone).toBe(expected.length);

    const res = await request(t.app)
      .get(`/v1/exports/${id}/result`)
      .set('Authorization', `Bearer ${secret}`)
      .buffer(true)
      .parse((r, callback) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => (text += chunk));
        r.on('end', () => callback(null, text));
      });
    expect(res.status).toBe(200);
    const rows = parse<Record<string, string>>(res.body as string, { columns: true });
    expect(rows).toHaveLength(expected.length);
    // every address once, in the selection's order, whichever worker wrote it
    expect(rows.map((r) => r.gnaf_pid)).toEqual(expected.map((r) => r.gnaf_pid));
    expect(rows.every((r) => r.parcel_status && r.soil_status && r.demographics_status)).toBe(true);
  });
});
