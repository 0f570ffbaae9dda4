/** OpenAPI docs and body schemas of the development-application routes (rest-facade/routes/development.ts). */
import {
  DEFAULT_DA_PAGE,
  DEFAULT_DA_RADIUS_M,
  MAX_DA_FEED_SPAN_DEGREES,
  MAX_DA_NEAR,
  MAX_DA_PAGE,
  MAX_DA_RADIUS_M,
} from '../../core/limits.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const STATUSES = ['lodged', 'under_assessment', 'approved', 'refused', 'withdrawn', 'determined'];
const CATEGORIES = ['dwelling', 'alterations', 'subdivision', 'demolition', 'commercial', 'industrial', 'other'];

const nullable = (type: 'string' | 'number' | 'integer', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string, optional: string[] = []) => ({
  type: 'object' as const,
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
});

const credit: Record<string, SchemaObject> = {
  attribution: nullable('string', 'Credit line to reproduce (spec 2.2); also sent as X-Service-Attribution.'),
  license: nullable('string', 'Licence of the data; also sent as X-Service-License.'),
};

const layerFields: Record<string, SchemaObject> = {
  status: schemaRef('LayerStatus'),
  source: nullable('string', 'mirror:<state>/development-applications@<snapshot_id>.'),
  freshness: nullable('string', 'The day the newest application of the state was received (ISO date).'),
  count: { type: 'integer', minimum: 0 },
  data: { type: 'array', items: schemaRef('DevelopmentApplication'), description: 'Empty unless status is ok.' },
  error: { type: 'null' },
  hint: nullable('string', 'Why there are no applications, in words a person can act on.'),
  ...credit,
};

export const DEVELOPMENT_SCHEMAS: Record<string, SchemaObject> = {
  DevelopmentApplication: object(
    {
      source: { type: 'string', description: 'The publisher: planningalerts, nsw-portal or sandbox.' },
      authority: { type: 'string', description: 'The council as the source names it.' },
      council_reference: { type: 'string', description: 'Unique within its authority.' },
      state: { type: 'string' },
      lga_code: nullable('string'),
      lga_name: nullable('string'),
      suburb: nullable('string'),
      address: nullable('string'),
      gnaf_pid: nullable('string', 'The address the application was matched to.'),
      parcel_pfi: nullable('string', 'The parcel the application was matched to.'),
      location: {
        anyOf: [object({ lat: { type: 'number' }, lng: { type: 'number' } }), { type: 'null' }],
      },
      description: nullable('string'),
      category: { enum: CATEGORIES },
      status: { enum: STATUSES, description: 'determined: decided, where the source does not say which way.' },
      lodged_date: nullable('string', 'ISO date.'),
      decided_date: nullable('string', 'ISO date of the decision or withdrawal.'),
      estimated_cost: nullable('number', 'Australian dollars.'),
      dwellings_proposed: nullable('integer'),
      source_url: nullable('string'),
      attribution: { type: 'string', description: "The publishing state's (or aggregator's) credit." },
      license: { type: 'string' },
      updated_at: { type: 'string', description: 'When the source last changed the record (ISO instant).' },
      received_at: { type: 'string', description: 'When our copy last changed (ISO instant): the feed order.' },
      distance_m: { type: 'number', minimum: 0, description: 'Metres from the point; nearby only.' },
    },
    'One development application as its council or the state portal publishes it.',
    ['distance_m'],
  ),
  DevelopmentApplicationList: object(
    {
      success: { const: true },
      query: { type: 'object', description: 'The place as given.' },
      property: { type: 'object', description: 'The parcel resolved, when asked by pfi and state (spec 2.1.2).' },
      parcel_pfi: nullable('string'),
      state: { type: 'string' },
      radius_m: { type: 'number' },
      total: { type: 'integer', minimum: 0 },
      offset: { type: 'integer', minimum: 0 },
      next_offset: nullable('integer', 'The offset of the next page; null on the last.'),
      ...layerFields,
    },
    'Applications with the layer status and credit.',
    ['property', 'parcel_pfi', 'state', 'radius_m', 'total', 'offset', 'next_offset'],
  ),
  DevelopmentCount: object({ key: { type: 'string' }, count: { type: 'integer', minimum: 0 } }),
  DevelopmentStatisticsResponse: object({
    success: { const: true },
    query: { type: 'object' },
    status: schemaRef('LayerStatus'),
    source: nullable('string'),
    data: {
      anyOf: [
        object({
          lga_code: nullable('string'),
          lga_name: nullable('string'),
          suburb: nullable('string'),
          state: nullable('string'),
          from_month: { type: 'string', description: 'YYYY-MM.' },
          to_month: { type: 'string', description: 'YYYY-MM (the current month).' },
          total: { type: 'integer', minimum: 0 },
          median_decision_days: nullable('number'),
          months: {
            type: 'array',
            items: object({
              month: { type: 'string' },
              lodged: { type: 'integer', minimum: 0 },
              median_decision_days: nullable('number'),
              by_status: { type: 'array', items: schemaRef('DevelopmentCount') },
              by_category: { type: 'array', items: schemaRef('DevelopmentCount') },
            }),
          },
        }),
        { type: 'null' },
      ],
    },
    error: { type: 'null' },
    hint: nullable('string'),
    ...credit,
  }),
  DevelopmentFeedPage: object({
    success: { const: true },
    query: { type: 'object' },
    count: { type: 'integer', minimum: 0 },
    data: { type: 'array', items: schemaRef('DevelopmentApplication'), description: 'Oldest change first.' },
    next_cursor: nullable('string', 'Opaque: pass as cursor for the next page; also the place to resume polling.'),
    has_more: { type: 'boolean', description: 'More changes wait now.' },
    credits: {
      type: 'array',
      description: 'The credit of every state whose applications are on the page.',
      items: object({ state: { type: 'string' }, attribution: { type: 'string' }, license: { type: 'string' } }),
    },
    error: { type: 'null' },
    ...credit,
  }),
};

const unknownParcel = {
  description: 'No parcel with that PFI in the state.',
  message: 'No parcel with PFI 999 in VIC.',
  hint: 'Check the identifier, or ask by lat and lng.',
};
const failed = {
  description: 'The development applications source failed.',
  message: 'The development applications source failed for this request.',
  hint: 'Retry shortly.',
};

export const DEVELOPMENT_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /v1/development-applications/nearby': {
    success: schemaRef('DevelopmentApplicationList'),
    successDescription: 'The applications within the radius, nearest first, each with distance_m.',
    credited: true,
    notes:
      `Pass lat and lng (state defaults to the state the point lies in), or pfi with state (spec 2.1.2: the ` +
      `parcel's point). radius_m defaults to ${DEFAULT_DA_RADIUS_M} and may be at most ${MAX_DA_RADIUS_M}; more ` +
      `than ${MAX_DA_NEAR} applications within it is refused with 400, never truncated.`,
    raises: { 404: unknownParcel, 502: failed },
  },
  'GET /v1/development-applications/parcel': {
    success: schemaRef('DevelopmentApplicationList'),
    successDescription: 'The applications lodged against the parcel, newest lodged first.',
    credited: true,
    raises: { 404: unknownParcel, 502: failed },
  },
  'GET /api/development-applications': {
    success: schemaRef('DevelopmentApplicationList'),
    successDescription: "The property's DA records for its dossier, newest lodged first.",
    credited: true,
    notes: 'The dossier group (spec 4.11): by lat and lng, pfi and state, or gnaf_pid; scope dossier.read.',
    raises: {
      404: { description: 'No property with that gnaf_pid or PFI.', message: 'No property with gnaf_pid GAVIC000.' },
      502: failed,
    },
  },
  'GET /v1/development-applications/lga/:lga_code': {
    success: schemaRef('DevelopmentApplicationList'),
    successDescription: "A page of the LGA's applications, newest lodged first, with the total and the next offset.",
    credited: true,
    notes: `limit 1-${MAX_DA_PAGE} (default ${DEFAULT_DA_PAGE}; above is refused, not clamped); state narrows an LGA code used in two states. For deeper paging use the feed.`,
    raises: { 502: failed },
  },
  'GET /v1/development-applications/statistics': {
    success: schemaRef('DevelopmentStatisticsResponse'),
    successDescription:
      'Per month of lodgement: how many, by current status and by category, and the median days to a decision.',
    credited: true,
    notes:
      'Name one place: lga_code, or suburb with state. Every month to the current one is listed, zero where none ' +
      'was lodged; withdrawals are not decisions.',
    raises: { 502: failed },
  },
  'GET /v1/development-applications/feed': {
    success: schemaRef('DevelopmentFeedPage'),
    successDescription:
      'A page of changes in the order our copy changed; a record that changes comes again after the cursor.',
    credited: true,
    notes:
      `Name one area: lga_code, or bbox (minLng,minLat,maxLng,maxLat; at most ${MAX_DA_FEED_SPAN_DEGREES} degrees ` +
      `per axis, larger refused with 400). limit 1-${MAX_DA_PAGE} (default ${DEFAULT_DA_PAGE}); above is refused, ` +
      'not clamped. Pass next_cursor back as cursor with the same area and updated_since; a cursor of another ' +
      'query is refused with 400. The attribution headers carry every state credit of the page.',
  },
};
