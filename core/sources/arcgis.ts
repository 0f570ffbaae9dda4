import type { BBox } from '../geo.ts';
import type { ParcelGeometry, Ring } from '../polygons.ts';
import { pointInRing, signedArea } from '../polygons.ts';
import type { Attributes } from './attributes.ts';
import { SourceError } from './errors.ts';

/**
 * A client for one layer of an ArcGIS REST service, speaking its feature query protocol
 * (`<layer>/query`): spatial filters in WGS84, every field, geometry in WGS84, paged with
 * `resultOffset`/`resultRecordCount` while the server says `exceededTransferLimit`.
 * Every failure is a SourceError naming the layer and what went wrong.
 */
export type SpatialFilter = { kind: 'point'; lng: number; lat: number } | ({ kind: 'envelope' } & BBox);

export type ArcGisQuery = {
  filter?: SpatialFilter;
  /** A SQL-92 `where` clause; values must already be quoted (see `sqlString`). Default `1=1`. */
  where?: string;
};

export type ArcGisFeature = { attributes: Attributes; geometry: ParcelGeometry | null };

export type ArcGisClientOptions = {
  layerUrl: string;
  /** Names the layer in messages: "the live VIC cadastre". */
  label: string;
  /** Budget of one call, every page and body included. */
  timeoutMs: number;
  /** Esri JSON (`json`, the default; every ArcGIS server speaks it) or GeoJSON (10.4 and later). */
  format?: 'json' | 'geojson';
  /** Features asked for per page (`resultRecordCount`); the server may send fewer. */
  pageSize?: number;
  /** A call that would need more pages than this fails instead of paging forever. */
  maxPages?: number;
  fetch?: typeof fetch;
};

/** A string literal for a `where` clause. */
export const sqlString = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * Queries longer than this go as a form POST, which ArcGIS accepts on every query endpoint;
 * what the layer URL itself carries (a token) stays in its query string.
 */
const MAX_GET_QUERY = 1800;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class ArcGisLayerClient {
  private readonly queryUrl: URL;
  private readonly format: 'json' | 'geojson';
  private readonly pageSize: number;
  private readonly maxPages: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ArcGisClientOptions) {
    this.queryUrl = new URL(options.layerUrl);
    this.queryUrl.pathname = `${this.queryUrl.pathname.replace(/\/+$/, '')}/query`;
    this.format = options.format ?? 'json';
    this.pageSize = options.pageSize ?? 1000;
    this.maxPages = options.maxPages ?? 50;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  get label(): string {
    return this.options.label;
  }

  /**
   * The features matching a query, page by page; the caller may stop early. The budget starts
   * at the first page and covers the whole walk.
   */
  async *pages(query: ArcGisQuery, signal?: AbortSignal): AsyncGenerator<ArcGisFeature[]> {
    const budget = AbortSignal.timeout(this.options.timeoutMs);
    const combined = signal ? AbortSignal.any([budget, signal]) : budget;
    // The server may send fewer features than asked (its maxRecordCount): the next page starts after what came.
    let offset = 0;
    for (let page = 0; ; page += 1) {
      if (page >= this.maxPages) throw this.malformed(`more than ${this.maxPages} pages`);
      const body = await this.request(this.params(query, offset), combined, budget);
      const { features, more } = this.format === 'json' ? this.readEsriJson(body) : this.readGeoJson(body);
      if (more && features.length === 0) throw this.malformed('an empty page that says more follow');
      yield features;
      if (!more) return;
      offset += features.length;
    }
  }

  /** Every feature matching a query, across all pages. */
  async query(query: ArcGisQuery, signal?: AbortSignal): Promise<ArcGisFeature[]> {
    const all: ArcGisFeature[] = [];
    for await (const page of this.pages(query, signal)) all.push(...page);
    return all;
  }

  private params(query: ArcGisQuery, offset: number): URLSearchParams {
    const params = new URLSearchParams({
      f: this.format,
      where: query.where ?? '1=1',
      outFields: '*',
      returnGeometry: 'true',
      outSR: '4326',
      resultOffset: String(offset),
      resultRecordCount: String(this.pageSize),
    });
    const filter = query.filter;
    if (filter) {
      params.set('inSR', '4326');
      params.set('spatialRel', 'esriSpatialRelIntersects');
      if (filter.kind === 'point') {
        params.set('geometryType', 'esriGeometryPoint');
        params.set('geometry', JSON.stringify({ x: filter.lng, y: filter.lat, spatialReference: { wkid: 4326 } }));
      } else {
        params.set('geometryType', 'esriGeometryEnvelope');
        params.set(
          'geometry',
          JSON.stringify({
            xmin: filter.west,
            ymin: filter.south,
            xmax: filter.east,
            ymax: filter.north,
            spatialReference: { wkid: 4326 },
          }),
        );
      }
    }
    return params;
  }

  private async request(params: URLSearchParams, signal: AbortSignal, budget: AbortSignal): Promise<unknown> {
    const url = new URL(this.queryUrl);
    for (const [key, value] of params) url.searchParams.set(key, value);
    const post = url.search.length > MAX_GET_QUERY;
    let text: string;
    try {
      const response = await this.fetch(
        post ? this.queryUrl : url,
        post
          ? {
              method: 'POST',
              body: params,
              headers: { accept: 'application/json' },
              signal,
            }
          : { headers: { accept: 'application/json' }, signal },
      );
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new SourceError('http', `The ${this.label} answered HTTP ${response.status}.`, {
          status: response.status,
        });
      }
      text = await response.text();
    } catch (error) {
      throw this.transportFailure(error, signal, budget);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new SourceError('malformed', `The ${this.label} answered something that is not JSON.`);
    }
    if (isObject(body) && isObject(body.error)) {
      const code = typeof body.error.code === 'number' ? body.error.code : undefined;
      const message = typeof body.error.message === 'string' ? body.error.message : 'no message';
      throw new SourceError(
        'arcgis',
        `The ${this.label} refused the query (ArcGIS error ${code ?? '?'}: ${message}).`,
        { arcgisCode: code },
      );
    }
    return body;
  }

  private transportFailure(error: unknown, signal: AbortSignal, budget: AbortSignal): Error {
    if (error instanceof SourceError) return error;
    if (budget.aborted) {
      return new SourceError('timeout', `The ${this.label} did not answer within ${this.options.timeoutMs} ms.`, {
        cause: error,
      });
    }
    // The caller gave up: not the source's failure, so its own reason goes back up.
    if (signal.aborted) return signal.reason instanceof Error ? signal.reason : new Error('aborted');
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
    return new SourceError('unreachable', `The ${this.label} could not be reached${code}.`, { cause: error });
  }

  private malformed(what: string): SourceError {
    return new SourceError('malformed', `The ${this.label} answered ${what}.`);
  }

  private readEsriJson(body: unknown): { features: ArcGisFeature[]; more: boolean } {
    if (!isObject(body) || !Array.isArray(body.features)) throw this.malformed('JSON without a features array');
    const sr = isObject(body.spatialReference) ? body.spatialReference : undefined;
    if (sr && sr.wkid !== 4326 && sr.latestWkid !== 4326) {
      throw this.malformed(`coordinates in spatial reference ${String(sr.latestWkid ?? sr.wkid)}, not 4326 as asked`);
    }
    const features = body.features.map((feature: unknown): ArcGisFeature => {
      if (!isObject(feature)) throw this.malformed('a feature that is not an object');
      const attributes = isObject(feature.attributes) ? feature.attributes : {};
      const geometry = isObject(feature.geometry) ? feature.geometry : undefined;
      if (geometry === undefined) return { attributes, geometry: null };
      if (!isRings(geometry.rings)) throw this.malformed('a feature whose geometry has no polygon rings');
      return { attributes, geometry: esriRingsToGeoJSON(geometry.rings) };
    });
    return { features, more: body.exceededTransferLimit === true };
  }

  private readGeoJson(body: unknown): { features: ArcGisFeature[]; more: boolean } {
    if (!isObject(body) || !Array.isArray(body.features)) throw this.malformed('GeoJSON without a features array');
    const features = body.features.map((feature: unknown): ArcGisFeature => {
      if (!isObject(feature)) throw this.malformed('a feature that is not an object');
      const attributes = isObject(feature.properties) ? feature.properties : {};
      const geometry = feature.geometry;
      if (geometry === null || geometry === undefined) return { attributes, geometry: null };
      if (!isParcelGeometry(geometry)) throw this.malformed('a feature whose geometry is not a (Multi)Polygon');
      return { attributes, geometry };
    });
    const properties = isObject(body.properties) ? body.properties : {};
    return { features, more: body.exceededTransferLimit === true || properties.exceededTransferLimit === true };
  }
}

const isPosition = (value: unknown): value is number[] =>
  Array.isArray(value) && value.length >= 2 && value.every((n) => typeof n === 'number' && Number.isFinite(n));

function isRings(value: unknown): value is number[][][] {
  return Array.isArray(value) && value.every((ring) => Array.isArray(ring) && ring.every(isPosition));
}

function isParcelGeometry(value: unknown): value is ParcelGeometry {
  if (!isObject(value)) return false;
  if (value.type === 'Polygon') return isRings(value.coordinates);
  return value.type === 'MultiPolygon' && Array.isArray(value.coordinates) && value.coordinates.every(isRings);
}

function closed(ring: Ring): Ring {
  const first = ring[0];
  const last = ring[ring.length - 1];
  return first && last && (first[0] !== last[0] || first[1] !== last[1]) ? [...ring, first] : ring;
}

/**
 * Esri polygon rings to GeoJSON. Esri marks rings by orientation (outer rings clockwise,
 * holes counter-clockwise) and lists them in any order; GeoJSON nests each hole under its
 * outer ring and winds the other way (RFC 7946: outer counter-clockwise). A hole is given to
 * the smallest outer ring that contains it; a hole inside none is kept as an outer ring.
 */
export function esriRingsToGeoJSON(rings: number[][][]): ParcelGeometry | null {
  const outers: Array<{ ring: Ring; area: number; holes: Ring[] }> = [];
  const holes: Ring[] = [];
  for (const raw of rings) {
    const ring = closed(raw);
    if (ring.length < 4) continue;
    const area = signedArea(ring);
    if (area < 0) outers.push({ ring: [...ring].reverse(), area: -area, holes: [] });
    else if (area > 0) holes.push(ring);
  }
  for (const hole of holes) {
    const owner = outers
      .filter((outer) => hole.some((p) => pointInRing(p[0]!, p[1]!, outer.ring) === 'inside'))
      .sort((a, b) => a.area - b.area)[0];
    if (owner) owner.holes.push([...hole].reverse());
    else outers.push({ ring: hole, area: signedArea(hole), holes: [] });
  }
  const polygons = outers.map((outer) => [outer.ring, ...outer.holes]);
  if (polygons.length === 0) return null;
  return polygons.length === 1
    ? { type: 'Polygon', coordinates: polygons[0]! }
    : { type: 'MultiPolygon', coordinates: polygons };
}
