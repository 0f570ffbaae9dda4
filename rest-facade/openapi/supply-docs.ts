/** OpenAPI docs and body schemas of the land-supply routes (rest-facade/routes/supply.ts). */
import {
  MAX_SUPPLY_ESTATE_RADIUS_KM,
  MAX_SUPPLY_LOT_RADIUS_KM,
  MAX_SUPPLY_NEAR,
  MAX_SUPPLY_TILE_ZOOM,
  MIN_SUPPLY_TILE_ZOOM,
} from '../../core/limits.ts';
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
const location = object({ lat: { type: 'number' }, lng: { type: 'number' } });
const ASPECTS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'];

const header: Record<string, SchemaObject> = {
  success: { const: true },
  query: { type: 'object', description: 'The request as read.' },
  status: schemaRef('LayerStatus'),
  source: nullable('string', 'land-supply.'),
  error: { type: 'null' },
  hint: nullable('string', 'Why there is nothing, in words a person can act on.'),
  attribution: nullable('string', 'Credit line to reproduce (spec 2.2); also sent as X-Service-Attribution.'),
  license: nullable('string', 'Licence of the data; also sent as X-Service-License.'),
};

export const SUPPLY_SCHEMAS: Record<string, SchemaObject> = {
  SupplyEstate: object(
    {
      estate_id: { type: 'string' },
      name: { type: 'string' },
      developer: nullable('string'),
      state: { type: 'string' },
      lga_code: nullable('string'),
      lga_name: nullable('string'),
      suburb: nullable('string'),
      status: { enum: ['selling', 'coming_soon', 'sold_out'] },
      location,
      rollup: object(
        {
          active_lots: { ...count, description: 'Available or under offer now.' },
          available_lots: count,
          under_offer_lots: count,
          sold_lots: count,
          withdrawn_lots: count,
          median_asking_price: nullable('number', 'Of the available lots, Australian dollars.'),
        },
        'The live lot rollup: the lots as last listed.',
      ),
      distance_km: nullable('number', 'From the point; nearby only.'),
    },
    'A greenfield estate.',
    ['distance_km'],
  ),
  SupplyLot: object(
    {
      lot_id: { type: 'string' },
      lot_number: nullable('string'),
      estate: object({
        estate_id: { type: 'string' },
        name: { type: 'string' },
        developer: nullable('string'),
        active_lots: count,
        available_lots: count,
      }),
      state: { type: 'string' },
      suburb: nullable('string'),
      asking_price: nullable('number', 'Australian dollars.'),
      area_m2: nullable('number'),
      frontage_m: nullable('number'),
      depth_m: nullable('number'),
      title_status: { enum: ['titled', 'untitled'] },
      sales_status: { enum: ['available', 'under_offer', 'sold', 'withdrawn'] },
      location,
      aspect: {
        anyOf: [{ enum: ASPECTS }, { type: 'null' }],
        description: 'Front-to-rear direction, 16-point (N: the rear yard faces north); null when none was derived.',
      },
      aspect_source: { anyOf: [{ enum: ['geometry', 'plan-compass', 'text-flip'] }, { type: 'null' }] },
      distance_km: nullable('number', 'From the point; nearby only.'),
    },
    'A lot as last listed (spec 2.9).',
    ['distance_km'],
  ),
  SupplyWeek: object({
    week: { type: 'string', description: 'The Monday of the week (ISO date).' },
    active_lots: count,
    available_lots: count,
    new_lots: count,
    sold_or_delisted_lots: count,
    median_asking_price: nullable('number'),
  }),
  SupplyEstateList: object({
    ...header,
    radius_km: { type: 'number' },
    count,
    data: { type: 'array', items: schemaRef('SupplyEstate') },
  }),
  SupplyLotList: object({
    ...header,
    radius_km: { type: 'number' },
    available_only: { type: 'boolean' },
    count,
    data: { type: 'array', items: schemaRef('SupplyLot') },
  }),
  SupplySuburb: object({
    ...header,
    state: { type: 'string' },
    suburb: { type: 'string' },
    weeks: { type: 'array', items: schemaRef('SupplyWeek'), description: 'Oldest first; empty for an unknown suburb.' },
    state_weeks: { type: 'array', items: schemaRef('SupplyWeek') },
    estates_selling: { type: 'array', items: schemaRef('SupplyEstate') },
  }),
  SupplyEstateDetail: object({
    ...header,
    estate: schemaRef('SupplyEstate'),
    weeks: { type: 'array', items: schemaRef('SupplyWeek') },
  }),
  SupplyState: object({
    ...header,
    state: { type: 'string' },
    weeks: { type: 'array', items: schemaRef('SupplyWeek') },
  }),
  SupplyStates: object({
    ...header,
    count,
    data: {
      type: 'array',
      items: object({
        state: { type: 'string' },
        week: { type: 'string' },
        active_lots: count,
        available_lots: count,
        new_lots: count,
        sold_or_delisted_lots: count,
        median_asking_price: nullable('number'),
        attribution: { type: 'string' },
        license: { type: 'string' },
      }),
    },
  }),
};

const weeksNote = 'weeks: the series to the latest rolled-up week, oldest first, zero where nothing was listed.';

export const SUPPLY_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /v1/land-supply/estates/nearby': {
    success: schemaRef('SupplyEstateList'),
    successDescription: 'Estates within the radius, nearest first, with distance_km and live rollups.',
    credited: true,
    notes: `radius_km at most ${MAX_SUPPLY_ESTATE_RADIUS_KM}; beyond is refused (400). More than ${MAX_SUPPLY_NEAR} estates is refused, never truncated.`,
  },
  'GET /v1/land-supply/lots/nearby': {
    success: schemaRef('SupplyLotList'),
    successDescription: 'Lots within the radius, nearest first, with their estate and aspect.',
    credited: true,
    notes: `radius_km at most ${MAX_SUPPLY_LOT_RADIUS_KM}; beyond is refused (400). More than ${MAX_SUPPLY_NEAR} lots is refused, never truncated.`,
  },
  'GET /v1/land-supply/suburb/:state/:suburb': {
    success: schemaRef('SupplySuburb'),
    successDescription: "The suburb's weekly series, its state's series and the estates selling now.",
    credited: true,
    notes: weeksNote,
  },
  'GET /v1/land-supply/estate/:estateId': {
    success: schemaRef('SupplyEstateDetail'),
    successDescription: 'The estate, its live lot rollup and its weekly series.',
    credited: true,
    notes: weeksNote,
    raises: {
      404: {
        description: 'No estate has that id.',
        message: 'No estate has the id vic-nowhere-1.',
        hint: 'Find estates with /v1/land-supply/estates/nearby.',
      },
    },
  },
  'GET /v1/land-supply/state/:state': {
    success: schemaRef('SupplyState'),
    successDescription: "The state's weekly series.",
    credited: true,
    notes: weeksNote,
  },
  'GET /v1/land-supply/states': {
    success: schemaRef('SupplyStates'),
    successDescription: 'The latest weekly rollup of every covered state, each with its own credit.',
    credited: true,
  },
  'GET /api/land-supply/lots/tiles/:z/:x/:y': {
    success: { type: 'string', format: 'binary' },
    contentType: 'application/vnd.mapbox-vector-tile',
    successDescription:
      'A Mapbox Vector Tile with one layer, lots: each lot its drawn boundary (or its point where no plan was drawn) ' +
      'with the attributes of the lot lookups. A tile without lots is an empty 200 (zero bytes), not a 204 or 404.',
    credited: true,
    notes: `z from ${MIN_SUPPLY_TILE_ZOOM} to ${MAX_SUPPLY_TILE_ZOOM}; other zooms and x or y outside the zoom's grid are refused (400).`,
    headers: ['Cache-Control', 'ETag'],
  },
};
