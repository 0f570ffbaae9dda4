import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { detectState } from '../../core/geo.ts';
import {
  DEFAULT_DA_PAGE,
  DEFAULT_DA_RADIUS_M,
  DEFAULT_DA_STATS_MONTHS,
  MAX_DA_FEED_SPAN_DEGREES,
  MAX_DA_OFFSET,
  MAX_DA_PAGE,
  MAX_DA_RADIUS_M,
  MAX_DA_STATS_MONTHS,
} from '../../core/limits.ts';
import { assertBBox, assertPoint } from '../../core/validate.ts';
import { unwrap } from '../graph-result.ts';
import { bboxParam, numeric, stateParam, textParam } from '../params.ts';
import type { Credit } from '../route.ts';
import { defineRoute } from '../route.ts';
import { applicationListBody, refuseFailedSource } from './application-list.ts';
import { parcelPoint, unknownParcel } from './parcel-point.ts';
import type { LayerFields } from './cadastre.ts';
import { creditOf } from './cadastre.ts';
import { DA_FIELDS, DA_LAYER_FIELDS } from './development-shape.ts';
import { combineCredits } from './property.ts';

/** Development applications (the development subgraph): near a point, of a parcel, of an LGA, statistics, the change feed. */

type DaLayerFields = LayerFields & { freshness: string | null };
type Application = Record<string, unknown>;
type DaLayer = DaLayerFields & { data: Application[] | null };

const wholeParam = (name: string, min: number, max: number, fallback: number) =>
  numeric(name)
    .pipe(
      z
        .number()
        .int({ error: `${name} must be a whole number.` })
        .min(min, { error: `${name} must be at least ${min}.` })
        .max(max, { error: `${name} must be at most ${max}.` }),
    )
    .optional()
    .meta({ description: `${min}-${max}; default ${fallback}. Above ${max} is refused (400), never clamped.` });

const limitParam = wholeParam('limit', 1, MAX_DA_PAGE, DEFAULT_DA_PAGE);

const radiusParam = numeric('radius_m')
  .pipe(
    z
      .number()
      .gt(0, { error: 'radius_m must be more than 0.' })
      .max(MAX_DA_RADIUS_M, { error: `radius_m must be at most ${MAX_DA_RADIUS_M} metres.` }),
  )
  .optional()
  .meta({ description: `Metres around the point, up to ${MAX_DA_RADIUS_M}; default ${DEFAULT_DA_RADIUS_M}.` });

const pfiNeedsState = (q: { pfi?: string; state?: string }, ctx: z.RefinementCtx) => {
  if (q.pfi !== undefined && q.state === undefined) {
    ctx.addIssue({ code: 'custom', message: 'pfi needs state: parcel identifiers are only unique within a state.' });
  }
};

export const developmentApplicationsNearby = defineRoute({
  method: 'get',
  path: '/v1/development-applications/nearby',
  tag: 'Development Applications',
  summary:
    'Development applications within radius_m (at most 2000 m) of a point or of a parcel (pfi and state in place of lat/lng), nearest first.',
  access: { scope: 'development-applications.read' },
  query: z
    .object({
      lat: numeric('lat').optional(),
      lng: numeric('lng').optional(),
      pfi: textParam('pfi', 64).optional(),
      state: stateParam.optional(),
      radius_m: radiusParam,
    })
    .superRefine((q, ctx) => {
      const point = q.lat !== undefined || q.lng !== undefined;
      if (point === (q.pfi !== undefined)) {
        ctx.addIssue({ code: 'custom', message: 'Identify the place one way: lat and lng, or pfi and state.' });
      } else if (point && (q.lat === undefined || q.lng === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
      }
      pfiNeedsState(q, ctx);
    }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    let point: { lat: number; lng: number };
    let state: string;
    let query: Record<string, unknown>;
    const radius = q.radius_m ?? DEFAULT_DA_RADIUS_M;
    if (q.pfi !== undefined) {
      state = q.state!;
      point = await parcelPoint(graph, scope, q.pfi, state);
      query = { pfi: q.pfi, state, radius_m: radius };
    } else {
      point = { lat: q.lat!, lng: q.lng! };
      assertPoint(point.lat, point.lng);
      state = q.state ?? detectState(point.lng, point.lat) ?? 'VIC';
      query = { ...point, state, radius_m: radius };
    }
    type Near = DaLayerFields & { radius_m: number; applications: Application[] };
    const { developmentApplicationsNear: near } = unwrap(
      await graph.execute<{ developmentApplicationsNear: Near }>(
        `query DevelopmentApplicationsNear($lat: Float!, $lng: Float!, $state: String!, $radius: Float) {
          developmentApplicationsNear(lat: $lat, lng: $lng, state: $state, radius_m: $radius) {
            ${DA_LAYER_FIELDS} radius_m applications { ${DA_FIELDS} distance_m } } }`,
        { ...point, state, radius },
        scope,
      ),
    );
    const property = q.pfi !== undefined ? { property: { parcel_pfi: q.pfi, state, location: point } } : {};
    return applicationListBody('development applications', near, near.applications, {
      query,
      ...property,
      radius_m: near.radius_m,
    });
  },
});

const PARCEL_LAYER = `development_applications { ${DA_LAYER_FIELDS} data { ${DA_FIELDS} } }`;

type PropertyLayer = { parcel_pfi: string | null; state: string; layer: DaLayer } | null;

export const developmentApplicationsOfParcel = defineRoute({
  method: 'get',
  path: '/v1/development-applications/parcel',
  tag: 'Development Applications',
  summary: 'The development applications lodged against a parcel (pfi and state), newest lodged first.',
  access: { scope: 'development-applications.read' },
  query: z.object({ pfi: textParam('pfi', 64), state: stateParam }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const { property } = unwrap(
      await graph.execute<{ property: PropertyLayer }>(
        `query DevelopmentApplicationsOfParcel($pfi: String!, $state: String!) {
          property: propertyByParcel(parcel_pfi: $pfi, state: $state) { parcel_pfi state layer: ${PARCEL_LAYER} } }`,
        { pfi: q.pfi, state: q.state },
        scope,
      ),
    );
    if (!property) throw unknownParcel(q.pfi, q.state);
    return applicationListBody('development applications', property.layer, property.layer.data ?? [], {
      query: { pfi: q.pfi, state: q.state },
      parcel_pfi: property.parcel_pfi,
    });
  },
});

/** The DA records of a property in the dossier group (spec 4.11): by point, parcel or address, under dossier.read. */
export const dossierDevelopmentApplications = defineRoute({
  method: 'get',
  path: '/api/development-applications',
  tag: 'Development Applications',
  summary:
    "A property's development application records for its dossier: by lat/lng, pfi and state, or gnaf_pid; newest lodged first.",
  access: { scope: 'dossier.read' },
  query: z
    .object({
      lat: numeric('lat').optional(),
      lng: numeric('lng').optional(),
      pfi: textParam('pfi', 64).optional(),
      state: stateParam.optional(),
      gnaf_pid: textParam('gnaf_pid', 32).optional(),
    })
    .superRefine((q, ctx) => {
      const forms = [q.lat !== undefined || q.lng !== undefined, q.pfi !== undefined, q.gnaf_pid !== undefined];
      if (forms.filter(Boolean).length !== 1) {
        ctx.addIssue({
          code: 'custom',
          message: 'Identify the property one way: lat and lng, or pfi and state, or gnaf_pid.',
        });
      } else if ((q.lat === undefined) !== (q.lng === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
      }
      pfiNeedsState(q, ctx);
    }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const fields = `parcel_pfi state layer: ${PARCEL_LAYER}`;
    let property: PropertyLayer;
    let query: Record<string, unknown>;
    if (q.gnaf_pid !== undefined) {
      query = { gnaf_pid: q.gnaf_pid };
      ({ property } = unwrap(
        await graph.execute<{ property: PropertyLayer }>(
          `query DossierDasByAddress($gnafPid: ID!) { property: propertyByGnafPid(gnaf_pid: $gnafPid) { ${fields} } }`,
          { gnafPid: q.gnaf_pid },
          scope,
        ),
      ));
      if (!property) throw new AppError('NOT_FOUND', `No property with gnaf_pid ${q.gnaf_pid}.`);
    } else if (q.pfi !== undefined) {
      query = { pfi: q.pfi, state: q.state };
      ({ property } = unwrap(
        await graph.execute<{ property: PropertyLayer }>(
          `query DossierDasByParcel($pfi: String!, $state: String!) {
            property: propertyByParcel(parcel_pfi: $pfi, state: $state) { ${fields} } }`,
          query,
          scope,
        ),
      ));
      if (!property) throw unknownParcel(q.pfi, q.state!);
    } else {
      const { lat, lng } = q as { lat: number; lng: number };
      assertPoint(lat, lng);
      query = { lat, lng, state: q.state ?? detectState(lng, lat) ?? 'VIC' };
      ({ property } = unwrap(
        await graph.execute<{ property: PropertyLayer }>(
          `query DossierDasAtPoint($lat: Float!, $lng: Float!, $state: String!) {
            property: propertyAt(lat: $lat, lng: $lng, state: $state) { ${fields} } }`,
          query,
          scope,
        ),
      ));
    }
    const layer = property!.layer;
    return applicationListBody('development applications', layer, layer.data ?? [], {
      query,
      parcel_pfi: property!.parcel_pfi,
      state: property!.state,
    });
  },
});

export const developmentApplicationsOfLga = defineRoute({
  method: 'get',
  path: '/v1/development-applications/lga/:lga_code',
  tag: 'Development Applications',
  summary: "An LGA's development applications, newest lodged first, in pages of up to 200 (limit, offset).",
  access: { scope: 'development-applications.read' },
  query: z.object({
    lga_code: textParam('lga_code', 32),
    state: stateParam.optional(),
    limit: limitParam,
    offset: wholeParam('offset', 0, MAX_DA_OFFSET, 0),
  }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    type Page = DaLayerFields & {
      total: number;
      offset: number;
      next_offset: number | null;
      applications: Application[];
    };
    const { developmentApplicationsInLga: page } = unwrap(
      await graph.execute<{ developmentApplicationsInLga: Page }>(
        `query DevelopmentApplicationsInLga($lga: String!, $state: String, $limit: Int, $offset: Int) {
          developmentApplicationsInLga(lga_code: $lga, state: $state, limit: $limit, offset: $offset) {
            ${DA_LAYER_FIELDS} total offset next_offset applications { ${DA_FIELDS} } } }`,
        { lga: q.lga_code, state: q.state ?? null, limit: q.limit ?? null, offset: q.offset ?? null },
        scope,
      ),
    );
    const query = { lga_code: q.lga_code, ...(q.state ? { state: q.state } : {}), limit: q.limit ?? DEFAULT_DA_PAGE };
    return applicationListBody('development applications', page, page.applications, {
      query,
      total: page.total,
      offset: page.offset,
      next_offset: page.next_offset,
    });
  },
});

const STATISTICS = `query DevelopmentApplicationStatistics($lga: String, $suburb: String, $state: String, $months: Int) {
  developmentApplicationStatistics(lga_code: $lga, suburb: $suburb, state: $state, months: $months) {
    ${DA_LAYER_FIELDS} lga_code lga_name suburb state from_month to_month total median_decision_days
    months { month lodged median_decision_days by_status { key count } by_category { key count } } } }`;

export const developmentApplicationStatistics = defineRoute({
  method: 'get',
  path: '/v1/development-applications/statistics',
  tag: 'Development Applications',
  summary:
    'Applications lodged per month in an LGA (lga_code) or a suburb (suburb and state): counts by status and category, median decision days.',
  access: { scope: 'development-applications.read' },
  query: z
    .object({
      lga_code: textParam('lga_code', 32)
        .optional()
        .meta({ description: 'The LGA code as the applications carry it (the council area).' }),
      suburb: textParam('suburb', 64)
        .optional()
        .meta({ description: 'Suburb (locality) name, any case; pass state with it.' }),
      state: stateParam.optional(),
      months: wholeParam('months', 1, MAX_DA_STATS_MONTHS, DEFAULT_DA_STATS_MONTHS),
    })
    .superRefine((q, ctx) => {
      if ((q.lga_code === undefined) === (q.suburb === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'Name one place: lga_code, or suburb with state.' });
      } else if (q.suburb !== undefined && q.state === undefined) {
        ctx.addIssue({ code: 'custom', message: 'suburb needs state: suburb names repeat across states.' });
      }
    }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    type Statistics = DaLayerFields & Record<string, unknown>;
    const { developmentApplicationStatistics: stats } = unwrap(
      await graph.execute<{ developmentApplicationStatistics: Statistics }>(
        STATISTICS,
        { lga: q.lga_code ?? null, suburb: q.suburb ?? null, state: q.state ?? null, months: q.months ?? null },
        scope,
      ),
    );
    refuseFailedSource(stats, 'development applications');
    const { status, source, attribution, license, message, freshness: _freshness, ...figures } = stats;
    const ok = status === 'ok';
    const query = q.lga_code !== undefined ? { lga_code: q.lga_code } : { suburb: q.suburb, state: q.state };
    return {
      body: {
        success: true,
        query: { ...query, months: q.months ?? DEFAULT_DA_STATS_MONTHS },
        status,
        source,
        data: ok ? figures : null,
        error: null,
        hint: ok ? null : message,
        attribution,
        license,
      },
      credit: ok ? creditOf(stats) : null,
    };
  },
});

type FeedPage = {
  applications: Application[];
  next_cursor: string | null;
  has_more: boolean;
  credits: Array<{ state: string; attribution: string; license: string }>;
};

export const developmentApplicationsFeed = defineRoute({
  method: 'get',
  path: '/v1/development-applications/feed',
  tag: 'Development Applications',
  summary:
    'The change feed: applications in an LGA or a window (at most 2 degrees per axis), oldest change first, paged by an opaque cursor; a record that changes comes again.',
  access: { scope: 'development-applications.feed.read' },
  query: z
    .object({
      lga_code: textParam('lga_code', 32)
        .optional()
        .meta({ description: 'The LGA code as the applications carry it (the council area).' }),
      bbox: bboxParam.optional().meta({ description: 'minLng,minLat,maxLng,maxLat; at most 2 degrees per axis.' }),
      updated_since: textParam('updated_since', 40)
        .optional()
        .meta({ description: 'ISO 8601 date or instant: changes received at or after it.' }),
      cursor: textParam('cursor', 400)
        .optional()
        .meta({ description: 'next_cursor of the previous page, unchanged; the other parameters as before.' }),
      limit: limitParam,
    })
    .superRefine((q, ctx) => {
      if ((q.lga_code === undefined) === (q.bbox === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'Name one area: lga_code, or bbox (minLng,minLat,maxLng,maxLat).' });
      }
    }),
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    if (q.bbox) assertBBox(q.bbox, MAX_DA_FEED_SPAN_DEGREES);
    const { developmentApplicationFeed: page } = unwrap(
      await graph.execute<{ developmentApplicationFeed: FeedPage }>(
        `query DevelopmentApplicationFeed($lga: String, $bbox: DevelopmentWindowInput, $since: String, $after: String,
          $limit: Int) {
          developmentApplicationFeed(lga_code: $lga, bbox: $bbox, updated_since: $since, after: $after, limit: $limit) {
            applications { ${DA_FIELDS} } next_cursor has_more credits { state attribution license } } }`,
        {
          lga: q.lga_code ?? null,
          bbox: q.bbox ?? null,
          since: q.updated_since ?? null,
          after: q.cursor ?? null,
          limit: q.limit ?? null,
        },
        scope,
      ),
    );
    const credit: Credit | null = combineCredits(page.credits);
    const query = {
      ...(q.lga_code !== undefined ? { lga_code: q.lga_code } : { bbox: q.bbox }),
      updated_since: q.updated_since ?? null,
      limit: q.limit ?? DEFAULT_DA_PAGE,
    };
    return {
      body: {
        success: true,
        query,
        count: page.applications.length,
        data: page.applications,
        next_cursor: page.next_cursor,
        has_more: page.has_more,
        credits: page.credits,
        error: null,
        attribution: credit?.attribution ?? null,
        license: credit?.license ?? null,
      },
      credit,
    };
  },
});
