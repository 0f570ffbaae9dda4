/**
 * Enrich bench (spec 4.7, target: 2,000 rows in under 30 s): one job of 2,000 sandbox addresses,
 * submitted, approved and run by one in-process worker (embedded graph) on the bench's PostgreSQL
 * (or, with --embedded, on PGlite in this process), without bundles and with all five. Reports the wall time of the run from claim to succeeded.
 * Bounded: a fixed number of rows, one job per run, loopback database only.
 *
 *   node --import tsx bench/enrich.ts [--rows 2000] [--runs 1] [--embedded]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRuntime } from '../app/runtime.ts';
import { loadConfig } from '../core/config.ts';
import { setLogLevel } from '../core/logger.ts';
import { ALL_SCOPES } from '../core/scopes.ts';
import { enrichHandler } from '../platform/enrich/handler.ts';
import type { EnrichBundle } from '../platform/enrich/jobs.ts';
import { ENRICH_BUNDLES, approveEnrich, submitEnrich } from '../platform/enrich/jobs.ts';
import { getJob } from '../platform/jobs/engine.ts';
import { JobRegistry, JobWorker } from '../platform/jobs/worker.ts';
import { DEFAULT_BENCH_DATABASE_URL, prepareBenchDatabase } from './database.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '1' },
    embedded: { type: 'boolean', default: false },
  },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
setLogLevel('warn');

// --embedded: the embedded default (PGlite in this process, a throwaway data folder seeded at start)
const url = values.embedded ? undefined : (process.env.BENCH_DATABASE_URL ?? `${DEFAULT_BENCH_DATABASE_URL}_enrich`);
const dataDir = values.embedded ? mkdtempSync(join(tmpdir(), 'landgraph-bench-enrich-')) : undefined;
const config = loadConfig({
  ...process.env,
  DATABASE_URL: url,
  ...(dataDir === undefined ? {} : { LANDGRAPH_DATA_DIR: dataDir }),
  LANDGRAPH_LOG_LEVEL: 'warn',
});
if (url !== undefined) await prepareBenchDatabase(url, config.sandboxSeed, undefined);
const runtime = await startRuntime(config);
try {
  const { key } = await runtime.keys.create({
    name: 'bench-enrich',
    kind: 'test',
    scopes: [...ALL_SCOPES],
    account: 'bench-enrich',
  });
  const addresses = await runtime.db.query<{ address: string }>(
    `SELECT formatted_address AS address FROM address.address_detail WHERE dataset = 'sandbox' ORDER BY gnaf_pid LIMIT $1`,
    [ROWS],
  );
  const csv = ['ref,Property Address', ...addresses.map((a, i) => `R${i + 1},"${a.address}"`)].join('\n');
  const lines: string[] = [];
  for (const bundles of [[], [...ENRICH_BUNDLES]] as EnrichBundle[][]) {
    for (let run = 0; run < RUNS; run++) {
      const submitted = await submitEnrich(
        runtime.db,
        config,
        { accountId: key.accountId, keyId: key.id, scopes: key.scopes },
        { csv, bundles },
      );
      await approveEnrich(
        runtime.db,
        { accountId: key.accountId, keyId: key.id, dataset: 'sandbox', scopes: key.scopes },
        submitted.job.id,
        undefined,
      );
      const worker = new JobWorker(runtime.db, new JobRegistry().register(enrichHandler), config, {
        sweepEveryMs: null,
        graph: runtime.graph,
      });
      const started = performance.now();
      await worker.runOnce();
      const seconds = (performance.now() - started) / 1000;
      const job = (await getJob(runtime.db, submitted.job.id))!;
      const rows = job.result?.rows as Record<string, number>;
      const line = `| ${addresses.length} | ${bundles.length === 0 ? 'none' : bundles.join(', ')} | ${seconds.toFixed(1)} s | ${((seconds * 1000) / addresses.length).toFixed(1)} ms | ${job.state}, ${rows?.matched ?? 0} matched |`;
      lines.push(line);
      process.stdout.write(`${line}\n`);
    }
  }
  process.stdout.write(
    `\n| rows | bundles | run (claim to succeeded) | per row | outcome |\n|---|---|---|---|---|\n${lines.join('\n')}\n`,
  );
} finally {
  await runtime.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
}
