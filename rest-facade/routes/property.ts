import { z } from 'zod';
import { hasScope } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import { assertPoint } from '../../core/validate.ts';
import type { GraphResult } from '../../gateway/graph.ts';
import { unwrap } from '../graph-result.ts';
import { numeric, stateParam, textParam } from '../params.ts';
import type { Credit } from '../route.ts';
import { defineRoute } from '../route.ts';
import type { LayerFields, ParcelFields } from './cadastre.ts';
import { LAYER_FIELDS, PARCEL_FIELDS, creditOf, parcelFeature } from './cadastre.ts';
import type { EnvelopeFields, ProvisionsFields } from './provisions-shape.ts';
import { HAZARDS_SELECTION } from './hazards-shape.ts';
import { ENVELOPE_FIELDS, PROVISIONS_FIELDS, envelopeToRest, provisionsToRest } from './provisions-shape.ts';
import { SOIL_FIELDS } from './soil.ts';
import { DEMOGRAPHICS_SUMMARY_FIELDS } from './demographics.ts';
import { DA_FIELDS, DA_LAYER_FIELDS } from './development-shape.ts';
import { SPEAR_FIELDS, SPEAR_LAYER_FIELDS } from './spear-shape.ts';
import { GRAPH_MARKET_FIELDS } from './market.ts';
import {
  BUILDING_FIELDS,
  EASEMENT_FIELDS,
  LAND_LAYER_FIELDS,
  LAND_VALUE_FIELDS,
  landFeature,
} from './land-features.ts';

/** `freshness`: the date (YYYY-MM-DD) of the snapshot that answered; every layer selects it. */
type GraphLayer = LayerFields & { data: unknown; freshness?: string | null };

/** A layer's status, credit and freshness: what every layer of the graph reports beside its data. */
const DATED_LAYER_FIELDS = `${LAYER_FIELDS} freshness`;

/**
 * The layers of the property graph: each is one field of `Property`, the scope that grants it
 * and how its data is written in the REST response. The graph route selects exactly these.
 */
export const PROPERTY_LAYERS = [
  {
    name: 'cadastre',
    scope: 'cadastre.read',
    selection: `cadastre { ${DATED_LAYER_FIELDS} data { ${PARCEL_FIELDS} } }`,
    toRest: (data: unknown) => parcelFeature(data as ParcelFields),
  },
  {
    name: 'planning',
    scope: 'planning.read',
    selection: `planning { ${DATED_LAYER_FIELDS} data { zone { code description scheme_code lga_code lga_name } overlays { code description scheme_code lga_code lga_name } } }`,
    toRest: (data: unknown) => data,
  },
  {
    name: 'provisions',
    scope: 'planning.provisions.read',
    selection: `provisions { ${DATED_LAYER_FIELDS} data { ${PROVISIONS_FIELDS} } }`,
    toRest: (data: unknown) => provisionsToRest(data as ProvisionsFields),
  },
  {
    name: 'envelope',
    scope: 'envelope.read',
    selection: `envelope { freshness ${ENVELOPE_FIELDS} }`,
    toRest: (data: unknown) => envelopeToRest(data as EnvelopeFields),
  },
  {
    name: 'terrain',
    scope: 'elevation.read',
    selection: `terrain { ${DATED_LAYER_FIELDS} data { min_m max_m mean_m fall_m slope_mean_percent slope_max_percent
      slope_mean_deg slope_max_deg aspect aspect_deg samples sampling cell_size_m area_m2 } }`,
    toRest: (data: unknown) => data,
  },
  {
    name: 'roads',
    scope: 'roads.read',
    selection: `roads { ${DATED_LAYER_FIELDS} data { name road_class frontage_m distance_m front } }`,
    toRest: (data: unknown) => data,
  },
  {
    name: 'hazards',
    scope: 'risk.read',
    selection: HAZARDS_SELECTION,
    toRest: (data: unknown) => data,
  },
  {
    name: 'climate_zone',
    scope: 'envelope.read',
    selection: `climate_zone { ${DATED_LAYER_FIELDS} data { zone description } }`,
    toRest: (data: unknown) => {
      const { zone, description } = data as { zone: number; description: string };
      return { climate_zone: zone, description };
    },
  },
  {
    name: 'soil',
    scope: 'soil.read',
    selection: `soil { ${SOIL_FIELDS} }`,
    toRest: (data: unknown) => data,
  },
  {
    name: 'easements',
    scope: 'easement.read',
    selection: `easements { ${LAND_LAYER_FIELDS} data { ${EASEMENT_FIELDS} } }`,
    toRest: (data: unknown) => (data as Parameters<typeof landFeature>[0][]).map(landFeature),
  },
  {
    name: 'buildings',
    scope: 'dossier.read',
    selection: `buildings { ${LAND_LAYER_FIELDS} data { ${BUILDING_FIELDS} } }`,
    toRest: (data: unknown) => (data as Parameters<typeof landFeature>[0][]).map(landFeature),
  },
  {
    name: 'land_value',
    scope: 'dossier.read',
    selection: `land_value { ${LAND_LAYER_FIELDS} data { ${LAND_VALUE_FIELDS} } }`,
    toRest: (data: unknown) => data,
  },
  {
    name: 'development_applications',
    scope: 'development-applications.read',
    // DA records are part of the dossier too (spec 4.11): either scope opens the layer
    alsoScope: 'dossier.read',
    selection: `development_applications { ${DA_LAYER_FIELDS} data { ${DA_FIELDS} } }`,
    toRest: (data: unknown) => data,
  },
  {
    name: 'spear_applications',
    scope: 'spear.read',
    selection: `spear_applications { ${SPEAR_LAYER_FIELDS} data { ${SPEAR_FIELDS} } }`,
    toRest: (data: unknown) => data,
  },
  {
    name: 'demographics',
    scope: 'locality.read',
    selection: `demographics { ${DEMOGRAPHICS_SUMMARY_FIELDS} }`,
    toRest: (data: unknown) => data,
  },
  {
    // the suburb's market (spec 2.6 "market trends"): suburb trends are locality.read (spec 4.11)
    name: 'market_trends',
    scope: 'locality.read',
    // the headline figures: the quarterly series are on /api/suburb-trends (the operation's field limit)
    selection: `market_trends { ${DATED_LAYER_FIELDS} data { ${GRAPH_MARKET_FIELDS} } }`,
    toRest: (data: unknown) => data,
  },
] as const;

/** Whether the caller's key opens a layer: its scope, or the other scope that sells the same data. */
export const opensLayer = (scope: Parameters<typeof hasScope>[0], layer: PropertyLayer) =>
  hasScope(scope, layer.scope) || ('alsoScope' in layer && hasScope(scope, layer.alsoScope));

/** The identity fields every property-graph operation selects, beside its layers. */
const SELECTED = new Set(['gnaf_pid', 'parcel_pfi', 'state', 'location', 'address']);

const IDENTITY_FIELDS = `gnaf_pid parcel_pfi state location { lat lng }
  address { ${LAYER_FIELDS} data { gnaf_pid formatted_address locality postcode geocode_type } }`;

type PropertyResult = {
  gnaf_pid: string | null;
  parcel_pfi: string | null;
  state: string;
  location: { lat: number; lng: number } | null;
  address: LayerFields & { data: { formatted_address: string; locality: string; postcode: string | null } | null };
} & Record<string, unknown>;

type PropertyLayer = (typeof PROPERTY_LAYERS)[number];

/** One operation per entry point, selecting exactly the layers the caller's key may read. */
export function propertyOperation(entry: 'point' | 'parcel' | 'gnaf', layers: readonly PropertyLayer[]): string {
  const selection = `${IDENTITY_FIELDS} ${layers.map((l) => l.selection).join(' ')}`;
  switch (entry) {
    case 'point':
      return `query PropertyGraphAtPoint($lat: Float!, $lng: Float!, $state: String!) { property: propertyAt(lat: $lat, lng: $lng, state: $state) { ${selection} } }`;
    case 'parcel':
      return `query PropertyGraphByParcel($pfi: String!, $state: String!) { property: propertyByParcel(parcel_pfi: $pfi, state: $state) { ${selection} } }`;
    case 'gnaf':
      return `query PropertyGraphByGnafPid($gnafPid: ID!) { property: propertyByGnafPid(gnaf_pid: $gnafPid) { ${selection} } }`;
  }
}

export const graphQuery = z
  .object({
    lat: numeric('lat').optional(),
    lng: numeric('lng').optional(),
    pfi: textParam('pfi', 64).optional(),
    state: stateParam.optional(),
    gnaf_pid: textParam('gnaf_pid', 32).optional(),
  })
  .superRefine((q, ctx) => {
    const forms = [q.lat !== undefined || q.lng !== undefined, q.pfi !== undefined, q.gnaf_pid !== undefined].filter(
      Boolean,
    );
    if (forms.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: 'Identify the property one way: lat and lng, or pfi and state, or gnaf_pid.',
      });
    } else if ((q.lat === undefined) !== (q.lng === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
    } else if (q.pfi !== undefined && q.state === undefined) {
      ctx.addIssue({ code: 'custom', message: 'pfi needs state: parcel identifiers are only unique within a state.' });
    }
  });

/**
 * Splits off the errors raised at one layer's own path (`property.terrain`: its subgraph failed,
 * timed out or refused): those fail that layer alone and the call still succeeds (spec 7).
 */
function withLayerFailures<TData>(
  result: GraphResult<TData>,
  layers: readonly PropertyLayer[],
): { data: TData; failed: Map<string, string>; required: string | null } {
  const names = new Set<string>(layers.map((layer) => layer.name));
  const failed = new Map<string, string>();
  let required: string | null = null;
  const others = (result.errors ?? []).filter((error) => {
    const [root, layer] = error.path ?? [];
    // A field the caller never selected failed where the planner fetched it for a layer that
    // @requires it (`road_lines` for the envelope): that layer reports its own failure.
    if (root === 'property' && typeof layer === 'string' && !SELECTED.has(layer) && !names.has(layer)) {
      required ??= error.message;
      return false;
    }
    if (root !== 'property' || typeof layer !== 'string' || !names.has(layer)) return true;
    if (!failed.has(layer)) failed.set(layer, error.message);
    return false;
  });
  return { data: unwrap({ ...result, errors: others }), failed, required };
}

/** Distinct credits of every layer in the payload, joined so the headers carry all of them. */
export function combineCredits(credits: Array<Credit | null>): Credit | null {
  const present = credits.filter((c): c is Credit => c !== null);
  if (present.length === 0) return null;
  const unique = (values: string[]) => [...new Set(values)].join(' | ');
  return { attribution: unique(present.map((c) => c.attribution)), license: unique(present.map((c) => c.license)) };
}

export const propertyGraph = defineRoute({
  method: 'get',
  path: '/v1/property/graph',
  tag: 'Property',
  summary: 'Every data layer of one property in one call, each with its own status and credit.',
  access: { scope: 'property-graph.read' },
  query: graphQuery,
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    const allowed = PROPERTY_LAYERS.filter((layer) => opensLayer(scope, layer));
    type Result = { property: PropertyResult | null };
    const run = async (entry: 'point' | 'parcel' | 'gnaf', variables: Record<string, unknown>) =>
      withLayerFailures(await graph.execute<Result>(propertyOperation(entry, allowed), variables, scope), allowed);
    let result: { data: Result; failed: Map<string, string>; required: string | null };
    let query: Record<string, unknown>;
    if (q.gnaf_pid !== undefined) {
      query = { gnaf_pid: q.gnaf_pid };
      result = await run('gnaf', { gnafPid: q.gnaf_pid });
    } else if (q.pfi !== undefined) {
      query = { pfi: q.pfi, state: q.state };
      result = await run('parcel', { pfi: q.pfi, state: q.state });
    } else {
      const { lat, lng } = q as { lat: number; lng: number };
      assertPoint(lat, lng);
      const state = q.state ?? detectState(lng, lat) ?? 'VIC';
      query = { lat, lng, state };
      result = await run('point', { lat, lng, state });
    }
    const property = result.data.property;
    if (!property || (q.gnaf_pid !== undefined && property.address.status !== 'ok')) {
      throw new AppError(
        'NOT_FOUND',
        q.gnaf_pid !== undefined
          ? `No property with gnaf_pid ${q.gnaf_pid}.`
          : `No parcel with PFI ${q.pfi} in ${q.state}.`,
        'Identifiers are stable across releases; check it was copied whole, or look the property up by lat and lng.',
      );
    }
    const layers: Record<string, unknown> = {};
    const credits: Array<Credit | null> = [property.address.status === 'ok' ? creditOf(property.address) : null];
    for (const layer of allowed) {
      // a layer left null with no error of its own was not resolved: what it @requires failed
      const failure =
        result.failed.get(layer.name) ??
        (property[layer.name] == null ? (result.required ?? `The ${layer.name} layer did not resolve.`) : undefined);
      const value: GraphLayer = failure
        ? {
            status: 'error',
            source: null,
            attribution: null,
            license: null,
            message: failure,
            freshness: null,
            data: null,
          }
        : (property[layer.name] as GraphLayer);
      layers[layer.name] = {
        status: value.status,
        source: value.source,
        attribution: value.attribution,
        license: value.license,
        message: value.message,
        freshness: value.freshness ?? null,
        data: value.status === 'ok' && value.data ? layer.toRest(value.data) : null,
      };
      if (value.status === 'ok') credits.push(creditOf(value));
    }
    const credit = combineCredits(credits);
    return {
      body: {
        success: true,
        query,
        property: {
          gnaf_pid: property.gnaf_pid,
          parcel_pfi: property.parcel_pfi,
          state: property.state,
          address: property.address.data?.formatted_address ?? null,
          location: property.location,
        },
        layers,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});
