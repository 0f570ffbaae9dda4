import type { RequestScope } from '../../core/context.ts';
import type { QueryFn } from '../../core/db.ts';
import type { Job } from '../jobs/engine.ts';
import type { GraphExecutor, JobHandler } from '../jobs/worker.ts';
import type { BatchLayer } from '../batch/layers.ts';
import type { BatchRead } from '../batch/read.ts';
import { readBatch } from '../batch/read.ts';
import { layerCells, layerCredit } from '../batch/layers.ts';
import { meterWith } from '../usage.ts';
import { publishEventsWith } from '../webhooks/publish.ts';
import type { EnrichInput, EnrichRow } from './jobs.ts';
import { ENRICH_KIND, bundleLayers, uploadOf } from './jobs.ts';
import { matchInputOf } from './mapping.ts';
import type { RowMatch } from './match.ts';
import { MATCH_STATUSES, mapLimit, matchRow } from './match.ts';

/** Rows committed together (with the job's progress, exactly once). */
export const ENRICH_BATCH_ROWS = 50;
/** Rows matched at once inside a batch: the matcher waits on the database, so a few overlap well. */
const MATCH_CONCURRENCY = 8;
/** The usage group an enrich job's rows are metered under: one call per input row, at completion. */
export const ENRICH_METER_GROUP = 'enrich-rows';

async function summaryOf(query: QueryFn, jobId: string) {
  const counts = await query<{ status: string; n: number }>(
    `SELECT data->>'match_status' AS status, count(*)::int AS n FROM platform.job_row WHERE job_id = $1 GROUP BY 1`,
    [jobId],
  );
  const rows = Object.fromEntries(MATCH_STATUSES.map((s) => [s, 0])) as Record<string, number>;
  for (const c of counts) rows[c.status] = c.n;
  const credits = await query<{ attribution: string; license: string | null }>(
    `SELECT DISTINCT c->>'attribution' AS attribution, c->>'license' AS license
     FROM platform.job_row r CROSS JOIN LATERAL jsonb_array_elements(r.data->'credits') c
     WHERE r.job_id = $1 AND c->>'attribution' IS NOT NULL ORDER BY 1, 2`,
    [jobId],
  );
  return {
    rows,
    attribution: [...new Set(credits.map((c) => c.attribution))].join(' | ') || null,
    license: [...new Set(credits.map((c) => c.license).filter(Boolean))].join(' | ') || null,
  };
}

/** The scope a job's graph calls run under: the approving key's dataset and scopes, and the matcher's grant. */
export function jobScope(job: Job): RequestScope {
  const input = job.input as EnrichInput;
  return {
    dataset: input.dataset ?? 'sandbox',
    requestId: `enrich:${job.id}`,
    scopes: [...(input.scopes ?? []), 'internal:bulk-rows'],
  };
}

/** The bundles of a batch's matched rows: one graph operation for the batch (each address once). */
async function readBundles(
  graph: GraphExecutor,
  scope: RequestScope,
  matches: readonly RowMatch[],
  layers: readonly BatchLayer[],
): Promise<Map<string, BatchRead>> {
  const reads = new Map<string, BatchRead>();
  if (layers.length === 0) return reads;
  const pids = [...new Set(matches.flatMap((m) => (m.gnaf_pid ? [m.gnaf_pid] : [])))];
  const answers = await readBatch(graph, scope, pids, layers);
  pids.forEach((pid, i) => reads.set(pid, answers[i]!));
  return reads;
}

async function finished(query: QueryFn, job: Job, data: Record<string, unknown>): Promise<void> {
  await publishEventsWith(query, [{ type: 'enrich.job.completed', accountId: job.accountId, data }]);
  // every input cell is in the result rows now (or the job has failed for good): the upload goes
  await query(`DELETE FROM platform.enrich_upload WHERE job_id = $1`, [job.id]);
}

/**
 * Runs an approved enrich job: each row located through the graph's address matcher, in batches
 * committed with the job's progress (a worker that dies is resumed from the last committed row by
 * another, and no row is written twice). The rows are metered, the completion event published and
 * the upload dropped in the transaction that marks the job succeeded.
 */
export const enrichHandler: JobHandler = {
  kind: ENRICH_KIND,
  async run(job, ctx) {
    const input = job.input as EnrichInput;
    const mapping = input.mapping;
    if (!mapping || !input.dataset) throw new Error(`enrich job ${job.id} was queued without an approved mapping`);
    const upload = await uploadOf(ctx.db, job.id);
    if (!upload) throw new Error(`the upload of enrich job ${job.id} is gone`);
    const graph = ctx.graph();
    const scope = jobScope(job);
    const layers = bundleLayers(input.bundles);
    const total = upload.rows.length;
    let done = job.rowsDone;
    while (done < total) {
      await ctx.checkpoint();
      const slice = upload.rows.slice(done, done + ENRICH_BATCH_ROWS);
      const matches = await mapLimit(slice, MATCH_CONCURRENCY, (row) =>
        matchRow(graph, scope, matchInputOf(upload, mapping, row)),
      );
      const reads = await readBundles(graph, scope, matches, layers);
      const rows: EnrichRow[] = slice.map((cells, i) => {
        const match = matches[i]!;
        const read = match.gnaf_pid ? reads.get(match.gnaf_pid) : undefined;
        const bundles = Object.fromEntries(
          layers.map((layer) => [
            layer.name,
            layerCells(layer, read?.property ?? null, read?.failedFields.has(layer.field)),
          ]),
        );
        const credits = [
          { attribution: match.attribution, license: match.license },
          ...layers.flatMap((layer) => {
            const credit = layerCredit(layer, read?.property ?? null);
            return credit?.attribution ? [{ attribution: credit.attribution, license: credit.license }] : [];
          }),
        ].filter((c) => c.attribution);
        return { ...match, cells, bundles, credits };
      });
      done = await ctx.commitRows(rows, total);
    }
    const summary = await summaryOf((sql, params) => ctx.db.query(sql, params), job.id);
    ctx.onComplete(async (query) => {
      if (job.keyId) await meterWith(query, job.keyId, ENRICH_METER_GROUP, total);
      await finished(query, job, {
        job_id: job.id,
        state: 'succeeded',
        rows_total: total,
        rows: summary.rows,
        result: `/v1/enrich/jobs/${job.id}/result`,
      });
    });
    return {
      rows_total: total,
      rows: summary.rows,
      columns: upload.columns,
      bundles: input.bundles,
      metered_rows: total,
      attribution: summary.attribution,
      license: summary.license,
    };
  },
  async onGiveUp(job, error, { db }) {
    await db.transaction((query) =>
      finished(query, job, { job_id: job.id, state: 'failed', error, rows_done: job.rowsDone }),
    );
  },
};
