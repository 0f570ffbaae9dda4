import { assertBBox, assertState } from '../../../core/validate.ts';
import type { TerrainContext } from '../data.ts';
import type { QueryResolvers } from '../generated/resolvers-types.ts';
import { assertTerrainPolygon, bboxPolygon } from '../polygon.ts';
import { assertZoom } from '../zoom.ts';
import { earthworksLayer, earthworksSiteLayer } from './earthworks-layer.ts';
import { contoursLayer, elevationLayer, statsLayer } from './terrain-layer.ts';

export const Query: QueryResolvers<TerrainContext> = {
  contours(_parent, { bbox, state, zoom }, ctx) {
    assertBBox(bbox);
    return contoursLayer(assertState(state), bbox, assertZoom(zoom), ctx);
  },
  terrainStats(_parent, { state, polygon }, ctx) {
    const code = assertState(state);
    return statsLayer(code, assertTerrainPolygon(polygon), ctx);
  },
  terrainOfBBox(_parent, { bbox, state }, ctx) {
    assertBBox(bbox);
    const code = assertState(state);
    return elevationLayer(code, assertTerrainPolygon(bboxPolygon(bbox), 'bbox'), ctx);
  },
  earthworks(_parent, { state, footprint, lot, pad_level_m }, ctx) {
    return earthworksLayer(assertState(state), footprint, lot, pad_level_m ?? null, ctx);
  },
  earthworksSite(_parent, { state, footprint, lot, pad_level_m }, ctx) {
    return earthworksSiteLayer(assertState(state), footprint, lot, pad_level_m ?? null, ctx);
  },
};
