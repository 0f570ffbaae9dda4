import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import type { BBox } from '../../core/geo.ts';
import { detectState } from '../../core/geo.ts';
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import { MAX_ZOOM, MIN_ZOOM } from '../../core/limits.ts';
import { assertBBox, assertPoint } from '../../core/validate.ts';
import { unwrap } from '../graph-result.ts';
import { bboxParam, numeric, stateParam, textParam } from '../params.ts';
import { defineRoute } from '../route.ts';
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS, creditOf } from './cadastre.ts';

const STATS_FIELDS = `min_m max_m mean_m fall_m slope_mean_percent slope_max_percent slope_mean_deg slope_max_deg
  aspect aspect_deg samples sampling cell_size_m area_m2`;
const ELEVATION_FIELDS = `${LAYER_FIELDS} available reason data { ${STATS_FIELDS} }`;

const CONTOURS = `query Contours($bbox: BBoxInput!, $state: String!, $zoom: Int) {
  contours(bbox: $bbox, state: $state, zoom: $zoom) {
    ${LAYER_FIELDS} zoom zoom_source interval_m index_interval_m tolerance_m cell_size_m
    contours { elevation_m index geometry }
  }
}`;
const TERRAIN_STATS = `query TerrainStats($state: String!, $polygon: GeoJSON!) {
  terrainStats(state: $state, polygon: $polygon) { ${LAYER_FIELDS} data { ${STATS_FIELDS} } }
}`;
const TERRAIN_OF_BBOX = `query TerrainOfBBox($bbox: BBoxInput!, $state: String!) {
  terrain: terrainOfBBox(bbox: $bbox, state: $state) { ${ELEVATION_FIELDS} }
}`;
const TERRAIN_OF_PARCEL = `query TerrainOfParcel($pfi: String!, $state: String!) {
  property: propertyByParcel(parcel_pfi: $pfi, state: $state) { parcel_pfi state terrain { ${ELEVATION_FIELDS} } }
}`;
const TERRAIN_AT = `query TerrainAt($lat: Float!, $lng: Float!, $state: String!) {
  property: propertyAt(lat: $lat, lng: $lng, state: $state) { parcel_pfi state terrain { ${ELEVATION_FIELDS} } }
}`;

type Stats = Record<string, unknown>;
type StatsLayer = LayerFields & { data: Stats | null };
type ElevationLayer = StatsLayer & { available: boolean; reason: string | null };
type ContourSet = LayerFields & {
  zoom: number;
  zoom_source: string;
  interval_m: number;
  index_interval_m: number;
  tolerance_m: number;
  cell_size_m: number | null;
  contours: Array<{ elevation_m: number; index: boolean; geometry: GeoJSONGeometry }>;
};

const requiredState = z
  .string({ error: (issue) => (issue.input === undefined ? 'state is required.' : 'state must be a single value.') })
  .pipe(stateParam);

const zoomParam = numeric('zoom')
  .pipe(
    z
      .number()
      .int({ error: 'zoom must be a whole number.' })
      .min(MIN_ZOOM, { error: `zoom must be at least ${MIN_ZOOM}.` })
      .max(MAX_ZOOM, { error: `zoom must be at most ${MAX_ZOOM}.` }),
  )
  .optional()
  .meta({
    description:
      `Map zoom the lines are drawn for, ${MIN_ZOOM}-${MAX_ZOOM}: sets the interval (1 m at 17+, 2 m at 16, 5 m at 14-15, ` +
      '10 m below) and simplification (half a pixel). Default: the zoom at which the window fills a 1024-pixel map.',
  });

const failed = (what: string) =>
  new AppError('UPSTREAM_UNAVAILABLE', `The terrain source failed for this ${what}.`, 'Retry shortly.');

export const contoursVector = defineRoute({
  method: 'get',
  path: '/api/contours/vector',
  tag: 'Planning',
  summary: 'Contour lines of a window of at most 0.1 degrees per axis, spaced and simplified for a map zoom.',
  access: { scope: 'envelope.read' },
  query: z.object({ state: requiredState, bbox: bboxParam, zoom: zoomParam }),
  errorStyle: 'featureCollection',
  async handle(q, { graph, scope }) {
    assertBBox(q.bbox);
    const { contours: set } = unwrap(
      await graph.execute<{ contours: ContourSet }>(
        CONTOURS,
        { bbox: q.bbox, state: q.state, zoom: q.zoom ?? null },
        scope,
      ),
    );
    if (set.status === 'error') throw failed('window');
    const empty = set.contours.length === 0;
    return {
      body: {
        type: 'FeatureCollection',
        features: set.contours.map((c) => ({
          type: 'Feature',
          geometry: c.geometry,
          properties: { elevation_m: c.elevation_m, index: c.index },
        })),
        success: true,
        error: null,
        hint: empty
          ? (set.message ?? 'The land in this window is flat at this interval: no contour crosses it.')
          : null,
        source: set.source,
        state: q.state,
        zoom: set.zoom,
        zoom_source: set.zoom_source,
        interval_m: set.interval_m,
        index_interval_m: set.index_interval_m,
        tolerance_m: set.tolerance_m,
        cell_size_m: set.cell_size_m,
        attribution: set.attribution,
        license: set.license,
      },
      credit: set.status === 'ok' ? creditOf(set) : null,
    };
  },
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const polygonGeometry = z.object({
  type: z.enum(['Polygon', 'MultiPolygon']),
  // rings, closure, Australia and area are the graph's rules (subgraphs/terrain/polygon.ts)
  coordinates: z.array(z.unknown()),
});

const polygonBody = z
  .union([polygonGeometry, z.object({ type: z.literal('Feature'), geometry: polygonGeometry })], {
    error: (issue) =>
      issue.input === undefined
        ? 'polygon is required: a GeoJSON Polygon or MultiPolygon geometry, or a Feature holding one.'
        : `polygon must be a GeoJSON Polygon or MultiPolygon geometry, or a Feature holding one; got ${
            isObject(issue.input) && typeof issue.input.type === 'string' ? issue.input.type : typeof issue.input
          }.`,
  })
  .transform((value) => {
    const geometry = value.type === 'Feature' ? value.geometry : value;
    return { type: geometry.type, coordinates: geometry.coordinates };
  })
  .meta({ description: 'GeoJSON Polygon or MultiPolygon in WGS84 [lng, lat], closed rings, at most 1 km².' });

const statsBody = z.strictObject(
  { state: requiredState, polygon: polygonBody },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `The body takes only state and polygon; remove ${issue.keys.map((k) => `'${k}'`).join(', ')}.`
        : undefined,
  },
);

export const contoursTerrainStats = defineRoute({
  method: 'post',
  path: '/api/contours/terrain-stats',
  tag: 'Planning',
  summary: 'Elevation, fall, slope and aspect of the land inside a polygon of at most 1 km².',
  access: { scope: 'envelope.read' },
  query: statsBody,
  input: 'body',
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    const { terrainStats: layer } = unwrap(
      await graph.execute<{ terrainStats: StatsLayer }>(TERRAIN_STATS, { state: q.state, polygon: q.polygon }, scope),
    );
    if (layer.status === 'error') throw failed('polygon');
    if (layer.status !== 'ok' || !layer.data) {
      throw new AppError(
        'NOT_FOUND',
        layer.message ?? `No terrain data under this polygon in ${q.state}.`,
        'Terrain covers the mirrored areas of VIC and NSW; check the state and that the polygon is [lng, lat].',
      );
    }
    return {
      body: {
        success: true,
        state: q.state,
        source: layer.source,
        data: layer.data,
        attribution: layer.attribution,
        license: layer.license,
      },
      credit: creditOf(layer),
    };
  },
});

const elevationQuery = z
  .object({
    pfi: textParam('pfi', 64).optional(),
    state: stateParam.optional(),
    bbox: bboxParam.optional(),
    lat: numeric('lat').optional(),
    lng: numeric('lng').optional(),
  })
  .superRefine((q, ctx) => {
    const forms = [q.pfi !== undefined, q.bbox !== undefined, q.lat !== undefined || q.lng !== undefined];
    if (forms.filter(Boolean).length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'Name the land one way: pfi and state, or bbox, or lat and lng.' });
    } else if ((q.lat === undefined) !== (q.lng === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'lat and lng must be given together.' });
    } else if (q.pfi !== undefined && q.state === undefined) {
      ctx.addIssue({ code: 'custom', message: 'pfi needs state: parcel identifiers are only unique within a state.' });
    }
  });

type LotTerrain = { parcel_pfi: string | null; state: string; terrain: ElevationLayer | null };

const centreOf = (b: BBox) => ({ lng: (b.west + b.east) / 2, lat: (b.south + b.north) / 2 });

export const elevationTerrain = defineRoute({
  method: 'get',
  path: '/api/elevation/terrain',
  tag: 'Elevation',
  summary: 'Terrain statistics of a lot (by PFI or a point on it) or of a window; VIC only.',
  access: { scope: 'elevation.read' },
  query: elevationQuery,
  errorStyle: 'envelope',
  async handle(q, { graph, scope }) {
    let parcelPfi: string | null = null;
    let state: string;
    let terrain: ElevationLayer | null;
    if (q.bbox) {
      assertBBox(q.bbox);
      const centre = centreOf(q.bbox);
      state = q.state ?? detectState(centre.lng, centre.lat) ?? 'VIC';
      const data = unwrap(
        await graph.execute<{ terrain: ElevationLayer }>(TERRAIN_OF_BBOX, { bbox: q.bbox, state }, scope),
      );
      terrain = data.terrain;
    } else {
      let property: LotTerrain | null;
      if (q.pfi !== undefined) {
        state = q.state ?? 'VIC';
        const data = unwrap(
          await graph.execute<{ property: LotTerrain | null }>(TERRAIN_OF_PARCEL, { pfi: q.pfi, state }, scope),
        );
        property = data.property;
      } else {
        const { lat, lng } = q as { lat: number; lng: number };
        assertPoint(lat, lng);
        state = q.state ?? detectState(lng, lat) ?? 'VIC';
        const data = unwrap(await graph.execute<{ property: LotTerrain }>(TERRAIN_AT, { lat, lng, state }, scope));
        property = data.property;
      }
      terrain = property?.terrain ?? null;
      parcelPfi = property?.parcel_pfi ?? null;
      // a state the group does not serve answers so whatever the lot; elsewhere there must be a lot
      if (terrain?.available !== false && !parcelPfi) {
        throw new AppError(
          'NOT_FOUND',
          q.pfi !== undefined
            ? `No parcel with PFI ${q.pfi} in ${state}.`
            : `No parcel found at this point in ${state}.`,
          'Pass a point on a lot (not a road), a PFI with its state, or a bbox.',
        );
      }
    }
    if (!terrain || terrain.status === 'error') throw failed(q.bbox ? 'window' : 'lot');
    const ok = terrain.status === 'ok' && terrain.data !== null;
    return {
      body: {
        success: true,
        state,
        parcel_pfi: parcelPfi,
        available: terrain.available,
        reason: ok ? null : (terrain.reason ?? terrain.message),
        status: terrain.status,
        source: terrain.source,
        data: ok ? terrain.data : null,
        attribution: terrain.attribution,
        license: terrain.license,
      },
      credit: ok ? creditOf(terrain) : null,
    };
  },
});
