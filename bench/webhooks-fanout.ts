/**
 * Webhook fan-out bench (issue 14): 1,000 events to 10 endpoints, delivered by one worker to a
 * local HTTPS receiver; reports how long after the last event the last delivery arrived (target:
 * within 10 s). On DATABASE_URL, or a throwaway embedded database. Bounded: loopback only, a
 * fixed number of events, everything it starts is stopped at the end.
 *
 *   node --import tsx bench/webhooks-fanout.ts [--events 1000] [--endpoints 10] [--concurrency 10] [--backlog]
 *
 * --backlog publishes every event before the worker starts, so the whole fan-out is delivered after
 * the last event (the drain of a standing backlog) instead of alongside the publishing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db.ts';
import { setLogLevel } from '../core/logger.ts';
import { migrate } from '../core/migrate.ts';
import { JobRegistry, JobWorker } from '../platform/jobs/worker.ts';
import { closeDeliveryAgents, webhookDeliveryHandler } from '../platform/webhooks/deliver.ts';
import { WebhookStore } from '../platform/webhooks/endpoints.ts';
import { publishEvent } from '../platform/webhooks/publish.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    endpoints: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '10' },
    backlog: { type: 'boolean', default: false },
  },
});
const EVENTS = Number(values.events);
const ENDPOINTS = Number(values.endpoints);
setLogLevel('warn');

const dir = mkdtempSync(join(tmpdir(), 'landgraph-bench-webhooks-'));
execFileSync(
  'openssl',
  [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'],
    ...['-addext', 'subjectAltName=IP:127.0.0.1'],
  ],
  { stdio: 'ignore' },
);
const seen = new Map<string, number>();
let lastArrival = 0;
const server = createServer(
  { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
  (req, res) => {
    req.resume();
    req.on('end', () => {
      seen.set(req.url ?? '', (seen.get(req.url ?? '') ?? 0) + 1);
      lastArrival = Date.now();
      res.writeHead(204).end();
    });
  },
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as { port: number }).port;

const config = {
  ...loadConfig({
    ...process.env,
    LANDGRAPH_DATA_DIR: process.env.DATABASE_URL ? dir : join(dir, 'data'),
    LANDGRAPH_WEBHOOK_ALLOW_LOOPBACK: '1',
    LANDGRAPH_WEBHOOK_CA_FILE: join(dir, 'cert.pem'),
    LANDGRAPH_JOB_POLL_MS: '50',
    LANDGRAPH_WEBHOOK_SECRET_KEY: 'bench',
  }),
};
const db = await openDatabase(config);
try {
  await migrate(db);
  const account = `bench-${Date.now()}`;
  const store = new WebhookStore(db, config);
  for (let i = 0; i < ENDPOINTS; i++) {
    await store.create(account, { url: `https://127.0.0.1:${port}/ep${i}`, events: ['export.job.completed'] });
  }
  const startWorker = () =>
    new JobWorker(db, new JobRegistry().register(webhookDeliveryHandler), config, {
      concurrency: Number(values.concurrency),
      sweepEveryMs: null,
    }).start();
  const early = values.backlog ? null : await startWorker();
  const started = Date.now();
  for (let n = 1; n <= EVENTS; n++) {
    await publishEvent(db, { type: 'export.job.completed', accountId: account, data: { n } });
  }
  const published = Date.now();
  const worker = early ?? (await startWorker());
  const expected = EVENTS * ENDPOINTS;
  const deadline = published + 120_000;
  const total = () => [...seen.values()].reduce((a, b) => a + b, 0);
  while (total() < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await worker.stop();
  closeDeliveryAgents();
  const report = {
    database: db.kind,
    backlog: values.backlog,
    events: EVENTS,
    endpoints: ENDPOINTS,
    deliveries: total(),
    expected,
    publish_ms: published - started,
    last_delivery_after_last_event_ms: Math.max(0, lastArrival - published),
    total_ms: lastArrival - started,
    within_10s: total() === expected && lastArrival - published <= 10_000,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  // the bench's own rows go again
  await db.query(`DELETE FROM platform.job WHERE account_id = $1`, [account]);
  await db.query(
    `DELETE FROM platform.webhook_delivery WHERE endpoint_id IN (SELECT id FROM platform.webhook_endpoint WHERE account_id = $1)`,
    [account],
  );
  await db.query(`DELETE FROM platform.webhook_endpoint WHERE account_id = $1`, [account]);
} finally {
  await db.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
