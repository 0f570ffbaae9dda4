import type { BBox } from '../geo.ts';
import type { ParcelGeometry } from '../polygons.ts';
import { SourceError } from './errors.ts';

/**
 * A client for an OGC WFS 2.0 service speaking key-value GetFeature: one feature type, an
 * optional BBOX in CRS:84 (longitude first, whatever the server's axis order for EPSG:4326),
 * answers as GeoJSON (`outputFormat=application/json`) in EPSG:4326, paged with
 * `count`/`startIndex` while pages come back full. An `ows:ExceptionReport` is an error, with
 * its exception code and text; so is anything that is not a GeoJSON FeatureCollection.
 */
export type WfsFeature = { id: string | null; properties: Record<string, unknown>; geometry: ParcelGeometry | null };

export type WfsQuery = { typeName: string; bbox?: BBox; count?: number };

export type WfsClientOptions = {
  /** The service endpoint, e.g. https://opendata.maps.vic.gov.au/geoserver/wfs. */
  serviceUrl: string;
  /** Names the service in messages: "the live VIC planning service". */
  label: string;
  /** Budget of one call, every page and body included. */
  timeoutMs: number;
  /** Features asked for per page; GeoServer's default cap is 1000. */
  pageSize?: number;
  /** A call that would need more pages than this fails instead of paging forever. */
  maxPages?: number;
  fetch?: typeof fetch;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPosition = (value: unknown) =>
  Array.isArray(value) && value.length >= 2 && value.every((n) => typeof n === 'number' && Number.isFinite(n));
const isRings = (value: unknown) =>
  Array.isArray(value) && value.every((ring) => Array.isArray(ring) && ring.every(isPosition));

function isPolygonal(value: unknown): value is ParcelGeometry {
  if (!isObject(value)) return false;
  if (value.type === 'Polygon') return isRings(value.coordinates);
  return value.type === 'MultiPolygon' && Array.isArray(value.coordinates) && value.coordinates.every(isRings);
}

/** The CRS names a GeoJSON `crs` member may carry for longitude/latitude in WGS84. */
const WGS84 = /(EPSG:+4326|EPSG\/0\/4326|CRS:?84)$/i;

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const unescapeXml = (text: string) =>
  text.replace(/&(lt|gt|amp|quot|apos);/g, (_m, name: string) => XML_ENTITIES[name]!);

/** The code and text of an OWS exception report; null when the body is not one. */
export function readExceptionReport(body: string): { code: string; text: string } | null {
  if (!/<(\w+:)?ExceptionReport\b/.test(body)) return null;
  const code = /exceptionCode\s*=\s*"([^"]*)"/.exec(body)?.[1] ?? 'NoApplicableCode';
  const texts = [...body.matchAll(/<(?:\w+:)?ExceptionText>([\s\S]*?)<\/(?:\w+:)?ExceptionText>/g)].map((m) =>
    unescapeXml(m[1]!.trim()),
  );
  return { code, text: texts.filter(Boolean).join(' ') || 'no exception text' };
}

export class WfsClient {
  private readonly pageSize: number;
  private readonly maxPages: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: WfsClientOptions) {
    this.pageSize = options.pageSize ?? 1000;
    this.maxPages = options.maxPages ?? 20;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  get label(): string {
    return this.options.label;
  }

  /** Every feature of the type matching the query, across pages (or the first `count`). */
  async getFeatures(query: WfsQuery, signal?: AbortSignal): Promise<WfsFeature[]> {
    const budget = AbortSignal.timeout(this.options.timeoutMs);
    const combined = signal ? AbortSignal.any([budget, signal]) : budget;
    const pageSize = Math.min(query.count ?? this.pageSize, this.pageSize);
    const all: WfsFeature[] = [];
    for (let page = 0; ; page += 1) {
      if (page >= this.maxPages) throw this.malformed(`more than ${this.maxPages} pages`);
      const body = await this.request(this.params(query, pageSize, all.length), combined, budget);
      const { features, more } = this.readCollection(body, pageSize, all.length);
      all.push(...features);
      if (!more || (query.count !== undefined && all.length >= query.count)) return all;
    }
  }

  private params(query: WfsQuery, count: number, startIndex: number): URLSearchParams {
    const params = new URLSearchParams({
      service: 'WFS',
      version: '2.0.0',
      request: 'GetFeature',
      typeNames: query.typeName,
      outputFormat: 'application/json',
      srsName: 'EPSG:4326',
      count: String(count),
      startIndex: String(startIndex),
    });
    const box = query.bbox;
    if (box) params.set('bbox', `${box.west},${box.south},${box.east},${box.north},CRS:84`);
    return params;
  }

  private async request(params: URLSearchParams, signal: AbortSignal, budget: AbortSignal): Promise<unknown> {
    const url = new URL(this.options.serviceUrl);
    for (const [key, value] of params) url.searchParams.set(key, value);
    let status: number;
    let text: string;
    try {
      const response = await this.fetch(url, { headers: { accept: 'application/json' }, signal });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw this.transportFailure(error, signal, budget);
    }
    const report = readExceptionReport(text);
    if (report) {
      throw new SourceError('ows', `The ${this.label} refused the request (WFS ${report.code}: ${report.text}).`, {
        status,
        exceptionCode: report.code,
      });
    }
    if (status < 200 || status > 299) {
      throw new SourceError('http', `The ${this.label} answered HTTP ${status}.`, { status });
    }
    try {
      return JSON.parse(text);
    } catch {
      throw this.malformed(text.trimStart().startsWith('<') ? 'XML rather than GeoJSON' : 'something that is not JSON');
    }
  }

  private transportFailure(error: unknown, signal: AbortSignal, budget: AbortSignal): Error {
    if (budget.aborted) {
      return new SourceError('timeout', `The ${this.label} did not answer within ${this.options.timeoutMs} ms.`, {
        cause: error,
      });
    }
    // The caller gave up: not the service's failure, so its own reason goes back up.
    if (signal.aborted) return signal.reason instanceof Error ? signal.reason : new Error('aborted');
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
    return new SourceError('unreachable', `The ${this.label} could not be reached${code}.`, { cause: error });
  }

  private malformed(what: string): SourceError {
    return new SourceError('malformed', `The ${this.label} answered ${what}.`);
  }

  private readCollection(body: unknown, pageSize: number, offset: number): { features: WfsFeature[]; more: boolean } {
    if (!isObject(body) || !Array.isArray(body.features)) throw this.malformed('JSON without a features array');
    const crs = isObject(body.crs) && isObject(body.crs.properties) ? body.crs.properties.name : undefined;
    if (typeof crs === 'string' && !WGS84.test(crs)) {
      throw this.malformed(`coordinates in ${crs}, not EPSG:4326 as asked`);
    }
    const features = body.features.map((feature: unknown): WfsFeature => {
      if (!isObject(feature)) throw this.malformed('a feature that is not an object');
      const properties = isObject(feature.properties) ? feature.properties : {};
      const id = typeof feature.id === 'string' || typeof feature.id === 'number' ? String(feature.id) : null;
      const geometry = feature.geometry;
      if (geometry === null || geometry === undefined) return { id, properties, geometry: null };
      if (!isPolygonal(geometry)) throw this.malformed('a feature whose geometry is not a (Multi)Polygon');
      return { id, properties, geometry };
    });
    // A server may cap a page below the count asked (GeoServer's maxFeatures): numberMatched, when
    // it counts, says whether more follow; when it does not ("unknown"), a full page means maybe.
    const matched = typeof body.numberMatched === 'number' ? body.numberMatched : undefined;
    const more =
      features.length > 0 && (matched === undefined ? features.length >= pageSize : offset + features.length < matched);
    return { features, more };
  }
}
