/**
 * The layer routes' requests, drawn from the benchmark's parcels (database.ts benchPoints: the
 * same parcels every run on the same data, each with a point inside it). The point routes are
 * asked at that point, the parcel routes by its PFI, and the whole property graph by its PFI
 * through both the REST route and POST /graphql, so the two differ only by the facade's work.
 */
import { PROPERTY_LAYERS, propertyOperation } from '../rest-facade/routes/property.ts';
import type { BenchPoint } from './database.ts';
import type { BenchRequest } from './load.ts';

export const LAYER_ROUTES = [
  'soil',
  'hazards',
  'risk-summary',
  'roads-fronting',
  'roads-nearest',
  'easements',
  'buildings',
  'land-values',
  'property-graph',
  'graphql',
] as const;
export type LayerRouteName = (typeof LAYER_ROUTES)[number];

const at = (p: BenchPoint) => `lat=${p.lat}&lng=${p.lng}&state=${p.state}`;
const byPfi = (p: BenchPoint) => `pfi=${encodeURIComponent(p.pfi)}&state=${p.state}`;

/** The whole graph the REST route asks for a key holding every scope, sent as a client would send it. */
const FULL_GRAPH = propertyOperation('parcel', PROPERTY_LAYERS);

export type LayerRoute = {
  label: string;
  /** p50 target at one connection, in ms, on TARGET_PARCELS parcels; none for the property graph. */
  p50TargetMs: number | undefined;
  request: (p: BenchPoint) => BenchRequest;
};

/** Issue #11: every new point route under 10 ms at p50, the risk summary under 15 ms, at 1M parcels. */
export const TARGET_PARCELS = 1_000_000;

export const LAYER_ROUTE: Record<LayerRouteName, LayerRoute> = {
  soil: { label: 'GET /api/soil (point)', p50TargetMs: 10, request: (p) => `/api/soil?${at(p)}` },
  hazards: { label: 'GET /api/hazards (point)', p50TargetMs: 10, request: (p) => `/api/hazards?${at(p)}` },
  'risk-summary': {
    label: 'GET /v1/risk-summary (point)',
    p50TargetMs: 15,
    request: (p) => `/v1/risk-summary?${at(p)}`,
  },
  'roads-fronting': {
    label: 'GET /api/roads/fronting (point)',
    p50TargetMs: 10,
    request: (p) => `/api/roads/fronting?${at(p)}`,
  },
  'roads-nearest': {
    label: 'GET /api/roads/nearest (point)',
    p50TargetMs: 10,
    request: (p) => `/api/roads/nearest?${at(p)}`,
  },
  easements: { label: 'GET /api/easements (pfi)', p50TargetMs: 10, request: (p) => `/api/easements?${byPfi(p)}` },
  buildings: { label: 'GET /api/buildings (pfi)', p50TargetMs: 10, request: (p) => `/api/buildings?${byPfi(p)}` },
  'land-values': {
    label: 'GET /api/land-values (pfi)',
    p50TargetMs: 10,
    request: (p) => `/api/land-values?${byPfi(p)}`,
  },
  'property-graph': {
    label: 'GET /v1/property/graph (pfi, every layer)',
    p50TargetMs: undefined,
    request: (p) => `/v1/property/graph?${byPfi(p)}`,
  },
  graphql: {
    label: 'POST /graphql (the same full graph)',
    p50TargetMs: undefined,
    request: (p) => ({
      path: '/graphql',
      body: JSON.stringify({ query: FULL_GRAPH, variables: { pfi: p.pfi, state: p.state } }),
    }),
  },
};

export type LayerQueries = { points: BenchPoint[]; routes: Record<LayerRouteName, BenchRequest[]> };

export function layerQueries(points: readonly BenchPoint[]): LayerQueries {
  const routes = Object.fromEntries(
    LAYER_ROUTES.map((route) => [route, points.map((p) => LAYER_ROUTE[route].request(p))]),
  ) as Record<LayerRouteName, BenchRequest[]>;
  return { points: [...points], routes };
}
