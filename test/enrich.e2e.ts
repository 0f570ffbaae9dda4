import type { ChildProcess } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import { getJob } from '../platform/jobs/engine.ts';
import type { TestRuntime } from './support/runtime.ts';
import { startWorkerProcess, until } from './support/worker-process.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

const LEASE_MS = 1_500;
const ROWS = 600;

describe('an enrich job whose worker is killed', () => {
  let t: TestRuntime;
  let db: Database;
  let config: Config;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    t = await testRuntime();
    db = t.runtime.db;
    config = testConfig();
  });

  afterAll(() => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  });

  it('is finished by another worker process, and every row appears exactly once in the CSV', async () => {
    const key = await createTestKey(t.runtime, { account: 'acct-enrich-e2e' });
    const addresses = await db.query<{ gnaf_pid: string; address: string }>(
      `SELECT gnaf_pid, formatted_address AS address FROM address.address_detail
       WHERE dataset = 'sandbox' ORDER BY gnaf_pid LIMIT $1`,
      [ROWS],
    );
    expect(addresses).toHaveLength(ROWS);
    const csv = ['ref,Property Address', ...addresses.map((a, i) => `R${i + 1},"${a.address}"`)].join('\n');
    const submitted = await request(t.app)
      .post('/v1/enrich/jobs')
      .set('Authorization', `Bearer ${key}`)
      .send({ csv, bundles: ['parcel'] });
    expect(submitted.status, submitted.text).toBe(202);
    const id = (submitted.body as { job: { id: string } }).job.id;
    const approved = await request(t.app)
      .post(`/v1/enrich/jobs/${id}/approve`)
      .set('Authorization', `Bearer ${key}`)
      .send({});
    expect(approved.status, approved.text).toBe(202);

    const first = startWorkerProcess(config, { leaseMs: LEASE_MS });
    workers.push(first.child);
    await until(
      'the first worker to commit a batch',
      async () => (await getJob(db, id))!,
      (j) => j.rowsDone >= 50,
      { everyMs: 50 },
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = (await getJob(db, id))!;
    expect(atKill.state).toBe('running');
    expect(atKill.rowsDone).toBeLessThan(ROWS);

    const second = startWorkerProcess(config, { leaseMs: LEASE_MS });
    workers.push(second.child);
    const done = await until(
      'the second worker to finish the job',
      async () => (await getJob(db, id))!,
      (j) => j.state === 'succeeded' || j.state === 'failed',
      { everyMs: 50 },
    );
    second.child.kill('SIGTERM');
    await second.exited;
    expect(done.state, done.error ?? '').toBe('succeeded');
    expect(done.attempts).toBe(2);
    expect(done.rowsDone).toBe(ROWS);

    const result = await request(t.app).get(`/v1/enrich/jobs/${id}/result`).set('Authorization', `Bearer ${key}`);
    expect(result.status).toBe(200);
    const [header, ...rows] = parse(result.text);
    expect(header!.slice(0, 3)).toEqual(['ref', 'Property Address', 'match_status']);
    expect(rows).toHaveLength(ROWS);
    expect(rows.map((r) => r[0])).toEqual(addresses.map((_, i) => `R${i + 1}`));
    expect(new Set(rows.map((r) => r[0])).size).toBe(ROWS);
    // each row is its own input's: the matched address of a row is the address it was given
    const matched = rows.filter((r) => r[2] === 'matched');
    expect(matched.length).toBeGreaterThan(ROWS * 0.9);
    for (const r of matched) expect(r[4]).toBe(r[1]);
    // metered once per row, by whichever worker completed the job
    const [usage] = await db.query<{ calls: string }>(
      `SELECT sum(u.calls)::text AS calls FROM platform.usage_monthly u JOIN platform.api_key k ON k.id = u.key_id
       WHERE k.account_id = 'acct-enrich-e2e' AND u.route_group = 'enrich-rows'`,
    );
    expect(Number(usage!.calls)).toBe(ROWS);
  });
});
