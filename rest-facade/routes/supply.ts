import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import {
  DEFAULT_SUPPLY_ESTATE_RADIUS_KM,
  DEFAULT_SUPPLY_LOT_RADIUS_KM,
  DEFAULT_SUPPLY_WEEKS,
  MAX_SUPPLY_ESTATE_RADIUS_KM,
  MAX_SUPPLY_LOT_RADIUS_KM,
  MAX_SUPPLY_TILE_ZOOM,
  MAX_SUPPLY_WEEKS,
  MIN_SUPPLY_TILE_ZOOM,
} from '../../core/limits.ts';
import { unwrap } from '../graph-result.ts';
import { numeric, stateParam, textParam } from '../params.ts';
import type { RouteResponse } from '../route.ts';
import { defineRoute } from '../route.ts';
import { parcelPoint, refinePointOrParcel } from './parcel-point.ts';

/** Land supply (the supply subgraph, spec 4.5): estates and lots nearby, the weekly series, lot tiles. */

type Header = {
  status: string;
  message: string | null;
  source: string | null;
  attribution: string | null;
  license: string | null;
};

const ESTATE = `estate_id name developer state lga_code lga_name suburb status location { lat lng }
  rollup { active_lots available_lots under_offer_lots sold_lots withdrawn_lots median_asking_price }`;
const LOT = `lot_id lot_number estate { estate_id name developer active_lots available_lots } state suburb asking_price
  area_m2 frontage_m depth_m title_status sales_status location { lat lng } aspect aspect_source`;
const WEEK = `week active_lots available_lots new_lots sold_or_delisted_lots median_asking_price`;
const HEADER = 'status message source attribution license';

const kmParam = (fallback: number, max: number) =>
  numeric('radius_km')
    .pipe(
      z
        .number()
        .gt(0, { error: 'radius_km must be more than 0.' })
        .max(max, { error: `radius_km must be at most ${max} km.` }),
    )
    .optional()
    .meta({ description: `Kilometres around the point, up to ${max}; default ${fallback}. Beyond is refused (400).` });

const weeksParam = numeric('weeks')
  .pipe(
    z
      .number()
      .int({ error: 'weeks must be a whole number.' })
      .min(1, { error: 'weeks must be at least 1.' })
      .max(MAX_SUPPLY_WEEKS, { error: `weeks must be at most ${MAX_SUPPLY_WEEKS}.` }),
  )
  .optional()
  .meta({
    description: `Weeks of the series to the latest rolled-up week, 1-${MAX_SUPPLY_WEEKS}; default ${DEFAULT_SUPPLY_WEEKS}.`,
  });

// spec 2.1.2: pfi + state name a parcel in place of lat/lng; the answer is around the parcel's point
const place = {
  lat: numeric('lat').optional(),
  lng: numeric('lng').optional(),
  pfi: textParam('pfi', 64).optional(),
  state: stateParam.optional(),
};

/** The point asked about, and the query as echoed: the caller's point, or the parcel's. */
async function pointOf(
  q: { lat?: number; lng?: number; pfi?: string; state?: string },
  graph: Parameters<typeof parcelPoint>[0],
  scope: Parameters<typeof parcelPoint>[1],
): Promise<{ lat: number; lng: number; echo: Record<string, unknown> }> {
  if (q.pfi !== undefined) {
    const at = await parcelPoint(graph, scope, q.pfi, q.state!);
    return { ...at, echo: { pfi: q.pfi, state: q.state } };
  }
  return { lat: q.lat!, lng: q.lng!, echo: { lat: q.lat, lng: q.lng } };
}

/** The body of every land-supply answer: the layer's status, the payload and its credit (body and headers). */
function body(layer: Header, payload: Record<string, unknown>, query: Record<string, unknown>): RouteResponse {
  const ok = layer.status === 'ok';
  return {
    body: {
      success: true,
      query,
      status: layer.status,
      source: layer.source,
      ...payload,
      error: null,
      hint: ok ? null : layer.message,
      attribution: layer.attribution,
      license: layer.license,
    },
    // the headers credit what the body carries: nothing when there is nothing
    credit:
      ok && layer.attribution && layer.license ? { attribution: layer.attribution, license: layer.license } : null,
  };
}

export const landSupplyEstatesNearby = defineRoute({
  method: 'get',
  path: '/v1/land-supply/estates/nearby',
  tag: 'Land Supply',
  summary: `Estates within radius_km (at most ${MAX_SUPPLY_ESTATE_RADIUS_KM} km) of a point or of a parcel (pfi and state in place of lat/lng), nearest first, with their live lot rollups.`,
  access: { scope: 'land-supply.read' },
  query: z
    .object({ ...place, radius_km: kmParam(DEFAULT_SUPPLY_ESTATE_RADIUS_KM, MAX_SUPPLY_ESTATE_RADIUS_KM) })
    .superRefine(refinePointOrParcel),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const at = await pointOf(q, graph, scope);
    type Answer = Header & { radius_km: number; estates: unknown[] };
    const { landSupplyEstatesNearby: a } = unwrap(
      await graph.execute<{ landSupplyEstatesNearby: Answer }>(
        `query LandSupplyEstatesNearby($lat: Float!, $lng: Float!, $km: Float) {
          landSupplyEstatesNearby(lat: $lat, lng: $lng, radius_km: $km) { ${HEADER} radius_km estates { ${ESTATE} distance_km } } }`,
        { lat: at.lat, lng: at.lng, km: q.radius_km ?? null },
        scope,
      ),
    );
    return body(
      a,
      { radius_km: a.radius_km, count: a.estates.length, data: a.estates },
      { ...at.echo, radius_km: a.radius_km },
    );
  },
});

export const landSupplyLotsNearby = defineRoute({
  method: 'get',
  path: '/v1/land-supply/lots/nearby',
  tag: 'Land Supply',
  summary: `Lots within radius_km (at most ${MAX_SUPPLY_LOT_RADIUS_KM} km) of a point or of a parcel (pfi and state in place of lat/lng), nearest first; available=1 keeps the available ones.`,
  access: { scope: 'land-supply.read' },
  query: z
    .object({
      ...place,
      radius_km: kmParam(DEFAULT_SUPPLY_LOT_RADIUS_KM, MAX_SUPPLY_LOT_RADIUS_KM),
      available: z
        .enum(['0', '1'], { error: 'available must be 1 (available lots only) or 0.' })
        .optional()
        .meta({ description: '1: only lots available now (not under offer, sold or withdrawn).' }),
    })
    .superRefine(refinePointOrParcel),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const at = await pointOf(q, graph, scope);
    type Answer = Header & { radius_km: number; available_only: boolean; lots: unknown[] };
    const { landSupplyLotsNearby: a } = unwrap(
      await graph.execute<{ landSupplyLotsNearby: Answer }>(
        `query LandSupplyLotsNearby($lat: Float!, $lng: Float!, $km: Float, $available: Boolean) {
          landSupplyLotsNearby(lat: $lat, lng: $lng, radius_km: $km, available: $available) {
            ${HEADER} radius_km available_only lots { ${LOT} distance_km } } }`,
        { lat: at.lat, lng: at.lng, km: q.radius_km ?? null, available: q.available === '1' },
        scope,
      ),
    );
    return body(
      a,
      { radius_km: a.radius_km, available_only: a.available_only, count: a.lots.length, data: a.lots },
      { ...at.echo, ...(q.available === undefined ? {} : { available: q.available }), radius_km: a.radius_km },
    );
  },
});

export const landSupplySuburb = defineRoute({
  method: 'get',
  path: '/v1/land-supply/suburb/:state/:suburb',
  tag: 'Land Supply',
  summary:
    "A suburb's weekly land-supply series (active and available lots, new lots, sold or delisted lots, median asking price), its state's series and the estates selling now.",
  access: { scope: 'land-supply.read' },
  query: z.object({ state: stateParam, suburb: textParam('suburb', 64), weeks: weeksParam }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    type Answer = Header & {
      state: string;
      suburb: string;
      weeks: unknown[];
      state_weeks: unknown[];
      estates_selling: unknown[];
    };
    const { landSupplySuburb: a } = unwrap(
      await graph.execute<{ landSupplySuburb: Answer }>(
        `query LandSupplySuburb($state: String!, $suburb: String!, $weeks: Int) {
          landSupplySuburb(state: $state, suburb: $suburb, weeks: $weeks) {
            ${HEADER} state suburb weeks { ${WEEK} } state_weeks { ${WEEK} } estates_selling { ${ESTATE} } } }`,
        { state: q.state, suburb: q.suburb, weeks: q.weeks ?? null },
        scope,
      ),
    );
    return body(
      a,
      {
        state: a.state,
        suburb: a.suburb,
        weeks: a.weeks,
        state_weeks: a.state_weeks,
        estates_selling: a.estates_selling,
      },
      q,
    );
  },
});

export const landSupplyEstate = defineRoute({
  method: 'get',
  path: '/v1/land-supply/estate/:estateId',
  tag: 'Land Supply',
  summary: "An estate's identity, its live lot rollups and its weekly series.",
  access: { scope: 'land-supply.read' },
  query: z.object({ estateId: textParam('estateId', 100), weeks: weeksParam }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    type Answer = Header & { estate: unknown; weeks: unknown[] };
    const { landSupplyEstate: a } = unwrap(
      await graph.execute<{ landSupplyEstate: Answer }>(
        `query LandSupplyEstate($id: String!, $weeks: Int) {
          landSupplyEstate(estate_id: $id, weeks: $weeks) { ${HEADER} estate { ${ESTATE} } weeks { ${WEEK} } } }`,
        { id: q.estateId, weeks: q.weeks ?? null },
        scope,
      ),
    );
    if (!a.estate) {
      throw new AppError(
        'NOT_FOUND',
        `No estate has the id ${q.estateId}.`,
        'Find estates with /v1/land-supply/estates/nearby.',
      );
    }
    return body(a, { estate: a.estate, weeks: a.weeks }, q);
  },
});

export const landSupplyState = defineRoute({
  method: 'get',
  path: '/v1/land-supply/state/:state',
  tag: 'Land Supply',
  summary: "A state's weekly land-supply series.",
  access: { scope: 'land-supply.read' },
  query: z.object({ state: stateParam, weeks: weeksParam }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    type Answer = Header & { state: string; weeks: unknown[] };
    const { landSupplyState: a } = unwrap(
      await graph.execute<{ landSupplyState: Answer }>(
        `query LandSupplyState($state: String!, $weeks: Int) {
          landSupplyState(state: $state, weeks: $weeks) { ${HEADER} state weeks { ${WEEK} } } }`,
        { state: q.state, weeks: q.weeks ?? null },
        scope,
      ),
    );
    return body(a, { state: a.state, weeks: a.weeks }, q);
  },
});

export const landSupplyStates = defineRoute({
  method: 'get',
  path: '/v1/land-supply/states',
  tag: 'Land Supply',
  summary: 'The latest weekly land-supply rollup of every covered state, each with its credit.',
  access: { scope: 'land-supply.read' },
  query: z.object({}),
  errorStyle: 'envelope',
  async handle(_q, { graph, scope }) {
    type Answer = Header & { states: unknown[] };
    const { landSupplyStates: a } = unwrap(
      await graph.execute<{ landSupplyStates: Answer }>(
        `query LandSupplyStates { landSupplyStates { ${HEADER}
          states { state week active_lots available_lots new_lots sold_or_delisted_lots median_asking_price attribution license } } }`,
        {},
        scope,
      ),
    );
    return body(a, { count: a.states.length, data: a.states }, {});
  },
});

export const MVT_CONTENT_TYPE = 'application/vnd.mapbox-vector-tile';

const tileCoordinate = (name: string) =>
  numeric(name).pipe(
    z
      .number()
      .int({ error: `${name} must be a whole number.` })
      .min(0, { error: `${name} must be at least 0.` }),
  );

export const landSupplyLotTiles = defineRoute({
  method: 'get',
  path: '/api/land-supply/lots/tiles/:z/:x/:y',
  tag: 'Land Supply',
  summary: `Mapbox Vector Tiles (layer lots) of the lots with their attributes, zoom ${MIN_SUPPLY_TILE_ZOOM} to ${MAX_SUPPLY_TILE_ZOOM}; an empty 200 tile where there is none.`,
  access: { scope: 'land-supply.read' },
  query: z
    .object({
      z: tileCoordinate('z').pipe(
        z
          .number()
          .min(MIN_SUPPLY_TILE_ZOOM, {
            error: `z must be at least ${MIN_SUPPLY_TILE_ZOOM}: lots are too small to draw below.`,
          })
          .max(MAX_SUPPLY_TILE_ZOOM, { error: `z must be at most ${MAX_SUPPLY_TILE_ZOOM}.` }),
      ),
      x: tileCoordinate('x'),
      y: tileCoordinate('y'),
    })
    .superRefine((q, ctx) => {
      const n = 2 ** q.z;
      if (q.x >= n || q.y >= n) ctx.addIssue({ code: 'custom', message: `x and y must be below ${n} at zoom ${q.z}.` });
    }),
  errorStyle: 'plain',
  async handle(q, { graph, scope }) {
    type Answer = { mvt_base64: string; features: number; attribution: string | null; license: string | null };
    const { landSupplyLotTile: tile } = unwrap(
      await graph.execute<{ landSupplyLotTile: Answer }>(
        `query LandSupplyLotTile($z: Int!, $x: Int!, $y: Int!) {
          landSupplyLotTile(z: $z, x: $x, y: $y) { mvt_base64 features attribution license } }`,
        { z: q.z, x: q.x, y: q.y },
        scope,
      ),
    );
    const bytes = Buffer.from(tile.mvt_base64, 'base64');
    const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
    return {
      body: {},
      raw: { contentType: MVT_CONTENT_TYPE, content: bytes },
      credit: tile.attribution && tile.license ? { attribution: tile.attribution, license: tile.license } : null,
      // lots change weekly: an hour in caches, then a revalidation the ETag answers with 304
      headers: { 'Cache-Control': 'private, max-age=3600, must-revalidate', ETag: etag },
    };
  },
});
