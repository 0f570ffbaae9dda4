/** OpenAPI docs and body schemas of the suburb-analytics routes (rest-facade/routes/suburb-analytics.ts). */
import { MAX_SUBURB_SCREEN_PAGE, MAX_SUBURB_SCREEN_RANGES } from '../../core/limits.ts';
import { LIVABILITY_METHODOLOGY } from '../../core/suburb-analytics/livability.ts';
import { LICENSED_METRICS } from '../../core/suburb-analytics/licensed.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

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
const count = { type: 'integer', minimum: 0 } as const;

const header: Record<string, SchemaObject> = {
  success: { const: true },
  query: { type: 'object', description: 'The request as read.' },
  status: schemaRef('LayerStatus'),
  source: nullable('string', 'suburb-analytics.'),
  error: { type: 'null' },
  hint: nullable('string', 'Why there is nothing, in words a person can act on.'),
  attribution: nullable(
    'string',
    'Credit line to reproduce (spec 2.2): the union of the credits of the data used; also X-Service-Attribution.',
  ),
  license: nullable('string', 'Licence of the data; also sent as X-Service-License.'),
};

const licensed = object(
  {
    value: nullable('number'),
    status: {
      enum: ['ok', 'no_data', 'not_yet_available'],
      description:
        'not_yet_available until a licensed feed is configured; no_data when the feed has nothing for the suburb.',
    },
  },
  'A licensed metric (spec 2.10).',
);

export const SUBURB_ANALYTICS_SCHEMAS: Record<string, SchemaObject> = {
  SuburbBundle: object(
    {
      bundle_version: { type: 'integer' },
      state: { type: 'string' },
      suburb: { type: 'string', description: "The locality's name as the address layer spells it." },
      suburb_key: { type: 'string', description: 'Upper-cased; the key of the bundle routes.' },
      lga_code: nullable('string'),
      lga_name: nullable('string'),
      computed_at: { type: 'string', format: 'date-time' },
      metrics: {
        type: 'object',
        additionalProperties: { type: ['number', 'null'] },
        description:
          'Every numeric metric, flat, by name (median_price_house, growth_1y_house_pct, median_rent_house_weekly, gross_yield_house_pct, ' +
          'bond_lodgements_12m, building_approvals_12m, population, amenity_*, flood_land_share_pct, da_lodged_12m, supply_available_lots, ' +
          'livability_score, ...); null where the layer holds nothing. Each name can be screened.',
      },
      livability: object({
        methodology: { const: LIVABILITY_METHODOLOGY },
        score: nullable('number', '0-100; null when no input is present.'),
        inputs_weight_pct: { type: 'number', description: 'How much of the full weight the present inputs carry.' },
        components: {
          type: 'array',
          items: object({
            metric: { type: 'string' },
            kind: { enum: ['amenity', 'hazard'] },
            input: nullable('number'),
            score: nullable('number', '0-1.'),
            weight: { type: 'number' },
            effective_weight_pct: { type: 'number' },
          }),
        },
      }),
      licensed_metrics: {
        type: 'object',
        properties: {
          feed: nullable('string', 'The configured feed; null when none.'),
          ...Object.fromEntries(LICENSED_METRICS.map((name) => [name, licensed])),
        },
        required: ['feed', ...LICENSED_METRICS],
      },
      sections: {
        type: 'object',
        additionalProperties: { type: ['object', 'null'] },
        description:
          "Each data layer's own part, under its name (market, demographics, amenities, hazards, development, supply); null where the layer holds nothing for the suburb.",
      },
      sections_missing: { type: 'array', items: { type: 'string' } },
      series_available: { type: 'array', items: { enum: ['prices', 'rents', 'approvals', 'bonds'] } },
      credits: {
        type: 'array',
        items: object({
          section: { type: 'string' },
          source: { type: 'string' },
          attribution: { type: 'string' },
          license: { type: 'string' },
        }),
      },
      attribution: nullable('string'),
      license: nullable('string'),
    },
    'A suburb analytics bundle (spec 2.10).',
  ),
  SuburbBundleAnswer: object({ ...header, data: schemaRef('SuburbBundle') }),
  SuburbList: object({
    ...header,
    state: { type: 'string' },
    total: count,
    limit: count,
    offset: count,
    count,
    data: {
      type: 'array',
      items: object({
        suburb: { type: 'string' },
        suburb_key: { type: 'string' },
        lga_code: nullable('string'),
        lga_name: nullable('string'),
        livability_score: nullable('number'),
        computed_at: { type: 'string', format: 'date-time' },
      }),
    },
  }),
  SuburbTimeseries: object({
    ...header,
    state: { type: 'string' },
    suburb: { type: 'string' },
    metric: { enum: ['prices', 'rents', 'approvals', 'bonds'] },
    count,
    data: {
      type: 'array',
      items: object({
        period: { type: 'string', description: 'YYYY-Qn.' },
        property_type: nullable('string'),
        value: nullable('number'),
        count: nullable('integer'),
      }),
      description: 'Oldest first; empty (status no_data) where no layer records the series for the suburb.',
    },
  }),
  SuburbScreen: object({
    ...header,
    state: { type: 'string' },
    total: { ...count, description: 'Suburbs passing every range.' },
    limit: count,
    offset: count,
    next_offset: nullable('integer', 'The offset of the next page; null on the last.'),
    count,
    metrics_available: {
      type: 'array',
      items: { type: 'string' },
      description: 'Metrics with a value in some suburb of the state.',
    },
    data: {
      type: 'array',
      items: object({
        suburb: { type: 'string' },
        suburb_key: { type: 'string' },
        lga_code: nullable('string'),
        lga_name: nullable('string'),
        metrics: { type: 'object', additionalProperties: { type: ['number', 'null'] } },
      }),
    },
  }),
};

const notFound = {
  description: 'No bundle was computed for this suburb (or none for the state yet).',
  message: 'No suburb named NOWHERE has analytics in VIC.',
  hint: 'List the computed suburbs with /v1/suburb-analytics/VIC.',
};

export const SUBURB_ANALYTICS_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /v1/suburb-analytics/bundle': {
    success: schemaRef('SuburbBundleAnswer'),
    successDescription: "The suburb's bundle, credited with the union of its sections' credits.",
    credited: true,
    raises: { 404: notFound },
  },
  'GET /v1/suburb-analytics/timeseries': {
    success: schemaRef('SuburbTimeseries'),
    successDescription: 'The quarterly series, oldest first, credited with the layer it came from.',
    credited: true,
    raises: { 404: notFound },
  },
  'GET /v1/suburb-analytics/screen': {
    success: schemaRef('SuburbScreen'),
    successDescription: 'The suburbs passing every range, ordered by suburb key (stable), with their metrics.',
    credited: true,
    notes:
      `Any numeric bundle metric takes <metric>_min and <metric>_max (inclusive; either may be omitted), at most ${MAX_SUBURB_SCREEN_RANGES} metrics. ` +
      'A metric no bundle of the dataset carries and the contract does not name is refused (400) naming it; a non-numeric bound, ' +
      `or a _min above its _max, is refused (400). limit above ${MAX_SUBURB_SCREEN_PAGE} is refused (400), not clamped; page with offset and next_offset.`,
  },
  'GET /v1/suburb-analytics/:state': {
    success: schemaRef('SuburbList'),
    successDescription: 'The computed suburbs of the state by suburb key, with their LGA and livability score.',
    credited: true,
  },
  'GET /v1/suburb-analytics/:state/:suburb': {
    success: schemaRef('SuburbBundleAnswer'),
    successDescription: "The suburb's full bundle (as /v1/suburb-analytics/bundle).",
    credited: true,
    notes: 'The suburb is case-insensitive; encode spaces as %20.',
    raises: { 404: notFound },
  },
};
