import { badRequest } from '../../core/errors.ts';
import type { BBox } from '../../core/geo.ts';
import { MAX_ZOOM, MIN_ZOOM } from '../../core/limits.ts';

/** Every fifth contour is an index contour, drawn heavier and labelled on maps. */
export const INDEX_EVERY = 5;

const TILE_PIXELS = 256;
/** The width of map a window is assumed to fill when the caller names no zoom. */
export const VIEW_PIXELS = 1024;
const EQUATOR_M = 2 * Math.PI * 6378137;

/** How contours are drawn for a window: the zoom they suit, their spacing and simplification. */
export type ContourStyle = {
  zoom: number;
  /** Whether the zoom was given or chosen from the window's size. */
  zoom_source: 'given' | 'window';
  interval_m: number;
  index_interval_m: number;
  /** Douglas–Peucker tolerance: half a pixel at the zoom, in metres on the ground. */
  tolerance_m: number;
};

/** 1 m at zoom 17 and closer, 2 m at 16, 5 m at 14–15, 10 m further out. */
export function contourInterval(zoom: number): number {
  if (zoom >= 17) return 1;
  if (zoom === 16) return 2;
  if (zoom >= 14) return 5;
  return 10;
}

/** The zoom at which the window's longer side fills a map VIEW_PIXELS wide. */
export function zoomForWindow(bbox: BBox): number {
  const span = Math.max(bbox.east - bbox.west, bbox.north - bbox.south);
  const zoom = Math.floor(Math.log2((VIEW_PIXELS * 360) / (TILE_PIXELS * span)));
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** Half a Web Mercator pixel at a zoom and latitude, in metres. */
export function halfPixelMetres(zoom: number, lat: number): number {
  return (0.5 * EQUATOR_M * Math.cos((lat * Math.PI) / 180)) / (TILE_PIXELS * 2 ** zoom);
}

export function assertZoom(zoom: number | null | undefined): number | null {
  if (zoom === null || zoom === undefined) return null;
  if (!Number.isInteger(zoom) || zoom < MIN_ZOOM || zoom > MAX_ZOOM) {
    throw badRequest(
      `zoom must be a whole number from ${MIN_ZOOM} to ${MAX_ZOOM}; got ${zoom}.`,
      'Pass the map zoom the contours are drawn at, or leave it out to fit the window.',
    );
  }
  return zoom;
}

export function contourStyle(bbox: BBox, zoom: number | null): ContourStyle {
  const z = zoom ?? zoomForWindow(bbox);
  const interval = contourInterval(z);
  const midLat = (bbox.south + bbox.north) / 2;
  return {
    zoom: z,
    zoom_source: zoom === null ? 'window' : 'given',
    interval_m: interval,
    index_interval_m: interval * INDEX_EVERY,
    tolerance_m: Math.round(halfPixelMetres(z, midLat) * 1000) / 1000,
  };
}
