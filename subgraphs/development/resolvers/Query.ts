import { badRequest } from '../../../core/errors.ts';
import {
  DEFAULT_DA_PAGE,
  DEFAULT_DA_RADIUS_M,
  DEFAULT_DA_STATS_MONTHS,
  MAX_DA_FEED_SPAN_DEGREES,
  MAX_DA_NEAR,
  MAX_DA_OFFSET,
  MAX_DA_PAGE,
  MAX_DA_RADIUS_M,
  MAX_DA_STATS_MONTHS,
} from '../../../core/limits.ts';
import { assertBBox, assertPoint, assertState } from '../../../core/validate.ts';
import type { CreditModel, DevelopmentContext } from '../data.ts';
import { decodeCursor, encodeCursor, queryDigest } from '../cursor.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import type { DevelopmentRow, FeedFilter } from '../sql.ts';
import { guarded, judge } from './layers.ts';
import { spearQuery } from './spear.ts';

function wholeNumber(name: string, value: number | null | undefined, fallback: number, min: number, max: number) {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw badRequest(`${name} must be a whole number from ${min} to ${max}.`, `Omit it for ${fallback}.`);
  }
  return n;
}

function code(name: string, value: string): string {
  const text = value.trim();
  if (text === '' || text.length > 32) throw badRequest(`${name} must be 1 to 32 characters.`);
  return text;
}

/** An instant or a day (midnight UTC) as ISO 8601 text; anything else is refused. */
function instantOf(value: string): string {
  const text = value.trim();
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/.test(text);
  const ms = Date.parse(day ? `${text}T00:00:00Z` : text);
  // Date.parse rolls 30 February over into March: the calendar day must come back as written
  const real = Number.isFinite(ms) && validDay(text.slice(0, 10));
  if ((!day && !time) || !real) {
    throw badRequest(
      `updated_since must be an ISO 8601 date or instant, got '${text.slice(0, 40)}'.`,
      'For example updated_since=2025-10-01 or updated_since=2025-10-01T00:00:00Z.',
    );
  }
  return new Date(ms).toISOString();
}

/** Whether YYYY-MM-DD names a day of the calendar (not 30 February). */
function validDay(day: string): boolean {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day;
}

/** Metres to degrees of a box around a point that holds the whole radius (1% to spare). */
function boxAround(lng: number, lat: number, radiusM: number) {
  const dLat = (radiusM / 111_320) * 1.01;
  const dLng = (radiusM / (111_320 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01))) * 1.01;
  return { west: lng - dLng, south: lat - dLat, east: lng + dLng, north: lat + dLat };
}

function creditsOf(rows: readonly DevelopmentRow[]): CreditModel[] {
  const seen = new Map<string, CreditModel>();
  for (const { state, attribution, license } of rows) {
    seen.set(`${state}\u0000${attribution}\u0000${license}`, { state, attribution, license });
  }
  return [...seen.values()].sort(
    (a, b) => a.state.localeCompare(b.state) || a.attribution.localeCompare(b.attribution),
  );
}

export const Query: QueryResolvers<DevelopmentContext> = {
  ...spearQuery,
  async developmentApplicationsNear(_parent, { lat, lng, state, radius_m }, ctx) {
    assertPoint(lat, lng);
    const code = assertState(state);
    const radius = radius_m ?? DEFAULT_DA_RADIUS_M;
    if (!Number.isFinite(radius) || radius <= 0 || radius > MAX_DA_RADIUS_M) {
      throw badRequest(`radius_m must be more than 0 and at most ${MAX_DA_RADIUS_M} metres.`, 'Ask a smaller circle.');
    }
    const judged = await guarded(async () =>
      judge(
        ctx,
        code,
        await ctx.development.near(code, lng, lat, radius, boxAround(lng, lat, radius), MAX_DA_NEAR),
        `No development application is recorded within ${radius} m of this point.`,
        (f) => f,
      ),
    );
    const { data, ...rest } = judged;
    const applications = data ?? [];
    if (applications.length > MAX_DA_NEAR) {
      throw badRequest(
        `More than ${MAX_DA_NEAR} development applications lie within ${radius} m of this point.`,
        'Ask a smaller radius_m; results are never truncated.',
      );
    }
    return { ...rest, radius_m: radius, applications };
  },

  async developmentApplicationsInLga(_parent, args, ctx) {
    const lga = code('lga_code', args.lga_code);
    const state = args.state == null ? null : assertState(args.state);
    const limit = wholeNumber('limit', args.limit, DEFAULT_DA_PAGE, 1, MAX_DA_PAGE);
    const offset = wholeNumber('offset', args.offset, 0, 0, MAX_DA_OFFSET);
    let total = 0;
    let read = 0;
    const judged = await guarded(async () => {
      const page = await ctx.development.inLga(lga, state, limit, offset);
      total = page.total;
      read = page.features.length;
      const states = page.states.length > 0 ? page.states : state ? [state] : [];
      if (states.length === 0) {
        return {
          status: 'no_data' as const,
          data: null,
          message: `No development application is recorded in LGA ${lga}.`,
          source: null,
          attribution: null,
          license: null,
          freshness: null,
        };
      }
      return judge(
        ctx,
        states[0]!,
        { freshness: null, features: page.features },
        `No development application of LGA ${lga} is on this page.`,
        (f) => f,
      );
    });
    const next = offset + read;
    const { data, ...rest } = judged;
    return {
      ...rest,
      total,
      offset,
      next_offset: next < total && read > 0 ? next : null,
      applications: data ?? [],
    };
  },

  async developmentApplicationStatistics(_parent, args, ctx) {
    const months = wholeNumber('months', args.months, DEFAULT_DA_STATS_MONTHS, 1, MAX_DA_STATS_MONTHS);
    const byLga = args.lga_code != null;
    const bySuburb = args.suburb != null;
    if (byLga === bySuburb) {
      throw badRequest('Name one place: lga_code, or suburb with state.');
    }
    let place;
    if (byLga) {
      place = { lgaCode: code('lga_code', args.lga_code!) };
    } else {
      if (args.state == null) throw badRequest('suburb needs state: suburb names repeat across states.');
      place = { suburb: code('suburb', args.suburb!), state: assertState(args.state) };
    }
    const row = await ctx.development.statistics(place, months);
    const state = row.place.state ?? ('state' in place ? place.state : null);
    const provenance = state ? await ctx.development.provenance(state) : undefined;
    const status = !provenance ? 'not_covered' : row.place.known ? 'ok' : 'no_data';
    const message =
      status === 'not_covered'
        ? `The development applications layer does not cover ${state ?? 'this place'} yet.`
        : status === 'no_data'
          ? 'No development application is recorded in this place.'
          : null;
    return {
      status,
      message,
      source: provenance?.source ?? null,
      attribution: provenance?.attribution ?? null,
      license: provenance?.license ?? null,
      freshness: null,
      lga_code: row.place.lga_code,
      lga_name: row.place.lga_name,
      suburb: 'suburb' in place ? (row.place.suburb ?? place.suburb) : null,
      state,
      from_month: row.from_month,
      to_month: row.to_month,
      total: row.total,
      median_decision_days: row.median_decision_days,
      months: row.months,
    };
  },

  async developmentApplicationFeed(_parent, args, ctx) {
    const byLga = args.lga_code != null;
    const byBox = args.bbox != null;
    if (byLga === byBox) throw badRequest('Name one area: lga_code, or bbox (minLng,minLat,maxLng,maxLat).');
    if (args.bbox) assertBBox(args.bbox, MAX_DA_FEED_SPAN_DEGREES);
    const limit = wholeNumber('limit', args.limit, DEFAULT_DA_PAGE, 1, MAX_DA_PAGE);
    const base = {
      lgaCode: byLga ? code('lga_code', args.lga_code!) : null,
      bbox: args.bbox ? { ...args.bbox } : null,
      since: args.updated_since == null ? null : instantOf(args.updated_since),
    };
    const digest = queryDigest(base);
    const after = args.after == null ? null : decodeCursor(args.after, digest);
    const filter: FeedFilter = { ...base, after };
    const rows = await ctx.development.feed(filter, limit);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      applications: page,
      next_cursor: last ? encodeCursor(last.received_at, last.feed_id, digest) : (args.after ?? null),
      has_more: rows.length > limit,
      credits: creditsOf(page),
    };
  },
};
