/** OpenAPI docs and body schemas of the soil route (rest-facade/routes/soil.ts). */
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const SITE_CLASSES = ['A', 'S', 'M', 'H1', 'H2', 'E', 'P'];
const nullable = (type: 'string' | 'number', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string): SchemaObject => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
});

export const SOIL_SCHEMAS: Record<string, SchemaObject> = {
  SoilData: object(
    {
      indicative: { const: true, description: 'Always true: never a site classification.' },
      notice: {
        type: 'string',
        description: 'A geotechnical site classification (AS 2870) is needed before footings are designed.',
      },
      clay_percent: { type: 'number', minimum: 0, maximum: 100, description: 'Clay (SLGA CLY), percent.' },
      depth_m: { type: 'number', minimum: 0, description: 'Depth of soil (SLGA DES), metres.' },
      reactivity: {
        enum: ['nil', 'low', 'moderate', 'high', 'very_high', 'extreme', 'problem', null],
        description:
          "The source's shrink-swell class; null where the source maps none (the class then rests on clay and depth).",
      },
      ys_estimate_mm: {
        type: 'number',
        minimum: 0,
        description: 'Characteristic surface movement estimated from clay and depth.',
      },
      site_class_indicative: { enum: SITE_CLASSES },
      band: object({
        site_class: { enum: SITE_CLASSES },
        ys_range: nullable('string', 'The AS 2870 band of ys, e.g. 20-40 mm; null for P.'),
        description: { type: 'string' },
      }),
      basis: { enum: ['clay_and_depth', 'reactivity'], description: 'Which estimate set the class (the more severe).' },
      explanation: { type: 'string' },
      polygons: {
        type: 'integer',
        minimum: 1,
        description: 'Soil polygons touched; the figures are the most severe one.',
      },
      product: { type: 'string', description: 'The product the figures come from.' },
    },
    'Mapped soil figures and the AS 2870 site class they suggest.',
  ),
  SoilResponse: {
    type: 'object',
    properties: {
      success: { const: true },
      query: { type: 'object', description: 'The place as given: lat, lng and state; pfi and state; or gnaf_pid.' },
      property: {
        type: 'object',
        description: 'The identifiers resolved, when the place was given by pfi or gnaf_pid (spec 2.1.2).',
      },
      status: schemaRef('LayerStatus'),
      message: nullable('string', 'Why there are no figures, in words a person can act on.'),
      source: nullable('string'),
      freshness: nullable('string', 'When the source published the figures (ISO date); null without figures.'),
      data: { anyOf: [schemaRef('SoilData'), { type: 'null' }] },
      attribution: nullable('string', 'Credit line to reproduce (spec 2.2); also sent as X-Service-Attribution.'),
      license: nullable('string', 'Licence of the data; also sent as X-Service-License.'),
    },
    required: ['success', 'query', 'status', 'message', 'source', 'freshness', 'data', 'attribution', 'license'],
  },
};

export const SOIL_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/soil': {
    success: schemaRef('SoilResponse'),
    successDescription:
      'Indicative soil at the point, or over the parcel (the most severe soil it touches); status says why there are no figures.',
    credited: true,
    notes:
      'Pass lat and lng (state defaults to the state the point lies in), or pfi with state, or gnaf_pid. The site ' +
      'class is indicative: the worse of a class from clay content and depth and one from the mapped shrink-swell ' +
      'class; a geotechnical site classification is needed.',
    raises: {
      404: {
        description: 'No parcel or address with that identifier.',
        message: 'No parcel with PFI 999 in VIC.',
        hint: 'Identifiers are stable across releases; check it was copied whole, or look the soil up by lat and lng.',
      },
      502: {
        description: 'The soil source failed.',
        message: 'The soil source failed for this property; other layers are unaffected. Retry later.',
        hint: 'Retry shortly.',
      },
    },
  },
};
