import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaRecord } from '../cli/ingest/development-formats.ts';
import { upsertApplications } from '../cli/ingest/development.ts';
import type { Config } from '../core/config.ts';
import type { Database } from '../core/db.ts';
import { JobRegistry, JobWorker } from '../platform/jobs/worker.ts';
import {
  DEFAULT_RETRY_SCHEDULE_MS,
  closeDeliveryAgents,
  retryDelay,
  webhookDeliveryHandler,
} from '../platform/webhooks/deliver.ts';
import { WebhookStore } from '../platform/webhooks/endpoints.ts';
import type { Resolver } from '../platform/webhooks/ssrf.ts';
import { publishEvent, publishEvents, queueKeyOf } from '../platform/webhooks/publish.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';
import type { TestRuntime } from './support/runtime.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Received = { path: string; headers: Record<string, string>; body: string };

/** A local HTTPS receiver with a self-signed certificate made now; each path answers as told. */
class Receiver {
  server!: Server;
  port = 0;
  certFile = '';
  received: Received[] = [];
  answer = new Map<string, number>();

  async start(): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'landgraph-webhook-'));
    this.certFile = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        this.certFile,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    this.server = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(this.certFile) },
      (req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        req.on('end', () => {
          const status = this.answer.get(req.url ?? '') ?? 200;
          if (status < 300) {
            this.received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body });
          }
          res.writeHead(status).end();
        });
      },
    );
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }
}

/** What a receiver does: verify with the stock library from the DESIGN.md §4 headers, refuse a reused id. */
function receiverCheck(secret: string, seen: Set<string>) {
  const wh = new Webhook(secret);
  return (headers: Record<string, string>, body: string): unknown => {
    const id = headers['x-service-webhook-id']!;
    const verified = wh.verify(body, {
      'webhook-id': id,
      'webhook-timestamp': headers['x-service-webhook-timestamp']!,
      'webhook-signature': headers['x-service-signature']!,
    });
    if (seen.has(id)) throw new Error('replayed delivery (id seen before)');
    seen.add(id);
    return verified;
  };
}

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

let t: TestRuntime;
let db: Database;
let config: Config;
let receiver: Receiver;
let store: WebhookStore;
let worker: JobWorker;

beforeAll(async () => {
  t = await testRuntime();
  db = t.runtime.db;
  receiver = new Receiver();
  await receiver.start();
  config = testConfig({
    LANDGRAPH_WEBHOOK_ALLOW_LOOPBACK: '1',
    LANDGRAPH_WEBHOOK_CA_FILE: receiver.certFile,
    // compressed: six retries 120 ms apart instead of about a day
    LANDGRAPH_WEBHOOK_RETRY_SCHEDULE_MS: '120,120,120,120,120,120',
    LANDGRAPH_WEBHOOK_TIMEOUT_MS: '2000',
    LANDGRAPH_JOB_POLL_MS: '30',
    LANDGRAPH_JOB_LEASE_MS: '5000',
  });
  store = new WebhookStore(db, config);
  worker = await new JobWorker(db, new JobRegistry().register(webhookDeliveryHandler), config, {
    concurrency: 3,
    sweepEveryMs: null,
  }).start();
});

afterAll(async () => {
  await worker?.stop();
  closeDeliveryAgents();
  receiver?.server.close();
});

describe('endpoint registration', () => {
  const fake =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses non-https URLs and private, loopback, link-local and ULA targets (every resolved address)', async () => {
    const strict = { ...config, webhookAllowLoopback: false };
    const refused: [string, Resolver | undefined][] = [
      ['http://example.com/hook', fake('93.184.216.34')],
      ['ftp://example.com/hook', undefined],
      ['https://user:pw@example.com/hook', fake('93.184.216.34')],
      ['https://127.0.0.1/hook', undefined],
      ['https://[::1]/hook', undefined],
      ['https://10.1.2.3/hook', undefined],
      ['https://169.254.169.254/latest', undefined],
      ['https://[fe80::1]/hook', undefined],
      ['https://[fd12:3456::1]/hook', undefined],
      ['https://[::ffff:192.168.1.1]/hook', undefined],
      ['https://internal.example/hook', fake('172.20.0.4')],
      ['https://mixed.example/hook', fake('93.184.216.34', '192.168.0.10')],
      ['https://v6.example/hook', fake('2606:4700::1111', 'fc00::5')],
      ['https://localhost/hook', fake('127.0.0.1', '::1')],
    ];
    for (const [url, resolver] of refused) {
      const s = new WebhookStore(db, strict, resolver);
      await expect(s.create('acct-wh', { url, events: ['export.job.completed'] }), url).rejects.toMatchObject({
        status: 400,
      });
    }
    const ok = new WebhookStore(db, strict, fake('93.184.216.34', '2606:4700::1111'));
    const { endpoint } = await ok.create('acct-wh', {
      url: 'https://hooks.example/in',
      events: ['export.job.completed'],
    });
    expect(endpoint.status).toBe('active');
    // loopback only where the test setting allows it
    await expect(
      store.create('acct-wh', { url: receiver.url('/x'), events: ['export.job.completed'] }),
    ).resolves.toBeTruthy();
    await expect(
      store.create('acct-wh', { url: 'https://10.0.0.1/x', events: ['export.job.completed'] }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('refuses unknown events and filters on events that take none', async () => {
    await expect(
      store.create('acct-wh', { url: receiver.url('/e'), events: ['nope.thing.done'] }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      store.create('acct-wh', {
        url: receiver.url('/e'),
        events: ['export.job.completed'],
        filters: { lga_code: 'X' },
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      store.create('acct-wh', {
        url: receiver.url('/e'),
        events: ['development_application.updated'],
        filters: { bbox: [145, -37, 144, -36] },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('shows the secret once over HTTP, keeps events on rotation, and 404s another account', async () => {
    const key = await createTestKey(t.runtime, { account: 'acct-wh-http' });
    const other = await createTestKey(t.runtime, { account: 'acct-wh-other' });
    const auth = { Authorization: `Bearer ${key}` };
    const created = await request(t.app)
      .post('/v1/webhooks/endpoints')
      .set(auth)
      .send({
        url: 'https://93.184.216.34/hook',
        events: ['development_application.updated'],
        filters: { lga_code: '24600' },
      });
    expect(created.status).toBe(201);
    const id = created.body.endpoint.id as string;
    expect(created.body.secret).toMatch(/^whsec_/);
    const shown = await request(t.app).get(`/v1/webhooks/endpoints/${id}`).set(auth);
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).not.toContain(created.body.secret);
    const listed = await request(t.app).get('/v1/webhooks/endpoints').set(auth);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
    expect((listed.body as { endpoints: { id: string }[] }).endpoints.map((e) => e.id)).toContain(id);

    const rotated = await request(t.app).post(`/v1/webhooks/endpoints/${id}/rotate-secret`).set(auth);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(rotated.body.endpoint.events).toEqual(['development_application.updated']);
    expect(rotated.body.endpoint.filters).toEqual({ lga_code: '24600' });

    expect(
      (
        await request(t.app)
          .get(`/v1/webhooks/endpoints/${id}`)
          .set({ Authorization: `Bearer ${other}` })
      ).status,
    ).toBe(404);
    expect(
      (
        await request(t.app)
          .delete(`/v1/webhooks/endpoints/${id}`)
          .set({ Authorization: `Bearer ${other}` })
      ).status,
    ).toBe(404);
    const refused = await request(t.app)
      .post('/v1/webhooks/endpoints')
      .set(auth)
      .send({ url: 'https://127.0.0.1/hook', events: ['export.job.completed'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/url/);
    const noScope = await createTestKey(t.runtime, { account: 'acct-wh-http', scopes: ['cadastre.read'] });
    const forbidden = await request(t.app)
      .get('/v1/webhooks/endpoints')
      .set({ Authorization: `Bearer ${noScope}` });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('Missing scope: webhooks.manage');
    expect((await request(t.app).delete(`/v1/webhooks/endpoints/${id}`).set(auth)).status).toBe(200);
    expect((await request(t.app).get(`/v1/webhooks/endpoints/${id}`).set(auth)).status).toBe(404);
  });
});

describe('signed deliveries', () => {
  it('signs in the DESIGN.md §4 headers; a receiver verifies with standardwebhooks and refuses replays', async () => {
    const key = await createTestKey(t.runtime, { account: 'acct-wh-sign' });
    const { endpoint, secret } = await store.create('acct-wh-sign', {
      url: receiver.url('/signed'),
      events: ['export.job.completed'],
    });
    // the test route, as a caller would use it
    const test = await request(t.app)
      .post(`/v1/webhooks/endpoints/${endpoint.id}/test`)
      .set({ Authorization: `Bearer ${key}` });
    expect(test.status).toBe(202);
    await until('the test event', async () => receiver.at('/signed').length === 1);
    const [delivery] = receiver.at('/signed');
    const receive = receiverCheck(secret, new Set());
    const event = receive(delivery!.headers, delivery!.body) as { type: string; id: string };
    expect(event.type).toBe('webhook.endpoint.test');
    expect(delivery!.headers['x-service-webhook-id']).toBe(event.id);
    expect(delivery!.headers['x-service-signature']).toMatch(/^v1,/);
    // the same delivery again: refused as a replay
    expect(() => receive(delivery!.headers, delivery!.body)).toThrow(/replayed/);
    // a tampered body fails the signature
    expect(() => receiverCheck(secret, new Set())(delivery!.headers, delivery!.body.replace('test', 'tset'))).toThrow();
    // an old timestamp (a captured delivery re-sent later) is refused by the library's tolerance
    const old = new Date(Date.now() - 10 * 60_000);
    const oldHeaders = {
      'x-service-webhook-id': 'evt_old',
      'x-service-webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
      'x-service-signature': new Webhook(secret).sign('evt_old', old, delivery!.body),
    };
    expect(() => receiverCheck(secret, new Set())(oldHeaders, delivery!.body)).toThrow(/too old/i);
    // after rotation the old secret no longer verifies new deliveries
    const rotated = await store.rotate(endpoint.id, 'acct-wh-sign');
    expect(rotated.endpoint.events).toEqual(['export.job.completed']);
    await publishEvent(db, { type: 'export.job.completed', accountId: 'acct-wh-sign', data: { job_id: 'job_x' } });
    await until('the second event', async () => receiver.at('/signed').length === 2);
    const second = receiver.at('/signed')[1]!;
    expect(() => receiverCheck(secret, new Set())(second.headers, second.body)).toThrow();
    expect(receiverCheck(rotated.secret, new Set())(second.headers, second.body)).toMatchObject({
      type: 'export.job.completed',
    });
    // the log line commits with the job's completion, a moment after the receiver has answered
    await until('two log lines', async () => (await store.deliveries(endpoint.id)).length === 2);
    const log = await store.deliveries(endpoint.id, 'acct-wh-sign');
    expect(log.map((l) => l.status)).toEqual(['delivered', 'delivered']);
    expect(log[0]).toMatchObject({ http_status: 200, attempt: 1, event_type: 'export.job.completed' });
    expect((await store.get(endpoint.id)).lastDeliveryAt).not.toBeNull();
  });

  it('retries with backoff while the receiver is down and delivers every event once it is back, in order', async () => {
    const path = '/flaky';
    receiver.answer.set(path, 503);
    const { endpoint, secret } = await store.create('acct-wh-flaky', {
      url: receiver.url(path),
      events: ['export.job.completed'],
    });
    const published = [];
    for (let i = 1; i <= 4; i++)
      published.push({ type: 'export.job.completed' as const, accountId: 'acct-wh-flaky', data: { n: i } });
    await publishEvents(db, published);
    await until('two failed attempts', async () => {
      const log = await store.deliveries(endpoint.id);
      return log.filter((l) => l.status === 'failed').length >= 2;
    });
    expect((await store.get(endpoint.id)).status).toBe('failing');
    // while the first event is failing, no later one was tried: order per endpoint
    const whileDown = await store.deliveries(endpoint.id);
    expect(new Set(whileDown.map((l) => l.event_id)).size).toBe(1);
    expect(whileDown.every((l) => l.http_status === 503)).toBe(true);
    receiver.answer.delete(path);
    await until('all four delivered', async () => receiver.at(path).length >= 4);
    await sleep(200);
    const got = receiver.at(path);
    expect(got).toHaveLength(4);
    const receive = receiverCheck(secret, new Set());
    expect(got.map((r) => (receive(r.headers, r.body) as { data: { n: number } }).data.n)).toEqual([1, 2, 3, 4]);
    await until('the endpoint active again', async () => (await store.get(endpoint.id)).status === 'active');
    // the first event (n = 1) failed twice, then went through: its log holds attempts up to at least 3.
    // Found by its id, not by its place in the log: a batch's successes are recorded in one statement.
    const firstEventId = got[0]!.headers['webhook-id'];
    const log = await store.deliveries(endpoint.id);
    const first = log.filter((l) => l.event_id === firstEventId).map((l) => Number(l.attempt));
    expect(Math.max(...first)).toBeGreaterThanOrEqual(3);
  });

  it('disables an endpoint that fails for the whole window, gives up its waiting events and keeps the log', async () => {
    const path = '/down';
    receiver.answer.set(path, 500);
    const { endpoint } = await store.create('acct-wh-down', { url: receiver.url(path), events: ['export.job.failed'] });
    await publishEvents(db, [
      { type: 'export.job.failed', accountId: 'acct-wh-down', data: { n: 1 } },
      { type: 'export.job.failed', accountId: 'acct-wh-down', data: { n: 2 } },
    ]);
    await until('the endpoint disabled', async () => (await store.get(endpoint.id)).status === 'disabled');
    // the disable and the failing delivery's last record are two transactions (a re-claimed delivery
    // may disable the endpoint before it records itself failed): wait for the queue to settle
    await until('its deliveries settled', async () => {
      const [open] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM platform.job WHERE queue_key = $1 AND state IN ('queued', 'running')`,
        [queueKeyOf(endpoint.id)],
      );
      return open!.n === 0;
    });
    const log = await store.deliveries(endpoint.id, undefined, { limit: 200 });
    // 1 + six retries for the first event, then both given up
    expect(log.filter((l) => l.status === 'failed')).toHaveLength(6);
    expect(log.filter((l) => l.status === 'given_up')).toHaveLength(2);
    const jobs = await db.query<{ state: string }>(`SELECT state FROM platform.job WHERE queue_key = $1 ORDER BY seq`, [
      queueKeyOf(endpoint.id),
    ]);
    expect(jobs.map((j) => j.state)).toEqual(['failed', 'cancelled']);
    // a disabled endpoint gets no new deliveries
    expect(await publishEvent(db, { type: 'export.job.failed', accountId: 'acct-wh-down', data: {} })).toBe(0);
    expect(receiver.at(path)).toHaveLength(0);
  });

  it('spreads the default schedule over about a day, with jitter', () => {
    const total = DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20 * 3_600_000);
    expect(total).toBeLessThan(32 * 3_600_000);
    expect(retryDelay(1, DEFAULT_RETRY_SCHEDULE_MS, () => 0)).toBe(4_000);
    expect(retryDelay(1, DEFAULT_RETRY_SCHEDULE_MS, () => 1)).toBe(6_000);
    expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS.length + 1, DEFAULT_RETRY_SCHEDULE_MS)).toBeNull();
  });
});

describe('development_application.updated filters', () => {
  it('fans out only to endpoints whose lga_code or bbox matches', async () => {
    const event = 'development_application.updated' as const;
    const lga = await store.create('acct-wh-da', {
      url: receiver.url('/da-lga'),
      events: [event],
      filters: { lga_code: 'LGA-T1' },
    });
    const box = await store.create('acct-wh-da', {
      url: receiver.url('/da-box'),
      events: [event],
      filters: { bbox: [144.0, -37.0, 145.0, -36.0] },
    });
    const count = async (id: string) =>
      (
        await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM platform.job WHERE queue_key = $1`, [
          queueKeyOf(id),
        ])
      )[0]!.n;
    await publishEvent(db, {
      type: event,
      data: { id: 'da1' },
      attributes: { lga_code: 'LGA-T1', lng: 150, lat: -33 },
    });
    await publishEvent(db, {
      type: event,
      data: { id: 'da2' },
      attributes: { lga_code: 'LGA-T2', lng: 144.5, lat: -36.5 },
    });
    await publishEvent(db, {
      type: event,
      data: { id: 'da3' },
      attributes: { lga_code: 'LGA-T9', lng: 150, lat: -33 },
    });
    expect(await count(lga.endpoint.id)).toBe(1);
    expect(await count(box.endpoint.id)).toBe(1);
    await until(
      'both delivered',
      async () => receiver.at('/da-lga').length === 1 && receiver.at('/da-box').length === 1,
    );
    expect(JSON.parse(receiver.at('/da-lga')[0]!.body).data.id).toBe('da1');
    expect(JSON.parse(receiver.at('/da-box')[0]!.body).data.id).toBe('da2');
  });

  it('is published by the DA ingest for the rows it wrote, and only those', async () => {
    const LGA = 'WHDA-LGA';
    await db.query(`DELETE FROM development.application WHERE dataset = 'live' AND lga_code = ANY($1)`, [
      [LGA, 'WHDA-OTHER'],
    ]);
    const { endpoint } = await store.create('acct-wh-ingest', {
      url: receiver.url('/da-ingest'),
      events: ['development_application.updated'],
      filters: { lga_code: LGA },
    });
    const record = (n: number, lga: string, status: DaRecord['status'] = 'lodged'): DaRecord => ({
      seq: n,
      source: 'nsw-portal',
      authority: 'Webhook Test Council',
      council_reference: `WH/${n}`,
      state: 'NSW',
      lga_code: lga,
      lga_name: 'WEBHOOK TEST',
      suburb: 'HOOKVILLE',
      address: `${n} Hook Street, Hookville NSW 2000 (test)`,
      description: 'Alterations (test)',
      category: 'alterations',
      status,
      lodged_date: '2025-01-01',
      decided_date: null,
      estimated_cost: 1000,
      dwellings_proposed: null,
      source_url: null,
      attribution: 'Webhook test credit',
      license: 'CC BY 4.0',
      updated_at: '2025-01-01T00:00:00.000Z',
      lng: 151 + n / 1000,
      lat: -33.8,
    });
    const write = (records: DaRecord[]) => db.transaction((query) => upsertApplications(query, 'live', records));
    const queued = async () =>
      (
        await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM platform.job WHERE queue_key = $1`, [
          queueKeyOf(endpoint.id),
        ])
      )[0]!.n;
    await write([record(1, LGA), record(2, LGA), record(3, 'WHDA-OTHER')]);
    expect(await queued()).toBe(2);
    // the same file again changes nothing, so nothing is published
    await write([record(1, LGA), record(2, LGA), record(3, 'WHDA-OTHER')]);
    expect(await queued()).toBe(2);
    await write([record(2, LGA, 'approved')]);
    expect(await queued()).toBe(3);
    await until('three DA events', async () => receiver.at('/da-ingest').length === 3);
    const bodies = receiver.at('/da-ingest').map((r) => JSON.parse(r.body) as { data: Record<string, unknown> });
    expect(bodies.map((b) => [b.data.council_reference, b.data.change, b.data.status])).toEqual([
      ['WH/1', 'created', 'lodged'],
      ['WH/2', 'created', 'lodged'],
      ['WH/2', 'updated', 'approved'],
    ]);
    expect(bodies[0]!.data).toMatchObject({ lga_code: LGA, dataset: 'live', location: { lat: -33.8, lng: 151.001 } });
  });
});
