import type { Dataset } from '../../core/context.ts';
import type { Database, QueryFn } from '../../core/db.ts';
import { submitJob } from '../jobs/engine.ts';
import type { Job } from '../jobs/engine.ts';
import type { LayerCredit } from '../batch/layers.ts';
import { monthOf } from '../usage.ts';

export const EXPORT_KIND = 'export';

/** A selection as submitted (spec 4.7); an address list's texts go to the targets, not here. */
export type ExportSelection =
  | { type: 'suburb'; name: string; state: string }
  | { type: 'lga'; name: string; state: string }
  | { type: 'area'; polygon: unknown }
  | { type: 'addresses'; addresses: number };

/** What the export job reads from its input. */
export type ExportInput = {
  layers: string[];
  /** The key's scopes at submit: the layers were chosen by them, and the rows are read under them. */
  scopes: string[];
  dataset: Dataset;
  selectionType: ExportSelection['type'];
  requestedRows: number;
};

export type ExportRecord = {
  jobId: string;
  accountId: string;
  keyId: string;
  month: string;
  selection: ExportSelection;
  layers: string[];
  layersOmitted: string[];
  header: string[];
  requestedRows: number;
  chargedRows: number;
  createdAt: Date;
};

type ExportRow = {
  job_id: string;
  account_id: string;
  key_id: string;
  month: string;
  selection: ExportSelection;
  layers: string[];
  layers_omitted: string[];
  header: string[];
  requested_rows: number;
  charged_rows: number;
  created_at: Date | string;
};

const toRecord = (row: ExportRow): ExportRecord => ({
  jobId: row.job_id,
  accountId: row.account_id,
  keyId: row.key_id,
  month: row.month,
  selection: row.selection,
  layers: row.layers,
  layersOmitted: row.layers_omitted,
  header: row.header,
  requestedRows: row.requested_rows,
  chargedRows: row.charged_rows,
  createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
});

/** The allowance of a key this month: what it may receive, what it has used and what remains. */
export type Allowance = { month: string; allowance: number; used: number; remaining: number };

/**
 * Rows charged to a key in a month: each export's requested rows from its submission; once it
 * failed (settleExport) or was cancelled, only the rows it delivered.
 */
async function usedRows(run: QueryFn, keyId: string, month: string): Promise<number> {
  const [row] = await run<{ used: string | number | null }>(
    `SELECT COALESCE(sum(CASE WHEN j.state = 'cancelled' THEN LEAST(j.rows_done, e.charged_rows) ELSE e.charged_rows END), 0)::bigint AS used
     FROM platform.export e JOIN platform.job j ON j.id = e.job_id WHERE e.key_id = $1 AND e.month = $2`,
    [keyId, month],
  );
  return Number(row?.used ?? 0);
}

export async function allowanceOf(
  db: Database,
  key: { id: string; exportRowsMonthly: number | null },
  defaultAllowance: number,
  at = new Date(),
): Promise<Allowance> {
  const month = monthOf(at);
  const allowance = key.exportRowsMonthly ?? defaultAllowance;
  const used = await usedRows((sql, params) => db.query(sql, params), key.id, month);
  return { month, allowance, used, remaining: Math.max(0, allowance - used) };
}

/** One row the export will write: a G-NAF PID, or an address as given (matched when the job reaches it). */
export type ExportTarget = { gnafPid: string | null; inputAddress: string | null };

export type CreateExport = {
  accountId: string;
  key: { id: string; exportRowsMonthly: number | null };
  defaultAllowance: number;
  selection: ExportSelection;
  layers: string[];
  layersOmitted: string[];
  header: string[];
  targets: readonly ExportTarget[];
  input: ExportInput;
};

/** The export was refused because it would take more rows than the month has left. */
export class AllowanceExceeded extends Error {
  constructor(readonly allowance: Allowance) {
    super('export row allowance exhausted');
  }
}

/**
 * Submits an export: the allowance check, the export record, its targets and the job in one
 * transaction. The key's row is locked first, so two exports of one key submitted together are
 * checked one after the other and cannot both spend the same remaining rows.
 */
export async function createExport(db: Database, spec: CreateExport): Promise<Job> {
  return db.transaction(async (query) => {
    await query(`SELECT id FROM platform.api_key WHERE id = $1 FOR UPDATE`, [spec.key.id]);
    const month = monthOf(new Date());
    const allowance = spec.key.exportRowsMonthly ?? spec.defaultAllowance;
    const used = await usedRows(query, spec.key.id, month);
    const remaining = Math.max(0, allowance - used);
    if (spec.targets.length > remaining) throw new AllowanceExceeded({ month, allowance, used, remaining });
    const job = await submitJob(
      db,
      {
        kind: EXPORT_KIND,
        accountId: spec.accountId,
        keyId: spec.key.id,
        input: spec.input,
        rowsTotal: spec.targets.length,
        maxAttempts: 5,
      },
      query,
    );
    await query(
      `INSERT INTO platform.export (job_id, account_id, key_id, month, selection, layers, layers_omitted, header,
         requested_rows, charged_rows)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::text[], $7::text[], $8::text[], $9, $9)`,
      [
        job.id,
        spec.accountId,
        spec.key.id,
        month,
        JSON.stringify(spec.selection),
        spec.layers,
        spec.layersOmitted,
        spec.header,
        spec.targets.length,
      ],
    );
    await query(
      `INSERT INTO platform.export_target (job_id, n, gnaf_pid, input_address)
       SELECT $1, t.n, t.gnaf_pid, t.input_address
       FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(gnaf_pid, input_address, n)`,
      [job.id, spec.targets.map((t) => t.gnafPid), spec.targets.map((t) => t.inputAddress)],
    );
    return job;
  });
}

/** The export record of a job of the account, or null (another account's, or not an export). */
export async function exportOfAccount(db: Database, accountId: string, jobId: string): Promise<ExportRecord | null> {
  const [row] = await db.query<ExportRow>(
    `SELECT job_id, account_id, key_id, month, selection, layers, layers_omitted, header, requested_rows, charged_rows,
       created_at FROM platform.export WHERE job_id = $1 AND account_id = $2`,
    [jobId, accountId],
  );
  return row ? toRecord(row) : null;
}

export async function exportOfJob(db: Database, jobId: string): Promise<ExportRecord | null> {
  const [row] = await db.query<ExportRow>(
    `SELECT job_id, account_id, key_id, month, selection, layers, layers_omitted, header, requested_rows, charged_rows,
       created_at FROM platform.export WHERE job_id = $1`,
    [jobId],
  );
  return row ? toRecord(row) : null;
}

/** Targets after row `after`, in order: the job's next batch. */
export async function exportTargets(
  db: Database,
  jobId: string,
  after: number,
  limit: number,
): Promise<(ExportTarget & { n: number })[]> {
  const rows = await db.query<{ n: number; gnaf_pid: string | null; input_address: string | null }>(
    `SELECT n, gnaf_pid, input_address FROM platform.export_target WHERE job_id = $1 AND n > $2 ORDER BY n LIMIT $3`,
    [jobId, after, limit],
  );
  return rows.map((r) => ({ n: r.n, gnafPid: r.gnaf_pid, inputAddress: r.input_address }));
}

/** Adds the credits a batch read to the export's manifest; idempotent, so a batch read twice adds nothing. */
export async function recordCredits(
  db: Database,
  jobId: string,
  credits: readonly (LayerCredit & { layer: string })[],
): Promise<void> {
  const kept = credits.filter((c) => c.attribution || c.license || c.source);
  if (kept.length === 0) return;
  await db.query(
    `INSERT INTO platform.export_credit AS c (job_id, layer, attribution, license, source, freshness_min, freshness_max)
     SELECT $1, t.layer, t.attribution, t.license, t.source, min(t.freshness), max(t.freshness)
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(layer, attribution, license, source, freshness)
     GROUP BY t.layer, t.attribution, t.license, t.source
     ON CONFLICT (job_id, layer, attribution, license, source) DO UPDATE SET
       freshness_min = LEAST(c.freshness_min, EXCLUDED.freshness_min),
       freshness_max = GREATEST(c.freshness_max, EXCLUDED.freshness_max)`,
    [
      jobId,
      kept.map((c) => c.layer),
      kept.map((c) => c.attribution ?? ''),
      kept.map((c) => c.license ?? ''),
      kept.map((c) => c.source ?? ''),
      kept.map((c) => c.freshness),
    ],
  );
}

export type ManifestCredit = {
  layer: string;
  attribution: string;
  license: string;
  source: string;
  freshnessMin: string | null;
  freshnessMax: string | null;
};

export async function exportCredits(db: Database, jobId: string): Promise<ManifestCredit[]> {
  const rows = await db.query<{
    layer: string;
    attribution: string;
    license: string;
    source: string;
    freshness_min: string | null;
    freshness_max: string | null;
  }>(
    `SELECT layer, attribution, license, source, freshness_min, freshness_max FROM platform.export_credit
     WHERE job_id = $1 ORDER BY layer, attribution, license, source`,
    [jobId],
  );
  return rows.map((r) => ({
    layer: r.layer,
    attribution: r.attribution,
    license: r.license,
    source: r.source,
    freshnessMin: r.freshness_min,
    freshnessMax: r.freshness_max,
  }));
}

/** At the job's end: the targets are spent; a failed export is charged only the rows it delivered. */
export async function settleExport(run: QueryFn, jobId: string, failed: boolean): Promise<void> {
  await run(`DELETE FROM platform.export_target WHERE job_id = $1`, [jobId]);
  if (failed) {
    await run(
      `UPDATE platform.export e SET charged_rows = j.rows_done FROM platform.job j WHERE e.job_id = $1 AND j.id = e.job_id`,
      [jobId],
    );
  }
}
