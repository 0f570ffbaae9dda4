/**
 * The Risk group (spec 4.11) and the risk summary (spec 2.7): flood, bushfire (BAL) and
 * contamination at a property, found by lat/lng, pfi + state or gnaf_pid, each in one graph
 * operation through the property entry points, so the answer echoes the identifiers it resolved.
 */
import type { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import { assertPoint } from '../../core/validate.ts';
import type { Graph } from '../../gateway/graph.ts';
import type { RequestScope } from '../../core/context.ts';
import { unwrap } from '../graph-result.ts';
import { defineRoute } from '../route.ts';
import { creditOf } from './cadastre.ts';
import type { HazardJson, HazardSeverity, HazardsJson, HazardsLayerJson } from './hazards-shape.ts';
import { HAZARDS_SELECTION } from './hazards-shape.ts';
import { graphQuery } from './property.ts';

type PropertyJson = {
  gnaf_pid: string | null;
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
  hazards: HazardsLayerJson;
};

const IDENTITY = 'gnaf_pid parcel_pfi state location { lat lng }';
const OPERATIONS = {
  point: `query HazardsAtPoint($lat: Float!, $lng: Float!, $state: String!) {
    property: propertyAt(lat: $lat, lng: $lng, state: $state) { ${IDENTITY} ${HAZARDS_SELECTION} } }`,
  parcel: `query HazardsByParcel($pfi: String!, $state: String!) {
    property: propertyByParcel(parcel_pfi: $pfi, state: $state) { ${IDENTITY} ${HAZARDS_SELECTION} } }`,
  gnaf: `query HazardsByGnafPid($gnafPid: ID!) {
    property: propertyByGnafPid(gnaf_pid: $gnafPid) { ${IDENTITY} ${HAZARDS_SELECTION} } }`,
};

type Identified = { query: Record<string, unknown>; property: PropertyJson };

/** The property and its hazards, however the caller identified it: one graph operation. */
async function hazardsOfProperty(
  q: z.output<typeof graphQuery>,
  graph: Graph,
  scope: RequestScope,
): Promise<Identified> {
  type Result = { property: PropertyJson | null };
  let query: Record<string, unknown>;
  let result: Result;
  if (q.gnaf_pid !== undefined) {
    query = { gnaf_pid: q.gnaf_pid };
    result = unwrap(await graph.execute<Result>(OPERATIONS.gnaf, { gnafPid: q.gnaf_pid }, scope));
  } else if (q.pfi !== undefined) {
    query = { pfi: q.pfi, state: q.state };
    result = unwrap(await graph.execute<Result>(OPERATIONS.parcel, { pfi: q.pfi, state: q.state }, scope));
  } else {
    const { lat, lng } = q as { lat: number; lng: number };
    assertPoint(lat, lng);
    const state = q.state ?? detectState(lng, lat) ?? 'VIC';
    query = { lat, lng, state };
    result = unwrap(await graph.execute<Result>(OPERATIONS.point, { lat, lng, state }, scope));
  }
  if (!result.property) {
    throw new AppError(
      'NOT_FOUND',
      q.gnaf_pid !== undefined
        ? `No property with gnaf_pid ${q.gnaf_pid}.`
        : `No parcel with PFI ${q.pfi} in ${q.state}.`,
      'Identifiers are stable across releases; check it was copied whole, or look the property up by lat and lng.',
    );
  }
  const { hazards } = result.property;
  // every hazard source failing is a failing source behind the route (docs/decisions.md, Hardening)
  if (hazards.status === 'error') {
    throw new AppError('UPSTREAM_UNAVAILABLE', hazards.message ?? 'The hazard sources failed.', 'Retry shortly.');
  }
  return { query, property: result.property };
}

const propertyBlock = ({ gnaf_pid, parcel_pfi, state, location }: PropertyJson) => ({
  gnaf_pid,
  parcel_pfi,
  state,
  location,
});

export const hazardsRoute = defineRoute({
  method: 'get',
  path: '/api/hazards',
  tag: 'Risk',
  summary: 'Flood, bushfire (with a BAL estimate) and contamination at a point or property, with the evidence.',
  access: { scope: 'risk.read' },
  query: graphQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    const { query, property } = await hazardsOfProperty(q, graph, scope);
    const layer = property.hazards;
    const credit = creditOf(layer);
    return {
      body: {
        success: true,
        query,
        property: propertyBlock(property),
        status: layer.status,
        source: layer.source,
        message: layer.message,
        freshness: layer.freshness,
        data: layer.data,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});

const SEVERITY_ORDER: readonly HazardSeverity[] = ['none', 'low', 'medium', 'high', 'extreme'];

/** The worst severity among the hazards that were checked; null where none was. */
export function overallSeverity(hazards: HazardsJson | null): HazardSeverity | null {
  const known = hazards
    ? Object.values(hazards)
        .map((h) => h.severity)
        .filter((s): s is HazardSeverity => s !== null)
    : [];
  if (known.length === 0) return null;
  return known.reduce((a, b) => (SEVERITY_ORDER.indexOf(b) > SEVERITY_ORDER.indexOf(a) ? b : a));
}

const summaryOf = (hazard: HazardJson | undefined) => ({
  severity: hazard?.severity ?? null,
  coverage: hazard?.coverage ?? 'not_mapped',
  freshness: hazard?.freshness ?? null,
});

export const riskSummary = defineRoute({
  method: 'get',
  path: '/v1/risk-summary',
  tag: 'Property',
  summary: 'Flood, bushfire (BAL) and contamination combined: per hazard severity, coverage and freshness (spec 2.7).',
  access: { scope: 'risk.summary.read' },
  query: graphQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    const { query, property } = await hazardsOfProperty(q, graph, scope);
    const layer = property.hazards;
    const credit = creditOf(layer);
    const data = layer.data;
    return {
      body: {
        success: true,
        query,
        property: propertyBlock(property),
        status: layer.status,
        message: layer.message,
        source: layer.source,
        freshness: layer.freshness,
        overall_severity: overallSeverity(data),
        flood: summaryOf(data?.flood),
        bushfire: { ...summaryOf(data?.bushfire), bal: data?.bushfire.bal?.rating ?? null },
        contamination: summaryOf(data?.contamination),
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});
