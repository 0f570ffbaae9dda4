import type { Config } from '../../core/config.ts';
import type { Dataset } from '../../core/context.ts';
import type { Database, QueryFn } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import type { Job } from '../jobs/engine.ts';
import { approveJob, jobOfAccount, jobRows, submitJob } from '../jobs/engine.ts';
import type { BatchLayer, Cell, LayerCells } from '../batch/layers.ts';
import { batchLayer, layerColumns, opensBatchLayer } from '../batch/layers.ts';
import { publishEventsWith } from '../webhooks/publish.ts';
import type { Upload } from './csv.ts';
import { readUpload, writeCsv } from './csv.ts';
import { MappingModel } from './llm.ts';
import type { Mapping } from './mapping.ts';
import { mappingGap, previewRows, proposeMapping, validateMapping } from './mapping.ts';
import type { MatchStatus, RowMatch } from './match.ts';
import { MATCH_STATUSES } from './match.ts';

export const ENRICH_KIND = 'enrich';

/** Spec 4.7: the bundles a row may be enriched with. */
export const ENRICH_BUNDLES = ['parcel', 'planning', 'hazards', 'demographics', 'market'] as const;
export type EnrichBundle = (typeof ENRICH_BUNDLES)[number];

/** What the job keeps in platform.job.input (the rows themselves are in platform.enrich_upload). */
export type EnrichInput = {
  bundles: EnrichBundle[];
  proposed_mapping: Mapping;
  mapping_source: 'heuristic' | 'llm';
  /** Set by approve only: the mapping the rows are read with, and whose data they may read. */
  mapping?: Mapping;
  dataset?: Dataset;
  scopes?: string[];
  approved_by?: string;
  approved_at?: string;
};

/** A credit of third-party data in a row (the address match's, each bundle's). */
export type RowCredit = { attribution: string | null; license: string | null };

/** One committed result row: the input cells, how the row was located, its bundles' status and cells. */
export type EnrichRow = RowMatch & { cells: string[]; bundles: Record<string, LayerCells>; credits: RowCredit[] };

/** The layers of the shared bulk row contract (platform/batch/layers.ts) that are the requested bundles. */
export function bundleLayers(bundles: readonly string[]): BatchLayer[] {
  return bundles.map((name) => {
    const layer = batchLayer(name);
    if (!layer) throw new Error(`no batch layer ${name}`);
    return layer;
  });
}

/**
 * A bundle whose data the key may not read is refused with the spec's words (403 `Missing scope:
 * <scope>`), at submit and again at approve: the rows read their bundles under the approving
 * key's own scopes, so a bundle the key cannot read would otherwise come back unavailable.
 */
function assertBundleScopes(bundles: readonly string[], scopes: readonly string[]): void {
  for (const layer of bundleLayers(bundles)) {
    if (!opensBatchLayer(scopes, layer)) {
      throw new AppError(
        'FORBIDDEN',
        `Missing scope: ${layer.scopes[0]}`,
        `The ${layer.name} bundle needs one of ${layer.scopes.join(', ')}; ask for it without that bundle, or with a key that holds the scope.`,
      );
    }
  }
}

/** The columns enrich appends after the input's, in order (renamed `<name>_enriched` on a clash). */
export const MATCH_COLUMNS = ['match_status', 'gnaf_pid', 'matched_address', 'lat', 'lng'] as const;

const models = new WeakMap<Config, MappingModel>();

/** The configured mapping model, one per configuration (its circuit is shared by every submit). */
function mappingModel(config: Config): MappingModel | null {
  if (!config.enrichLlm) return null;
  let model = models.get(config);
  if (!model) {
    model = new MappingModel(config.enrichLlm);
    models.set(config, model);
  }
  return model;
}

export type Submitter = { accountId: string; keyId: string; scopes: readonly string[] };

/**
 * Reads and checks the upload, proposes a mapping (the model's when one is configured and its
 * answer holds up, else the heuristics'), and stores the job awaiting approval: nothing runs
 * until approve. The awaiting_approval event commits with the job.
 */
export async function submitEnrich(
  db: Database,
  config: Config,
  who: Submitter,
  body: { csv: string; bundles: EnrichBundle[] },
) {
  assertBundleScopes(body.bundles, who.scopes);
  const upload = readUpload(body.csv);
  const heuristic = proposeMapping(upload);
  let proposal: { mapping: Mapping; source: 'heuristic' | 'llm'; notes: string[] } = heuristic;
  const model = mappingModel(config);
  if (model) {
    const answer = await model.propose(upload);
    proposal = answer.mapping
      ? { mapping: answer.mapping, source: 'llm', notes: [`proposed by ${model.label}`] }
      : { ...heuristic, notes: [...heuristic.notes, `the model's proposal was not used: ${answer.reason}`] };
  }
  const input: EnrichInput = {
    bundles: [...new Set(body.bundles)],
    proposed_mapping: proposal.mapping,
    mapping_source: proposal.source,
  };
  const job = await db.transaction(async (query) => {
    const submitted = await submitJob(
      db,
      {
        kind: ENRICH_KIND,
        accountId: who.accountId,
        keyId: who.keyId,
        input,
        awaitApproval: true,
        rowsTotal: upload.rows.length,
        maxAttempts: 5,
      },
      query,
    );
    await query(
      `INSERT INTO platform.enrich_upload (job_id, columns, rows, bytes) VALUES ($1, $2::jsonb, $3::jsonb, $4)`,
      [submitted.id, JSON.stringify(upload.columns), JSON.stringify(upload.rows), Buffer.byteLength(body.csv, 'utf8')],
    );
    await publishEventsWith(query, [
      {
        type: 'enrich.job.awaiting_approval',
        accountId: who.accountId,
        data: {
          job_id: submitted.id,
          rows_total: upload.rows.length,
          columns: upload.columns,
          bundles: input.bundles,
          proposed_mapping: proposal.mapping,
        },
      },
    ]);
    return submitted;
  });
  return {
    job,
    upload,
    proposal,
    gap: mappingGap(proposal.mapping),
    preview: previewRows(upload, proposal.mapping),
  };
}

/** The upload of an enrich job, while it is kept. */
export async function uploadOf(db: Database | { query: QueryFn }, jobId: string): Promise<Upload | null> {
  const [row] = await db.query<{ columns: string[]; rows: string[][] }>(
    `SELECT columns, rows FROM platform.enrich_upload WHERE job_id = $1`,
    [jobId],
  );
  return row ? { columns: row.columns, rows: row.rows } : null;
}

/** An enrich job of the account, or 404 (another account's, or another kind's, exactly as a missing one). */
export async function enrichJobOf(db: Database, accountId: string, id: string): Promise<Job> {
  const job = await jobOfAccount(db, accountId, id);
  if (job.kind !== ENRICH_KIND) {
    throw new AppError('NOT_FOUND', `No enrich job ${id}.`, 'A job is readable only by the account that created it.');
  }
  return job;
}

export type Approver = { accountId: string; keyId: string; dataset: Dataset; scopes: readonly string[] };

/**
 * The approve step (spec 3, gated flow 1): the caller's mapping, checked against the upload's
 * columns, or the proposal when the caller sends none; only now is the job queued. The approving
 * key's dataset and scopes are what the rows may read.
 */
export async function approveEnrich(
  db: Database,
  who: Approver,
  id: string,
  override: Record<string, unknown> | undefined,
) {
  const job = await enrichJobOf(db, who.accountId, id);
  if (job.state !== 'awaiting_approval') {
    throw new AppError('CONFLICT', `Enrich job ${id} is ${job.state}; only a job awaiting approval can be approved.`);
  }
  const input = job.input as EnrichInput;
  assertBundleScopes(input.bundles, who.scopes);
  const upload = await uploadOf(db, id);
  if (!upload) throw new AppError('CONFLICT', `Enrich job ${id} no longer holds its upload; submit the CSV again.`);
  let mapping: Mapping;
  if (override) {
    mapping = validateMapping(upload, override, 'mapping');
  } else {
    const gap = mappingGap(input.proposed_mapping);
    if (gap) {
      throw new AppError(
        'UNPROCESSABLE',
        `The proposed mapping cannot locate a row (${gap}); approve with a mapping of your own.`,
        `Send {"mapping": {"address": "<column>"}} or street with locality/postcode, or lat and lng. Columns: ${upload.columns.join(', ').slice(0, 500)}.`,
      );
    }
    mapping = input.proposed_mapping;
  }
  const patch: Partial<EnrichInput> = {
    mapping,
    dataset: who.dataset,
    scopes: [...who.scopes],
    approved_by: who.keyId,
    approved_at: new Date().toISOString(),
  };
  const approved = await approveJob(db, id, who.accountId, patch);
  return { job: approved, mapping, preview: previewRows(upload, mapping) };
}

/** Rows committed so far by how they were located. */
async function rowCounts(db: Database, jobId: string): Promise<Record<MatchStatus, number>> {
  const rows = await db.query<{ status: string; n: number }>(
    `SELECT data->>'match_status' AS status, count(*)::int AS n FROM platform.job_row WHERE job_id = $1 GROUP BY 1`,
    [jobId],
  );
  const counts = Object.fromEntries(MATCH_STATUSES.map((s) => [s, 0])) as Record<MatchStatus, number>;
  for (const row of rows) if (row.status in counts) counts[row.status as MatchStatus] = row.n;
  return counts;
}

/** The status answer: state, mapping, progress row by row, and the result's credit once done. */
export async function enrichStatus(db: Database, accountId: string, id: string) {
  const job = await enrichJobOf(db, accountId, id);
  const input = job.input as EnrichInput;
  const total = job.rowsTotal ?? 0;
  return {
    job: {
      id: job.id,
      state: job.state,
      bundles: input.bundles,
      proposed_mapping: input.proposed_mapping,
      mapping_source: input.mapping_source,
      mapping: input.mapping ?? null,
      progress: {
        rows_done: job.rowsDone,
        rows_total: total,
        percent: total === 0 ? 100 : Math.floor((job.rowsDone / total) * 1000) / 10,
        rows: await rowCounts(db, id),
      },
      attempts: job.attempts,
      error: job.error,
      result: job.state === 'succeeded' ? `/v1/enrich/jobs/${job.id}/result` : null,
      created_at: job.createdAt.toISOString(),
      approved_at: input.approved_at ?? null,
      started_at: job.startedAt?.toISOString() ?? null,
      finished_at: job.finishedAt?.toISOString() ?? null,
      expires_at: job.expiresAt?.toISOString() ?? null,
    },
    credit: creditOfResult(job),
  };
}

function creditOfResult(job: Job): { attribution: string; license: string } | null {
  const attribution = job.result?.attribution;
  const license = job.result?.license;
  return typeof attribution === 'string' && attribution && typeof license === 'string' && license
    ? { attribution, license }
    : null;
}

/**
 * The columns enrich appends, after the input's: the match columns, then each bundle's status and
 * data columns (the shared row contract). A name the input already uses gains `_enriched`.
 */
export function appendedColumns(columns: readonly string[], bundles: readonly string[]): string[] {
  const taken = new Set(columns.map((c) => c.toLowerCase()));
  const ours = [...MATCH_COLUMNS, ...bundleLayers(bundles).flatMap(layerColumns)];
  return ours.map((name) => (taken.has(name.toLowerCase()) ? `${name}_enriched` : name));
}

const cellText = (cell: Cell | undefined): string => (cell === null || cell === undefined ? '' : String(cell));

/** The enriched CSV; 409 until the job has succeeded. */
export async function enrichResult(db: Database, accountId: string, id: string) {
  const job = await enrichJobOf(db, accountId, id);
  if (job.state !== 'succeeded') {
    const why =
      job.state === 'expired'
        ? 'its result has expired (results are kept for a while after the job finishes)'
        : job.state === 'awaiting_approval'
          ? 'it awaits approval (POST /v1/enrich/jobs/{id}/approve)'
          : `it is ${job.state}`;
    throw new AppError(
      'CONFLICT',
      `Enrich job ${id} has no result: ${why}.`,
      'Poll GET /v1/enrich/jobs/{id} until its state is succeeded.',
    );
  }
  const input = job.input as EnrichInput;
  const columns = (job.result?.columns as string[] | undefined) ?? [];
  const layers = bundleLayers(input.bundles);
  const header = [...columns, ...appendedColumns(columns, input.bundles)];
  const rows = (await jobRows<EnrichRow>(db, id, { limit: 100_000 })).map(({ data }) => [
    ...data.cells,
    data.match_status,
    cellText(data.gnaf_pid),
    cellText(data.matched_address),
    cellText(data.lat),
    cellText(data.lng),
    ...layers.flatMap((layer) => {
      const bundle = data.bundles[layer.name];
      return bundle ? [bundle.status, ...bundle.cells.map(cellText)] : layerColumns(layer).map(() => 'unavailable');
    }),
  ]);
  return { csv: writeCsv(header, rows), credit: creditOfResult(job), rows: rows.length };
}
