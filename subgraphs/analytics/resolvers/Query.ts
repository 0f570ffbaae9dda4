import { badRequest } from '../../../core/errors.ts';
import {
  DEFAULT_SUBURB_LIST_PAGE,
  DEFAULT_SUBURB_SCREEN_PAGE,
  MAX_SUBURB_LIST_PAGE,
  MAX_SUBURB_SCREEN_PAGE,
  MAX_SUBURB_SCREEN_RANGES,
} from '../../../core/limits.ts';
import { LICENSED_METRICS } from '../../../core/suburb-analytics/licensed.ts';
import { SERIES_METRICS } from '../../../core/suburb-analytics/rollup.ts';
import { SUBURB_METRIC_NAMES, suburbKey } from '../../../core/suburb-metrics.ts';
import { assertState } from '../../../core/validate.ts';
import type { AnalyticsContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import type { Credit, Range } from '../sql.ts';

const SOURCE = 'suburb-analytics';

/** Metrics the screen knows whether or not a layer fills them yet: the contract's names and the derived ones. */
export const ALWAYS_SCREENABLE: readonly string[] = [
  ...Object.values(SUBURB_METRIC_NAMES),
  'livability_score',
  ...LICENSED_METRICS,
];

type Header = {
  status: 'ok' | 'no_data' | 'not_covered';
  message: string | null;
  source: string | null;
  attribution: string | null;
  license: string | null;
};

const join = (values: string[]) => [...new Set(values)].join(' | ');

function header(credits: readonly Credit[], empty: string | null, covered = true): Header {
  if (empty !== null) {
    return {
      status: covered ? 'no_data' : 'not_covered',
      message: empty,
      source: null,
      attribution: null,
      license: null,
    };
  }
  return {
    status: 'ok',
    message: null,
    source: SOURCE,
    attribution: credits.length ? join(credits.map((c) => c.attribution)) : null,
    license: credits.length ? join(credits.map((c) => c.license)) : null,
  };
}

function suburbOf(value: string): string {
  const key = suburbKey(value);
  if (key === '' || key.length > 64) throw badRequest('suburb must be 1 to 64 characters.');
  return key;
}

function page(name: string, value: number | null | undefined, fallback: number, min: number, max: number): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw badRequest(
      `${name} must be a whole number from ${min} to ${max}.`,
      name === 'limit' ? 'Page with offset.' : undefined,
    );
  }
  return n;
}

const notComputed = (state: string) => `No suburb analytics have been computed for ${state} yet.`;

export const Query: QueryResolvers<AnalyticsContext> = {
  async suburbAnalyticsBundle(_parent, args, ctx) {
    const state = assertState(args.state);
    const suburb = suburbOf(args.suburb);
    const bundle = await ctx.analytics.bundle(state, suburb);
    if (!bundle) {
      const run = await ctx.analytics.stateRun(state);
      const empty = run ? `No suburb named ${suburb} has analytics in ${state}.` : notComputed(state);
      return { ...header([], empty, run !== null), state, suburb, bundle: null };
    }
    return { ...header((bundle.credits as Credit[] | undefined) ?? [], null), state, suburb, bundle };
  },

  async suburbAnalyticsList(_parent, args, ctx) {
    const state = assertState(args.state);
    const limit = page('limit', args.limit, DEFAULT_SUBURB_LIST_PAGE, 1, MAX_SUBURB_LIST_PAGE);
    const offset = page('offset', args.offset, 0, 0, 1_000_000);
    const [rows, run] = await Promise.all([ctx.analytics.list(state, limit, offset), ctx.analytics.stateRun(state)]);
    const total = rows[0]?.total ?? run?.suburbs ?? 0;
    const empty = !run
      ? notComputed(state)
      : rows.length === 0
        ? `No suburb of ${state} lies at offset ${offset}.`
        : null;
    return {
      ...header(run?.credits ?? [], empty, run !== null),
      state,
      total,
      limit,
      offset,
      suburbs: rows.map(({ total: _total, ...row }) => row),
    };
  },

  async suburbAnalyticsTimeseries(_parent, args, ctx) {
    const state = assertState(args.state);
    const suburb = suburbOf(args.suburb);
    const metric = args.metric.trim().toLowerCase();
    if (!(SERIES_METRICS as readonly string[]).includes(metric)) {
      throw badRequest(`Unknown metric '${args.metric}'.`, `Use one of ${SERIES_METRICS.join(', ')}.`);
    }
    const [bundleCredits, points] = await Promise.all([
      ctx.analytics.bundleCredits(state, suburb),
      ctx.analytics.series(state, suburb, metric),
    ]);
    const base = { state, suburb, metric, known: bundleCredits !== null };
    if (!bundleCredits) {
      const run = await ctx.analytics.stateRun(state);
      const empty = run ? `No suburb named ${suburb} has analytics in ${state}.` : notComputed(state);
      return { ...header([], empty, run !== null), ...base, points: [] };
    }
    if (points.length === 0) {
      return { ...header([], `No ${metric} series is recorded for ${suburb}, ${state}.`), ...base, points: [] };
    }
    const sections = new Set(points.map((p) => p.section));
    const credits = bundleCredits.filter((c) => sections.has(c.section));
    return {
      ...header(credits, null),
      ...base,
      points: points.map((p) => ({
        period: p.period,
        property_type: p.property_type === '' ? null : p.property_type,
        value: p.value,
        count: p.count,
      })),
    };
  },

  async suburbAnalyticsScreen(_parent, args, ctx) {
    const state = assertState(args.state);
    const limit = page('limit', args.limit, DEFAULT_SUBURB_SCREEN_PAGE, 1, MAX_SUBURB_SCREEN_PAGE);
    const offset = page('offset', args.offset, 0, 0, 1_000_000);
    if (args.ranges.length > MAX_SUBURB_SCREEN_RANGES) {
      throw badRequest(`A screen takes at most ${MAX_SUBURB_SCREEN_RANGES} metric ranges.`);
    }
    const [catalog, run] = await Promise.all([ctx.analytics.catalog(state), ctx.analytics.stateRun(state)]);
    const known = new Set([...ALWAYS_SCREENABLE, ...catalog.map((c) => c.metric)]);
    const seen = new Set<string>();
    const ranges: Range[] = args.ranges.map((r) => {
      const metric = r.metric.trim();
      if (!known.has(metric)) {
        throw badRequest(
          `Unknown metric '${metric}'.`,
          `Screen on a numeric bundle metric, e.g. ${[...known].sort().slice(0, 6).join(', ')}; metrics_available lists them all.`,
        );
      }
      if (seen.has(metric)) throw badRequest(`The metric '${metric}' is given twice.`);
      seen.add(metric);
      for (const [bound, v] of [
        ['min', r.min],
        ['max', r.max],
      ] as const) {
        if (v !== null && v !== undefined && !Number.isFinite(v))
          throw badRequest(`${metric}_${bound} must be a number.`);
      }
      const min = r.min ?? null;
      const max = r.max ?? null;
      if (min !== null && max !== null && min > max) {
        throw badRequest(`${metric}_min (${min}) is above ${metric}_max (${max}).`);
      }
      return { metric, min, max };
    });
    const rows = run ? await ctx.analytics.screen(state, ranges, limit, offset) : [];
    const total = rows[0]?.total ?? 0;
    const empty = !run
      ? notComputed(state)
      : rows.length === 0
        ? `No suburb of ${state} passes these ranges at offset ${offset}.`
        : null;
    return {
      ...header(run?.credits ?? [], empty, run !== null),
      state,
      total,
      limit,
      offset,
      next_offset: offset + rows.length < total ? offset + rows.length : null,
      metrics_available: catalog.filter((c) => c.suburbs > 0).map((c) => c.metric),
      rows: rows.map(({ total: _total, ...row }) => row),
    };
  },
};
