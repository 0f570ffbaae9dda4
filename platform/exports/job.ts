import type { RequestScope } from '../../core/context.ts';
import type { QueryFn } from '../../core/db.ts';
import { MAX_PROPERTY_BATCH } from '../../core/limits.ts';
import type { BatchLayer, Cell, LayerCredit } from '../batch/layers.ts';
import { batchLayer, identityCredit, layerCredit, rowCells, unavailableRow } from '../batch/layers.ts';
import { bulkScope, readBatch } from '../batch/read.ts';
import type { Job } from '../jobs/engine.ts';
import type { GraphExecutor, JobContext, JobHandler } from '../jobs/worker.ts';
import { publishEventsWith } from '../webhooks/publish.ts';
import type { ExportInput } from './store.ts';
import { EXPORT_KIND, exportTargets, recordCredits, settleExport } from './store.ts';

/**
 * Properties per batch: one graph operation and one committed batch of rows each. The most the
 * batch root reads at once: measured on PostgreSQL, 500 properties with every layer cost about
 * what 250 do (each layer's statement is mostly fixed cost), so 25,000 rows are 50 operations
 * (docs/benchmarks.md).
 */
export const EXPORT_BATCH = MAX_PROPERTY_BATCH;

/** The manifest's name for the identity columns' credit (gnaf_pid, address, locality, ...). */
export const IDENTITY_LAYER = 'address';

/** Batches read at once ahead of the one committing (measured: docs/benchmarks.md). */
const READ_AHEAD = 2;

/** Address texts matched per graph operation (aliases of matchAddress; the operation limit is 30). */
const MATCHES_PER_OPERATION = 25;

/** The key stopped being allowed to export after it submitted: the job fails without retrying. */
class ExportRefused extends Error {}

/** Jobs (the claimed objects) whose attempt was refused, so retryDelayMs gives up on them at once. */
const refused = new WeakSet<Job>();

/** The key must still be active and hold bulk_export when the job runs (docs/notes-export.md). */
async function assertKeyStillExports(ctx: JobContext, job: Job): Promise<void> {
  const [key] = await ctx.db.query<{ status: string; capabilities: string[] }>(
    `SELECT status, capabilities FROM platform.api_key WHERE id = $1`,
    [job.keyId],
  );
  if (!key || key.status !== 'active')
    throw new ExportRefused(`the key that submitted the export is ${key?.status ?? 'gone'}`);
  if (!key.capabilities.includes('bulk_export'))
    throw new ExportRefused('the key that submitted the export no longer holds bulk_export');
}

/** What matching one address text gave: its PID, nothing that clears the match floor, or a failure (a stage over budget). */
type Matched = string | null | typeof MATCH_FAILED;
const MATCH_FAILED = Symbol('match failed');

/** G-NAF PIDs of address texts, through the graph's matcher. */
async function matchAddresses(graph: GraphExecutor, scope: RequestScope, texts: readonly string[]): Promise<Matched[]> {
  const pids: Matched[] = [];
  for (let start = 0; start < texts.length; start += MATCHES_PER_OPERATION) {
    const chunk = texts.slice(start, start + MATCHES_PER_OPERATION);
    const variables = Object.fromEntries(chunk.map((text, i) => [`q${i}`, text]));
    const operation = `query ExportMatch(${chunk.map((_, i) => `$q${i}: String!`).join(', ')}) {
      ${chunk.map((_, i) => `m${i}: matchAddress(q: $q${i}, grades: any) { status match { address { gnaf_pid } } }`).join('\n')} }`;
    const result = await graph.execute<
      Record<string, { status: string; match: { address: { gnaf_pid: string } } | null } | null>
    >(operation, variables, bulkScope(scope));
    if (!result.data) throw new Error(`address matching failed: ${result.errors?.[0]?.message}`);
    // A text the matcher refused as bad input is unmatched (no_identifier); one whose lookup failed is unavailable.
    const failed = new Set(
      (result.errors ?? [])
        .filter((e) => e.extensions?.code !== 'BAD_REQUEST')
        .map((e) => e.path?.[0])
        .filter((alias): alias is string => typeof alias === 'string'),
    );
    for (const [i] of chunk.entries()) {
      const answer = result.data[`m${i}`];
      if (failed.has(`m${i}`)) pids.push(MATCH_FAILED);
      else pids.push(answer?.status === 'matched' ? (answer.match?.address.gnaf_pid ?? null) : null);
    }
  }
  return pids;
}

/** One batch of rows: the targets' PIDs (matched first for an address list) read through the graph. */
async function batchRows(
  ctx: JobContext,
  scope: RequestScope,
  layers: readonly BatchLayer[],
  targets: { gnafPid: string | null; inputAddress: string | null }[],
  addressList: boolean,
): Promise<{ rows: Cell[][]; credits: (LayerCredit & { layer: string })[] }> {
  const graph = ctx.graph();
  const pids = addressList
    ? await matchAddresses(
        graph,
        scope,
        targets.map((t) => t.inputAddress ?? ''),
      )
    : targets.map((t) => t.gnafPid);
  const known = [...new Set(pids.filter((p): p is string => typeof p === 'string'))];
  const reads = await readBatch(graph, scope, known, layers);
  const byPid = new Map(known.map((pid, i) => [pid, reads[i]!]));
  const credits: (LayerCredit & { layer: string })[] = [];
  for (const read of reads) {
    const identity = identityCredit(read.property);
    if (identity) credits.push({ ...identity, layer: IDENTITY_LAYER });
    for (const layer of layers) {
      const credit = read.failedFields.has(layer.field) ? null : layerCredit(layer, read.property);
      if (credit) credits.push({ ...credit, layer: layer.name });
    }
  }
  const rows = targets.map((target, i) => {
    const pid = pids[i];
    const read = typeof pid === 'string' ? byPid.get(pid) : undefined;
    const { cells } =
      pid === MATCH_FAILED || read?.failed
        ? unavailableRow(layers)
        : rowCells(layers, read?.property ?? null, read?.failedFields);
    return addressList ? [target.inputAddress, ...cells] : cells;
  });
  return { rows, credits };
}

async function startExport(job: Job, ctx: JobContext, input: ExportInput): Promise<BatchLayer[]> {
  await assertKeyStillExports(ctx, job);
  return input.layers.map((name) => {
    const layer = batchLayer(name);
    if (!layer) throw new ExportRefused(`unknown layer ${name}`);
    return layer;
  });
}

/**
 * The export job: reads its targets in batches from the last committed row, each batch through
 * the graph under the scopes the key had at submit, and commits the batch's rows with the job's
 * progress (exactly once: a resumed job starts after the last committed row).
 */
export const exportJobHandler: JobHandler = {
  kind: EXPORT_KIND,
  async run(job, ctx) {
    const input = job.input as ExportInput;
    const layers = await startExport(job, ctx, input).catch((error: unknown) => {
      if (error instanceof ExportRefused) refused.add(job);
      throw error;
    });
    const scope: RequestScope = { dataset: input.dataset, requestId: `export:${job.id}`, scopes: input.scopes };
    const addressList = input.selectionType === 'addresses';
    let done = job.rowsDone;
    // Batches are read READ_AHEAD at a time while they commit one by one, in order: the graph's
    // work (this process) and the database's (its own cores) overlap. Targets are numbered 1..N,
    // so batch k covers (done + k*EXPORT_BATCH, done + (k+1)*EXPORT_BATCH]. A read-ahead lost to a
    // crash is simply read again from the last committed row.
    const read = async (after: number) => {
      const targets = await exportTargets(ctx.db, job.id, after, EXPORT_BATCH);
      if (targets.length === 0) return null;
      return batchRows(ctx, scope, layers, targets, addressList);
    };
    const pending: ReturnType<typeof read>[] = [];
    let nextAfter = done;
    const readNext = () => {
      const reading = read(nextAfter);
      // a failed read surfaces when it is awaited, not as an unhandled rejection meanwhile
      reading.catch(() => undefined);
      pending.push(reading);
      nextAfter += EXPORT_BATCH;
    };
    while (pending.length < READ_AHEAD) readNext();
    for (;;) {
      await ctx.checkpoint();
      const batch = await pending.shift()!;
      if (!batch) break;
      readNext();
      // credits first: idempotent, so a crash before the rows commit only repeats them
      await recordCredits(ctx.db, job.id, batch.credits);
      done = await ctx.commitRows(batch.rows, input.requestedRows);
    }
    const result = { rows: done, layers: input.layers, csv: `/v1/exports/${job.id}/result` };
    ctx.onComplete(async (query) => {
      await settleExport(query, job.id, false);
      await publishEventsWith(query, [
        {
          type: 'export.job.completed',
          accountId: job.accountId,
          data: {
            job_id: job.id,
            rows: done,
            result: `/v1/exports/${job.id}/result`,
            manifest: `/v1/exports/${job.id}/manifest`,
          },
        },
      ]);
    });
    return result;
  },
  retryDelayMs(job) {
    if (refused.has(job)) return null;
    return job.attempts >= job.maxAttempts ? null : Math.min(2 ** job.attempts * 1_000, 60_000);
  },
  async onGiveUp(job, error, { db }) {
    await db.transaction(async (query: QueryFn) => {
      await settleExport(query, job.id, true);
      await publishEventsWith(query, [
        {
          type: 'export.job.failed',
          accountId: job.accountId,
          data: { job_id: job.id, rows_done: job.rowsDone, error },
        },
      ]);
    });
  },
};
