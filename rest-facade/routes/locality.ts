import { z } from 'zod';
import { CATCHMENT_MINUTES, OSM_ATTRIBUTION, OSM_LICENSE } from '../../core/amenities.ts';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import {
  DEFAULT_AMENITY_LIMIT,
  DEFAULT_AMENITY_RADIUS_M,
  MAX_AMENITY_LIMIT,
  MAX_AMENITY_RADIUS_M,
} from '../../core/limits.ts';
import { assertPoint } from '../../core/validate.ts';
import { unwrap } from '../graph-result.ts';
import { numeric, stateParam, textParam } from '../params.ts';
import type { RouteResponse } from '../route.ts';
import { defineRoute } from '../route.ts';
import { parcelPoint, refinePointOrParcel } from './parcel-point.ts';

/**
 * Locality (scope locality.read: schools, childcare, supermarkets, transport stops near a point,
 * suburb amenity counts and proximity) and the walking catchment (scope catchment.read, spec
 * 2.11), from the amenities subgraph. OpenStreetMap data: credited under the ODbL (spec 2.2).
 */

type Header = {
  status: string;
  message: string | null;
  source: string | null;
  attribution: string | null;
  license: string | null;
  freshness: string | null;
};
const HEADER = 'status message source attribution license freshness';
const AMENITY = `id osm_type osm_id category subcategory school_sector school_level transport_mode name lat lng
  distance_m walking_distance_m walking_minutes tags { key value }`;

type AmenityOut = { tags: Array<{ key: string; value: string }> } & Record<string, unknown>;
/** Tags as one object, as OpenStreetMap writes them. */
const amenityBody = ({ tags, ...rest }: AmenityOut) => ({
  ...rest,
  tags: Object.fromEntries(tags.map((t) => [t.key, t.value])),
});

const failed = (what: string) =>
  new AppError('UPSTREAM_UNAVAILABLE', `The amenities source failed for this ${what}.`, 'Retry shortly.');

/** The body of every locality answer: the layer's status, the payload and its ODbL credit (body and headers). */
function body(layer: Header, payload: Record<string, unknown>, query: Record<string, unknown>): RouteResponse {
  const credited = layer.status === 'ok' || layer.status === 'no_data';
  const attribution = credited ? (layer.attribution ?? OSM_ATTRIBUTION) : null;
  const license = credited ? (layer.license ?? OSM_LICENSE) : null;
  return {
    body: {
      success: true,
      query,
      status: layer.status,
      source: layer.source,
      freshness: layer.freshness,
      ...payload,
      error: null,
      hint: layer.status === 'ok' ? null : layer.message,
      attribution,
      license,
    },
    credit: attribution && license ? { attribution, license } : null,
  };
}

const radiusParam = numeric('radius_m')
  .pipe(
    z
      .number()
      .gt(0, { error: 'radius_m must be more than 0.' })
      .max(MAX_AMENITY_RADIUS_M, { error: `radius_m must be at most ${MAX_AMENITY_RADIUS_M}.` }),
  )
  .optional()
  .meta({
    description: `Metres around the point, up to ${MAX_AMENITY_RADIUS_M}; default ${DEFAULT_AMENITY_RADIUS_M}. Beyond is refused (400).`,
  });

const limitParam = numeric('limit')
  .pipe(
    z
      .number()
      .int({ error: 'limit must be a whole number.' })
      .min(1, { error: 'limit must be at least 1.' })
      .max(MAX_AMENITY_LIMIT, { error: `limit must be at most ${MAX_AMENITY_LIMIT}.` }),
  )
  .optional()
  .meta({ description: `How many to list, nearest first, 1-${MAX_AMENITY_LIMIT}; default ${DEFAULT_AMENITY_LIMIT}.` });

const place = {
  lat: numeric('lat').optional(),
  lng: numeric('lng').optional(),
  pfi: textParam('pfi', 64).optional(),
  state: stateParam.optional(),
};

const NEAR = `query AmenitiesNear($lat: Float!, $lng: Float!, $state: String!, $categories: [AmenityCategory!], $radius: Float, $limit: Int) {
  amenitiesNear(lat: $lat, lng: $lng, state: $state, categories: $categories, radius_m: $radius, limit: $limit) {
    ${HEADER} radius_m network data { ${AMENITY} } } }`;

type NearLayer = Header & { radius_m: number; network: boolean; data: AmenityOut[] | null };

/** One "near a point" route per amenity kind the spec names (4.11). */
function nearRoute(path: string, category: string, what: string) {
  return defineRoute({
    method: 'get',
    path,
    tag: 'Locality',
    summary: `${what} within radius_m (at most ${MAX_AMENITY_RADIUS_M} m) of a point or of a parcel (pfi and state in place of lat/lng), nearest first, with straight-line and (where the walking network is held) walking distance. OpenStreetMap data (ODbL).`,
    access: { scope: 'locality.read' },
    query: z.object({ ...place, radius_m: radiusParam, limit: limitParam }).superRefine(refinePointOrParcel),
    errorStyle: 'envelope',
    async handle(q, { graph, scope }) {
      let at: { lat: number; lng: number };
      let echo: Record<string, unknown>;
      if (q.pfi !== undefined) {
        at = await parcelPoint(graph, scope, q.pfi, q.state!);
        echo = { pfi: q.pfi, state: q.state };
      } else {
        at = { lat: q.lat!, lng: q.lng! };
        assertPoint(at.lat, at.lng);
        echo = { lat: q.lat, lng: q.lng };
      }
      const state = q.state ?? detectState(at.lng, at.lat) ?? 'VIC';
      const { amenitiesNear: layer } = unwrap(
        await graph.execute<{ amenitiesNear: NearLayer }>(
          NEAR,
          {
            lat: at.lat,
            lng: at.lng,
            state,
            categories: [category],
            radius: q.radius_m ?? null,
            limit: q.limit ?? null,
          },
          scope,
        ),
      );
      if (layer.status === 'error') throw failed('point');
      const data = (layer.data ?? []).map(amenityBody);
      return body(
        layer,
        { state, category, radius_m: layer.radius_m, network: layer.network, count: data.length, data },
        { ...echo, state, radius_m: layer.radius_m, limit: q.limit ?? DEFAULT_AMENITY_LIMIT },
      );
    },
  });
}

export const localitySchools = nearRoute(
  '/api/locality/schools',
  'school',
  'Schools (with sector and level where mapped)',
);
export const localityChildcare = nearRoute(
  '/api/locality/childcare',
  'childcare',
  'Childcare centres and kindergartens',
);
export const localitySupermarkets = nearRoute('/api/locality/supermarkets', 'supermarket', 'Supermarkets');
export const localityTransportStops = nearRoute(
  '/api/locality/transport-stops',
  'transport',
  'Public transport stops and stations (with their mode)',
);

// the amenities subgraph takes the suburb's SAL boundary from the demographics subgraph (@requires)
const SUBURB = `query SuburbAmenities($state: String!, $suburb: String!) {
  suburbByName(state: $state, name: $suburb) { amenities {
    ${HEADER} state suburb extent_method sal_code sal_name centre_lat centre_lng
    counts { category count nearest_m nearest_name } } } }`;

type SuburbLayer = Header & {
  state: string;
  suburb: string;
  extent_method: string | null;
  sal_code: string | null;
  sal_name: string | null;
  centre_lat: number | null;
  centre_lng: number | null;
  counts: Array<{ category: string; count: number; nearest_m: number | null; nearest_name: string | null }> | null;
};

export const localitySuburbAmenities = defineRoute({
  method: 'get',
  path: '/api/locality/amenities/suburb',
  tag: 'Locality',
  summary:
    "A suburb's amenities: how many of each category lie inside it (its ABS SAL boundary where held, else the hull of its addresses; extent_method says which), and the distance from its centre to the nearest of each. OpenStreetMap data (ODbL).",
  access: { scope: 'locality.read' },
  query: z.object({
    state: stateParam,
    suburb: textParam('suburb', 80).meta({
      description: 'The suburb (G-NAF locality) name, any case, e.g. Huntly; spaces URL-encoded.',
    }),
  }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const { suburbByName } = unwrap(
      await graph.execute<{ suburbByName: { amenities: SuburbLayer } }>(
        SUBURB,
        { state: q.state, suburb: q.suburb },
        scope,
      ),
    );
    const layer = suburbByName.amenities;
    if (layer.status === 'error') throw failed('suburb');
    if (layer.status === 'no_data') {
      throw new AppError(
        'NOT_FOUND',
        layer.message ?? `No suburb named ${q.suburb} in ${q.state}.`,
        'Name the suburb as its addresses do (e.g. suburb=Huntly&state=VIC).',
      );
    }
    return body(
      layer,
      {
        state: layer.state,
        suburb: layer.suburb,
        extent_method: layer.extent_method,
        sal: layer.sal_code === null ? null : { code: layer.sal_code, name: layer.sal_name },
        centre: layer.centre_lat === null ? null : { lat: layer.centre_lat, lng: layer.centre_lng },
        counts: layer.counts ?? [],
      },
      { state: q.state, suburb: q.suburb },
    );
  },
});

const CATCHMENT = `query WalkingCatchment($lat: Float!, $lng: Float!, $minutes: Int!, $state: String!) {
  walkingCatchment(lat: $lat, lng: $lng, minutes: $minutes, state: $state) {
    ${HEADER} minutes walking_speed_m_per_min budget_m approximate reason origin_node origin_access_m
    reached_nodes reached_edges polygon amenities { ${AMENITY} } } }`;

type CatchmentLayer = Header & {
  minutes: number;
  walking_speed_m_per_min: number;
  budget_m: number;
  approximate: boolean;
  reason: string | null;
  origin_node: string | null;
  origin_access_m: number | null;
  reached_nodes: number;
  reached_edges: number;
  polygon: unknown;
  amenities: AmenityOut[];
};

const minutesParam = numeric('minutes')
  .pipe(
    z.number().refine((m) => (CATCHMENT_MINUTES as readonly number[]).includes(m), {
      error: `minutes must be ${CATCHMENT_MINUTES.slice(0, -1).join(', ')} or ${CATCHMENT_MINUTES.at(-1)}.`,
    }),
  )
  .meta({ description: `Minutes of walking: ${CATCHMENT_MINUTES.join(', ')} (spec 8); anything else is a 400.` });

export const catchmentWalking = defineRoute({
  method: 'get',
  path: '/v1/catchment/walking',
  tag: 'Catchment',
  summary:
    'The walking catchment of a point (spec 2.11): a network isochrone over the walkable OpenStreetMap ways at 80 m a minute, as a GeoJSON polygon, and every amenity inside with its walking distance and time; approximate:true with a reason where no network is held.',
  access: { scope: 'catchment.read' },
  query: z
    .object({
      lat: numeric('lat').optional(),
      lng: numeric('lng').optional(),
      pfi: textParam('pfi', 64).optional(),
      minutes: minutesParam,
      state: stateParam
        .optional()
        .meta({ description: 'Overrides the state detected from the point; with pfi, the parcel’s state.' }),
    })
    .superRefine(refinePointOrParcel),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    let at: { lat: number; lng: number };
    let echo: Record<string, unknown>;
    if (q.pfi !== undefined) {
      // spec 2.1.2: a parcel in place of the point; the walk starts from the parcel's point
      at = await parcelPoint(graph, scope, q.pfi, q.state!);
      echo = { pfi: q.pfi, state: q.state, minutes: q.minutes };
    } else {
      at = { lat: q.lat!, lng: q.lng! };
      assertPoint(at.lat, at.lng);
      echo = { lat: q.lat, lng: q.lng, minutes: q.minutes, state: q.state ?? null };
    }
    const detected = detectState(at.lng, at.lat);
    const state = q.state ?? detected;
    if (!state) {
      throw new AppError('BAD_REQUEST', 'The point is not in an Australian state.', 'Pass state=<code> to name one.');
    }
    const { walkingCatchment: c } = unwrap(
      await graph.execute<{ walkingCatchment: CatchmentLayer }>(
        CATCHMENT,
        { lat: at.lat, lng: at.lng, minutes: q.minutes, state },
        scope,
      ),
    );
    if (c.status === 'error') throw failed('point');
    const amenities = c.amenities.map(amenityBody);
    return body(
      c,
      {
        state,
        state_detected: detected ?? null,
        minutes: c.minutes,
        walking_speed_m_per_min: c.walking_speed_m_per_min,
        walking_speed_kmh: (c.walking_speed_m_per_min * 60) / 1000,
        budget_m: c.budget_m,
        approximate: c.approximate,
        reason: c.reason,
        location: at,
        origin: c.origin_node === null ? null : { node: c.origin_node, access_m: c.origin_access_m },
        reached: { nodes: c.reached_nodes, edges: c.reached_edges },
        polygon: c.polygon,
        count: amenities.length,
        amenities,
      },
      echo,
    );
  },
});
