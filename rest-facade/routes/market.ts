import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import {
  DEFAULT_COMPARABLES,
  DEFAULT_COMPARABLE_MONTHS,
  DEFAULT_COMPARABLE_RADIUS_M,
  DEFAULT_SALES_LIMIT,
  DEFAULT_SALES_RADIUS_M,
  MAX_COMPARABLES,
  MAX_COMPARABLE_MONTHS,
  MAX_COMPARABLE_RADIUS_M,
  MAX_SALES_LIMIT,
  MAX_SALES_RADIUS_M,
} from '../../core/limits.ts';
import { assertPoint } from '../../core/validate.ts';
import { unwrap } from '../graph-result.ts';
import { numeric, stateParam, textParam } from '../params.ts';
import type { RouteResponse } from '../route.ts';
import { defineRoute } from '../route.ts';
import { unknownParcel } from './parcel-point.ts';
import { combineCredits } from './property.ts';

/**
 * Property sales, comparable sales (dossier.read) and suburb trends (locality.suburb): the market
 * subgraph on REST. Paths and shapes are this service's own (spec 4.11 leaves them open; see
 * docs/p8-notes-market.md).
 */

export const SALE_FIELDS = `id state contract_date settlement_date price property_type nature_of_property primary_purpose
  area area_unit area_m2 address locality postcode zoning strata_lot_number dealing_number legal_description gnaf_pid
  parcel_pfi location { lat lng } distance_m attribution license`;
export const MARKET_LAYER_FIELDS = 'status source attribution license freshness message';
const SUMMARY_FIELDS = `property_type median_price_12m sales_12m growth_1y_pct growth_3y_pct growth_5y_pct
  median_weekly_rent gross_yield_pct rents_by_bedrooms { bedrooms median_weekly_rent new_bonds bonds_held } notes`;
const RENT_FIELDS = 'period dwelling_type bedrooms median_weekly_rent new_bonds bonds_held';
const QUARTER_FIELDS = 'period property_type median_price sales median_weekly_rent new_bonds bonds_held';
/**
 * The property graph's market_trends layer: the headline figures only (the series are on
 * /api/suburb-trends), so the graph's one operation stays inside the selected-field limit.
 */
export const GRAPH_MARKET_FIELDS = `state suburb postcode latest_quarter summary { property_type median_price_12m sales_12m
  growth_1y_pct growth_3y_pct growth_5y_pct median_weekly_rent gross_yield_pct }`;
export const SUBURB_MARKET_FIELDS = `state suburb postcode latest_quarter summary { ${SUMMARY_FIELDS} }
  quarters { ${QUARTER_FIELDS} } rents { ${RENT_FIELDS} } sa2_code sa2_name approvals_12m approvals { period dwelling_type value }`;
const PIPELINE_FIELDS = 'das_pending dwellings_pending das_approved dwellings_approved lots_available estates_selling';

type Header = {
  status: string;
  message: string | null;
  source: string | null;
  attribution: string | null;
  license: string | null;
  freshness: string | null;
};

const PROPERTY_TYPES = ['house', 'unit', 'land', 'other'] as const;

/** A whole number in [min, max]; absent means the default. */
const wholeParam = (name: string, min: number, max: number, fallback: number, unit = '') =>
  numeric(name)
    .pipe(
      z
        .number()
        .int({ error: `${name} must be a whole number.` })
        .min(min, { error: `${name} must be at least ${min}${unit}.` })
        .max(max, { error: `${name} must be at most ${max}${unit}.` }),
    )
    .optional()
    .meta({ description: `${min}-${max}${unit}; default ${fallback}.` });

const typeParam = z
  .string({ error: 'property_type must be a single value.' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(PROPERTY_TYPES, { error: `property_type must be one of ${PROPERTY_TYPES.join(', ')}.` }))
  .optional()
  .meta({ description: `Only sales of this type: ${PROPERTY_TYPES.join(', ')}.` });

const dateParam = (name: string) =>
  z
    .string({ error: `${name} must be a single value.` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${name} must be a date as YYYY-MM-DD.` })
    .refine(
      (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      {
        error: `${name} must be a real date as YYYY-MM-DD.`,
      },
    )
    .optional()
    .meta({
      description:
        name === 'since'
          ? 'Sales contracted on or after this date (YYYY-MM-DD).'
          : 'Sales contracted on or before this date (YYYY-MM-DD).',
    });

/** Exactly one way of naming the property: lat and lng, pfi and state, or gnaf_pid. */
const place = {
  lat: numeric('lat').optional(),
  lng: numeric('lng').optional(),
  pfi: textParam('pfi', 64).optional(),
  state: stateParam.optional(),
  gnaf_pid: textParam('gnaf_pid', 32).optional(),
};
type Place = { lat?: number; lng?: number; pfi?: string; state?: string; gnaf_pid?: string };

function refinePlace(q: Place, ctx: z.RefinementCtx): void {
  const forms = [q.lat !== undefined || q.lng !== undefined, q.pfi !== undefined, q.gnaf_pid !== undefined];
  if (forms.filter(Boolean).length !== 1) {
    ctx.addIssue({
      code: 'custom',
      message: 'Identify the place one way: lat and lng, or pfi and state, or gnaf_pid.',
    });
  } else if ((q.lat === undefined) !== (q.lng === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
  } else if (q.pfi !== undefined && q.state === undefined) {
    ctx.addIssue({ code: 'custom', message: 'pfi needs state: parcel identifiers are only unique within a state.' });
  }
}

/** Every market answer: the layer's status and credit (body and headers) around the payload. */
function body(layer: Header, payload: Record<string, unknown>, query: Record<string, unknown>): RouteResponse {
  const ok = layer.status === 'ok';
  return {
    body: {
      success: true,
      query,
      status: layer.status,
      source: layer.source,
      freshness: layer.freshness,
      ...payload,
      error: null,
      hint: layer.message,
      attribution: layer.attribution,
      license: layer.license,
    },
    credit:
      ok && layer.attribution && layer.license ? { attribution: layer.attribution, license: layer.license } : null,
  };
}

type Sale = Record<string, unknown> & { location: { lat: number; lng: number } | null };

export const propertySales = defineRoute({
  method: 'get',
  path: '/api/property-sales',
  tag: 'Property Sales',
  summary:
    'Sales records: around a point (lat, lng, radius_m), of a parcel (pfi and state) or of an address (gnaf_pid), newest first, with contract and settlement dates, price, type, area and the publisher credit.',
  access: { scope: 'dossier.read' },
  query: z
    .object({
      ...place,
      radius_m: wholeParam('radius_m', 1, MAX_SALES_RADIUS_M, DEFAULT_SALES_RADIUS_M, ' m'),
      since: dateParam('since'),
      until: dateParam('until'),
      property_type: typeParam,
      limit: wholeParam('limit', 1, MAX_SALES_LIMIT, DEFAULT_SALES_LIMIT),
    })
    .superRefine((q, ctx) => {
      refinePlace(q, ctx);
      if (q.radius_m !== undefined && q.lat === undefined) {
        ctx.addIssue({ code: 'custom', message: 'radius_m goes with lat and lng.' });
      }
      if (q.since && q.until && q.since > q.until) {
        ctx.addIssue({ code: 'custom', message: 'since must be on or before until.' });
      }
    }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    if (q.lat !== undefined) assertPoint(q.lat, q.lng!);
    const state = q.state ?? (q.lat !== undefined ? detectState(q.lng!, q.lat) : undefined) ?? null;
    const variables = {
      lat: q.lat ?? null,
      lng: q.lng ?? null,
      radius: q.radius_m ?? (q.lat !== undefined ? DEFAULT_SALES_RADIUS_M : null),
      pfi: q.pfi ?? null,
      gnafPid: q.gnaf_pid ?? null,
      state: q.gnaf_pid !== undefined ? (q.state ?? null) : state,
      since: q.since ?? null,
      until: q.until ?? null,
      type: q.property_type ?? null,
      limit: q.limit ?? DEFAULT_SALES_LIMIT,
    };
    type Answer = Header & { sales: Sale[] };
    const { propertySales: a } = unwrap(
      await graph.execute<{ propertySales: Answer }>(
        `query PropertySales($lat: Float, $lng: Float, $radius: Int, $pfi: String, $gnafPid: String, $state: String,
          $since: String, $until: String, $type: String, $limit: Int) {
          propertySales(lat: $lat, lng: $lng, radius_m: $radius, parcel_pfi: $pfi, gnaf_pid: $gnafPid, state: $state,
            since: $since, until: $until, property_type: $type, limit: $limit) {
            ${MARKET_LAYER_FIELDS} sales { ${SALE_FIELDS} } } }`,
        variables,
        scope,
      ),
    );
    const query = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined));
    return body(a, { count: a.sales.length, data: a.sales }, query);
  },
});

type ComparablesLayer = Header & {
  data: {
    property_type: string;
    property_type_from: string;
    area_m2: number | null;
    radius_m: number;
    months: number;
    comparables: Array<{
      sale: Sale;
      score: number;
      distance_score: number;
      recency_score: number;
      size_score: number;
    }>;
  } | null;
};
type ComparablesProperty = { parcel_pfi: string | null; state: string; layer: ComparablesLayer } | null;

export const propertySalesComparables = defineRoute({
  method: 'get',
  path: '/api/property-sales/comparables',
  tag: 'Property Sales',
  summary:
    'Comparable sales for a property (lat/lng, pfi and state, or gnaf_pid): recent sales of the same type nearby, ranked by score = 0.5 distance + 0.3 recency + 0.2 size similarity.',
  access: { scope: 'dossier.read' },
  query: z
    .object({
      ...place,
      property_type: typeParam,
      area_m2: numeric('area_m2')
        .pipe(z.number().gt(0, { error: 'area_m2 must be more than 0.' }).lt(1e8, { error: 'area_m2 is too large.' }))
        .optional()
        .meta({
          description:
            'The land area to compare sizes with (m2); default the area of the property\u2019s own latest sale.',
        }),
      radius_m: wholeParam('radius_m', 1, MAX_COMPARABLE_RADIUS_M, DEFAULT_COMPARABLE_RADIUS_M, ' m'),
      months: wholeParam('months', 1, MAX_COMPARABLE_MONTHS, DEFAULT_COMPARABLE_MONTHS),
      limit: wholeParam('limit', 1, MAX_COMPARABLES, DEFAULT_COMPARABLES),
    })
    .superRefine(refinePlace),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const args = {
      type: q.property_type ?? null,
      area: q.area_m2 ?? null,
      radius: q.radius_m ?? DEFAULT_COMPARABLE_RADIUS_M,
      months: q.months ?? DEFAULT_COMPARABLE_MONTHS,
      limit: q.limit ?? DEFAULT_COMPARABLES,
    };
    const layer = `layer: comparable_sales(property_type: $type, area_m2: $area, radius_m: $radius, months: $months, limit: $limit) {
      ${MARKET_LAYER_FIELDS} data { property_type property_type_from area_m2 radius_m months
        comparables { score distance_score recency_score size_score sale { ${SALE_FIELDS} } } } }`;
    const vars = '$type: String, $area: Float, $radius: Int, $months: Int, $limit: Int';
    let property: ComparablesProperty;
    let query: Record<string, unknown>;
    if (q.gnaf_pid !== undefined) {
      query = { gnaf_pid: q.gnaf_pid };
      ({ property } = unwrap(
        await graph.execute<{ property: ComparablesProperty }>(
          `query ComparablesByAddress($gnafPid: ID!, ${vars}) { property: propertyByGnafPid(gnaf_pid: $gnafPid) { parcel_pfi state ${layer} } }`,
          { gnafPid: q.gnaf_pid, ...args },
          scope,
        ),
      ));
      if (!property) throw new AppError('NOT_FOUND', `No property with gnaf_pid ${q.gnaf_pid}.`);
    } else if (q.pfi !== undefined) {
      query = { pfi: q.pfi, state: q.state };
      ({ property } = unwrap(
        await graph.execute<{ property: ComparablesProperty }>(
          `query ComparablesByParcel($pfi: String!, $state: String!, ${vars}) {
            property: propertyByParcel(parcel_pfi: $pfi, state: $state) { parcel_pfi state ${layer} } }`,
          { pfi: q.pfi, state: q.state, ...args },
          scope,
        ),
      ));
      if (!property) throw unknownParcel(q.pfi, q.state!);
    } else {
      const { lat, lng } = q as { lat: number; lng: number };
      assertPoint(lat, lng);
      query = { lat, lng, state: q.state ?? detectState(lng, lat) ?? 'VIC' };
      ({ property } = unwrap(
        await graph.execute<{ property: ComparablesProperty }>(
          `query ComparablesAtPoint($lat: Float!, $lng: Float!, $state: String!, ${vars}) {
            property: propertyAt(lat: $lat, lng: $lng, state: $state) { parcel_pfi state ${layer} } }`,
          { ...query, ...args },
          scope,
        ),
      ));
    }
    const a = property!.layer;
    return body(
      a,
      {
        parcel_pfi: property!.parcel_pfi,
        state: property!.state,
        property_type: a.data?.property_type ?? q.property_type ?? null,
        property_type_from: a.data?.property_type_from ?? null,
        area_m2: a.data?.area_m2 ?? q.area_m2 ?? null,
        radius_m: args.radius,
        months: args.months,
        count: a.data?.comparables.length ?? 0,
        data: (a.data?.comparables ?? []).map(({ sale, ...score }) => ({ ...sale, ...score })),
      },
      { ...query, ...Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null)) },
    );
  },
});

type SuburbLayer = Header & {
  known: boolean;
  data: {
    state: string;
    suburb: string;
    postcode: string | null;
    latest_quarter: string | null;
    summary: unknown[];
    quarters: Array<{
      period: string;
      property_type: string;
      median_price: number | null;
      sales: number;
      median_weekly_rent: number | null;
      new_bonds: number | null;
      bonds_held: number | null;
    }>;
    rents: Array<{ period: string; dwelling_type: string; bedrooms: string } & Record<string, unknown>>;
    sa2_code: string | null;
    sa2_name: string | null;
    approvals: unknown[];
    approvals_12m: number | null;
  } | null;
};

const suburbQuery = z.object({
  state: stateParam,
  suburb: textParam('suburb', 100).meta({
    description: 'The suburb (G-NAF locality) name, any case; spaces URL-encoded.',
  }),
  property_type: typeParam,
});

type Pipeline = Header & { data: Record<string, number> | null };

const TRENDS = `market_trends(property_type: $type) { ${MARKET_LAYER_FIELDS} known data { ${SUBURB_MARKET_FIELDS} } }`;
const SUBURB_TRENDS = `query SuburbTrends($state: String!, $suburb: String!, $type: String) {
  suburbByName(state: $state, name: $suburb) { ${TRENDS} } }`;
// the market's pipeline over the development and supply subgraphs' counts, beside the trends: the
// planner asks the address, development and supply subgraphs in the same turn, one folded statement
const SUBURB_TRENDS_AND_PIPELINE = `query SuburbTrendsAndPipeline($state: String!, $suburb: String!, $type: String) {
  suburbByName(state: $state, name: $suburb) { ${TRENDS}
    supply_pipeline { ${MARKET_LAYER_FIELDS} data { ${PIPELINE_FIELDS} } } } }`;

/**
 * The suburb's market (and its supply pipeline, where asked) through the graph's Suburb entity,
 * whose G-NAF locality the address subgraph gives the trends; 404 for a suburb the data does not know.
 */
async function suburbMarket(
  q: z.output<typeof suburbQuery>,
  ctx: Parameters<(typeof propertySales)['handle']>[1],
  pipeline = false,
): Promise<{ a: SuburbLayer; p: Pipeline | null }> {
  const {
    suburbByName: { market_trends: a, supply_pipeline: p },
  } = unwrap(
    await ctx.graph.execute<{ suburbByName: { market_trends: SuburbLayer; supply_pipeline?: Pipeline } }>(
      pipeline ? SUBURB_TRENDS_AND_PIPELINE : SUBURB_TRENDS,
      { state: q.state, suburb: q.suburb, type: q.property_type ?? null },
      ctx.scope,
    ),
  );
  if (!a.known) {
    throw new AppError(
      'NOT_FOUND',
      `Unknown suburb: no ${q.state} locality is named ${q.suburb.toUpperCase()}.`,
      'Spell the suburb as G-NAF names its locality (spaces URL-encoded), with its state.',
    );
  }
  return { a, p: p ?? null };
}

const suburbEcho = (q: z.output<typeof suburbQuery>) => ({
  state: q.state,
  suburb: q.suburb,
  ...(q.property_type ? { property_type: q.property_type } : {}),
});

export const suburbTrends = defineRoute({
  method: 'get',
  path: '/api/suburb-trends/:state/:suburb',
  tag: 'Suburb Trends',
  summary:
    "A suburb's market: quarterly median sale prices and weekly rents per property type, growth over 1/3/5 years, gross yields, building approvals and the supply pipeline (development applications, land-supply lots).",
  access: { scope: 'locality.suburb' },
  query: suburbQuery,
  errorStyle: 'envelope',
  async handle(q, ctx) {
    const { a, p } = await suburbMarket(q, ctx, true);
    if (!p) throw new Error('the supply pipeline did not come back with the trends');
    const d = a.data;
    const answer = body(
      a,
      {
        state: q.state,
        suburb: d?.suburb ?? q.suburb.toUpperCase(),
        postcode: d?.postcode ?? null,
        latest_quarter: d?.latest_quarter ?? null,
        summary: d?.summary ?? [],
        quarters: d?.quarters ?? [],
        rents: d?.rents ?? [],
        approvals: {
          sa2_code: d?.sa2_code ?? null,
          sa2_name: d?.sa2_name ?? null,
          approvals_12m: d?.approvals_12m ?? null,
          quarters: d?.approvals ?? [],
        },
        pipeline: {
          status: p.status,
          hint: p.message,
          attribution: p.attribution,
          license: p.license,
          ...(p.data ?? {}),
        },
      },
      suburbEcho(q),
    );
    // the pipeline's counts are the DA and land-supply sources' data: their credit joins the answer's
    if (p.status === 'ok' && p.attribution && p.license) {
      const credit = combineCredits([answer.credit ?? null, { attribution: p.attribution, license: p.license }])!;
      answer.credit = credit;
      answer.body.attribution = credit.attribution;
      answer.body.license = credit.license;
    }
    return answer;
  },
});

export const suburbTrendPrices = defineRoute({
  method: 'get',
  path: '/api/suburb-trends/:state/:suburb/prices',
  tag: 'Suburb Trends',
  summary:
    "A suburb's quarterly median sale price series per property type (oldest first), with the sales each stands on.",
  access: { scope: 'locality.suburb' },
  query: suburbQuery,
  errorStyle: 'envelope',
  async handle(q, ctx) {
    const { a } = await suburbMarket(q, ctx);
    const series = (a.data?.quarters ?? [])
      .filter((p) => p.sales > 0)
      .map((p) => ({ period: p.period, property_type: p.property_type, median_price: p.median_price, sales: p.sales }));
    return body(
      a,
      {
        state: q.state,
        suburb: a.data?.suburb ?? q.suburb.toUpperCase(),
        latest_quarter: a.data?.latest_quarter ?? null,
        series,
      },
      suburbEcho(q),
    );
  },
});

export const suburbTrendRents = defineRoute({
  method: 'get',
  path: '/api/suburb-trends/:state/:suburb/rents',
  tag: 'Suburb Trends',
  summary:
    "A suburb's quarterly median weekly rent series per dwelling type (oldest first), with new bonds lodged and bonds held, and the same by bedroom count where the publisher splits it.",
  access: { scope: 'locality.suburb' },
  query: suburbQuery,
  errorStyle: 'envelope',
  async handle(q, ctx) {
    const { a } = await suburbMarket(q, ctx);
    const series = (a.data?.quarters ?? [])
      .filter((p) => p.median_weekly_rent !== null || p.new_bonds !== null)
      .map((p) => ({
        period: p.period,
        property_type: p.property_type,
        median_weekly_rent: p.median_weekly_rent,
        new_bonds: p.new_bonds,
        bonds_held: p.bonds_held,
      }));
    return body(
      a,
      {
        state: q.state,
        suburb: a.data?.suburb ?? q.suburb.toUpperCase(),
        postcode: a.data?.postcode ?? null,
        latest_quarter: a.data?.latest_quarter ?? null,
        series,
        // every bedroom count of every dwelling type published; the 'all' totals are the series above
        by_bedrooms: (a.data?.rents ?? []).filter((r) => r.bedrooms !== 'all'),
      },
      suburbEcho(q),
    );
  },
});
