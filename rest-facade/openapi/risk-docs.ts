/**
 * OpenAPI docs and body schemas of the Risk group (/api/hazards) and the risk summary
 * (/v1/risk-summary), mirroring rest-facade/routes/risk.ts.
 */
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

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
const orNull = (schema: SchemaObject): SchemaObject => ({ anyOf: [schema, { type: 'null' }] });

const credit: Record<string, SchemaObject> = {
  attribution: maybe('string', 'Credit line of the hazard datasets (spec 2.2); also sent as X-Service-Attribution.'),
  license: maybe('string', 'Licence of the data; also sent as X-Service-License.'),
};
const SEVERITIES = ['none', 'low', 'medium', 'high', 'extreme'];
const severity: SchemaObject = {
  anyOf: [{ enum: SEVERITIES }, { type: 'null' }],
  description: 'none (checked and clear) to extreme; null where the hazard is not mapped or its source failed.',
};
const coverage: SchemaObject = {
  enum: ['found', 'clear', 'not_mapped', 'unavailable'],
  description:
    'found: mapped here; clear: checked and nothing there; not_mapped: the datasets do not reach the land; ' +
    'unavailable: the source failed for this request (the other hazards still answered).',
};
const freshness = maybe('string', 'Snapshot date (YYYY-MM-DD) of the source checked.');
const query: SchemaObject = {
  type: 'object',
  description: 'How the property was identified, as resolved (the state of a point is detected from it).',
  additionalProperties: true,
};
const property = object(
  {
    gnaf_pid: maybe('string'),
    parcel_pfi: maybe('string'),
    state: schemaRef('StateCode'),
    location: orNull(object({ lat: { type: 'number' }, lng: { type: 'number' } })),
  },
  'The identifiers resolved (spec 2.1.2).',
);

export const RISK_SCHEMAS: Record<string, SchemaObject> = {
  HazardEvidence: object({
    type: { enum: ['overlay', 'register', 'vegetation'] },
    code: maybe('string', 'Overlay or category code (LSIO, FO, SBO, BPA, BMO, FPA, BFPL_CAT1, EAO, ...).'),
    description: { type: 'string' },
    severity: { enum: SEVERITIES.slice(1) },
    source: { type: 'string', description: 'The published dataset or register.' },
    distance_m: { type: 'number', minimum: 0, description: 'Metres from the point; 0 for an overlay over it.' },
    status: maybe('string', "A register entry's status."),
    snapshot_date: { type: 'string' },
  }),
  BalEstimate: object(
    {
      rating: { enum: ['BAL-LOW', 'BAL-12.5', 'BAL-19', 'BAL-29', 'BAL-40', 'BAL-FZ'] },
      method: { type: 'string' },
      table: { type: 'string' },
      fdi: { type: 'integer' },
      vegetation_class: maybe('string'),
      distance_m: maybe('number'),
      effective_slope_deg: {
        type: 'number',
        description:
          'Slope of the land under the vegetation (its near edge to 100 m beyond), from the terrain DEM where it ' +
          'reaches; 0 (rated flat, the note says why) where it does not.',
      },
      slope_direction: { enum: ['upslope', 'flat', 'downslope'] },
      slope_bearing_deg: maybe('number', 'Bearing the slope was measured along; null where it was not measured.'),
      slope_source: maybe('string', 'Terrain snapshot the slope came from; null where it was not measured.'),
      slope_band: { type: 'string' },
      distance_band_m: { type: 'array', items: { type: ['number', 'null'] } },
      indicative: { const: true },
      note: maybe('string'),
    },
    'Bushfire Attack Level by AS 3959 Method 1: indicative, not a site assessment.',
  ),
  Hazard: {
    type: 'object',
    properties: {
      severity,
      coverage,
      freshness,
      message: maybe('string'),
      evidence: { type: 'array', items: schemaRef('HazardEvidence') },
      bal: orNull(schemaRef('BalEstimate')),
    },
    required: ['severity', 'coverage', 'freshness', 'message', 'evidence'],
  },
  Hazards: object({ flood: schemaRef('Hazard'), bushfire: schemaRef('Hazard'), contamination: schemaRef('Hazard') }),
  HazardsResponse: object(
    {
      success: { const: true },
      query,
      property,
      status: schemaRef('LayerStatus'),
      source: maybe('string', 'mirror:<state>/hazards@<snapshot_id>.'),
      message: maybe('string'),
      freshness: maybe('string', 'The oldest snapshot date among the hazards checked.'),
      data: orNull(schemaRef('Hazards')),
      ...credit,
    },
    'Each hazard with its evidence; data is null only where nothing was checked (not_covered, skipped).',
  ),
  RiskSummary: object(
    {
      success: { const: true },
      query,
      property,
      status: schemaRef('LayerStatus'),
      message: maybe('string'),
      source: maybe('string'),
      freshness: maybe('string', 'The oldest snapshot date among the hazards checked.'),
      overall_severity: severity,
      flood: object({ severity, coverage, freshness }),
      bushfire: object({
        severity,
        coverage,
        freshness,
        bal: maybe('string', 'The BAL rating (BAL-LOW to BAL-FZ); null where bushfire is not mapped.'),
      }),
      contamination: object({ severity, coverage, freshness }),
      ...credit,
    },
    'Flood, bushfire (BAL) and contamination combined (spec 2.7).',
  ),
};

const IDENTIFY =
  'Identify the property one way: lat and lng (state is detected from the point unless given), or pfi and state, ' +
  'or gnaf_pid.';
const raises: RouteDoc['raises'] = {
  404: {
    description: 'No property with that gnaf_pid, or no parcel with that PFI in the state.',
    message: 'No property with gnaf_pid GAVIC000000000.',
    hint: 'Identifiers are stable across releases; check it was copied whole, or look the property up by lat and lng.',
  },
  502: {
    description: 'Every hazard source failed (one failing alone answers 200, that hazard unavailable).',
    message: 'Every hazard source failed for this property; other layers are unaffected. Retry later.',
    hint: 'Retry shortly.',
  },
};

export const RISK_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/hazards': {
    success: schemaRef('HazardsResponse'),
    successDescription: 'Flood, bushfire and contamination at the property, each with severity, evidence and coverage.',
    credited: true,
    notes: IDENTIFY,
    raises,
  },
  'GET /v1/risk-summary': {
    success: schemaRef('RiskSummary'),
    successDescription: 'Per hazard severity, coverage and freshness, the BAL, and the identifiers resolved.',
    credited: true,
    notes: IDENTIFY,
    raises,
  },
};
