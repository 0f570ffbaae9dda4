/**
 * OpenAPI docs and body schemas of the planning-zone service routes (spec 2.13-2.15), mirroring
 * rest-facade/routes/planning-zones.ts.
 */
import { STATES } from '../../core/geo.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const object = (properties: Record<string, SchemaObject>, optional: string[] = []): SchemaObject => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
});
const str = (description?: string): SchemaObject => ({ type: 'string', ...(description ? { description } : {}) });
const count: SchemaObject = { type: 'integer', minimum: 0 };
const timestamp = str('When the answer was built, ISO 8601 UTC.');
const state: SchemaObject = { enum: [...STATES], description: 'State or territory code.' };
const serviceType: SchemaObject = {
  enum: ['database-mirror', 'arcgis-rest', 'wfs', 'none'],
  description: 'How the state is served: the database mirror, a live ArcGIS REST or WFS service, or not at all.',
};
const ms = (description: string): SchemaObject => ({ type: ['number', 'null'], minimum: 0, description });
const credit: Record<string, SchemaObject> = {
  attribution: str('Credit of the third-party services the adapters ask; present when any does.'),
  license: str('Licence of that data; present with attribution.'),
};
const settings = {
  cacheEnabled: { type: 'boolean', description: 'Whether live answers are kept in process.' },
  cacheTTL: { ...count, description: 'Seconds a live answer is kept.' },
  requestTimeout: { ...count, description: 'Milliseconds one attempt of a live call may take.' },
} satisfies Record<string, SchemaObject>;

export const PLANNING_ZONE_SCHEMAS: Record<string, SchemaObject> = {
  PlanningZonesHealth: object(
    {
      status: { enum: ['healthy', 'degraded', 'unhealthy'] },
      timestamp,
      responseTime: { type: 'number', minimum: 0, description: 'Milliseconds taken to build the answer.' },
      coverage: object({
        statesSupported: { type: 'array', items: state },
        statesCount: count,
        totalStates: { const: 8 },
        coveragePercentage: { type: 'number', minimum: 0, maximum: 100 },
      }),
      adapters: {
        type: 'object',
        description: 'Each state by code (NSW, VIC, QLD, SA, WA, TAS, NT, ACT).',
        additionalProperties: object({
          status: { enum: ['healthy', 'degraded', 'unhealthy', 'unsupported'] },
          serviceType,
          provider: str('Who publishes the data the adapter serves.'),
          successRate: {
            type: ['number', 'null'],
            minimum: 0,
            maximum: 1,
            description: 'Share of the recent live calls that succeeded; null before the first.',
          },
          errorCount: { ...count, description: 'Failed live calls since the service started.' },
          message: str('What the adapter serves and why it has its status.'),
        }),
      },
      configuration: object(settings),
      summary: object({
        healthyAdapters: count,
        degradedAdapters: count,
        unhealthyAdapters: count,
        unsupportedStates: count,
      }),
      ...credit,
    },
    Object.keys(credit),
  ),
  PlanningZonesHealthError: object({
    status: { const: 'unhealthy' },
    timestamp,
    error: str('What failed.'),
    message: str('Why.'),
  }),
  PlanningZonesMetrics: object(
    {
      timestamp,
      responseTime: { type: 'number', minimum: 0 },
      adapters: {
        type: 'object',
        description: 'Each supported state by code; a database-mirror adapter counts no live calls.',
        additionalProperties: object({
          serviceType,
          requests: count,
          successes: count,
          errors: count,
          retries: { ...count, description: 'Further attempts after retryable failures.' },
          timeouts: { ...count, description: 'Attempts that ran out of time.' },
          successRate: { type: ['number', 'null'], minimum: 0, maximum: 1 },
          circuitState: { enum: ['closed', 'open', 'half-open'] },
          latency: object({
            meanMs: ms('Mean over the latest calls.'),
            p50Ms: ms('Median.'),
            p95Ms: ms('95th percentile.'),
            maxMs: ms('Slowest.'),
          }),
          lastError: { type: ['string', 'null'] },
          lastSuccessAt: { type: ['string', 'null'], description: 'ISO 8601 UTC.' },
          lastFailureAt: { type: ['string', 'null'], description: 'ISO 8601 UTC.' },
        }),
      },
      system: object({ ...settings, performanceTracking: { type: 'boolean' } }),
      ...credit,
    },
    Object.keys(credit),
  ),
  PlanningZonesMetricsError: object({ error: str('What failed.'), timestamp, message: str('Why.') }),
  PlanningZonesCoverage: object(
    {
      timestamp,
      coverage: object({
        supported: { type: 'array', items: state },
        unsupported: { type: 'array', items: state },
        totalStates: { const: 8 },
        supportedCount: count,
        coveragePercentage: { type: 'number', minimum: 0, maximum: 100 },
      }),
      details: {
        type: 'object',
        description: 'Each state by code.',
        additionalProperties: object({ supported: { type: 'boolean' }, protocol: serviceType, provider: str() }),
      },
      ...credit,
    },
    Object.keys(credit),
  ),
  PlanningZonesCoverageError: object({ timestamp, error: str('What failed, and why.') }),
};

const internal = (schema: string) => ({
  description: 'The answer itself could not be built (the planning service did not answer), in its own shape.',
  schema: schemaRef(schema),
});

export const PLANNING_ZONE_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/planning-zones/health': {
    success: schemaRef('PlanningZonesHealth'),
    successDescription: 'Every supported state adapter is healthy.',
    credited: false,
    notes:
      'An adapter is healthy when at least 95% of its recent live calls succeeded (or it is a database mirror, ' +
      'or a live service with a mirror in front that has had no calls yet), degraded on fewer or while its ' +
      'circuit is half-open, and unhealthy while its circuit is open or since a probe failed. refresh=true ' +
      'probes every live service; probes closer than 10 s apart share one answer.',
    alsoReturns: {
      '503': {
        description: 'Some adapter is degraded or unhealthy: the same body.',
        schema: schemaRef('PlanningZonesHealth'),
      },
      '500': internal('PlanningZonesHealthError'),
    },
  },
  'GET /api/planning-zones/metrics': {
    success: schemaRef('PlanningZonesMetrics'),
    successDescription: 'Counters of the live calls of every supported state since the service started.',
    credited: false,
    alsoReturns: { '500': internal('PlanningZonesMetricsError') },
  },
  'GET /api/planning-zones/coverage': {
    success: schemaRef('PlanningZonesCoverage'),
    successDescription: 'The states served, and by what: the database mirror or a live state service.',
    credited: false,
    alsoReturns: { '500': internal('PlanningZonesCoverageError') },
  },
};
