/** OpenAPI docs and body schemas of the SPEAR routes (rest-facade/routes/spear.ts). */
import { DEFAULT_SPEAR_RADIUS_M, MAX_SPEAR_RADIUS_M, MAX_SPEAR_RESULTS } from '../../core/limits.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const TYPES = [
  'planning_permit',
  'subdivision_permit',
  'certification',
  'permit_and_certification',
  'statement_of_compliance',
  'plan_of_subdivision',
  'other',
];
const STATUSES = [
  'lodged',
  'under_assessment',
  'approved',
  'certified',
  'compliance_issued',
  'registered',
  'refused',
  'withdrawn',
  'lapsed',
];

const nullable = (type: 'string' | 'number', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string, optional: string[] = []) => ({
  type: 'object' as const,
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
});

export const SPEAR_SCHEMAS: Record<string, SchemaObject> = {
  SpearApplication: object(
    {
      source: { type: 'string', description: 'The publisher: spear-export or sandbox.' },
      spear_reference: { type: 'string', description: "SPEAR's own reference, unique across Victoria." },
      application_type: { enum: TYPES },
      responsible_authority: { type: 'string', description: 'The council (responsible authority).' },
      council_reference: nullable('string', "The council's own permit number, where given."),
      lga_code: nullable('string'),
      state: { const: 'VIC' },
      status: { enum: STATUSES },
      description: nullable('string'),
      lodged_date: nullable('string', 'ISO date.'),
      decided_date: nullable(
        'string',
        'ISO date of the decision, certification, compliance, registration or withdrawal.',
      ),
      parcel_pfis: {
        type: 'array',
        items: { type: 'string' },
        description: 'The Vicmap parcel PFIs the application touches.',
      },
      address: nullable('string'),
      location: { anyOf: [object({ lat: { type: 'number' }, lng: { type: 'number' } }), { type: 'null' }] },
      source_url: nullable('string'),
      attribution: { type: 'string' },
      license: { type: 'string' },
      updated_at: { type: 'string', description: 'When the source last changed the record (ISO instant).' },
      distance_m: { type: 'number', minimum: 0, description: 'Metres from the point; nearby only.' },
    },
    "One application of Victoria's SPEAR (planning permit or subdivision) and the lots it touches.",
    ['distance_m'],
  ),
  SpearApplicationList: object(
    {
      success: { const: true },
      query: { type: 'object', description: 'The place as given.' },
      property: { type: 'object', description: 'The parcel resolved, when asked by pfi and state (spec 2.1.2).' },
      parcel_pfi: nullable('string'),
      radius_m: { type: 'number' },
      status: schemaRef('LayerStatus'),
      source: nullable('string', 'mirror:vic/spear@<snapshot_id>.'),
      freshness: nullable('string', 'The day the newest SPEAR application was received (ISO date).'),
      count: { type: 'integer', minimum: 0 },
      data: { type: 'array', items: schemaRef('SpearApplication'), description: 'Empty unless status is ok.' },
      error: { type: 'null' },
      hint: nullable('string', 'Why there are none: nothing here, or not_covered outside VIC.'),
      attribution: nullable('string', 'Credit line to reproduce (spec 2.2); also sent as X-Service-Attribution.'),
      license: nullable('string', 'Licence of the data; also sent as X-Service-License.'),
    },
    'SPEAR applications with the layer status and credit.',
    ['property', 'parcel_pfi', 'radius_m'],
  ),
};

const unknownParcel = {
  description: 'No parcel with that PFI in the state.',
  message: 'No parcel with PFI 999 in VIC.',
  hint: 'Check the identifier, or ask by lat and lng.',
};
const failed = {
  description: 'The SPEAR source failed.',
  message: 'The SPEAR source failed for this request.',
  hint: 'Retry shortly.',
};
const outsideVic = 'Outside VIC the answer is 200 with status not_covered: SPEAR is a Victorian system.';

export const SPEAR_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/spear/nearby': {
    success: schemaRef('SpearApplicationList'),
    successDescription: 'The SPEAR applications within the radius, nearest first, each with distance_m.',
    credited: true,
    notes:
      `Pass lat and lng (state defaults to the state the point lies in), or pfi with state (spec 2.1.2: the ` +
      `parcel's point). radius_m defaults to ${DEFAULT_SPEAR_RADIUS_M} and may be at most ${MAX_SPEAR_RADIUS_M}; ` +
      `more than ${MAX_SPEAR_RESULTS} applications within it is refused with 400, never truncated. ${outsideVic}`,
    raises: { 404: unknownParcel, 502: failed },
  },
  'GET /api/spear/bbox': {
    success: schemaRef('SpearApplicationList'),
    successDescription: 'The SPEAR applications whose point lies in the window, newest lodged first.',
    credited: true,
    notes:
      `bbox is west,south,east,north, at most 0.1 degrees per axis (as /api/cadastre/bbox); more than ` +
      `${MAX_SPEAR_RESULTS} applications in it is refused with 400. ${outsideVic}`,
    raises: { 502: failed },
  },
  'GET /api/spear/parcel': {
    success: schemaRef('SpearApplicationList'),
    successDescription: 'The SPEAR applications touching the parcel, newest lodged first.',
    credited: true,
    notes: `A lot can be touched by several applications and an application touch several lots. ${outsideVic}`,
    raises: { 404: unknownParcel, 502: failed },
  },
};
