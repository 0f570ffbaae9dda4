import { MAX_BBOX_FEATURES, MAX_BBOX_SPAN_DEGREES } from '../../core/validate.ts';
import type { RouteDefinition } from '../route.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

/** An error a handler raises itself, with the words it uses (shown as the example). */
export type RaisedError = { description: string; message: string; hint?: string };

/**
 * What the route table cannot yet say about a route: the JSON Schema of its success body
 * (until responses are zod schemas too), whether that body carries third-party data, the
 * cross-parameter rules its zod refinements enforce, and the errors its handler raises.
 */
export type RouteDoc = {
  success: SchemaObject;
  /** Media type of the success body when it is not JSON (the changelog's Markdown). */
  contentType?: string;
  successDescription: string;
  /** The 200 can carry third-party data, so its credit goes in the attribution headers too. */
  credited: boolean;
  /** Rules between parameters (zod refinements) that per-parameter schemas cannot express. */
  notes?: string;
  /** Errors raised by the handler beyond the bad-input, auth, rate-limit and internal ones. */
  raises?: { 404?: RaisedError; 502?: RaisedError; 503?: RaisedError };
  /** Other statuses answered with a non-error body. */
  alsoReturns?: Record<string, { description: string; schema: SchemaObject }>;
};

/** How the route table and this map name a route: `GET /api/health`. */
export const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>): string =>
  `${route.method.toUpperCase()} ${route.path}`;

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/health': {
    success: schemaRef('Health'),
    successDescription: 'Every dependency answered.',
    credited: false,
    alsoReturns: {
      '503': {
        description: 'A dependency failed: the same body, with status unhealthy and the failing check.',
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
    },
  },
};
