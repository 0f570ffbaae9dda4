/** OpenAPI docs and body schemas of the locality and walking-catchment routes (rest-facade/routes/locality.ts). */
import { AMENITY_CATEGORIES, CATCHMENT_MINUTES, WALKING_SPEED_M_PER_MIN } from '../../core/amenities.ts';
import {
  DEFAULT_AMENITY_LIMIT,
  DEFAULT_AMENITY_RADIUS_M,
  MAX_AMENITY_LIMIT,
  MAX_AMENITY_RADIUS_M,
} from '../../core/limits.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const nullable = (type: 'string' | 'number' | 'integer' | 'boolean', description?: string): SchemaObject => ({
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
  source: nullable('string', 'mirror:<state>/amenities@<snapshot_id>.'),
  freshness: nullable('string', 'Date (YYYY-MM-DD) of the snapshot that answered.'),
  error: { type: 'null' },
  hint: nullable('string', 'Why there is nothing, in words a person can act on.'),
  attribution: nullable('string', '© OpenStreetMap contributors (spec 2.2); also sent as X-Service-Attribution.'),
  license: nullable('string', 'ODbL; also sent as X-Service-License.'),
};

export const LOCALITY_SCHEMAS: Record<string, SchemaObject> = {
  Amenity: object(
    {
      id: { type: 'string', description: 'node/<id> or way/<id> (OpenStreetMap); the sandbox has its own ids.' },
      osm_type: { enum: ['node', 'way', 'relation', 'synthetic'] },
      osm_id: nullable('number'),
      category: { enum: [...AMENITY_CATEGORIES] },
      subcategory: nullable(
        'string',
        'The tag value that classed it (primary, kindergarten, bus_stop, park, bakery...).',
      ),
      school_sector: { anyOf: [{ enum: ['government', 'catholic', 'independent'] }, { type: 'null' }] },
      school_level: { anyOf: [{ enum: ['primary', 'secondary', 'combined', 'special'] }, { type: 'null' }] },
      transport_mode: { anyOf: [{ enum: ['bus', 'train', 'tram', 'light_rail', 'ferry'] }, { type: 'null' }] },
      name: nullable('string'),
      lat: { type: 'number' },
      lng: { type: 'number' },
      distance_m: { type: 'number', minimum: 0, description: 'Straight line from the point, metres.' },
      walking_distance_m: nullable(
        'number',
        'Over the walking network, metres; null where no held network reaches it.',
      ),
      walking_minutes: nullable('number', `At ${WALKING_SPEED_M_PER_MIN} m a minute.`),
      tags: { type: 'object', additionalProperties: { type: 'string' }, description: 'The OpenStreetMap tags.' },
    },
    'A place people walk to (OpenStreetMap, ODbL).',
  ),
  AmenitiesNear: object({
    ...header,
    state: { type: 'string' },
    category: { enum: [...AMENITY_CATEGORIES] },
    radius_m: { type: 'number' },
    network: { type: 'boolean', description: 'Whether a walking network is held around the point.' },
    count,
    data: { type: 'array', items: schemaRef('Amenity'), description: 'Nearest first; empty unless status is ok.' },
  }),
  SuburbAmenities: object({
    ...header,
    state: { type: 'string' },
    suburb: { type: 'string', description: 'Upper-cased as G-NAF names it.' },
    extent_method: {
      enum: ['sal-boundary', 'address-hull', null],
      description:
        'sal-boundary: the suburb’s ABS Suburbs and Localities (SAL) boundary, where the Census boundaries are held; else address-hull: the convex hull of its G-NAF address points, widened 25 m.',
    },
    sal: {
      anyOf: [object({ code: { type: 'string' }, name: { type: 'string' } }), { type: 'null' }],
      description: 'The ABS SAL used as the extent (its ABS credit joins the answer’s); null with address-hull.',
    },
    centre: {
      anyOf: [object({ lat: { type: 'number' }, lng: { type: 'number' } }), { type: 'null' }],
      description: 'The extent’s centroid, where nearest distances are measured from.',
    },
    counts: {
      type: 'array',
      items: object({
        category: { enum: [...AMENITY_CATEGORIES] },
        count,
        nearest_m: nullable('number', 'From the centre to the nearest of the category, inside the suburb or not.'),
        nearest_name: nullable('string'),
      }),
    },
  }),
  WalkingCatchment: object({
    ...header,
    state: { type: 'string' },
    state_detected: nullable('string', 'The state the point lies in, whatever state= said.'),
    location: object(
      { lat: { type: 'number' }, lng: { type: 'number' } },
      'The point walked from: the one asked, or the parcel’s.',
    ),
    minutes: { enum: [...CATCHMENT_MINUTES] },
    walking_speed_m_per_min: { type: 'number' },
    walking_speed_kmh: { type: 'number' },
    budget_m: { type: 'number', description: 'minutes x walking speed.' },
    approximate: { type: 'boolean', description: 'True when degraded to a straight-line buffer (spec 2.11).' },
    reason: nullable('string', 'Why the catchment is approximate.'),
    origin: {
      anyOf: [object({ node: { type: 'string' }, access_m: nullable('number') }), { type: 'null' }],
      description: 'The network node the walk starts from and the straight step to it.',
    },
    reached: object({ nodes: count, edges: count }),
    polygon: {
      anyOf: [
        object({ type: { enum: ['Polygon', 'MultiPolygon'] }, coordinates: { type: 'array' } }),
        { type: 'null' },
      ],
      description: 'GeoJSON, WGS84: a band along the reached network, or the buffer when approximate.',
    },
    count,
    amenities: { type: 'array', items: schemaRef('Amenity'), description: 'Nearest walk first.' },
  }),
};

const sourceFailed = (what: string) => ({
  description: `The amenities source failed for this ${what}.`,
  message: `The amenities source failed for this ${what}.`,
  hint: 'Retry shortly.',
});

const nearDoc = (what: string): RouteDoc => ({
  success: schemaRef('AmenitiesNear'),
  successDescription: `${what} within radius_m (default ${DEFAULT_AMENITY_RADIUS_M}, at most ${MAX_AMENITY_RADIUS_M}), nearest first, at most limit (default ${DEFAULT_AMENITY_LIMIT}, at most ${MAX_AMENITY_LIMIT}).`,
  credited: true,
  notes:
    'Name the place one way: lat and lng (state detected unless given), or pfi and state (the parcel’s point). ' +
    'walking_distance_m is over the held walking network from the node nearest the point; null where none is held.',
  raises: {
    404: {
      description: 'No parcel with that PFI.',
      message: 'No parcel with PFI 999 in VIC.',
      hint: 'Check the identifier, or ask by lat and lng.',
    },
    502: sourceFailed('point'),
  },
});

export const LOCALITY_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/locality/schools': nearDoc('Schools'),
  'GET /api/locality/childcare': nearDoc('Childcare centres and kindergartens'),
  'GET /api/locality/supermarkets': nearDoc('Supermarkets'),
  'GET /api/locality/transport-stops': nearDoc('Transport stops and stations'),
  'GET /api/locality/amenities/suburb': {
    success: schemaRef('SuburbAmenities'),
    successDescription: 'Every category with its count inside the suburb and the nearest to its centre.',
    credited: true,
    notes:
      'The suburb’s extent is the convex hull of its G-NAF address points (until Census SAL boundaries are held); ' +
      'suburb is case-insensitive.',
    raises: {
      404: {
        description: 'No addresses of a suburb of that name are held in the state.',
        message: 'No addresses of a suburb named NOWHERE are held in VIC.',
        hint: 'Name the suburb as its addresses do (e.g. suburb=Huntly&state=VIC).',
      },
      502: sourceFailed('suburb'),
    },
  },
  'GET /v1/catchment/walking': {
    success: schemaRef('WalkingCatchment'),
    successDescription:
      'The catchment polygon over the reached network and every amenity inside with walking distance and time; ' +
      'approximate:true with a reason where no network is held.',
    credited: true,
    notes:
      `minutes is ${CATCHMENT_MINUTES.join(', ')}; the walk is at ${WALKING_SPEED_M_PER_MIN} m a minute (4.8 km/h) from the ` +
      'network node nearest the point, the step to it walked first. state overrides the state detected from the point. ' +
      'pfi and state in place of lat and lng walk from the parcel’s point (spec 2.1.2).',
    raises: {
      404: {
        description: 'No parcel with that PFI.',
        message: 'No parcel with PFI 999 in VIC.',
        hint: 'Check the identifier, or ask by lat and lng.',
      },
      502: sourceFailed('point'),
    },
  },
};
