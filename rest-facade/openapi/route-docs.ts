import { MAX_BBOX_FEATURES, MAX_BBOX_SPAN_DEGREES } from '../../core/validate.ts';
import type { RouteDefinition } from '../route.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';
import { PLANNING_ROUTE_DOCS } from './planning-docs.ts';
import { PLANNING_ZONE_ROUTE_DOCS } from './planning-zones-docs.ts';
import { SOIL_ROUTE_DOCS } from './soil-docs.ts';
import { DEMOGRAPHICS_ROUTE_DOCS } from './demographics-docs.ts';
import { LAND_ROUTE_DOCS } from './land-docs.ts';
import { RISK_ROUTE_DOCS } from './risk-docs.ts';
import { TERRAIN_ROUTE_DOCS } from './terrain-docs.ts';
import { ROADS_ROUTE_DOCS } from './roads-docs.ts';
import { DEVELOPMENT_ROUTE_DOCS } from './development-docs.ts';
import { SPEAR_ROUTE_DOCS } from './spear-docs.ts';
import { SUPPLY_ROUTE_DOCS } from './supply-docs.ts';
import { MARKET_ROUTE_DOCS } from './market-docs.ts';
import { SUBURB_ANALYTICS_ROUTE_DOCS } from './suburb-analytics-docs.ts';
import { LOCALITY_ROUTE_DOCS } from './locality-docs.ts';
import { JOBS_WEBHOOKS_ROUTE_DOCS } from './jobs-webhooks-docs.ts';
import { SITING_ROUTE_DOCS } from './siting-docs.ts';
import { EXPORTS_ROUTE_DOCS } from './exports-docs.ts';
import { ENRICH_ROUTE_DOCS } from './enrich-docs.ts';

/** An error a handler raises itself, with the words it uses (shown as the example). */
export type RaisedError = { description: string; message: string; hint?: string };

/**
 * What the route table cannot yet say about a route: the JSON Schema of its success body
 * (until responses are zod schemas too), whether that body carries third-party data, the
 * cross-parameter rules its zod refinements enforce, and the errors its handler raises.
 */
export type RouteDoc = {
  success: SchemaObject;
  /** The status the success body is sent with when it is not 200 (a creation 201, a queued job 202): documented instead of 200. */
  successStatus?: '201' | '202';
  /** Media type of the success body when it is not JSON (the changelog's Markdown). */
  contentType?: string;
  successDescription: string;
  /** The 200 can carry third-party data, so its credit goes in the attribution headers too. */
  credited: boolean;
  /** Rules between parameters (zod refinements) that per-parameter schemas cannot express. */
  notes?: string;
  /** Errors raised by the handler beyond the bad-input, auth, rate-limit and internal ones. */
  /**
   * Failures behind the route that may pass (one rule for every route, core/errors.ts): 502 a
   * source behind one of its layers failed; 503 the service itself could not answer in time
   * (every route documents 503 for its database; this adds its own cause, such as a budget).
   */
  raises?: { 404?: RaisedError; 409?: RaisedError; 422?: RaisedError; 502?: RaisedError; 503?: RaisedError };
  /** Other statuses answered with a body of the route's own; `credited` when it may carry third-party data. */
  alsoReturns?: Record<
    string,
    {
      description: string;
      schema: SchemaObject;
      credited?: boolean;
      /** When not the route's own. */ contentType?: string;
    }
  >;
  /** Further headers of the 200 beyond the shared ones (names in HEADERS of responses.ts). */
  headers?: string[];
};

/** How the route table and this map name a route: `GET /api/health`. */
export const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>): string =>
  `${route.method.toUpperCase()} ${route.path}`;

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/health': {
    success: schemaRef('Health'),
    successDescription: 'The instance can serve: healthy, or degraded while Redis or a subgraph is away.',
    credited: false,
    alsoReturns: {
      '503': {
        description: 'The database or the graph is down: the same body, with status unhealthy and the failing check.',
        schema: schemaRef('Health'),
      },
    },
  },
  'GET /changelog': {
    success: { type: 'string', description: 'Markdown: new routes, deprecations and sunsets.' },
    contentType: 'text/markdown',
    successDescription: 'The public changelog (spec 9.2), as Markdown.',
    credited: false,
  },
  'GET /v1/usage': {
    success: schemaRef('Usage'),
    successDescription: 'Metered calls of the calling key in the month, by route group.',
    credited: false,
  },
  'GET /api/cadastre/lookup': {
    success: schemaRef('CadastreEnvelope'),
    successDescription: 'The parcel, as the cadastre envelope (spec 2.4) with its state credit.',
    credited: true,
    notes: 'Pass lat and lng, or pfi with state; pfi takes precedence and state defaults to VIC.',
    raises: {
      404: {
        description: 'No parcel at the point (a road reserve, or outside the coverage), or none with that PFI.',
        message: 'No parcel found at this point in VIC.',
        hint: 'If the point is in another state, pass state=<code>.',
      },
      502: {
        description: 'The cadastre source failed for this lookup.',
        message: 'The cadastre source failed for this lookup.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /api/cadastre/bbox': {
    success: schemaRef('ParcelFeatureCollection'),
    successDescription:
      'Every parcel genuinely intersecting the window, whole and unclipped; an empty collection when none does.',
    credited: true,
    notes:
      `The window spans at most ${MAX_BBOX_SPAN_DEGREES} degrees per axis; one holding more than ` +
      `${MAX_BBOX_FEATURES} parcels is refused with 400, never truncated.`,
    raises: {
      502: {
        description: 'The cadastre source is unavailable for this window.',
        message: 'The cadastre source is unavailable for this window.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /api/cadastre/by-address': {
    success: schemaRef('ByAddressEnvelope'),
    successDescription:
      'The parcel under the matched address point, with similarity (1 for a strict match), confidence and geocodeType.',
    credited: true,
    notes:
      'A strict pass (same number, street name in order, a recognised street type, the exact postcode) and then a ' +
      'tolerant one (missing postcode, country, spelled-out state or type, case, commas, small typos) that never ' +
      "moves to another street. timeout_ms is each stage's budget, clamped to 250-12000; garbage is ignored.",
    raises: {
      404: {
        description: 'No candidate clears the match floor (confidence 0.5), or no parcel lies under the matched point.',
        message: "No address matches '1 Imaginary Lane, Huntly VIC 3551'.",
        hint: 'Check the number, street name and type, and suburb; the state and postcode narrow the search.',
      },
      502: {
        description: 'The address matched, but the cadastre source failed for its point.',
        message: '2 Dwyer Street, Huntly VIC 3551 was matched, but the cadastre source failed for its point.',
        hint: 'Retry shortly.',
      },
      503: {
        description: 'A stage did not finish within its budget.',
        message: 'The address lookup did not finish within its 250 ms budget.',
        hint: 'Retry, or raise timeout_ms (up to 12000).',
      },
    },
  },
  'GET /api/cadastre/parse-lot': {
    success: schemaRef('LotReferenceEnvelope'),
    successDescription: 'The lot, section, plan and state SPI the reference names; not metered.',
    credited: false,
    notes:
      'Reads VIC (3\\PS612345, Lot 3 PS612345, crown allotments), NSW (10//DP123456, 10/2/DP1234) and QLD ' +
      '(3RP123456, Lot 16 SP210455) notation; state, when given, decides between readings. Text that is not a ' +
      'lot/plan reference is a 400 saying what one looks like.',
  },
  'GET /api/cadastre/lot-detail/:propertyId': {
    success: schemaRef('LotDetailEnvelope'),
    successDescription:
      'The lot: identifiers read per state, area, extent, centroid, perimeter, geometry and addresses.',
    credited: true,
    notes:
      'propertyId is a parcel PFI (state defaults to VIC), a G-NAF PID (its linked parcel), or a lot/plan ' +
      'reference (3\\PS612345, 10//DP123456; URL-encode the backslash as %5C).',
    raises: {
      404: {
        description: 'No parcel with that PFI, address or lot/plan, or more than one parcel on that lot and plan.',
        message: "No parcel found for '999999999'.",
        hint: 'Pass a PFI with state, a gnaf_pid, or a lot/plan reference such as 3\\PS612345.',
      },
      502: {
        description: 'The cadastre source failed for this lot.',
        message: 'The cadastre source failed for this lot.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /v1/property/resolve': {
    success: schemaRef('PropertyResolve'),
    successDescription: 'The gnaf_pid, state and parcel_pfi of the address, with how well it matched.',
    credited: true,
    notes:
      'Matches as /api/cadastre/by-address does, and also answers addresses G-NAF places only on their street ' +
      'or locality (geocodeType STL, LOC or GG) with parcel_pfi null and a hint. The address may be passed as q ' +
      'or, as /v1/envelope-by-address names it, as address.',
    raises: {
      404: {
        description: 'No candidate clears the match floor.',
        message: "No address matches '1 Imaginary Lane, Nowhere NSW 2999'.",
        hint: 'Check the number, street name and type, and suburb; the state and postcode narrow the search.',
      },
      503: {
        description: 'A stage did not finish within its budget.',
        message: 'The address lookup did not finish within its 3000 ms budget.',
        hint: 'Retry, or raise timeout_ms (up to 12000).',
      },
    },
  },
  'GET /api/address/autocomplete': {
    success: schemaRef('AddressSuggestions'),
    successDescription: 'Up to limit (default 10, at most 20) addresses starting with q; not metered.',
    credited: true,
    notes:
      "Type the address from its number ('72 dwy', '2/72 Dwyer St'); street types may be abbreviated or spelled out.",
  },
  'GET /api/address/validate': {
    success: schemaRef('AddressValidation'),
    successDescription:
      'valid true with the normalised G-NAF address and the corrections made, or valid false and why.',
    credited: true,
    notes:
      'An address G-NAF places only on its street or locality (geocodeType STL, LOC or GG) is valid; hint says so. ' +
      'A locality written alone is read as that locality and is not valid.',
  },
  'GET /v1/property/graph': {
    success: schemaRef('PropertyGraph'),
    successDescription: 'The property and each layer with its own status; a failing layer does not fail the call.',
    credited: true,
    notes:
      'Identify the property one way: lat and lng (state is detected from the point unless given), ' +
      'or pfi and state, or gnaf_pid.',
    raises: {
      404: {
        description: 'No property with that gnaf_pid, or no parcel with that PFI in the state.',
        message: 'No property with gnaf_pid GAVIC000000000.',
        hint: 'Identifiers are stable across releases; check it was copied whole, or look the property up by lat and lng.',
      },
      502: {
        description: 'The service holding the property itself did not answer (a failing layer alone answers 200).',
        message: 'The cadastre service did not answer.',
      },
    },
  },
  ...PLANNING_ROUTE_DOCS,
  ...PLANNING_ZONE_ROUTE_DOCS,
  ...TERRAIN_ROUTE_DOCS,
  ...ROADS_ROUTE_DOCS,
  ...SOIL_ROUTE_DOCS,
  ...LAND_ROUTE_DOCS,
  ...RISK_ROUTE_DOCS,
  ...DEVELOPMENT_ROUTE_DOCS,
  ...SPEAR_ROUTE_DOCS,
  ...SUPPLY_ROUTE_DOCS,
  ...DEMOGRAPHICS_ROUTE_DOCS,
  ...MARKET_ROUTE_DOCS,
  ...SUBURB_ANALYTICS_ROUTE_DOCS,
  ...LOCALITY_ROUTE_DOCS,
  ...JOBS_WEBHOOKS_ROUTE_DOCS,
  ...SITING_ROUTE_DOCS,
  ...EXPORTS_ROUTE_DOCS,
  ...ENRICH_ROUTE_DOCS,
};
