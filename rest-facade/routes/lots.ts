import { z } from 'zod';
import type { RequestScope } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { Graph } from '../../gateway/graph.ts';
import { unwrap } from '../graph-result.ts';
import { stateParam, textParam } from '../params.ts';
import { defineRoute } from '../route.ts';
import { combineCredits } from './property.ts';
import type { LayerFields, ParcelFields } from './cadastre.ts';
import { LAYER_FIELDS, PARCEL_FIELDS, creditOf } from './cadastre.ts';

type LotReference = {
  lot: string | null;
  section: string | null;
  plan: string;
  plan_type: string;
  plan_number: string;
  state: string | null;
  spi: string | null;
  parish: string | null;
  input: string;
};

const LOT_FIELDS = 'lot section plan plan_type plan_number state spi parish input';

const PARSE_LOT = `query ParseLot($text: String!, $state: String) {
  parseLotReference(text: $text, state: $state) { ${LOT_FIELDS} }
}`;

const BY_LOT_PLAN = `query ParcelsByLotPlan($lot: String, $plan: String!, $state: String!, $spi: String) {
  parcelsByLotPlan(lot: $lot, plan: $plan, state: $state, spi: $spi) { ${LAYER_FIELDS} features { ${PARCEL_FIELDS} } }
}`;

const BY_PFI = `query LotByPfi($pfi: String!, $state: String!) {
  parcelByPfi(parcel_pfi: $pfi, state: $state) { ${LAYER_FIELDS} data { ${PARCEL_FIELDS} } }
}`;

const BY_GNAF = `query LotByGnafPid($gnafPid: ID!) {
  propertyByGnafPid(gnaf_pid: $gnafPid) { parcel_pfi state }
}`;

const ADDRESSES = `query LotAddresses($pfi: String!, $state: String!) {
  addressesOnParcel(parcel_pfi: $pfi, state: $state) {
    attribution license addresses { gnaf_pid formatted_address geocode_type }
  }
}`;

async function parseLot(graph: Graph, scope: RequestScope, text: string, state?: string): Promise<LotReference> {
  const data = unwrap(
    await graph.execute<{ parseLotReference: LotReference }>(PARSE_LOT, { text, state: state ?? null }, scope),
  );
  return data.parseLotReference;
}

export const cadastreParseLot = defineRoute({
  method: 'get',
  path: '/api/cadastre/parse-lot',
  tag: 'Cadastre',
  summary: 'Reads a lot/plan reference (Lot 3 PS612345, 3\\PS612345, 10//DP123456, 3RP123456) into lot and plan.',
  access: { scope: 'cadastre.read' },
  // a pure reading of the caller's own text: no data is looked up, so nothing is charged
  metered: false,
  query: z.object({
    q: textParam('q', 200).describe('A lot/plan reference: Lot 3 PS612345, 3\\PS612345, 10//DP123456, 3RP123456.'),
    state: stateParam.optional(),
  }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const ref = await parseLot(graph, scope, q.q, q.state);
    return { body: { success: true, source: 'parser', data: ref, error: null, hint: null } };
  },
});

type Layer = LayerFields & { data: ParcelFields | null };

/** The parcel a propertyId names: a G-NAF PID, a lot/plan reference, or a PFI in the given state. */
async function parcelOf(
  graph: Graph,
  scope: RequestScope,
  propertyId: string,
  state: string,
): Promise<{ layer: Layer; reference: LotReference | null; via: 'pfi' | 'gnaf_pid' | 'lot_plan' }> {
  if (/^GA[A-Z]{2,3}_?\d+$/i.test(propertyId)) {
    // cadastre.read opens the G-NAF link to the parcel (propertyByGnafPid, parcel_pfi) and nothing of the address
    const data = unwrap(
      await graph.execute<{ propertyByGnafPid: { parcel_pfi: string | null; state: string } | null }>(
        BY_GNAF,
        { gnafPid: propertyId.toUpperCase() },
        scope,
      ),
    );
    const property = data.propertyByGnafPid;
    if (!property) throw new AppError('NOT_FOUND', `No address with gnaf_pid ${propertyId}.`);
    if (!property.parcel_pfi)
      throw new AppError(
        'NOT_FOUND',
        `The address ${propertyId} is not linked to a parcel.`,
        'Its point lies on no parcel of the mirror; look the parcel up by point with /api/cadastre/lookup.',
      );
    const layer = unwrap(
      await graph.execute<{ parcelByPfi: Layer }>(BY_PFI, { pfi: property.parcel_pfi, state: property.state }, scope),
    ).parcelByPfi;
    return { layer, reference: null, via: 'gnaf_pid' };
  }
  if (/^\d+$/.test(propertyId) || !/[A-Z]{2}\s*\d/i.test(propertyId)) {
    const layer = unwrap(
      await graph.execute<{ parcelByPfi: Layer }>(BY_PFI, { pfi: propertyId, state }, scope),
    ).parcelByPfi;
    return { layer, reference: null, via: 'pfi' };
  }
  const reference = await parseLot(graph, scope, propertyId, state);
  if (!reference.lot)
    throw new AppError(
      'BAD_REQUEST',
      `'${propertyId}' names a plan but no lot.`,
      'Name one lot of the plan, e.g. 3\\PS612345 or Lot 3 PS612345.',
    );
  const collection = unwrap(
    await graph.execute<{ parcelsByLotPlan: LayerFields & { features: ParcelFields[] } }>(
      BY_LOT_PLAN,
      { lot: reference.lot, plan: reference.plan, state: reference.state ?? state, spi: reference.spi },
      scope,
    ),
  ).parcelsByLotPlan;
  const [first, second] = collection.features;
  if (second)
    throw new AppError(
      'NOT_FOUND',
      `More than one parcel is registered as lot ${reference.lot} on ${reference.plan}.`,
      'Use the parcel PFI instead.',
    );
  return { layer: { ...collection, data: first ?? null }, reference, via: 'lot_plan' };
}

type Position = [number, number];

/** Every vertex of a (Multi)Polygon, for its bounding box and centroid. */
function vertices(geometry: GeoJSONGeometry): Position[] {
  const coordinates = (geometry as { coordinates: unknown }).coordinates;
  const out: Position[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node) && typeof node[0] === 'number') out.push([node[0], node[1] as number]);
    else if (Array.isArray(node)) node.forEach(walk);
  };
  walk(coordinates);
  return out;
}

/** Frontage-independent lot facts: extent, a centroid of the outer rings, the perimeter in metres. */
function lotShape(geometry: GeoJSONGeometry) {
  const points = vertices(geometry);
  const lngs = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  const bbox = [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
  const rings =
    geometry.type === 'Polygon'
      ? [geometry.coordinates[0]]
      : geometry.type === 'MultiPolygon'
        ? geometry.coordinates.map((p) => p[0])
        : [];
  // relative to one vertex: cross products of raw degrees lose the digits a lot's size lives in
  const [ox, oy] = points[0] ?? [0, 0];
  let area = 0;
  let cx = 0;
  let cy = 0;
  let perimeter = 0;
  const metresPerDegreeLat = 111_320;
  for (const ring of rings) {
    if (!ring) continue;
    for (let i = 0; i < ring.length - 1; i++) {
      const [ax, ay] = ring[i] as Position;
      const [bx, by] = ring[i + 1] as Position;
      const [x0, y0, x1, y1] = [ax - ox, ay - oy, bx - ox, by - oy];
      const cross = x0 * y1 - x1 * y0;
      area += cross;
      cx += (x0 + x1) * cross;
      cy += (y0 + y1) * cross;
      const metresPerDegreeLng = metresPerDegreeLat * Math.cos((((ay + by) / 2) * Math.PI) / 180);
      perimeter += Math.hypot((bx - ax) * metresPerDegreeLng, (by - ay) * metresPerDegreeLat);
    }
  }
  const centroid = area === 0 ? null : { lat: oy + cy / (3 * area), lng: ox + cx / (3 * area) };
  const round = (n: number) => Math.round(n * 1e7) / 1e7;
  return {
    bbox: bbox.map(round),
    centroid: centroid ? { lat: round(centroid.lat), lng: round(centroid.lng) } : null,
    perimeter_m: Math.round(perimeter * 100) / 100,
  };
}

export const cadastreLotDetail = defineRoute({
  method: 'get',
  path: '/api/cadastre/lot-detail/:propertyId',
  tag: 'Cadastre',
  summary: 'One lot in detail: its identifiers read per state, area, extent, centroid, geometry and its addresses.',
  access: { scope: 'cadastre.read' },
  query: z.object({ propertyId: textParam('propertyId', 200), state: stateParam.default('VIC') }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const { layer, reference, via } = await parcelOf(graph, scope, q.propertyId, q.state);
    if (layer.status === 'error')
      throw new AppError(
        'UPSTREAM_UNAVAILABLE',
        'The cadastre source failed for this lot.',
        layer.message ?? 'Retry shortly.',
      );
    const parcel = layer.data;
    if (layer.status !== 'ok' || !parcel)
      throw new AppError(
        'NOT_FOUND',
        `No parcel found for '${q.propertyId}'.`,
        layer.message ?? 'Pass a PFI with state, a gnaf_pid, or a lot/plan reference such as 3\\PS612345.',
      );
    const registered =
      reference ??
      (parcel.parcel_plan_number
        ? await parseLot(
            graph,
            scope,
            parcel.parcel_spi ?? `${parcel.parcel_lot_number ?? ''} ${parcel.parcel_plan_number}`,
            parcel.state,
          ).catch(() => null)
        : null);
    // the addresses on the lot are part of what cadastre.read buys here (FIELD_SCOPES opens addressesOnParcel to it)
    const { addresses, ...addressCredit } = unwrap(
      await graph.execute<{
        addressesOnParcel: {
          attribution: string | null;
          license: string | null;
          addresses: Array<{ gnaf_pid: string; formatted_address: string; geocode_type: string }>;
        };
      }>(ADDRESSES, { pfi: parcel.parcel_pfi, state: parcel.state }, scope),
    ).addressesOnParcel;
    const credit = combineCredits([
      creditOf(layer),
      addresses.length > 0 && addressCredit.attribution && addressCredit.license
        ? { attribution: addressCredit.attribution, license: addressCredit.license }
        : null,
    ]);
    return {
      body: {
        success: true,
        source: layer.source,
        data: {
          parcel_pfi: parcel.parcel_pfi,
          parcel_spi: parcel.parcel_spi,
          state: parcel.state,
          matched_by: via,
          lot: registered?.lot ?? parcel.parcel_lot_number,
          section: registered?.section ?? null,
          plan: parcel.parcel_plan_number,
          plan_type: registered?.plan_type ?? null,
          plan_number: registered?.plan_number ?? null,
          ezi_address: parcel.ezi_address,
          area_m2: Math.round(parcel.area_m2 * 100) / 100,
          ...lotShape(parcel.geometry),
          addresses: addresses.map((a) => ({
            gnaf_pid: a.gnaf_pid,
            address: a.formatted_address,
            geocodeType: a.geocode_type,
          })),
          geometry: parcel.geometry,
        },
        error: null,
        hint: null,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});
