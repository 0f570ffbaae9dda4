/**
 * OpenAPI docs and body schemas of the roads routes (nearest centrelines and fronting roads),
 * mirroring rest-facade/routes/roads.ts.
 */
import { STATES } from '../../core/geo.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';
import { DEFAULT_NEAREST_ROADS, MAX_NEAREST_ROADS, NEAREST_ROAD_REACH_M } from '../../core/limits.ts';

const maybe = (type: 'string' | 'number', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string): SchemaObject => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
});

const position: SchemaObject = { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 3 };
const name = maybe('string', 'The road name as its addresses use it; null for an unnamed segment.');
const roadClass: SchemaObject = {
  type: 'string',
  description: 'The road layer class, e.g. arterial, collector, local.',
};

/** The envelope both routes answer in: the layer's status and credit, and its roads. */
const roadsEnvelope = (item: SchemaObject, description: string): SchemaObject =>
  object(
    {
      success: { const: true },
      state: { type: 'string', enum: [...STATES] },
      status: schemaRef('LayerStatus'),
      message: maybe('string', 'Why there are no roads (not covered, no road near, no front); null when ok.'),
      source: maybe('string', 'Where the answer came from: mirror:<state>/roads@<snapshot_id>.'),
      data: { type: 'array', items: item, description: 'Empty unless status is ok.' },
      attribution: maybe('string', 'Credit line of the road network (spec 2.2); also sent as X-Service-Attribution.'),
      license: maybe('string', 'Licence of the data; also sent as X-Service-License.'),
    },
    description,
  );

export const ROADS_SCHEMAS: Record<string, SchemaObject> = {
  FrontingRoad: object(
    {
      name,
      road_class: roadClass,
      frontage_m: { type: 'number', minimum: 0, description: 'Length of the lot boundaries facing this road, metres.' },
      distance_m: { type: 'number', minimum: 0, description: 'From the nearest facing boundary to the centreline.' },
      front: { type: 'boolean', description: 'The lot front; the others are side streets of a corner lot.' },
    },
    'A road the lot fronts, by the boundary classification the envelope and provisions use.',
  ),
  NearbyRoad: object({
    name,
    road_class: roadClass,
    distance_m: { type: 'number', minimum: 0, description: 'From the point to the centreline, metres (WGS84).' },
    geometry: object({ type: { const: 'LineString' }, coordinates: { type: 'array', items: position, minItems: 2 } }),
  }),
  RoadsNearest: roadsEnvelope(schemaRef('NearbyRoad'), 'The centrelines nearest the point, nearest first.'),
  RoadsFronting: roadsEnvelope(schemaRef('FrontingRoad'), 'The roads the lot fronts, the front first.'),
};

const sourceFailed = (what: string) => ({
  description: `The roads source failed for this ${what}.`,
  message: `The roads source failed for this ${what}.`,
  hint: 'Retry shortly.',
});

export const ROADS_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/roads/nearest': {
    success: schemaRef('RoadsNearest'),
    successDescription: `Up to limit (default ${DEFAULT_NEAREST_ROADS}, at most ${MAX_NEAREST_ROADS}) centrelines, nearest first.`,
    credited: true,
    notes:
      `state is detected from the point unless given. Segments further than ${NEAREST_ROAD_REACH_M} m are not listed: ` +
      'a point that far from every road answers status no_data.',
    raises: { 502: sourceFailed('point') },
  },
  'GET /api/roads/fronting': {
    success: schemaRef('RoadsFronting'),
    successDescription: 'The fronting roads with the frontage along each; status no_data when no road fronts the lot.',
    credited: true,
    notes:
      'Name the lot one way: pfi and state, or lat and lng (the lot at the point; state detected unless given). ' +
      'A road fronts the lot where a boundary runs parallel to its centreline across the road reserve.',
    raises: {
      404: {
        description: 'No parcel with that PFI, or none at the point.',
        message: 'No parcel found at this point in VIC.',
        hint: 'Pass a point on a lot (not a road), or a PFI with its state.',
      },
      502: sourceFailed('lot'),
    },
  },
};
