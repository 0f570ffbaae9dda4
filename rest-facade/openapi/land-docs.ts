/**
 * OpenAPI docs and body schemas of the land routes (easements, building footprints, land
 * values), mirroring rest-facade/routes/land-features.ts.
 */
import { STATES } from '../../core/geo.ts';
import { MAX_BBOX_FEATURES, MAX_BBOX_SPAN_DEGREES } from '../../core/validate.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const maybe = (type: 'string' | 'number' | 'integer', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string): SchemaObject => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
});

const state: SchemaObject = { type: 'string', enum: [...STATES] };
const credit: Record<string, SchemaObject> = {
  attribution: maybe('string', 'Credit of every source in the answer (spec 2.2); also sent as X-Service-Attribution.'),
  license: maybe('string', 'Licence of each source in the answer, joined with " | "; also sent as X-Service-License.'),
};
const layerStatus: Record<string, SchemaObject> = {
  status: schemaRef('LayerStatus'),
  source: maybe('string', 'Where the answer came from: mirror:<state>/<layer>@<snapshot_id>.'),
  freshness: maybe(
    'string',
    'The date (ISO 8601) of the source snapshot that reaches this land; null where none does.',
  ),
};
const query: SchemaObject = { type: 'object', description: 'How the land was named, as resolved.' };

const feature = (properties: Record<string, SchemaObject>, description: string): SchemaObject =>
  object(
    { type: { const: 'Feature' }, geometry: schemaRef('GeoJSONGeometry'), properties: object(properties) },
    description,
  );

const collection = (item: string, description: string): SchemaObject => ({
  ...object({
    type: { const: 'FeatureCollection' },
    features: { type: 'array', items: schemaRef(item), maxItems: MAX_BBOX_FEATURES },
    success: { const: true },
    query,
    ...layerStatus,
    hint: maybe('string', 'Why the collection is empty (no_data, not_covered, skipped); null when it has features.'),
    error: { type: 'null' },
    ...credit,
  }),
  description,
});

export const LAND_SCHEMAS: Record<string, SchemaObject> = {
  EasementFeature: feature(
    {
      id: { type: 'string' },
      state,
      parcel_pfi: maybe('string', 'The burdened parcel.'),
      easement_type: { type: 'string', description: 'drainage, sewerage, carriageway, ... as the plan names it.' },
      width_m: maybe('number', 'Width of the strip, metres.'),
      plan_number: maybe('string', 'The plan the easement is registered on.'),
      area_m2: { type: 'number', minimum: 0 },
    },
    'An easement registered on a plan.',
  ),
  BuildingFeature: feature(
    {
      id: { type: 'string' },
      state,
      source: {
        enum: ['osm', 'state'],
        description: "OpenStreetMap (ODbL) or the state's building layer (CC BY 4.0).",
      },
      height_m: maybe('number', 'Height above ground, where the source has it.'),
      storeys: maybe('integer'),
      area_m2: { type: 'number', minimum: 0 },
    },
    'The outline of one building.',
  ),
  EasementFeatureCollection: collection('EasementFeature', 'Easements of a window or a parcel, whole.'),
  BuildingFeatureCollection: collection(
    'BuildingFeature',
    'Building footprints of a window, a point or a parcel, whole; credited per source used.',
  ),
  LandValue: object({
    parcel_pfi: { type: 'string' },
    state,
    site_value: { type: 'number', minimum: 0, description: 'The land alone, whole Australian dollars.' },
    capital_improved_value: maybe('number', 'Land and improvements; null where the state publishes no CIV (NSW, QLD).'),
    base_date: { type: 'string', format: 'date', description: 'The date the values are assessed at.' },
    valuer: { type: 'string' },
  }),
  LandValueEnvelope: object({
    success: { const: true },
    query,
    parcel_pfi: maybe('string', 'The parcel valued; null at a point off any parcel.'),
    state,
    ...layerStatus,
    data: { anyOf: [schemaRef('LandValue'), { type: 'null' }], description: 'Null unless status is ok.' },
    error: { type: 'null' },
    hint: maybe('string', 'Why there is no value (no_data, not_covered, skipped); null when there is.'),
    ...credit,
  }),
};

const WINDOW =
  `The window spans at most ${MAX_BBOX_SPAN_DEGREES} degrees per axis; one holding more than ${MAX_BBOX_FEATURES} ` +
  'features is refused with 400, never truncated.';

const notFound = {
  description: 'No parcel with that PFI in the state (or no property with that gnaf_pid).',
  message: 'No parcel with PFI 999999999 in VIC.',
  hint: 'Check the identifier, or ask by lat and lng.',
};

export const LAND_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/easements': {
    success: schemaRef('EasementFeatureCollection'),
    successDescription: 'The easements, with status no_data or not_covered and a hint when there are none.',
    credited: true,
    notes: `Name the land one way: bbox (state defaults to VIC), or pfi and state. ${WINDOW}`,
    raises: {
      404: notFound,
      502: {
        description: 'The easements source failed.',
        message: 'The easements source failed for this request.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /api/buildings': {
    success: schemaRef('BuildingFeatureCollection'),
    successDescription:
      'The footprints (on the parcel: those whose point on surface lies inside it; at a point: those holding it).',
    credited: true,
    notes:
      'Name the land one way: bbox, lat and lng, or pfi and state; state is detected from a point unless given. ' +
      `${WINDOW} Credit: OpenStreetMap (ODbL), plus the state's CC BY 4.0 layer where its outlines are included.`,
    raises: {
      404: notFound,
      502: {
        description: 'The building footprint source failed.',
        message: 'The building footprints source failed for this request.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /api/land-values': {
    success: schemaRef('LandValueEnvelope'),
    successDescription: "The parcel's land value, or status no_data, not_covered or skipped with a hint.",
    credited: true,
    notes:
      'Name the land one way: pfi and state, lat and lng (the parcel under the point), or gnaf_pid (the parcel of the ' +
      'address). Scope dossier.read: land values are records of a parcel, sold with property sales.',
    raises: {
      404: notFound,
      502: {
        description: 'The land values source failed.',
        message: 'The land values source failed for this request.',
        hint: 'Retry shortly.',
      },
    },
  },
};
