import { STATES } from '../../core/geo.ts';
import { PROPERTY_LAYERS } from '../routes/property.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';
import { PLANNING_SCHEMAS } from './planning-docs.ts';
import { PLANNING_ZONE_SCHEMAS } from './planning-zones-docs.ts';
import { SOIL_SCHEMAS } from './soil-docs.ts';
import { DEMOGRAPHICS_SCHEMAS } from './demographics-docs.ts';
import { LAND_SCHEMAS } from './land-docs.ts';
import { RISK_SCHEMAS } from './risk-docs.ts';
import { TERRAIN_SCHEMAS } from './terrain-docs.ts';
import { ROADS_SCHEMAS } from './roads-docs.ts';
import { DEVELOPMENT_SCHEMAS } from './development-docs.ts';
import { SPEAR_SCHEMAS } from './spear-docs.ts';
import { JOBS_WEBHOOKS_SCHEMAS } from './jobs-webhooks-docs.ts';
import { SITING_SCHEMAS } from './siting-docs.ts';
import { EXPORTS_SCHEMAS } from './exports-docs.ts';
import { ENRICH_SCHEMAS } from './enrich-docs.ts';
import { SUPPLY_SCHEMAS } from './supply-docs.ts';
import { MARKET_SCHEMAS } from './market-docs.ts';
import { SUBURB_ANALYTICS_SCHEMAS } from './suburb-analytics-docs.ts';
import { LOCALITY_SCHEMAS } from './locality-docs.ts';

/**
 * JSON Schemas of the bodies the routes write, by hand until the responses are zod schemas
 * themselves: each mirrors the mapping code in rest-facade/routes/*.ts (and the error shapes of
 * rest-facade/errors.ts), and test/openapi.test.ts checks real responses against them.
 */

const nullable = (type: 'string' | 'number'): SchemaObject => ({ type: [type, 'null'] });
const orNull = (schema: SchemaObject): SchemaObject => ({ anyOf: [schema, { type: 'null' }] });

const position: SchemaObject = {
  type: 'array',
  description: 'A position: longitude, latitude in WGS84 decimal degrees.',
  items: { type: 'number' },
  minItems: 2,
  maxItems: 3,
};
const nested = (depth: number): SchemaObject => (depth === 0 ? position : { type: 'array', items: nested(depth - 1) });

const geometry = (type: string, depth: number): SchemaObject => ({
  type: 'object',
  properties: { type: { const: type }, coordinates: nested(depth) },
  required: ['type', 'coordinates'],
});

const credit: Record<string, SchemaObject> = {
  attribution: {
    type: ['string', 'null'],
    description: 'Credit line to reproduce wherever the data is shown (spec 2.2); also sent as X-Service-Attribution.',
  },
  license: {
    type: ['string', 'null'],
    description: 'Licence of the data, e.g. CC BY 4.0; also sent as X-Service-License.',
  },
};

const planningControl: SchemaObject = {
  type: 'object',
  properties: {
    code: { type: 'string', description: 'Full code with schedule, e.g. GRZ1, LSIO, HO123.' },
    description: { type: 'string' },
    scheme_code: { type: 'string', description: 'Family of the code, e.g. GRZ.' },
    lga_code: nullable('string'),
    lga_name: nullable('string'),
  },
  required: ['code', 'description', 'scheme_code', 'lga_code', 'lga_name'],
};

/** The REST form of each property-graph layer's data, by layer name (PROPERTY_LAYERS). */
export const LAYER_DATA_SCHEMAS: Record<string, SchemaObject> = {
  cadastre: schemaRef('ParcelFeature'),
  planning: schemaRef('PlanningData'),
  provisions: schemaRef('PlanningProvisions'),
  envelope: schemaRef('BuildingEnvelope'),
  climate_zone: schemaRef('ClimateZoneData'),
  terrain: schemaRef('TerrainStats'),
  roads: { type: 'array', items: schemaRef('FrontingRoad'), description: 'The roads the lot fronts, the front first.' },
  soil: schemaRef('SoilData'),
  easements: { type: 'array', items: schemaRef('EasementFeature') },
  buildings: { type: 'array', items: schemaRef('BuildingFeature') },
  land_value: schemaRef('LandValue'),
  hazards: schemaRef('Hazards'),
  development_applications: { type: 'array', items: schemaRef('DevelopmentApplication') },
  spear_applications: { type: 'array', items: schemaRef('SpearApplication') },
  demographics: schemaRef('DemographicsSummary'),
};

function layerSchema(layer: (typeof PROPERTY_LAYERS)[number]): SchemaObject {
  return {
    type: 'object',
    description: `Present when the key holds ${layer.scope}${'alsoScope' in layer ? ` or ${layer.alsoScope}` : ''}.`,
    properties: {
      status: schemaRef('LayerStatus'),
      source: { type: ['string', 'null'], description: 'Where the answer came from, e.g. mirror:vic/cadastre@<id>.' },
      ...credit,
      message: { type: ['string', 'null'], description: 'Why the layer is not ok, in words a person can act on.' },
      freshness: {
        type: ['string', 'null'],
        description:
          'Date (YYYY-MM-DD) of the snapshot that answered: the date the source gives its own figures where it ' +
          'dates them (hazards, soil, easements, buildings, land_value), otherwise the day the mirror snapshot ' +
          'was loaded, or the day a live source was read. Null where the layer has no answering source (error, ' +
          'not covered).',
      },
      data: { ...orNull(LAYER_DATA_SCHEMAS[layer.name] ?? { type: 'object' }), description: 'Null unless ok.' },
    },
    required: ['status', 'source', 'attribution', 'license', 'message', 'freshness', 'data'],
  };
}

const queryForm = (properties: Record<string, SchemaObject>): SchemaObject => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
});

const check: SchemaObject = {
  type: 'object',
  properties: {
    status: { enum: ['healthy', 'unhealthy'] },
    latencyMs: { type: 'number', minimum: 0 },
    error: { type: 'string', description: 'Why the check failed; only when unhealthy.' },
  },
  required: ['status', 'latencyMs'],
};

export const BODY_SCHEMAS: Record<string, SchemaObject> = {
  StateCode: { type: 'string', enum: [...STATES], description: 'State or territory code.' },
  LayerStatus: {
    enum: ['ok', 'no_data', 'not_covered', 'skipped', 'error'],
    description: 'Layer status (spec 2.6): no_data is checked and clear, not_covered is outside the data.',
  },
  GeoJSONGeometry: {
    description: 'GeoJSON geometry (RFC 7946) in WGS84, whole and unclipped.',
    oneOf: [
      geometry('Point', 0),
      geometry('LineString', 1),
      geometry('Polygon', 2),
      geometry('MultiPoint', 1),
      geometry('MultiLineString', 2),
      geometry('MultiPolygon', 3),
    ],
  },
  ParcelProperties: {
    type: 'object',
    description: 'Parcel identifiers (spec 2.1, 2.3); parcel_pfi is unique only within its state.',
    properties: {
      parcel_pfi: { type: 'string', description: 'Parcel feature identifier.' },
      parcel_spi: { ...nullable('string'), description: 'Standard parcel identifier.' },
      parcel_lot_number: nullable('string'),
      parcel_plan_number: nullable('string'),
      ezi_address: { ...nullable('string'), description: 'Address recorded against the parcel.' },
      state: schemaRef('StateCode'),
      area_m2: { type: 'number', minimum: 0, description: 'Area in square metres, to the centimetre.' },
    },
    required: [
      'parcel_pfi',
      'parcel_spi',
      'parcel_lot_number',
      'parcel_plan_number',
      'ezi_address',
      'state',
      'area_m2',
    ],
  },
  ParcelFeature: {
    type: 'object',
    description: 'The parcel payload (spec 2.3) as a GeoJSON Feature.',
    properties: {
      type: { const: 'Feature' },
      geometry: schemaRef('GeoJSONGeometry'),
      properties: schemaRef('ParcelProperties'),
    },
    required: ['type', 'geometry', 'properties'],
  },
  CadastreEnvelope: {
    type: 'object',
    description: 'The cadastre response envelope (spec 2.4) of a successful lookup.',
    properties: {
      success: { const: true },
      source: { ...nullable('string'), description: 'Where the answer came from, e.g. mirror:vic/cadastre@<id>.' },
      data: schemaRef('ParcelFeature'),
      error: { type: 'null' },
      hint: { type: 'null' },
      ...credit,
    },
    required: ['success', 'source', 'data', 'error', 'hint', 'attribution', 'license'],
  },
  ByAddressEnvelope: {
    type: 'object',
    description:
      'The cadastre envelope (spec 2.4) of a by-address match, with the additive match fields; ' +
      'properties.ezi_address is the matched address.',
    properties: {
      success: { const: true },
      source: { ...nullable('string'), description: 'Where the parcel came from, e.g. mirror:vic/cadastre@<id>.' },
      data: schemaRef('ParcelFeature'),
      error: { type: 'null' },
      hint: { type: 'null' },
      ...credit,
      similarity: { type: 'number', minimum: 0, maximum: 1, description: '1 for a strict match.' },
      confidence: { type: 'number', minimum: 0.5, maximum: 1, description: 'How sure the match is; never below 0.5.' },
      geocodeType: { type: 'string', description: 'G-NAF geocode grade of the matched point; never STL, LOC or GG.' },
    },
    required: [
      'success',
      'source',
      'data',
      'error',
      'hint',
      'attribution',
      'license',
      'similarity',
      'confidence',
      'geocodeType',
    ],
  },
  PropertyResolve: {
    type: 'object',
    description: 'The keys of the property an address names: store gnaf_pid, or parcel_pfi with state.',
    properties: {
      success: { const: true },
      data: {
        type: 'object',
        properties: {
          gnaf_pid: { type: 'string' },
          state: { type: 'string', enum: [...STATES] },
          parcel_pfi: {
            ...nullable('string'),
            description:
              'Null when no parcel lies under the address point, or when G-NAF places the address only on its ' +
              'street or locality (geocodeType STL, LOC or GG).',
          },
          address: { type: 'string', description: 'G-NAF single-line address.' },
          locality: { type: 'string' },
          postcode: nullable('string'),
          lat: { type: 'number' },
          lng: { type: 'number' },
          geocodeType: {
            type: 'string',
            description: 'G-NAF geocode grade of the address point; STL, LOC and GG are not on the parcel.',
          },
          similarity: { type: 'number' },
          confidence: { type: 'number' },
        },
        required: [
          'gnaf_pid',
          'state',
          'parcel_pfi',
          'address',
          'lat',
          'lng',
          'geocodeType',
          'similarity',
          'confidence',
        ],
      },
      hint: {
        ...nullable('string'),
        description: 'Why parcel_pfi is null when the address is placed only on its street or locality; else null.',
      },
      source: nullable('string'),
      ...credit,
    },
    required: ['success', 'data', 'hint', 'attribution', 'license'],
  },
  AddressSuggestions: {
    type: 'object',
    description: 'Addresses whose single-line form starts with the typed text, base addresses before units.',
    properties: {
      success: { const: true },
      query: { type: 'string' },
      suggestions: {
        type: 'array',
        maxItems: 20,
        items: {
          type: 'object',
          properties: {
            gnaf_pid: { type: 'string' },
            address: { type: 'string' },
            locality: { type: 'string' },
            state: { type: 'string' },
            postcode: nullable('string'),
            lat: { type: 'number' },
            lng: { type: 'number' },
          },
          required: ['gnaf_pid', 'address', 'locality', 'state', 'postcode', 'lat', 'lng'],
        },
      },
      source: nullable('string'),
      ...credit,
    },
    required: ['success', 'query', 'suggestions', 'attribution', 'license'],
  },
  AddressValidation: {
    type: 'object',
    description: 'Whether the text names a real address; when it does, its G-NAF form and what was corrected.',
    properties: {
      success: { const: true },
      valid: { type: 'boolean' },
      query: { type: 'string' },
      parsed: { type: 'object', description: 'The components the parser read from the text.' },
      data: orNull({
        type: 'object',
        properties: {
          gnaf_pid: { type: 'string' },
          address: { type: 'string' },
          components: { type: 'object' },
          lat: { type: 'number' },
          lng: { type: 'number' },
          geocodeType: {
            type: 'string',
            description: 'G-NAF geocode grade; STL, LOC and GG addresses are valid but not placed on a parcel.',
          },
          exact: { type: 'boolean', description: 'True when the strict pass matched.' },
          similarity: { type: 'number' },
          confidence: { type: 'number' },
          corrections: { type: 'array', items: { type: 'string' } },
        },
        required: ['gnaf_pid', 'address', 'components', 'exact', 'similarity', 'confidence', 'corrections'],
      }),
      error: nullable('string'),
      hint: nullable('string'),
      source: nullable('string'),
      ...credit,
    },
    required: ['success', 'valid', 'query', 'data', 'error', 'hint', 'attribution', 'license'],
  },
  LotReferenceEnvelope: {
    type: 'object',
    description:
      'A lot/plan reference read per its state (cadastre envelope; source is "parser": nothing was looked up).',
    properties: {
      success: { const: true },
      source: { const: 'parser' },
      data: {
        type: 'object',
        properties: {
          lot: nullable('string'),
          section: nullable('string'),
          plan: { type: 'string', description: 'Plan type and number, e.g. PS612345.' },
          plan_type: { type: 'string', description: 'PS, LP, TP, CP, CS, PC, PP, SP, RP, DP, BUP, GTP or PARISH.' },
          plan_number: { type: 'string' },
          state: { ...nullable('string'), description: 'Given, or implied by the plan type and notation; else null.' },
          spi: { ...nullable('string'), description: 'The state SPI form: 3\\PS612345, 3//DP123456, 3SP210455.' },
          parish: nullable('string'),
          input: { type: 'string' },
        },
        required: ['lot', 'section', 'plan', 'plan_type', 'plan_number', 'state', 'spi', 'parish', 'input'],
      },
      error: { type: 'null' },
      hint: { type: 'null' },
    },
    required: ['success', 'source', 'data', 'error', 'hint'],
  },
  LotDetailEnvelope: {
    type: 'object',
    description: 'One lot in detail, in the cadastre envelope.',
    properties: {
      success: { const: true },
      source: nullable('string'),
      data: {
        type: 'object',
        properties: {
          parcel_pfi: { type: 'string' },
          parcel_spi: nullable('string'),
          state: { type: 'string' },
          matched_by: { enum: ['pfi', 'gnaf_pid', 'lot_plan'] },
          lot: nullable('string'),
          section: nullable('string'),
          plan: nullable('string'),
          plan_type: nullable('string'),
          plan_number: nullable('string'),
          ezi_address: nullable('string'),
          area_m2: { type: 'number' },
          bbox: {
            type: 'array',
            items: { type: 'number' },
            minItems: 4,
            maxItems: 4,
            description: 'west,south,east,north',
          },
          centroid: orNull({
            type: 'object',
            properties: { lat: { type: 'number' }, lng: { type: 'number' } },
            required: ['lat', 'lng'],
          }),
          perimeter_m: { type: 'number' },
          addresses: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                gnaf_pid: { type: 'string' },
                address: { type: 'string' },
                geocodeType: { type: 'string' },
              },
              required: ['gnaf_pid', 'address', 'geocodeType'],
            },
          },
          geometry: schemaRef('GeoJSONGeometry'),
        },
        required: [
          'parcel_pfi',
          'state',
          'matched_by',
          'area_m2',
          'bbox',
          'centroid',
          'perimeter_m',
          'addresses',
          'geometry',
        ],
      },
      error: { type: 'null' },
      hint: { type: 'null' },
      ...credit,
    },
    required: ['success', 'source', 'data', 'error', 'hint', 'attribution', 'license'],
  },
  ParcelFeatureCollection: {
    type: 'object',
    description:
      'The bounding-box response (spec 2.5). A window with no parcels is a 200 with no features and a hint saying why.',
    properties: {
      type: { const: 'FeatureCollection' },
      features: { type: 'array', items: schemaRef('ParcelFeature'), maxItems: 1000 },
      source: nullable('string'),
      hint: { ...nullable('string'), description: 'Why the collection is empty; null when it has features.' },
      success: { const: true },
      error: { type: 'null' },
      ...credit,
    },
    required: ['type', 'features', 'source', 'hint', 'success', 'error', 'attribution', 'license'],
  },
  PlanningControl: planningControl,
  PlanningData: {
    type: 'object',
    properties: {
      zone: orNull(schemaRef('PlanningControl')),
      overlays: { type: 'array', items: schemaRef('PlanningControl') },
    },
    required: ['zone', 'overlays'],
  },
  PropertyGraph: {
    type: 'object',
    description: 'Every layer of one property (spec 2.6), each with its own status and credit.',
    properties: {
      success: { const: true },
      query: {
        description: 'How the property was identified, as resolved (the state of a point is detected from it).',
        oneOf: [
          queryForm({ lat: { type: 'number' }, lng: { type: 'number' }, state: schemaRef('StateCode') }),
          queryForm({ pfi: { type: 'string' }, state: schemaRef('StateCode') }),
          queryForm({ gnaf_pid: { type: 'string' } }),
        ],
      },
      property: {
        type: 'object',
        description: 'The resolved identifiers (spec 2.1).',
        properties: {
          gnaf_pid: nullable('string'),
          parcel_pfi: nullable('string'),
          state: schemaRef('StateCode'),
          address: { ...nullable('string'), description: 'Formatted address, when the property has one.' },
          location: orNull({
            type: 'object',
            description: 'The point the layers were read at.',
            properties: { lat: { type: 'number' }, lng: { type: 'number' } },
            required: ['lat', 'lng'],
          }),
        },
        required: ['gnaf_pid', 'parcel_pfi', 'state', 'address', 'location'],
      },
      layers: {
        type: 'object',
        description: "The layers the key's scopes allow, by name.",
        properties: Object.fromEntries(PROPERTY_LAYERS.map((layer) => [layer.name, layerSchema(layer)])),
      },
      attribution: { ...nullable('string'), description: 'The credits of every ok layer, joined with " | ".' },
      license: { ...nullable('string'), description: 'The licences of every ok layer, joined with " | ".' },
    },
    required: ['success', 'query', 'property', 'layers', 'attribution', 'license'],
  },
  HealthCheck: check,
  Health: {
    type: 'object',
    properties: {
      status: {
        enum: ['healthy', 'degraded', 'unhealthy'],
        description:
          'unhealthy (503) when the database or the graph is down; degraded (200) when Redis or a subgraph is ' +
          'away and the service answers without it.',
      },
      timestamp: { type: 'string', format: 'date-time' },
      version: { type: 'string' },
      mode: { enum: ['embedded', 'distributed'] },
      database: { enum: ['postgres', 'pglite'] },
      cache: { enum: ['redis', 'memory'] },
      rateLimiter: { enum: ['redis', 'memory'], description: 'Where rate-limit decisions come from right now.' },
      checks: {
        type: 'object',
        properties: {
          database: schemaRef('HealthCheck'),
          cache: schemaRef('HealthCheck'),
          graph: schemaRef('HealthCheck'),
          subgraphs: {
            type: 'object',
            description: 'Each subgraph service by name; distributed mode only.',
            additionalProperties: schemaRef('HealthCheck'),
          },
        },
        required: ['database', 'cache', 'graph'],
      },
    },
    required: ['status', 'timestamp', 'version', 'mode', 'database', 'cache', 'rateLimiter', 'checks'],
  },
  Usage: {
    type: 'object',
    description: "The calling key's metered calls in one month.",
    properties: {
      success: { const: true },
      key: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, kind: { enum: ['live', 'test'] } },
        required: ['id', 'name', 'kind'],
      },
      month: { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'The month counted, YYYY-MM (UTC).' },
      usage: {
        type: 'array',
        items: {
          type: 'object',
          properties: { route_group: { type: 'string' }, calls: { type: 'integer', minimum: 0 } },
          required: ['route_group', 'calls'],
        },
      },
      total: { type: 'integer', minimum: 0 },
      monthly_quota: { type: ['integer', 'null'], description: 'Contracted monthly volume; null when none is set.' },
      billing_review: {
        type: 'boolean',
        description: 'The key went over its contracted volume: a billing review follows, never a refusal (spec 8).',
      },
    },
    required: ['success', 'key', 'month', 'usage', 'total', 'monthly_quota', 'billing_review'],
  },
  ...PLANNING_SCHEMAS,
  ...PLANNING_ZONE_SCHEMAS,
  ...TERRAIN_SCHEMAS,
  ...ROADS_SCHEMAS,
  ...SOIL_SCHEMAS,
  ...LAND_SCHEMAS,
  ...RISK_SCHEMAS,
  ...DEVELOPMENT_SCHEMAS,
  ...SPEAR_SCHEMAS,
  ...SUPPLY_SCHEMAS,
  ...DEMOGRAPHICS_SCHEMAS,
  ...MARKET_SCHEMAS,
  ...SUBURB_ANALYTICS_SCHEMAS,
  ...LOCALITY_SCHEMAS,
  ...JOBS_WEBHOOKS_SCHEMAS,
  ...SITING_SCHEMAS,
  ...EXPORTS_SCHEMAS,
  ...ENRICH_SCHEMAS,
};
