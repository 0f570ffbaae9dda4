import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import {
  DEFAULT_SUBURB_LIST_PAGE,
  DEFAULT_SUBURB_SCREEN_PAGE,
  MAX_SUBURB_LIST_PAGE,
  MAX_SUBURB_SCREEN_PAGE,
  MAX_SUBURB_SCREEN_RANGES,
} from '../../core/limits.ts';
import { unwrap } from '../graph-result.ts';
import { numeric, stateParam, textParam } from '../params.ts';
import type { RouteContext, RouteResponse } from '../route.ts';
import { defineRoute } from '../route.ts';

/** Suburb analytics (the analytics subgraph, spec 2.10 and 4.4): bundles, the list, series, the screen. */

type Header = {
  status: string;
  message: string | null;
  source: string | null;
  attribution: string | null;
  license: string | null;
};

const HEADER = 'status message source attribution license';
const SERIES = ['prices', 'rents', 'approvals', 'bonds'] as const;

const suburbParam = textParam('suburb', 64).meta({
  description: 'The suburb (locality) name; any case, spaces URL-encoded (%20).',
  examples: ['Huntly'],
});

const wholeNumber = (name: string, min: number, max: number, fallback: number) =>
  numeric(name)
    .pipe(
      z
        .number()
        .int({ error: `${name} must be a whole number.` })
        .min(min, { error: `${name} must be at least ${min}.` })
        .max(max, { error: `${name} must be at most ${max}.` }),
    )
    .optional()
    .meta({ description: `${min}-${max}; default ${fallback}.` });

/** The body of every suburb-analytics answer: status, payload, credit (body and headers). */
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
    credit:
      ok && layer.attribution && layer.license ? { attribution: layer.attribution, license: layer.license } : null,
  };
}

type BundleAnswer = Header & { state: string; suburb: string; bundle: Record<string, unknown> | null };

async function bundleRoute(
  q: { state: string; suburb: string },
  { graph, scope }: RouteContext,
): Promise<RouteResponse> {
  const { suburbAnalyticsBundle: a } = unwrap(
    await graph.execute<{ suburbAnalyticsBundle: BundleAnswer }>(
      `query SuburbAnalyticsBundle($state: String!, $suburb: String!) {
        suburbAnalyticsBundle(state: $state, suburb: $suburb) { ${HEADER} state suburb bundle } }`,
      { state: q.state, suburb: q.suburb },
      scope,
    ),
  );
  if (!a.bundle) {
    throw new AppError(
      'NOT_FOUND',
      a.message ?? `No suburb named ${a.suburb} has analytics in ${a.state}.`,
      `List the computed suburbs with /v1/suburb-analytics/${a.state}.`,
    );
  }
  return body(a, { data: a.bundle }, { state: q.state, suburb: q.suburb });
}

export const suburbAnalyticsBundle = defineRoute({
  method: 'get',
  path: '/v1/suburb-analytics/bundle',
  tag: 'Suburb Analytics',
  summary:
    "A suburb's precomputed analytics bundle: prices, rents, yields, bonds, approvals, supply, development applications, demographics, amenities, livability score, hazard land shares and licensed_metrics.",
  access: { scope: 'suburb-analytics.read' },
  query: z.object({ state: stateParam, suburb: suburbParam }),
  errorStyle: 'envelope',
  handle: (q, ctx) => bundleRoute(q, ctx),
});

export const suburbAnalyticsTimeseries = defineRoute({
  method: 'get',
  path: '/v1/suburb-analytics/timeseries',
  tag: 'Suburb Analytics',
  summary: 'One quarterly series of a suburb: median prices, median rents, building approvals or rental bonds.',
  access: { scope: 'suburb-analytics.read' },
  query: z.object({
    state: stateParam,
    suburb: suburbParam,
    metric: z
      .enum(SERIES, { error: `metric must be one of ${SERIES.join(', ')}.` })
      .meta({ description: `One of ${SERIES.join(', ')}.` }),
  }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    type Answer = Header & { state: string; suburb: string; metric: string; known: boolean; points: unknown[] };
    const { suburbAnalyticsTimeseries: a } = unwrap(
      await graph.execute<{ suburbAnalyticsTimeseries: Answer }>(
        `query SuburbAnalyticsTimeseries($state: String!, $suburb: String!, $metric: String!) {
          suburbAnalyticsTimeseries(state: $state, suburb: $suburb, metric: $metric) {
            ${HEADER} state suburb metric known points { period property_type value count } } }`,
        { state: q.state, suburb: q.suburb, metric: q.metric },
        scope,
      ),
    );
    if (!a.known) {
      throw new AppError(
        'NOT_FOUND',
        a.message ?? `No suburb named ${a.suburb} has analytics in ${a.state}.`,
        `List the computed suburbs with /v1/suburb-analytics/${a.state}.`,
      );
    }
    return body(
      a,
      { state: a.state, suburb: a.suburb, metric: a.metric, count: a.points.length, data: a.points },
      { state: q.state, suburb: q.suburb, metric: q.metric },
    );
  },
});

/** `<metric>_min` / `<metric>_max` query parameters, read from the loose rest of the query. */
const RANGE_PARAM = /^(.+)_(min|max)$/s;
/** Longer than any metric name: refused as unknown without quoting it whole. */
const MAX_METRIC_NAME = 64;

type Ranges = Array<{ metric: string; min: number | null; max: number | null }>;

const screenQuery = z
  .looseObject({
    state: stateParam,
    limit: wholeNumber('limit', 1, MAX_SUBURB_SCREEN_PAGE, DEFAULT_SUBURB_SCREEN_PAGE),
    offset: wholeNumber('offset', 0, 1_000_000, 0),
    livability_score_min: numeric('livability_score_min')
      .optional()
      .meta({ description: 'One example of the <metric>_min filters: any numeric bundle metric takes one.' }),
    livability_score_max: numeric('livability_score_max')
      .optional()
      .meta({ description: 'One example of the <metric>_max filters: any numeric bundle metric takes one.' }),
  })
  .transform((q, ctx) => {
    const ranges = new Map<string, { min: number | null; max: number | null }>();
    for (const [name, raw] of Object.entries(q)) {
      const match = RANGE_PARAM.exec(name);
      if (!match) continue;
      const [, metric = '', bound = 'min'] = match;
      if (metric.length > MAX_METRIC_NAME) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown metric '${metric.slice(0, 40)}…' (${metric.length} characters).`,
        });
        return z.NEVER;
      }
      let value: number;
      if (typeof raw === 'number') value = raw;
      else {
        const parsed = numeric(name).safeParse(raw);
        if (!parsed.success) {
          ctx.addIssue({
            code: 'custom',
            message: parsed.error.issues.map((i) => i.message).join(' ') || `${name} must be a number.`,
          });
          return z.NEVER;
        }
        value = parsed.data;
      }
      const range = ranges.get(metric) ?? { min: null, max: null };
      range[bound as 'min' | 'max'] = value;
      ranges.set(metric, range);
    }
    if (ranges.size > MAX_SUBURB_SCREEN_RANGES) {
      ctx.addIssue({ code: 'custom', message: `A screen takes at most ${MAX_SUBURB_SCREEN_RANGES} metric ranges.` });
      return z.NEVER;
    }
    const list: Ranges = [...ranges].map(([metric, r]) => ({ metric, ...r }));
    return { state: q.state, limit: q.limit, offset: q.offset, ranges: list };
  });

export const suburbAnalyticsScreen = defineRoute({
  method: 'get',
  path: '/v1/suburb-analytics/screen',
  tag: 'Suburb Analytics',
  summary: `The suburbs of a state whose metrics lie in every <metric>_min / <metric>_max range (inclusive), ordered by suburb, at most ${MAX_SUBURB_SCREEN_PAGE} a page.`,
  access: { scope: 'suburb-analytics.read' },
  query: screenQuery,
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    type Answer = Header & {
      state: string;
      total: number;
      limit: number;
      offset: number;
      next_offset: number | null;
      metrics_available: string[];
      rows: unknown[];
    };
    const { suburbAnalyticsScreen: a } = unwrap(
      await graph.execute<{ suburbAnalyticsScreen: Answer }>(
        `query SuburbAnalyticsScreen($state: String!, $ranges: [SuburbMetricRange!]!, $limit: Int, $offset: Int) {
          suburbAnalyticsScreen(state: $state, ranges: $ranges, limit: $limit, offset: $offset) {
            ${HEADER} state total limit offset next_offset metrics_available
            rows { suburb suburb_key lga_code lga_name metrics } } }`,
        { state: q.state, ranges: q.ranges, limit: q.limit ?? null, offset: q.offset ?? null },
        scope,
      ),
    );
    const echo: Record<string, unknown> = { state: q.state, limit: a.limit, offset: a.offset };
    for (const r of q.ranges) {
      if (r.min !== null) echo[`${r.metric}_min`] = r.min;
      if (r.max !== null) echo[`${r.metric}_max`] = r.max;
    }
    return body(
      a,
      {
        state: a.state,
        total: a.total,
        limit: a.limit,
        offset: a.offset,
        next_offset: a.next_offset,
        count: a.rows.length,
        metrics_available: a.metrics_available,
        data: a.rows,
      },
      echo,
    );
  },
});

export const suburbAnalyticsList = defineRoute({
  method: 'get',
  path: '/v1/suburb-analytics/:state',
  tag: 'Suburb Analytics',
  summary: 'The suburbs of a state with a computed bundle, by name, with their LGA and livability score.',
  access: { scope: 'suburb-analytics.read' },
  query: z.object({
    state: stateParam,
    limit: wholeNumber('limit', 1, MAX_SUBURB_LIST_PAGE, DEFAULT_SUBURB_LIST_PAGE),
    offset: wholeNumber('offset', 0, 1_000_000, 0),
  }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    type Answer = Header & { state: string; total: number; limit: number; offset: number; suburbs: unknown[] };
    const { suburbAnalyticsList: a } = unwrap(
      await graph.execute<{ suburbAnalyticsList: Answer }>(
        `query SuburbAnalyticsList($state: String!, $limit: Int, $offset: Int) {
          suburbAnalyticsList(state: $state, limit: $limit, offset: $offset) {
            ${HEADER} state total limit offset
            suburbs { suburb suburb_key lga_code lga_name livability_score computed_at } } }`,
        { state: q.state, limit: q.limit ?? null, offset: q.offset ?? null },
        scope,
      ),
    );
    return body(
      a,
      { state: a.state, total: a.total, limit: a.limit, offset: a.offset, count: a.suburbs.length, data: a.suburbs },
      { state: q.state, limit: a.limit, offset: a.offset },
    );
  },
});

export const suburbAnalyticsSuburb = defineRoute({
  method: 'get',
  path: '/v1/suburb-analytics/:state/:suburb',
  tag: 'Suburb Analytics',
  summary: "A suburb's full analytics bundle by path; the suburb is case-insensitive, spaces URL-encoded (%20).",
  access: { scope: 'suburb-analytics.read' },
  query: z.object({ state: stateParam, suburb: suburbParam }),
  errorStyle: 'envelope',
  handle: (q, ctx) => bundleRoute(q, ctx),
});
