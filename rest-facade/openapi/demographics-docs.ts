/** OpenAPI docs and body schemas of the demographics routes (rest-facade/routes/demographics.ts). */
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const nullable = (type: 'string' | 'number' | 'integer', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const counts = (keys: string[], description: string): SchemaObject => ({
  type: ['object', 'null'],
  description,
  properties: Object.fromEntries(keys.map((k) => [k, nullable('integer')])),
  required: keys,
});

export const DEMOGRAPHICS_SCHEMAS: Record<string, SchemaObject> = {
  DemographicProfile: {
    type: 'object',
    description: 'The ABS General Community Profile figures (Census 2021) of one SAL or SA1.',
    properties: {
      geography: { enum: ['SAL', 'SA1'] },
      code: { type: 'string', description: 'ABS code as the boundary files write it (SAL 20495, SA1 20601110601).' },
      name: { type: 'string', description: "The ABS name; an SA1 carries its SA2's." },
      state: { type: 'string' },
      area_km2: nullable('number'),
      population: nullable('integer', 'Persons counted at their place of usual residence (G01 Tot_P_P).'),
      males: nullable('integer'),
      females: nullable('integer'),
      density_per_km2: nullable('number'),
      age_groups: {
        type: ['array', 'null'],
        items: {
          type: 'object',
          properties: {
            band: { type: 'string' },
            from_age: { type: 'integer' },
            to_age: nullable('integer'),
            persons: { type: 'integer' },
          },
          required: ['band', 'from_age', 'to_age', 'persons'],
        },
      },
      median_age: nullable('number'),
      median_personal_income_weekly: nullable('number', 'Dollars per week (G02).'),
      median_family_income_weekly: nullable('number', 'Dollars per week (G02).'),
      median_household_income_weekly: nullable('number', 'Dollars per week (G02).'),
      median_rent_weekly: nullable('number', 'Dollars per week (G02).'),
      median_mortgage_monthly: nullable('number', 'Dollars per month (G02).'),
      average_household_size: nullable('number'),
      average_persons_per_bedroom: nullable('number'),
      families: counts(
        ['couple_no_children', 'couple_with_children', 'one_parent', 'other', 'total'],
        'Families by composition (G29).',
      ),
      households: counts(['family', 'lone_person', 'group', 'total'], 'Households by type (G35).'),
      tenure: {
        type: ['object', 'null'],
        description: 'Occupied private dwellings by tenure (G37), with owner-occupied and rented shares.',
        properties: {
          ...Object.fromEntries(
            ['owned_outright', 'owned_with_mortgage', 'rented', 'other', 'not_stated', 'total'].map((k) => [
              k,
              nullable('integer'),
            ]),
          ),
          owner_occupied_pct: nullable('number'),
          rented_pct: nullable('number'),
        },
      },
      dwellings: counts(
        ['separate_house', 'semi_detached', 'flat_apartment', 'other', 'not_stated', 'occupied', 'unoccupied', 'total'],
        'Private dwellings by structure (G36).',
      ),
      tables: { type: 'array', items: { type: 'string' }, description: 'The DataPack tables read.' },
    },
    required: ['geography', 'code', 'name', 'population', 'median_age'],
  },
  DemographicsData: {
    type: 'object',
    properties: {
      census_year: { const: 2021 },
      sa1: { anyOf: [schemaRef('DemographicProfile'), { type: 'null' }] },
      sal: { anyOf: [schemaRef('DemographicProfile'), { type: 'null' }] },
    },
    required: ['census_year', 'sa1', 'sal'],
  },
  DemographicsSummary: {
    type: 'object',
    description:
      "The property graph's demographics: the headline figures of the SA1 and the SAL; GET /api/locality/demographics has them all.",
    properties: {
      census_year: { const: 2021 },
      sa1: { anyOf: [schemaRef('DemographicProfile'), { type: 'null' }] },
      sal: { anyOf: [schemaRef('DemographicProfile'), { type: 'null' }] },
    },
    required: ['census_year', 'sa1', 'sal'],
  },
  DemographicsResponse: {
    type: 'object',
    properties: {
      success: { const: true },
      query: { type: 'object', description: 'The place as given: lat, lng and state; pfi and state; or gnaf_pid.' },
      property: {
        type: 'object',
        description: 'The identifiers resolved, when given by pfi or gnaf_pid (spec 2.1.2).',
      },
      status: schemaRef('LayerStatus'),
      message: nullable('string'),
      source: nullable('string'),
      freshness: nullable('string', 'The day the Census figures were loaded (ISO date).'),
      data: { anyOf: [schemaRef('DemographicsData'), { type: 'null' }] },
      attribution: nullable('string', 'Credit line to reproduce (spec 2.2); also sent as X-Service-Attribution.'),
      license: nullable('string', 'Licence of the data; also sent as X-Service-License.'),
    },
    required: ['success', 'query', 'status', 'message', 'source', 'freshness', 'data', 'attribution', 'license'],
  },
  SuburbDemographicsResponse: {
    type: 'object',
    properties: {
      success: { const: true },
      query: { type: 'object', properties: { state: { type: 'string' }, suburb: { type: 'string' } } },
      status: schemaRef('LayerStatus'),
      message: nullable('string'),
      source: nullable('string'),
      freshness: nullable('string'),
      census_year: { const: 2021 },
      data: { anyOf: [schemaRef('DemographicProfile'), { type: 'null' }] },
      others: {
        type: 'array',
        items: schemaRef('DemographicProfile'),
        description: 'Other SALs of the same name in the state (the ABS tells them apart by a suffix).',
      },
      attribution: nullable('string'),
      license: nullable('string'),
    },
    required: ['success', 'query', 'status', 'data', 'others', 'attribution', 'license'],
  },
};

export const DEMOGRAPHICS_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/locality/demographics': {
    success: schemaRef('DemographicsResponse'),
    successDescription:
      'The Census 2021 figures of the SA1 and the suburb (SAL) holding the point; status says why there are none.',
    credited: true,
    notes:
      'Pass lat and lng (state defaults to the state the point lies in), or pfi with state (the parcel is looked ' +
      "up at its point), or gnaf_pid (the address's point).",
    raises: {
      404: {
        description: 'No parcel or address with that identifier.',
        message: 'No parcel with PFI 999 in VIC.',
        hint: 'Identifiers are stable across releases; check it was copied whole, or look the place up by lat and lng.',
      },
      502: {
        description: 'The demographics source failed.',
        message: 'The demographics source failed for this property; other layers are unaffected. Retry later.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /api/locality/demographics/suburb': {
    success: schemaRef('SuburbDemographicsResponse'),
    successDescription:
      "The suburb's Census 2021 figures (SAL); status not_covered where the state's figures are not loaded.",
    credited: true,
    notes:
      'suburb is matched case-insensitively; the ABS state suffix ("Richmond (Vic.)") may be left off, and when ' +
      'two SALs of the state share the name the most populous answers, the others listed under others.',
    raises: {
      404: {
        description: 'No suburb or locality of that name in the state.',
        message: 'No suburb or locality named Nowhere in VIC.',
        hint: 'Give the suburb as the ABS names it (SAL), e.g. suburb=Richmond; its state suffix may be left off.',
      },
      502: {
        description: 'The demographics source failed.',
        message: 'The demographics source failed for this property; other layers are unaffected. Retry later.',
        hint: 'Retry shortly.',
      },
    },
  },
};
