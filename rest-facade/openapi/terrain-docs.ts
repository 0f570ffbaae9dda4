/**
 * OpenAPI docs and body schemas of the terrain routes (contours, terrain statistics and the
 * Elevation group), mirroring rest-facade/routes/terrain.ts.
 */
import { STATES } from '../../core/geo.ts';
import { MAX_TERRAIN_AREA_M2 } from '../../core/limits.ts';
import { MAX_BBOX_SPAN_DEGREES } from '../../core/validate.ts';
import { COMPASS_16 } from '../../core/vocabulary.ts';
import type { RouteDoc } from './route-docs.ts';
import type { SchemaObject } from './types.ts';
import { schemaRef } from './types.ts';

const maybe = (type: 'string' | 'number', description?: string): SchemaObject => ({
  type: [type, 'null'],
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, SchemaObject>, description?: string): SchemaObject => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
});
const num = (description: string, minimum?: number): SchemaObject => ({
  type: 'number',
  description,
  ...(minimum === undefined ? {} : { minimum }),
});

const credit: Record<string, SchemaObject> = {
  attribution: maybe(
    'string',
    'Credit line of the state terrain model (spec 2.2); also sent as X-Service-Attribution.',
  ),
  license: maybe('string', 'Licence of the data; also sent as X-Service-License.'),
};
const source = maybe('string', 'Where the answer came from: mirror:<state>/terrain@<snapshot_id>.');
const state: SchemaObject = { type: 'string', enum: [...STATES] };

const position: SchemaObject = { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 };
const line: SchemaObject = { type: 'array', items: position, minItems: 2 };

const AREA = `${MAX_TERRAIN_AREA_M2.toLocaleString('en-AU')} m² (1 km²)`;

export const TERRAIN_SCHEMAS: Record<string, SchemaObject> = {
  TerrainStats: object(
    {
      min_m: num('Lowest elevation sampled, metres AHD.'),
      max_m: num('Highest elevation sampled, metres AHD.'),
      mean_m: num('Mean elevation of the samples.'),
      fall_m: num('max_m - min_m.', 0),
      slope_mean_percent: num("Mean of the cells' slopes (Horn's method), rise over run × 100.", 0),
      slope_max_percent: num('Steepest cell.', 0),
      slope_mean_deg: num('Mean slope in degrees.', 0),
      slope_max_deg: num('Steepest cell in degrees.', 0),
      aspect: {
        anyOf: [{ enum: [...COMPASS_16] }, { type: 'null' }],
        description:
          'The way the land as a whole faces downhill; null under a 0.5 % mean gradient (flat, or no one way).',
      },
      aspect_deg: maybe('number', 'Bearing of the aspect, degrees clockwise from north.'),
      samples: { type: 'integer', minimum: 1, description: 'How many samples the figures come from.' },
      sampling: {
        enum: ['cells', 'centroid'],
        description: 'cells: every DEM cell centre inside; centroid: one bilinear sample, the polygon holding none.',
      },
      cell_size_m: num("Side of a square of one DEM cell's area, metres.", 0),
      area_m2: num('Area of the polygon on the WGS84 ellipsoid.', 0),
    },
    'Elevation, fall, slope and aspect of the land inside a polygon.',
  ),
  ContourFeatureCollection: object(
    {
      type: { const: 'FeatureCollection' },
      features: {
        type: 'array',
        items: object({
          type: { const: 'Feature' },
          geometry: {
            oneOf: [
              object({ type: { const: 'LineString' }, coordinates: line }),
              object({ type: { const: 'MultiLineString' }, coordinates: { type: 'array', items: line } }),
            ],
          },
          properties: object({
            elevation_m: num('Metres AHD.'),
            index: { type: 'boolean', description: 'An index contour (every fifth interval).' },
          }),
        }),
      },
      success: { const: true },
      error: { type: 'null' },
      hint: maybe('string', 'Why there are no lines (flat land, or no terrain model here); null when there are.'),
      source,
      state,
      zoom: { type: 'integer', minimum: 0, maximum: 22, description: 'The zoom the lines are drawn for.' },
      zoom_source: {
        enum: ['given', 'window'],
        description: 'window: chosen as the zoom the window fills 1024 px at.',
      },
      interval_m: num('Spacing of the contours.', 0),
      index_interval_m: num('Spacing of the index contours.', 0),
      tolerance_m: num('Douglas-Peucker tolerance: half a pixel at the zoom.', 0),
      cell_size_m: maybe('number', 'Spacing of the DEM nodes the lines were traced on.'),
      ...credit,
    },
    'Contour lines of the window, one feature per elevation, cut at the window edges.',
  ),
  TerrainStatsEnvelope: object({
    success: { const: true },
    state,
    source,
    data: schemaRef('TerrainStats'),
    ...credit,
  }),
  ElevationTerrain: object(
    {
      success: { const: true },
      state,
      parcel_pfi: maybe('string', 'The lot measured; null for a bbox.'),
      available: { type: 'boolean', description: 'Whether the Elevation group serves the state: VIC only.' },
      reason: maybe('string', 'Why data is null: the state is not served, or the model does not reach the land.'),
      status: schemaRef('LayerStatus'),
      source,
      data: { anyOf: [schemaRef('TerrainStats'), { type: 'null' }] },
      ...credit,
    },
    'The Elevation group: terrain statistics of a lot or window, or why there are none.',
  ),
};

export const TERRAIN_ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /api/contours/vector': {
    success: schemaRef('ContourFeatureCollection'),
    successDescription:
      'Contour lines of the window; an empty collection with a hint on flat land or where no terrain model reaches.',
    credited: true,
    notes:
      `The window spans at most ${MAX_BBOX_SPAN_DEGREES} degrees per axis; a larger one is refused with 400, never ` +
      'truncated. Lines are traced over the DEM by marching squares, joined across tiles, cut at the window edges ' +
      'and simplified to half a pixel at the zoom.',
    raises: {
      502: {
        description: 'The terrain source failed for this window.',
        message: 'The terrain source failed for this window.',
        hint: 'Retry shortly.',
      },
    },
  },
  'POST /api/contours/terrain-stats': {
    success: schemaRef('TerrainStatsEnvelope'),
    successDescription: 'Elevation, fall, slope and aspect of the land inside the polygon.',
    credited: true,
    notes:
      `The body is exactly { state, polygon }: any other field is a 400 naming it. polygon is a GeoJSON Polygon or ` +
      `MultiPolygon (or a Feature holding one) with closed rings, in Australia, of at most ${AREA}.`,
    raises: {
      404: {
        description: 'No terrain model covers the state, or none reaches the polygon.',
        message: 'Terrain data does not cover QLD yet.',
        hint: 'Terrain covers the mirrored areas of VIC and NSW; check the state and that the polygon is [lng, lat].',
      },
      502: {
        description: 'The terrain source failed for this polygon.',
        message: 'The terrain source failed for this polygon.',
        hint: 'Retry shortly.',
      },
    },
  },
  'GET /api/elevation/terrain': {
    success: schemaRef('ElevationTerrain'),
    successDescription: 'The statistics of the lot or window; other states than VIC answer available false.',
    credited: true,
    notes:
      'Name the land one way: pfi and state (the lot), lat and lng (the lot at the point), or bbox (a window of at ' +
      `most ${AREA}); state is detected from the point or window unless given.`,
    raises: {
      404: {
        description: 'No parcel with that PFI, or none at the point (VIC).',
        message: 'No parcel found at this point in VIC.',
        hint: 'Pass a point on a lot (not a road), a PFI with its state, or a bbox.',
      },
      502: {
        description: 'The terrain source failed for this land.',
        message: 'The terrain source failed for this lot.',
        hint: 'Retry shortly.',
      },
    },
  },
};
