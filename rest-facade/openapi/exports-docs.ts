/** OpenAPI docs and body schemas of the bulk export routes (rest-facade/routes/exports.ts). */
import { MAX_EXPORT_ADDRESSES, MAX_EXPORT_PROPERTIES } from '../../core/limits.ts';
import { BATCH_LAYER_NAMES, IDENTITY_COLUMNS, ROW_STATUSES } from '../../platform/batch/layers.ts';
import { JOB_STATES } from '../../platform/jobs/engine.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const nullable = (type: 'string' | 'integer' | 'object', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string, optional: string[] = []) => ({
  type: 'object' as const,
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
});
const strings: SchemaObject = { type: 'array', items: { type: 'string' } };
const layerNames: SchemaObject = { type: 'array', items: { enum: [...BATCH_LAYER_NAMES] } };
const count = (description?: string): SchemaObject => ({
  type: 'integer',
  minimum: 0,
  ...(description ? { description } : {}),
});

const credit = object({
  attribution: { type: 'string' },
  license: { type: 'string' },
  source: { type: 'string' },
  freshness: object({ oldest: nullable('string'), newest: nullable('string') }, 'Snapshot dates (YYYY-MM-DD) seen.'),
});

export const EXPORTS_SCHEMAS: Record<string, SchemaObject> = {
  ExportRefusal: object(
    {
      success: { const: false },
      code: {
        enum: [
          'bulk_export_required',
          'bulk_export_allowance_exhausted',
          'insufficient_scope',
          'selection_too_large',
          'export_not_ready',
        ],
        description: 'Which refusal (DESIGN.md §4); absent on the shared key errors (suspended key).',
      },
      error: { type: 'string' },
      hint: { type: 'string' },
      allowance: count('Rows a month (allowance refusals).'),
      used: count('Rows used this month.'),
      remaining: count('Rows left this month.'),
      requestedRows: count('Rows the export would write.'),
      month: { type: 'string' },
      requested: count('What the selection holds (413).'),
      limit: count('The most an export takes (413).'),
      layersOmittedForScope: layerNames,
      state: { enum: [...JOB_STATES] },
      rowsProcessed: count(),
    },
    'An export refusal: the plain error shape with a machine-readable code and its figures.',
    [
      'code',
      'hint',
      'allowance',
      'used',
      'remaining',
      'requestedRows',
      'month',
      'requested',
      'limit',
      'layersOmittedForScope',
      'state',
      'rowsProcessed',
    ],
  ),
  ExportSubmitted: object(
    {
      success: { const: true },
      jobId: { type: 'string' },
      requestedRows: count('Rows the CSV will hold: one per address of the selection (or of the list).'),
      layers: layerNames,
      layersOmittedForScope: {
        ...layerNames,
        description: 'Requested layers the key is not scoped for: absent from the file.',
      },
      header: { ...strings, description: 'The CSV header, in column order.' },
      status: { type: 'string' },
      result: { type: 'string' },
      manifest: { type: 'string' },
    },
    'The export is queued.',
  ),
  ExportStatus: object(
    {
      success: { const: true },
      jobId: { type: 'string' },
      state: { enum: [...JOB_STATES] },
      rowsProcessed: count(),
      requestedRows: count(),
      layers: layerNames,
      layersOmittedForScope: layerNames,
      selection: { type: 'object', description: 'The selection as submitted (an address list by its length).' },
      attempts: count(),
      error: nullable('string'),
      created_at: { type: 'string' },
      finished_at: nullable('string'),
      expires_at: nullable('string'),
      result: nullable('string', 'The CSV, once succeeded.'),
      manifest: { type: 'string' },
    },
    'An export and its progress.',
  ),
  ExportManifest: object(
    {
      success: { const: true },
      jobId: { type: 'string' },
      state: { enum: [...JOB_STATES] },
      complete: { type: 'boolean', description: 'True once the export has succeeded.' },
      identity: object({ columns: strings, credits: { type: 'array', items: credit } }),
      layers: {
        type: 'array',
        items: object({
          layer: { enum: [...BATCH_LAYER_NAMES] },
          columns: strings,
          scopes: strings,
          credits: { type: 'array', items: credit },
        }),
      },
      layersOmittedForScope: layerNames,
      attribution: nullable('string'),
      license: nullable('string'),
    },
    'Per-layer attribution, licence and freshness of the data in the export.',
  ),
  ExportUsage: object(
    {
      success: { const: true },
      key: object({ id: { type: 'string' }, name: { type: 'string' }, kind: { enum: ['live', 'test'] } }),
      bulk_export: { type: 'boolean', description: 'Whether the key holds the bulk_export capability.' },
      month: { type: 'string' },
      allowance: count('Export rows a month.'),
      allowance_source: {
        enum: ['key', 'default'],
        description: "The key's own allowance, or the configured default.",
      },
      used: count(),
      remaining: count(),
    },
    "The key's export rows this month against its allowance.",
  ),
  ExportLayers: object(
    {
      success: { const: true },
      bulk_export: { type: 'boolean' },
      identityColumns: { type: 'array', items: { enum: [...IDENTITY_COLUMNS] } },
      addressListColumn: { const: 'input_address' },
      statuses: { type: 'array', items: { enum: [...ROW_STATUSES] } },
      layers: {
        type: 'array',
        items: object({
          name: { enum: [...BATCH_LAYER_NAMES] },
          description: { type: 'string' },
          scopes: strings,
          columns: strings,
          readable: { type: 'boolean', description: "Whether the calling key's scopes open the layer." },
        }),
      },
      notExportable: strings,
      limits: object({ properties: { const: MAX_EXPORT_PROPERTIES }, addresses: { const: MAX_EXPORT_ADDRESSES } }),
    },
    'The export row contract.',
  ),
};

const refusal = (description: string) => ({ description, schema: schemaRef('ExportRefusal') });
const noExport = {
  description: "No such export in the caller's account (another account's export included).",
  message: 'No export job_nope.',
  hint: 'An export is readable only by the account that created it.',
};

const CSV_RULES =
  `Every row starts with ${IDENTITY_COLUMNS.join(', ')} (an address list adds input_address first); each layer adds ` +
  `<layer>_status (${ROW_STATUSES.join(', ')}) and its columns, which carry the status text when it is not ok. ` +
  'A layer the key is not scoped for is absent from the file.';

export const EXPORTS_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /v1/exports/layers': {
    success: schemaRef('ExportLayers'),
    successDescription: 'The row contract.',
    credited: false,
    notes: CSV_RULES,
  },
  'GET /v1/exports/usage': {
    success: schemaRef('ExportUsage'),
    successDescription: 'Rows used against the monthly allowance.',
    credited: false,
  },
  'POST /v1/exports': {
    success: schemaRef('ExportSubmitted'),
    successStatus: '202',
    successDescription: 'The export is queued.',
    credited: false,
    notes:
      `${CSV_RULES} A selection over ${MAX_EXPORT_PROPERTIES} properties or a list over ${MAX_EXPORT_ADDRESSES} ` +
      'addresses is refused (413), never truncated. An export that needs more rows than the month has left is ' +
      'refused whole (402). The submit is one metered call; exported rows count only against the export allowance.',
    raises: { 404: { description: 'No address lies in the selection.', message: 'No address lies in the selection.' } },
    alsoReturns: {
      '402': refusal(
        'bulk_export_required (the key lacks the bulk_export capability; answered before the body is read, so the same for any body) or bulk_export_allowance_exhausted (with allowance, used and remaining).',
      ),
      '403': refusal('insufficient_scope: the key can read none of the requested layers; or the key is suspended.'),
      '413': refusal('selection_too_large (with requested and limit), or a body over 1 MB.'),
    },
  },
  'GET /v1/exports/:id': {
    success: schemaRef('ExportStatus'),
    successDescription: 'The export, its state and rows processed.',
    credited: false,
    raises: { 404: noExport },
  },
  'GET /v1/exports/:id/result': {
    success: { type: 'string', description: 'CSV (RFC 4180) with a header row.' },
    contentType: 'text/csv; charset=utf-8',
    successDescription: 'The CSV, streamed; the layers’ credits are in the attribution headers and the manifest.',
    credited: true,
    notes: CSV_RULES,
    raises: { 404: noExport },
    alsoReturns: {
      '409': {
        ...refusal('export_not_ready: the export has not succeeded (or has expired).'),
        contentType: 'application/json',
      },
    },
  },
  'GET /v1/exports/:id/manifest': {
    success: schemaRef('ExportManifest'),
    successDescription: 'Per-layer credits and freshness.',
    credited: true,
    raises: { 404: noExport },
  },
};
