/**
 * Bulk export bench (P9): how long a 25,000-row export takes, from the job's first batch to its
 * last committed row, and how long its CSV takes to download; plus the largest real selection the
 * sandbox holds (one area over every address) through POST /v1/exports. One worker, in process,
 * on the embedded graph. The sandbox holds fewer than 25,000 addresses, so the 25,000-row export
 * is the sandbox's G-NAF PIDs in order, repeated until the count is reached (each batch still
 * reads 250 distinct properties through propertiesByGnafPids): the same work per row as a real
 * selection of that size. On DATABASE_URL (prepared and seeded if new), or the embedded default.
 *
 *   node --import tsx bench/export.ts [--rows 25000]
 */
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startRuntime } from '../app/runtime.ts';
import { loadConfig } from '../core/config.ts';
import { setLogLevel } from '../core/logger.ts';
import { ALL_SCOPES } from '../core/scopes.ts';
import { BATCH_LAYERS, batchHeader } from '../platform/batch/layers.ts';
import { EXPORT_BATCH, exportJobHandler } from '../platform/exports/job.ts';
import { createExport } from '../platform/exports/store.ts';
import { getJob } from '../platform/jobs/engine.ts';
import { JobRegistry, JobWorker } from '../platform/jobs/worker.ts';
import { createApp } from '../rest-facade/app.ts';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '25000' } } });
const ROWS = Number(values.rows);
if (!Number.isInteger(ROWS) || ROWS < 1 || ROWS > 25_000) throw new Error('--rows must be 1..25000');
setLogLevel('warn');

const config = loadConfig();
const runtime = await startRuntime(config);
const server = createApp(runtime).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const worker = new JobWorker(runtime.db, new JobRegistry().register(exportJobHandler), config, {
  sweepEveryMs: null,
  concurrency: 1,
  graph: runtime.graph,
});

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** Runs the export; its wall time, and this process's CPU time (the graph's share, whatever else loads the machine). */
async function runExport(jobId: string): Promise<number> {
  const started = Date.now();
  const cpu = process.cpuUsage();
  await worker.runOnce();
  const used = process.cpuUsage(cpu);
  const job = await getJob(runtime.db, jobId);
  if (job?.state !== 'succeeded') throw new Error(`export ${jobId} ended ${job?.state}: ${job?.error}`);
  const wall = Date.now() - started;
  console.log(
    `  ${job.rowsDone} rows: wall ${seconds(wall)} s, this process's CPU ${seconds((used.user + used.system) / 1000)} s, ` +
      `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
  );
  return wall;
}

async function download(secret: string, jobId: string): Promise<{ ms: number; bytes: number; lines: number }> {
  const started = Date.now();
  const res = await fetch(`${base}/v1/exports/${jobId}/result`, { headers: { Authorization: `Bearer ${secret}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`download answered ${res.status}`);
  return { ms: Date.now() - started, bytes: text.length, lines: text.split('\n').filter(Boolean).length };
}

try {
  const { key, secret } = await runtime.keys.create({
    name: 'bench-export',
    kind: 'test',
    scopes: [...ALL_SCOPES],
    capabilities: ['bulk_export'],
    account: `bench-export-${Date.now()}`,
    exportRowsMonthly: 1_000_000,
    rateLimitPerMinute: 100_000,
  });
  const pids = (
    await runtime.db.query<{ gnaf_pid: string }>(
      `SELECT gnaf_pid FROM address.address_detail WHERE dataset = 'sandbox' AND geom IS NOT NULL ORDER BY gnaf_pid`,
    )
  ).map((r) => r.gnaf_pid);
  const layers = BATCH_LAYERS.map((l) => l.name);
  console.log(
    `${runtime.db.kind}: ${pids.length} sandbox addresses; batches of ${EXPORT_BATCH}; every layer (${layers.length})`,
  );

  // 1. the largest real selection: one area over every sandbox address, through the route
  const extent = (
    await runtime.db.query<{ w: number; s: number; e: number; n: number }>(
      `SELECT ST_XMin(e) - 0.01 w, ST_YMin(e) - 0.01 s, ST_XMax(e) + 0.01 e, ST_YMax(e) + 0.01 n
       FROM (SELECT ST_Extent(geom) e FROM address.address_detail WHERE dataset = 'sandbox') t`,
    )
  )[0]!;
  const ring = [
    [extent.w, extent.s],
    [extent.e, extent.s],
    [extent.e, extent.n],
    [extent.w, extent.n],
    [extent.w, extent.s],
  ];
  const submitStarted = Date.now();
  const submitted = await fetch(`${base}/v1/exports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ selection: { type: 'area', polygon: { type: 'Polygon', coordinates: [ring] } } }),
  });
  const submitMs = Date.now() - submitStarted;
  const body = (await submitted.json()) as { jobId: string; requestedRows: number };
  if (submitted.status !== 202) throw new Error(`submit answered ${submitted.status}: ${JSON.stringify(body)}`);
  const areaMs = await runExport(body.jobId);
  const areaCsv = await download(secret, body.jobId);
  console.log(
    `area over the whole sandbox: ${body.requestedRows} rows; submit ${submitMs} ms; job ${seconds(areaMs)} s ` +
      `(${Math.round(body.requestedRows / (areaMs / 1000))} rows/s); CSV ${areaCsv.lines - 1} rows, ` +
      `${(areaCsv.bytes / 1e6).toFixed(1)} MB in ${areaCsv.ms} ms`,
  );

  // 2. 25,000 rows: the PIDs repeated to the count
  const targets = Array.from({ length: ROWS }, (_, i) => ({ gnafPid: pids[i % pids.length]!, inputAddress: null }));
  const job = await createExport(runtime.db, {
    accountId: key.accountId,
    key,
    defaultAllowance: config.exportRowsMonthly,
    selection: { type: 'addresses', addresses: ROWS },
    layers,
    layersOmitted: [],
    header: batchHeader(BATCH_LAYERS),
    targets,
    input: { layers, scopes: [...ALL_SCOPES], dataset: 'sandbox', selectionType: 'area', requestedRows: ROWS },
  });
  const bigMs = await runExport(job.id);
  const bigCsv = await download(secret, job.id);
  console.log(
    `${ROWS} rows: job ${seconds(bigMs)} s (${Math.round(ROWS / (bigMs / 1000))} rows/s, target under 60 s: ` +
      `${bigMs < 60_000 ? 'met' : 'missed'}); CSV ${bigCsv.lines - 1} rows, ${(bigCsv.bytes / 1e6).toFixed(1)} MB in ${bigCsv.ms} ms`,
  );
} finally {
  await worker.stop();
  server.close();
  await runtime.close();
}
