/**
 * OpenAPI docs and body schemas of the planning products' routes (provisions, envelope by
 * address, UGB, climate zone), mirroring rest-facade/routes/provisions*.ts and ugb.ts.
 */
import { STATES } from '../../core/geo.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const str = (description?: string): SchemaObject => ({ type: 'string', ...(description ? { description } : {}) });
const maybe = (type: 'string' | 'number' | 'integer' | 'boolean', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string): SchemaObject => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
});
const orNull = (schema: SchemaObject): SchemaObject => ({ anyOf: [schema, { type: 'null' }] });

const credit: Record<string, SchemaObject> = {
  attribution: maybe('string', 'Credit line to reproduce (spec 2.2); also sent as X-Service-Attribution.'),
  license: maybe('string', 'Licence of the data; also sent as X-Service-License.'),
};

const rule = {
  reference: str("The regulation the figure comes from, e.g. 'cl. 55.04-1 Standard B17'."),
  conservative_fallback: {
    type: 'boolean',
    description: 'True when the figure is a default, not a published control.',
  },
} satisfies Record<string, SchemaObject>;

const setback = object({ min_m: { type: 'number', minimum: 0 }, formula: maybe('string'), ...rule });
const percent = (key: 'max_percent' | 'min_percent') =>
  orNull(object({ [key]: { type: 'number', minimum: 0, maximum: 100 }, ...rule }));

const boundaryKind: SchemaObject = { enum: ['front', 'side', 'rear'] };

const stageRecord = object({
  stage: { enum: ['address', 'parcel', 'envelope'] },
  status: { enum: ['ok', 'failed'] },
  source: maybe('string', 'Where the stage read its data, e.g. mirror:vic/cadastre@<id>.'),
  ...credit,
  detail: { type: 'object', description: 'What the stage found: the match, the parcel, or the envelope gap.' },
});

export const PLANNING_SCHEMAS: Record<string, SchemaObject> = {
  BuildingEnvelope: object({
    type: { const: 'Feature' },
    geometry: orNull(schemaRef('GeoJSONGeometry')),
    properties: object({
      area_m2: { type: 'number' },
      parcel_area_m2: { type: 'number' },
      max_footprint_m2: maybe('number', 'The largest footprint site coverage allows inside the envelope.'),
      height_limit_m: maybe('number'),
      max_storeys: maybe('integer'),
      conservative_fallback: { type: 'boolean' },
    }),
    levels: {
      type: 'array',
      items: object({
        wall_height_m: { type: 'number' },
        front_setback_m: { type: 'number' },
        side_setback_m: { type: 'number' },
        rear_setback_m: { type: 'number' },
        geometry: orNull(schemaRef('GeoJSONGeometry')),
        area_m2: { type: 'number' },
      }),
    },
    boundaries: object({
      type: { const: 'FeatureCollection' },
      features: {
        type: 'array',
        items: object({
          type: { const: 'Feature' },
          geometry: schemaRef('GeoJSONGeometry'),
          properties: object({
            edge: { type: 'integer' },
            kind: boundaryKind,
            length_m: { type: 'number' },
            facing_deg: { type: 'number' },
            road_name: maybe('string'),
          }),
        }),
      },
    }),
  }),
  ClimateZoneData: object({
    climate_zone: { type: 'integer', minimum: 1, maximum: 8 },
    description: str('NCC name of the zone.'),
  }),
  PlanningProvisions: object(
    {
      state: { type: 'string', enum: [...STATES] },
      zone: orNull(object({ code: str(), description: maybe('string') })),
      overlays: { type: 'array', items: str(), description: 'Overlay codes at the point.' },
      regime: str(
        'The rules applied: VIC ResCode, NSW Housing Code (Rural Housing Code in Zone R5), QLD Development Code, or a conservative default.',
      ),
      conservative_fallback: { type: 'boolean', description: 'True when any figure is a default (an estimate).' },
      lot: object({
        area_m2: maybe('number'),
        frontage_m: maybe('number'),
        depth_m: maybe('number'),
        corner: { type: 'boolean' },
        source: { enum: ['parcel', 'caller', 'parcel+caller', 'none'] },
      }),
      setbacks: object({ front: setback, side: setback, rear: setback }),
      site_coverage: percent('max_percent'),
      permeability: percent('min_percent'),
      garden_area: percent('min_percent'),
      height: object({ max_m: maybe('number'), max_storeys: maybe('integer'), ...rule }),
      wall_on_boundary: orNull(
        object({
          allowed: { type: 'boolean' },
          max_length_m: maybe('number'),
          max_height_m: maybe('number'),
          max_average_height_m: maybe('number'),
          formula: maybe('string'),
          ...rule,
        }),
      ),
      appliedRules: {
        type: 'array',
        description: 'The rule applied to each boundary of the parcel (spec 2.8).',
        items: object({
          boundary: boundaryKind,
          edge: maybe('integer', 'Index of the boundary along the parcel outline; null when no parcel was measured.'),
          length_m: maybe('number'),
          facing_deg: maybe('number', 'Compass bearing the boundary faces, 0 = north.'),
          road_name: maybe('string'),
          wall_height_m: { type: 'number' },
          setback_m: { type: 'number', minimum: 0 },
          rule: str(),
          reference: str(),
        }),
      },
      notes: { type: 'array', items: str() },
    },
    'Planning provisions (spec 2.8).',
  ),
  PlanningProvisionsResponse: object({
    success: { const: true },
    query: { type: 'object', description: 'The point or parcel asked about, and the lot characteristics given.' },
    property: object({ parcel_pfi: maybe('string'), state: str() }),
    status: schemaRef('LayerStatus'),
    source: maybe('string'),
    message: maybe('string', 'Why the status is not ok (for example, no zone mapped here: defaults apply).'),
    data: schemaRef('PlanningProvisions'),
    ...credit,
  }),
  EnvelopeByAddress: object({
    success: { const: true },
    query: { type: 'object', description: 'The address asked for (and the state, when given).' },
    property: object({ gnaf_pid: str(), parcel_pfi: str(), state: str() }),
    envelope: schemaRef('BuildingEnvelope'),
    provisions: schemaRef('PlanningProvisions'),
    stages: { type: 'array', items: stageRecord },
    ...credit,
  }),
  EnvelopeResponse: object({
    success: { const: true },
    query: { type: 'object', description: 'The point or parcel asked about, and the lot characteristics given.' },
    property: object({ parcel_pfi: str(), state: str() }),
    status: schemaRef('LayerStatus'),
    source: maybe('string'),
    message: maybe('string'),
    envelope: schemaRef('BuildingEnvelope'),
    provisions: schemaRef('PlanningProvisions'),
    ...credit,
  }),
  EnvelopeStageFailure: object(
    {
      success: { const: false },
      error: str(),
      hint: maybe('string'),
      stage: { enum: ['address', 'parcel', 'envelope'] },
      retryable: { type: 'boolean' },
      stages: { type: 'array', items: stageRecord, description: 'The stages that ran, the failing one last.' },
      ...credit,
    },
    'A stage of the pipeline failed: 404 unmatched address or no parcel, 422 envelope gap, 502 cadastre or ' +
      'planning source outage, 503 a stage over budget or the database unreachable (both retryable).',
  ),
  UgbFeatureCollection: object({
    type: { const: 'FeatureCollection' },
    features: {
      type: 'array',
      items: object({
        type: { const: 'Feature' },
        id: str(),
        geometry: schemaRef('GeoJSONGeometry'),
        properties: object({
          id: str(),
          lga_code: maybe('string'),
          lga_name: str(),
          gaic_applies: { type: 'boolean' },
        }),
      }),
    },
    source: maybe('string', 'mirror:vic/ugb@<snapshot_id> or live:vic/ugb.'),
    hint: maybe('string'),
    success: { const: true },
    error: { type: 'null' },
    ...credit,
  }),
  UgbAtPointResponse: object({
    success: { const: true },
    source: maybe('string'),
    error: { type: 'null' },
    data: object({
      state: str(),
      available: { type: 'boolean' },
      reason: maybe('string'),
      query: {
        description: 'The place as given: lat and lng; pfi and state; or gnaf_pid.',
        anyOf: [
          object({ lat: { type: 'number' }, lng: { type: 'number' } }),
          object({ pfi: str(), state: str() }),
          object({ gnaf_pid: str() }),
        ],
      },
      insideUGB: maybe('boolean'),
      gaicApplies: maybe('boolean'),
      ugbLga: maybe('string'),
      zoneDescription: maybe('string'),
    }),
    ...credit,
  }),
  ClimateZoneResponse: object({
    success: { const: true },
    query: {
      description: 'The place as given: lat, lng and the state used; or pfi and state.',
      anyOf: [
        object({ lat: { type: 'number' }, lng: { type: 'number' }, state: str() }),
        object({ pfi: str(), state: str() }),
      ],
    },
    available: { type: 'boolean' },
    reason: maybe('string'),
    source: maybe('string'),
    data: orNull(schemaRef('ClimateZoneData')),
    ...credit,
  }),
};

export const PLANNING_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /v1/planning-provisions': {
    success: schemaRef('PlanningProvisionsResponse'),
    successDescription: 'The provisions, measured on the parcel and completed by the lot characteristics given.',
    credited: true,
    notes:
      'Pass lat and lng, or pfi with state. Lot characteristics (lot_area_m2, frontage_m, depth_m, corner, ' +
      'wall_height_m) override what the parcel geometry measures. Where no published control applies, a ' +
      'conservative default is given with conservative_fallback: true.',
    raises: {
      404: {
        description: 'No parcel with that PFI.',
        message: 'No parcel with PFI 999 in VIC.',
        hint: 'Check the identifier, or ask by lat and lng.',
      },
      502: {
        description: 'A planning source failed.',
        message: 'The planning source failed for this property.',
        hint: 'A planning source failed; retry shortly.',
      },
    },
  },
  'GET /v1/envelope-by-address': {
    success: schemaRef('EnvelopeByAddress'),
    successDescription: 'The envelope of the parcel under the address, with the provisions and every stage.',
    credited: true,
    notes:
      'Stages: address (matched as /api/cadastre/by-address does), parcel (the cadastre under the address point), ' +
      'envelope. A failing stage answers its own status with stage and retryable: 404 unmatched address or no ' +
      'parcel, 422 envelope formula gap, 502 a cadastre or planning source outage, 503 a stage over its ' +
      'timeout_ms (both retryable, with Retry-After).',
    alsoReturns: {
      '404': {
        description: 'The address did not match, or no parcel lies under it.',
        schema: schemaRef('EnvelopeStageFailure'),
        credited: true,
      },
      '422': {
        description: 'The envelope formula has no answer for the parcel.',
        schema: schemaRef('EnvelopeStageFailure'),
        credited: true,
      },
      '502': {
        description: 'The cadastre or planning source failed (retryable: retry after Retry-After seconds).',
        schema: schemaRef('EnvelopeStageFailure'),
        credited: true,
      },
      '503': {
        description:
          'A stage did not finish in its budget, or the database is unreachable (retryable: retry after ' +
          'Retry-After seconds).',
        schema: schemaRef('EnvelopeStageFailure'),
        credited: true,
      },
    },
  },
  'GET /api/envelope': {
    success: schemaRef('EnvelopeResponse'),
    successDescription: 'The envelope of the lot at the point (or of the parcel), with the provisions it applies.',
    credited: true,
    notes:
      'Pass lat and lng, or pfi with state; lot characteristics as for /v1/planning-provisions. One level per ' +
      'wall-height tier (3.6 m, 6.9 m and the height limit).',
    raises: {
      404: {
        description: 'No parcel at the point, or none with that PFI.',
        message: 'No parcel lies at this point, so there is no envelope.',
        hint: 'Ask at a point inside a lot, or by pfi and state.',
      },
      422: {
        description: 'The envelope formula has no answer: no road fronts the parcel, or the setbacks consume it.',
        message: 'No road centreline runs along any boundary of this parcel.',
        hint: 'The envelope formula has no answer for this parcel; /v1/planning-provisions still gives its rules.',
      },
      502: {
        description: 'A planning source failed.',
        message: 'The envelope source failed for this property; other layers are unaffected. Retry later.',
        hint: 'A planning source failed; retry shortly.',
      },
    },
  },
  'GET /api/ugb/vector': {
    success: schemaRef('UgbFeatureCollection'),
    successDescription: "Victoria's UGB polygons intersecting the window, whole; other states an empty collection.",
    credited: true,
    headers: ['X-Mirror-Source'],
    notes:
      'bbox spans at most 2 degrees per axis; more than 1000 polygons is refused, never truncated. Served from ' +
      'the mirror, else from the live Vicmap service (source live:vic/ugb) for live keys and the map mount.',
    raises: {
      502: {
        description: 'The live urban growth boundary service failed (where no mirror holds the boundary).',
        message: 'The live VIC planning service did not answer within 4000 ms. Retry shortly.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /api/ugb/at-point': {
    success: schemaRef('UgbAtPointResponse'),
    successDescription: 'Whether the point is inside the UGB (spec 2.12); available is false outside Victoria.',
    credited: true,
    headers: ['X-Mirror-Source'],
    notes:
      'Pass lat and lng (state defaults to the state the point lies in), or pfi with state, or gnaf_pid: a parcel ' +
      "or an address is looked up at the property's own point. The open map mount answers lat and lng only; pfi " +
      'or gnaf_pid needs a key with ugb.read.',
    raises: {
      404: {
        description: 'No parcel or address with that identifier.',
        message: 'No parcel with PFI 999 in VIC.',
        hint: 'Identifiers are stable across releases; check it was copied whole, or ask at a point by lat and lng.',
      },
      502: {
        description: 'The live urban growth boundary service failed (where no mirror holds the boundary).',
        message: 'The live VIC planning service did not answer within 4000 ms. Retry shortly.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /api/climate-zone': {
    success: schemaRef('ClimateZoneResponse'),
    successDescription: 'The NCC climate zone at the point; available is false where our map does not reach.',
    credited: true,
    notes:
      'Pass lat and lng (state defaults to the state the point lies in), or pfi with state: a parcel is looked up ' +
      "at the property's own point. Not by gnaf_pid: envelope.read does not open the address entry point.",
    raises: {
      404: {
        description: 'No parcel with that PFI in the state.',
        message: 'No parcel with PFI 999 in VIC.',
        hint: 'Identifiers are stable across releases; check it was copied whole, or ask at a point by lat and lng.',
      },
    },
  },
};
