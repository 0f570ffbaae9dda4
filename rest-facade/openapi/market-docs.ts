/** OpenAPI docs and body schemas of the market routes (rest-facade/routes/market.ts). */
import { MAX_COMPARABLES, MAX_SALES_LIMIT } from '../../core/limits.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const nullable = (type: 'string' | 'number' | 'integer', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (
  properties: Record<string, SchemaObject>,
  description?: string,
  optional: string[] = [],
): SchemaObject => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
});
const count = { type: 'integer', minimum: 0 } as const;
const location = {
  type: ['object', 'null'],
  properties: { lat: { type: 'number' }, lng: { type: 'number' } },
} as SchemaObject;

const header: Record<string, SchemaObject> = {
  success: { const: true },
  query: { type: 'object', description: 'The request as read.' },
  status: schemaRef('LayerStatus'),
  source: nullable(
    'string',
    'mirror:<state>/market-sales@<snapshot_id> (and the rents and approvals sources where used).',
  ),
  freshness: nullable('string', 'The date (ISO 8601) the sales source was loaded.'),
  error: { type: 'null' },
  hint: nullable('string', 'Why there is nothing, or that the list was cut at limit.'),
  attribution: nullable(
    'string',
    'Credit line of every publisher in the answer (spec 2.2); also X-Service-Attribution.',
  ),
  license: nullable('string', 'Licence of the data; also X-Service-License.'),
};

const saleProperties: Record<string, SchemaObject> = {
  id: { type: 'string', description: '<source>:<source record id>, stable across reloads.' },
  state: { type: 'string' },
  contract_date: nullable('string', 'ISO 8601.'),
  settlement_date: nullable('string', 'ISO 8601.'),
  price: { type: 'number', description: 'Whole Australian dollars.' },
  property_type: { enum: ['house', 'unit', 'land', 'other'] },
  nature_of_property: nullable('string', 'The publisher code: NSW R (residence), V (vacant land), 3 (other).'),
  primary_purpose: nullable('string'),
  area: nullable('number'),
  area_unit: { type: ['string', 'null'], enum: ['m2', 'ha', null] },
  area_m2: nullable('number'),
  address: nullable('string'),
  locality: nullable('string'),
  postcode: nullable('string'),
  zoning: nullable('string'),
  strata_lot_number: nullable('string'),
  dealing_number: nullable('string'),
  legal_description: nullable('string', 'Lot/plan as published, e.g. 7/1037379 or 1/SP92934.'),
  gnaf_pid: nullable('string', 'The G-NAF address the sale was matched to.'),
  parcel_pfi: nullable('string', 'The parcel the sale was matched to.'),
  location,
  distance_m: nullable('number', 'From the point asked about, where one was.'),
  attribution: { type: 'string' },
  license: { type: 'string' },
};

const quarter = object({
  period: { type: 'string', description: 'YYYY-Qn.' },
  property_type: { type: 'string' },
  median_price: nullable('number', 'Null below 5 sales in the quarter.'),
  sales: count,
  median_weekly_rent: nullable('number'),
  new_bonds: nullable('integer'),
  bonds_held: nullable('integer'),
});
const rentRow = object(
  {
    period: { type: 'string', description: 'YYYY-Qn.' },
    dwelling_type: {
      enum: ['house', 'unit', 'townhouse', 'other', 'unknown', 'all'],
      description: 'As the rental bond data publishes it; all = every type.',
    },
    bedrooms: { type: 'string', description: 'The bedroom count as published (0 a bedsit), unknown, or all.' },
    median_weekly_rent: nullable('number', 'Null below 5 lodgements with a rent.'),
    new_bonds: nullable('integer'),
    bonds_held: nullable('integer'),
  },
  'One quarter of rents and bonds of a dwelling type and bedroom count.',
);
const summary = object({
  property_type: { type: 'string' },
  median_price_12m: nullable('number', 'Median of the four quarters to the latest full quarter; null below 10 sales.'),
  sales_12m: count,
  growth_1y_pct: nullable(
    'number',
    'Against the same four quarters one year earlier, per cent (total, not annualised).',
  ),
  growth_3y_pct: nullable('number'),
  growth_5y_pct: nullable('number'),
  median_weekly_rent: nullable('number', "The latest full quarter's, of the matching dwelling type."),
  gross_yield_pct: nullable('number', 'median_weekly_rent * 52 / median_price_12m * 100.'),
  rents_by_bedrooms: {
    type: 'array',
    description: "The latest full quarter's rents of the matching dwelling type per bedroom count, fewest first.",
    items: object({
      bedrooms: { type: 'string' },
      median_weekly_rent: nullable('number'),
      new_bonds: nullable('integer'),
      bonds_held: nullable('integer'),
    }),
  },
  notes: { type: 'array', items: { type: 'string' }, description: 'Why a figure is null.' },
});

export const MARKET_SCHEMAS: Record<string, SchemaObject> = {
  PropertySale: object(saleProperties, 'One sale as the valuer-general records it.'),
  PropertySaleList: object({
    ...header,
    count,
    data: { type: 'array', items: schemaRef('PropertySale'), maxItems: MAX_SALES_LIMIT },
  }),
  ComparableSaleList: object({
    ...header,
    parcel_pfi: nullable('string'),
    state: { type: 'string' },
    property_type: nullable('string', 'The type compared.'),
    property_type_from: nullable('string', 'argument, or last_sale (the property\u2019s own latest sale).'),
    area_m2: nullable('number', 'The size compared.'),
    radius_m: count,
    months: count,
    count,
    data: {
      type: 'array',
      maxItems: MAX_COMPARABLES,
      items: object(
        {
          ...saleProperties,
          score: { type: 'number', description: '0.5 distance_score + 0.3 recency_score + 0.2 size_score.' },
          distance_score: { type: 'number', description: '1 - distance / radius_m.' },
          recency_score: {
            type: 'number',
            description: '1 - months ago / months (from the newest sale of the state).',
          },
          size_score: { type: 'number', description: 'Smaller area / larger area; 0.5 where either is unknown.' },
        },
        'A comparable sale and its score; best first.',
      ),
    },
  }),
  SuburbTrends: object({
    ...header,
    state: { type: 'string' },
    suburb: { type: 'string' },
    postcode: nullable('string', 'The postcode rents are read by where the publisher keys them by postcode.'),
    latest_quarter: nullable('string', 'The latest full quarter, YYYY-Qn.'),
    summary: { type: 'array', items: summary },
    quarters: { type: 'array', items: quarter, description: 'Oldest first.' },
    rents: {
      type: 'array',
      items: rentRow,
      description:
        "Rents and bonds per dwelling type and bedroom count, oldest first; bedrooms 'all' rows are the totals.",
    },
    approvals: object({
      sa2_code: nullable('string'),
      sa2_name: nullable('string'),
      approvals_12m: nullable('number', 'Dwelling units approved in the latest four quarters of the SA2 (ABS).'),
      quarters: {
        type: 'array',
        items: object({ period: { type: 'string' }, dwelling_type: { type: 'string' }, value: { type: 'number' } }),
      },
    }),
    pipeline: {
      ...object(
        {
          status: schemaRef('LayerStatus'),
          hint: nullable('string'),
          attribution: nullable('string', 'The DA and land-supply sources counted (also in the answer credit).'),
          license: nullable('string'),
          das_pending: count,
          dwellings_pending: count,
          das_approved: count,
          dwellings_approved: count,
          lots_available: count,
          estates_selling: count,
        },
        'Development applications in assessment and approved (and the dwellings they propose), land-supply lots available now; the counts are absent unless status is ok.',
        ['das_pending', 'dwellings_pending', 'das_approved', 'dwellings_approved', 'lots_available', 'estates_selling'],
      ),
    },
  }),
  SuburbPriceSeries: object({
    ...header,
    state: { type: 'string' },
    suburb: { type: 'string' },
    latest_quarter: nullable('string'),
    series: {
      type: 'array',
      items: object({
        period: { type: 'string' },
        property_type: { type: 'string' },
        median_price: nullable('number'),
        sales: count,
      }),
    },
  }),
  SuburbRentSeries: object({
    ...header,
    state: { type: 'string' },
    suburb: { type: 'string' },
    postcode: nullable('string'),
    latest_quarter: nullable('string'),
    series: {
      type: 'array',
      items: object({
        period: { type: 'string' },
        property_type: { type: 'string', description: 'house or unit: the dwelling type of the rents.' },
        median_weekly_rent: nullable('number'),
        new_bonds: nullable('integer'),
        bonds_held: nullable('integer'),
      }),
    },
    by_bedrooms: {
      type: 'array',
      items: rentRow,
      description: 'The same per dwelling type (as published) and bedroom count, oldest first.',
    },
  }),
};

const unknownSuburb = {
  404: {
    description: 'No locality of the state has that name, and no sale, rent or approval names it.',
    message: 'Unknown suburb: no NSW locality is named NOWHERESVILLE.',
    hint: 'Spell the suburb as G-NAF names its locality (spaces URL-encoded), with its state.',
  },
};

export const MARKET_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/property-sales': {
    success: schemaRef('PropertySaleList'),
    successDescription: 'Sales of the place, newest first, each with its publisher credit.',
    credited: true,
    notes: `Name the place one way: lat and lng (with radius_m), pfi and state, or gnaf_pid. since and until bound the contract date. At most limit (1-${MAX_SALES_LIMIT}); the hint says when more were found.`,
  },
  'GET /api/property-sales/comparables': {
    success: schemaRef('ComparableSaleList'),
    successDescription: 'Comparable sales, best score first.',
    credited: true,
    notes:
      'Name the property one way: lat and lng, pfi and state, or gnaf_pid. The type compared is property_type, else the type of the property\u2019s own latest sale (no_data asks for property_type when it has none).',
    raises: {
      404: {
        description: 'No parcel with that PFI, or no address with that gnaf_pid.',
        message: 'No parcel with PFI 999999999 in NSW.',
        hint: 'Check the identifier, or ask by lat and lng.',
      },
    },
  },
  'GET /api/suburb-trends/:state/:suburb': {
    success: schemaRef('SuburbTrends'),
    successDescription: "The suburb's quarterly series, headline figures per property type and building approvals.",
    credited: true,
    raises: unknownSuburb,
  },
  'GET /api/suburb-trends/:state/:suburb/prices': {
    success: schemaRef('SuburbPriceSeries'),
    successDescription: 'Quarterly median sale prices per property type, oldest first.',
    credited: true,
    raises: unknownSuburb,
  },
  'GET /api/suburb-trends/:state/:suburb/rents': {
    success: schemaRef('SuburbRentSeries'),
    successDescription: 'Quarterly median weekly rents, new bonds and bonds held per dwelling type, oldest first.',
    credited: true,
    raises: unknownSuburb,
  },
};
