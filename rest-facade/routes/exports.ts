import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { MAX_EXPORT_ADDRESSES, MAX_EXPORT_PROPERTIES } from '../../core/limits.ts';
import { withGrant } from '../../core/scopes.ts';
import type { AuthenticatedKey } from '../../platform/keys.ts';
import {
  BATCH_LAYERS,
  IDENTITY_COLUMNS,
  NON_EXPORTABLE,
  ROW_STATUSES,
  batchHeader,
  batchLayer,
  layerColumns,
  opensBatchLayer,
} from '../../platform/batch/layers.ts';
import type { BatchLayer } from '../../platform/batch/layers.ts';
import { SAFE_CSV_OPTIONS, safeCsvRecord, safeCsvText } from '../../platform/batch/csv-safe.ts';
import { IDENTITY_LAYER } from '../../platform/exports/job.ts';
import type { ExportRecord, ExportSelection, ExportTarget, ManifestCredit } from '../../platform/exports/store.ts';
import {
  AllowanceExceeded,
  allowanceOf,
  createExport,
  exportCredits,
  exportOfAccount,
} from '../../platform/exports/store.ts';
import type { Job } from '../../platform/jobs/engine.ts';
import { jobOfAccount, jobRows } from '../../platform/jobs/engine.ts';
import { unwrap } from '../graph-result.ts';
import { stateParam } from '../params.ts';
import type { Credit, RouteContext, RouteResponse } from '../route.ts';
import { defineRoute } from '../route.ts';
import { jobId } from './jobs.ts';
import { combineCredits } from './property.ts';

/** Rows read from the job's committed rows per statement while the CSV streams. */
const CSV_PAGE = 2_000;
const INPUT_ADDRESS = 'input_address';
const TAG = 'Bulk Export';

/** The spec's refusals carry a machine-readable `code` beside the plain error shape (DESIGN.md §4). */
function refusal(
  status: number,
  code: string,
  error: string,
  extra: Record<string, unknown> = {},
  hint?: string,
): RouteResponse {
  return { status, body: { success: false, code, error, ...(hint ? { hint } : {}), ...extra } };
}

const canExport = (key: AuthenticatedKey) => key.capabilities.includes('bulk_export');

const placeName = z
  .string({ error: 'name must be text.' })
  .trim()
  .min(1, { error: 'name must not be empty.' })
  .max(100, {
    error: 'name must be at most 100 characters.',
  });
const position = z
  .array(z.number({ error: 'polygon positions are [lng, lat] numbers.' }))
  .min(2)
  .max(3);

const selectionSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('suburb'), name: placeName, state: stateParam }),
    z.strictObject({ type: z.literal('lga'), name: placeName, state: stateParam }),
    z.strictObject({
      type: z.literal('area'),
      polygon: z.strictObject(
        {
          type: z.literal('Polygon', { error: 'polygon must be a GeoJSON Polygon.' }),
          coordinates: z.array(z.array(position, { error: 'polygon rings are arrays of positions.' })),
        },
        { error: 'polygon must be a GeoJSON Polygon object: { "type": "Polygon", "coordinates": [...] }.' },
      ),
    }),
    z.strictObject({
      type: z.literal('addresses'),
      addresses: z
        .array(
          z
            .string({ error: 'each address must be text.' })
            .trim()
            .min(1, { error: 'an address must not be empty.' })
            .max(300, { error: 'an address must be at most 300 characters.' }),
          { error: 'addresses must be an array of address texts.' },
        )
        .min(1, { error: 'addresses must hold at least one address.' }),
    }),
  ],
  { error: "selection.type must be one of 'suburb', 'lga', 'area', 'addresses'." },
);

const submitBody = z.strictObject({
  selection: selectionSchema.describe(
    "What to export: {type:'suburb', name, state}, {type:'lga', name, state:'QLD'}, {type:'area', polygon}, " +
      "or {type:'addresses', addresses:[...]} (one row per address, in the order given).",
  ),
  layers: z
    .array(z.string({ error: 'layers must be layer names.' }).trim().min(1).max(64), {
      error: 'layers must be an array of layer names.',
    })
    .min(1, { error: 'layers must name at least one layer (or leave it out for every layer the key can read).' })
    .max(50)
    .optional()
    .describe('Layer names (GET /v1/exports/layers); default: every layer the key can read.'),
});

type Chosen = { layers: BatchLayer[]; omitted: string[] } | RouteResponse;

/** The requested layers the key can read, and those left out for scope; or the refusal. */
function chooseLayers(requested: readonly string[] | undefined, scopes: readonly string[]): Chosen {
  const names = [...new Set(requested ?? BATCH_LAYERS.map((l) => l.name))];
  const refused = names.filter((n) => n in NON_EXPORTABLE);
  if (refused.length > 0) {
    const products = [...new Set(refused.map((n) => NON_EXPORTABLE[n]))].join(', ');
    throw new AppError(
      'BAD_REQUEST',
      `Not exportable: ${refused.join(', ')} (${products}).`,
      'Sales history, comparable sales, automated valuation, dwelling attributes, on-market listings and the Livability Rating are never exported (spec 4.7).',
    );
  }
  const unknown = names.filter((n) => !batchLayer(n));
  if (unknown.length > 0)
    throw new AppError(
      'BAD_REQUEST',
      `Unknown layer: ${unknown.join(', ')}.`,
      `Exportable layers: ${BATCH_LAYERS.map((l) => l.name).join(', ')} (GET /v1/exports/layers).`,
    );
  const layers = names.map((n) => batchLayer(n)!);
  const readable = layers.filter((l) => opensBatchLayer(scopes, l));
  const omitted = layers.filter((l) => !opensBatchLayer(scopes, l));
  if (readable.length === 0)
    return refusal(
      403,
      'insufficient_scope',
      `The key can read none of the requested layers: ${omitted.map((l) => `${l.name} needs ${l.scopes.join(' or ')}`).join('; ')}.`,
      { layersOmittedForScope: omitted.map((l) => l.name) },
      'An export add-on grants no data scopes: the key needs the scope of each layer it exports.',
    );
  return { layers: readable, omitted: omitted.map((l) => l.name) };
}

type Selection = z.output<typeof selectionSchema>;

const tooLarge = (requested: number, limit: number, what: string) =>
  refusal(
    413,
    'selection_too_large',
    `The selection holds ${requested} ${what}; an export takes at most ${limit}. Nothing was exported.`,
    { requested, limit },
    'Split the selection into smaller ones (a smaller area, or several lists).',
  );

/** The rows the selection will write, or the refusal: counted by the graph before anything is listed. */
async function resolveTargets(selection: Selection, ctx: RouteContext): Promise<ExportTarget[] | RouteResponse> {
  if (selection.type === 'addresses') {
    if (selection.addresses.length > MAX_EXPORT_ADDRESSES)
      return tooLarge(selection.addresses.length, MAX_EXPORT_ADDRESSES, 'addresses');
    return selection.addresses.map((text) => ({ gnafPid: null, inputAddress: text }));
  }
  type Result = { selection: { count: number; gnaf_pids: string[] | null } };
  const result = await ctx.graph.execute<Result>(
    `query ExportSelection($type: PropertySelectionType!, $name: String, $state: String, $polygon: GeoJSON, $limit: Int!) {
      selection: propertySelection(type: $type, name: $name, state: $state, polygon: $polygon, limit: $limit) { count gnaf_pids } }`,
    {
      type: selection.type,
      name: 'name' in selection ? selection.name : null,
      state: 'state' in selection ? selection.state : null,
      polygon: 'polygon' in selection ? selection.polygon : null,
      limit: MAX_EXPORT_PROPERTIES,
    },
    withGrant(ctx.scope, 'internal:bulk-rows'),
  );
  const { count, gnaf_pids } = unwrap(result).selection;
  if (count > MAX_EXPORT_PROPERTIES || !gnaf_pids) return tooLarge(count, MAX_EXPORT_PROPERTIES, 'properties');
  if (count === 0)
    throw new AppError(
      'NOT_FOUND',
      'No address lies in the selection.',
      selection.type === 'area' ? 'Check the polygon is [lng, lat] in WGS84.' : 'Check the name and state.',
    );
  return gnaf_pids.map((pid) => ({ gnafPid: pid, inputAddress: null }));
}

const storedSelection = (selection: Selection): ExportSelection =>
  selection.type === 'addresses' ? { type: 'addresses', addresses: selection.addresses.length } : selection;

export const exportSubmit = defineRoute({
  method: 'post',
  path: '/v1/exports',
  tag: TAG,
  summary:
    'Submits a bulk export of a suburb, a Queensland LGA, an area or an address list; answers 202 with the job id and the CSV header.',
  access: 'key',
  // the submit is one metered call; the exported rows count against the export allowance, not the call quota
  metered: true,
  query: submitBody,
  input: 'body',
  errorStyle: 'plain',
  // the capability before the body: a key that may not export is told so whatever it sent
  admit: (key) =>
    canExport(key)
      ? null
      : refusal(
          402,
          'bulk_export_required',
          'This key cannot export: bulk export needs the bulk_export capability.',
          {},
          'Bulk export is a separate agreement; ask for the capability on this key.',
        ),
  async handle(q, ctx) {
    const key = ctx.key!;
    const scopes = ctx.scope.scopes === '*' ? BATCH_LAYERS.flatMap((l) => l.scopes) : ctx.scope.scopes;
    const chosen = chooseLayers(q.layers, scopes);
    if ('body' in chosen) return chosen;
    const targets = await resolveTargets(q.selection, ctx);
    if (!Array.isArray(targets)) return targets;
    const addressList = q.selection.type === 'addresses';
    const header = batchHeader(chosen.layers, addressList ? [INPUT_ADDRESS] : []);
    const layerNames = chosen.layers.map((l) => l.name);
    let job: Job;
    try {
      job = await createExport(ctx.runtime.db, {
        accountId: key.accountId,
        key,
        defaultAllowance: ctx.runtime.config.exportRowsMonthly,
        selection: storedSelection(q.selection),
        layers: layerNames,
        layersOmitted: chosen.omitted,
        header,
        targets,
        input: {
          layers: layerNames,
          scopes: [...scopes],
          dataset: ctx.scope.dataset,
          selectionType: q.selection.type,
          requestedRows: targets.length,
        },
      });
    } catch (error) {
      if (!(error instanceof AllowanceExceeded)) throw error;
      const { allowance, used, remaining, month } = error.allowance;
      return refusal(
        402,
        'bulk_export_allowance_exhausted',
        remaining === 0
          ? `The key's export rows for ${month} are used up (${used} of ${allowance}).`
          : `The export needs ${targets.length} rows; ${remaining} of the key's ${allowance} rows for ${month} remain.`,
        { allowance, used, remaining, requestedRows: targets.length, month },
        'Export a smaller selection, wait for next month, or ask for a larger allowance. Nothing was exported.',
      );
    }
    return {
      status: 202,
      body: {
        success: true,
        jobId: job.id,
        requestedRows: targets.length,
        layers: layerNames,
        layersOmittedForScope: chosen.omitted,
        header,
        status: `/v1/exports/${job.id}`,
        result: `/v1/exports/${job.id}/result`,
        manifest: `/v1/exports/${job.id}/manifest`,
      },
    };
  },
});

/** The export of a job of the caller's account, or 404 (another account's job reads as missing). */
async function ownExport(ctx: RouteContext, id: string): Promise<{ record: ExportRecord; job: Job }> {
  const key = ctx.key!;
  const record = await exportOfAccount(ctx.runtime.db, key.accountId, id);
  if (!record)
    throw new AppError('NOT_FOUND', `No export ${id}.`, 'An export is readable only by the account that created it.');
  return { record, job: await jobOfAccount(ctx.runtime.db, key.accountId, id) };
}

export const exportStatus = defineRoute({
  method: 'get',
  path: '/v1/exports/:id',
  tag: TAG,
  summary: "An export of the caller's account: its state and the rows processed of those requested.",
  access: 'key',
  metered: false,
  query: z.object({ id: jobId }),
  errorStyle: 'plain',
  async handle(q, ctx) {
    const { record, job } = await ownExport(ctx, q.id);
    return {
      body: {
        success: true,
        jobId: job.id,
        state: job.state,
        rowsProcessed: job.rowsDone,
        requestedRows: record.requestedRows,
        layers: record.layers,
        layersOmittedForScope: record.layersOmitted,
        selection: record.selection,
        attempts: job.attempts,
        error: job.error,
        created_at: job.createdAt.toISOString(),
        finished_at: job.finishedAt?.toISOString() ?? null,
        expires_at: job.expiresAt?.toISOString() ?? null,
        result: job.state === 'succeeded' ? `/v1/exports/${job.id}/result` : null,
        manifest: `/v1/exports/${job.id}/manifest`,
      },
    };
  },
});

/** The manifest's credits as one credit line for the attribution headers and body. */
function creditOfManifest(credits: readonly ManifestCredit[]): Credit | null {
  return combineCredits(
    credits.filter((c) => c.attribution || c.license).map((c) => ({ attribution: c.attribution, license: c.license })),
  );
}

/** The committed rows, page by page, as CSV records under the export's header. */
function csvStream(ctx: RouteContext, record: ExportRecord): Readable {
  const db = ctx.runtime.db;
  async function* records() {
    let after = 0;
    for (;;) {
      const page = await jobRows<unknown[]>(db, record.jobId, { after, limit: CSV_PAGE });
      for (const row of page) yield safeCsvRecord(row.data);
      if (page.length < CSV_PAGE) return;
      after = page[page.length - 1]!.rowNo;
    }
  }
  return Readable.from(records()).pipe(
    stringify({ header: true, columns: record.header.map(safeCsvText), ...SAFE_CSV_OPTIONS }),
  );
}

export const exportResult = defineRoute({
  method: 'get',
  path: '/v1/exports/:id/result',
  tag: TAG,
  summary: 'The CSV of a succeeded export, streamed from its committed rows; 409 until the export has succeeded.',
  access: 'key',
  metered: false,
  query: z.object({ id: jobId }),
  errorStyle: 'plain',
  async handle(q, ctx) {
    const { record, job } = await ownExport(ctx, q.id);
    if (job.state !== 'succeeded')
      return refusal(
        409,
        'export_not_ready',
        job.state === 'expired'
          ? `Export ${job.id} has expired; its rows were removed after the retention period.`
          : `Export ${job.id} is ${job.state}; its CSV is ready once it has succeeded.`,
        { state: job.state, rowsProcessed: job.rowsDone, requestedRows: record.requestedRows },
        `Poll GET /v1/exports/${job.id}.`,
      );
    const credit = creditOfManifest(await exportCredits(ctx.runtime.db, job.id));
    return {
      body: {},
      credit,
      headers: { 'Content-Disposition': `attachment; filename="export-${job.id}.csv"` },
      stream: { contentType: 'text/csv; charset=utf-8', content: csvStream(ctx, record) },
    };
  },
});

export const exportManifest = defineRoute({
  method: 'get',
  path: '/v1/exports/:id/manifest',
  tag: TAG,
  summary:
    "Per-layer attribution, licence and freshness of an export's data (complete once it has succeeded): reproduce the credits with the data.",
  access: 'key',
  metered: false,
  query: z.object({ id: jobId }),
  errorStyle: 'plain',
  async handle(q, ctx) {
    const { record, job } = await ownExport(ctx, q.id);
    const credits = await exportCredits(ctx.runtime.db, job.id);
    const creditsOf = (layer: string) =>
      credits
        .filter((c) => c.layer === layer)
        .map((c) => ({
          attribution: c.attribution,
          license: c.license,
          source: c.source,
          freshness: { oldest: c.freshnessMin, newest: c.freshnessMax },
        }));
    const combined = creditOfManifest(credits);
    return {
      body: {
        success: true,
        jobId: job.id,
        state: job.state,
        complete: job.state === 'succeeded',
        identity: { columns: IDENTITY_COLUMNS, credits: creditsOf(IDENTITY_LAYER) },
        layers: record.layers.map((name) => {
          const layer = batchLayer(name)!;
          return { layer: name, columns: layerColumns(layer), scopes: layer.scopes, credits: creditsOf(name) };
        }),
        layersOmittedForScope: record.layersOmitted,
        attribution: combined?.attribution ?? null,
        license: combined?.license ?? null,
      },
      credit: combined,
    };
  },
});

const monthParam = z
  .string({ error: 'month must be a single value like 2026-11.' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'month must look like 2026-11.' });

export const exportUsage = defineRoute({
  method: 'get',
  path: '/v1/exports/usage',
  tag: TAG,
  summary: "The calling key's export rows used this month (or `month`) against its monthly allowance.",
  access: 'key',
  metered: false,
  query: z.object({ month: monthParam.optional().describe('YYYY-MM (UTC); default this month.') }),
  errorStyle: 'plain',
  async handle(q, { runtime, key }) {
    const owner = key!;
    const at = q.month ? new Date(`${q.month}-01T00:00:00Z`) : new Date();
    const allowance = await allowanceOf(runtime.db, owner, runtime.config.exportRowsMonthly, at);
    return {
      body: {
        success: true,
        key: { id: owner.id, name: owner.name, kind: owner.kind },
        bulk_export: canExport(owner),
        month: allowance.month,
        allowance: allowance.allowance,
        allowance_source: owner.exportRowsMonthly === null ? 'default' : 'key',
        used: allowance.used,
        remaining: allowance.remaining,
      },
    };
  },
});

export const exportLayers = defineRoute({
  method: 'get',
  path: '/v1/exports/layers',
  tag: TAG,
  summary:
    'The export row contract: the identity columns, each exportable layer with its columns and scope, and the statuses.',
  access: 'key',
  metered: false,
  query: z.object({}),
  errorStyle: 'plain',
  async handle(_q, { scope, key }) {
    const scopes = scope.scopes === '*' ? BATCH_LAYERS.flatMap((l) => l.scopes) : scope.scopes;
    return {
      body: {
        success: true,
        bulk_export: canExport(key!),
        identityColumns: IDENTITY_COLUMNS,
        addressListColumn: INPUT_ADDRESS,
        statuses: ROW_STATUSES,
        layers: BATCH_LAYERS.map((layer) => ({
          name: layer.name,
          description: layer.description,
          scopes: layer.scopes,
          columns: layerColumns(layer),
          readable: opensBatchLayer(scopes, layer),
        })),
        notExportable: [...new Set(Object.values(NON_EXPORTABLE))],
        limits: { properties: MAX_EXPORT_PROPERTIES, addresses: MAX_EXPORT_ADDRESSES },
      },
    };
  },
});
