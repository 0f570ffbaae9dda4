/**
 * A local metric frame around a lot: equirectangular, with the WGS84 ellipsoid's radii of
 * curvature at the origin's latitude, so lengths and areas agree with PostGIS's geography
 * measures to well under a centimetre across a few hundred metres.
 */
import type { Position } from '../geojson.ts';

/** Metres east and north of the frame's origin. */
export type Pt = readonly [number, number];

const SEMI_MAJOR = 6378137;
const ECCENTRICITY_SQ = 0.00669437999014;
const DEG = Math.PI / 180;

export const round7 = (value: number): number => Math.round(value * 1e7) / 1e7;

export class LocalFrame {
  private readonly mPerDegLat: number;
  private readonly mPerDegLng: number;

  constructor(private readonly origin: { lng: number; lat: number }) {
    const s = Math.sin(origin.lat * DEG);
    const w = 1 - ECCENTRICITY_SQ * s * s;
    this.mPerDegLat = ((SEMI_MAJOR * (1 - ECCENTRICITY_SQ)) / Math.pow(w, 1.5)) * DEG;
    this.mPerDegLng = (SEMI_MAJOR / Math.sqrt(w)) * Math.cos(origin.lat * DEG) * DEG;
  }

  /** A frame centred on the mean of some positions (a ring's vertices). */
  static around(positions: readonly Position[]): LocalFrame {
    if (positions.length === 0) throw new Error('A local frame needs at least one position');
    let lng = 0;
    let lat = 0;
    for (const [x = 0, y = 0] of positions) {
      lng += x;
      lat += y;
    }
    return new LocalFrame({ lng: lng / positions.length, lat: lat / positions.length });
  }

  toLocal([lng = 0, lat = 0]: Position): Pt {
    return [(lng - this.origin.lng) * this.mPerDegLng, (lat - this.origin.lat) * this.mPerDegLat];
  }

  /** Back to [lng, lat], rounded to 7 decimals (about 1 cm), as PostGIS writes GeoJSON here. */
  toLngLat([east, north]: Pt): Position {
    return [round7(this.origin.lng + east / this.mPerDegLng), round7(this.origin.lat + north / this.mPerDegLat)];
  }
}
