import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Envelope, FixtureFeature } from './arcgis-server.ts';
import { bboxOf, parts, polygonMeetsEnvelope } from './arcgis-server.ts';

/**
 * A local server speaking OGC WFS 2.0 key-value GetFeature as GeoServer does (the state's
 * Vicmap GeoServer is one): case-insensitive parameter names, typeNames, BBOX with its CRS
 * deciding the axis order (CRS:84 and EPSG:4326 longitude first; the EPSG URN latitude
 * first, as WFS 2.0 says), srsName likewise for the answer, count/startIndex paging capped at
 * the layer's maxFeatures with numberMatched/numberReturned, GeoJSON for outputFormat
 * application/json, and every refusal as an ows:ExceptionReport. It can be told to fail.
 */
export type WfsLayerFixture = {
  features: FixtureFeature[];
  /** No page holds more than this, whatever count asks (GeoServer's maxFeatures). Default 1000. */
  maxFeatures?: number;
};

export type WfsFailureMode =
  | { kind: 'http'; status: number }
  | { kind: 'exception'; code: string; text: string; status: number }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'malformed' }
  | { kind: 'reset' };

export type WfsTestServer = {
  /** The service URL, as LANDGRAPH_PLANNING_LIVE takes it after `wfs:`. */
  serviceUrl: string;
  /** The parameters of every request, names lower-cased. */
  requests: Array<Map<string, string>>;
  /** Every request from now on fails this way (null: answer normally); with `times`, only the next that many. */
  failWith(mode: WfsFailureMode | null, times?: number): void;
  close(): Promise<void>;
};

class OwsException extends Error {
  constructor(
    readonly code: string,
    readonly locator: string,
    text: string,
    readonly status = 400,
  ) {
    super(text);
  }
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function exceptionReport(code: string, locator: string, text: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ows:ExceptionReport xmlns:ows="http://www.opengis.net/ows/1.1" version="2.0.0">',
    `  <ows:Exception exceptionCode="${code}" locator="${locator}">`,
    `    <ows:ExceptionText>${escapeXml(text)}</ows:ExceptionText>`,
    '  </ows:Exception>',
    '</ows:ExceptionReport>',
  ].join('\n');
}

/** Whether a CRS name puts longitude first. */
function longitudeFirst(crs: string | undefined, what: string): boolean {
  if (crs === undefined || /^urn:ogc:def:crs:EPSG::4326$/i.test(crs)) return false;
  if (/^(CRS:84|urn:ogc:def:crs:OGC:1\.3:CRS84|EPSG:4326)$/i.test(crs)) return true;
  throw new OwsException(
    'InvalidParameterValue',
    what,
    `This server only knows WGS84 (EPSG:4326, CRS:84), not ${crs}.`,
  );
}

function readBbox(value: string): Envelope {
  const [a, b, c, d, crs] = value.split(',');
  const numbers = [a, b, c, d].map(Number);
  if (!numbers.every(Number.isFinite))
    throw new OwsException('InvalidParameterValue', 'bbox', `Invalid bbox ${value}.`);
  const [n0, n1, n2, n3] = numbers as [number, number, number, number];
  return longitudeFirst(crs, 'bbox')
    ? { xmin: n0, ymin: n1, xmax: n2, ymax: n3 }
    : { xmin: n1, ymin: n0, xmax: n3, ymax: n2 };
}

const swapped = (value: unknown): unknown =>
  Array.isArray(value) && typeof value[0] === 'number'
    ? [value[1], value[0], ...value.slice(2)]
    : (value as unknown[]).map(swapped);

function answer(layers: Record<string, WfsLayerFixture>, params: Map<string, string>): unknown {
  if ((params.get('service') ?? 'WFS').toUpperCase() !== 'WFS') {
    throw new OwsException('InvalidParameterValue', 'service', 'No service: ( WFS )');
  }
  if (params.get('request')?.toLowerCase() !== 'getfeature') {
    throw new OwsException('OperationNotSupported', 'request', `No such operation ${params.get('request') ?? ''}`);
  }
  const typeName = params.get('typenames') ?? params.get('typename') ?? '';
  const layer = layers[typeName];
  if (!layer) throw new OwsException('InvalidParameterValue', 'typeName', `Feature type ${typeName} unknown`);
  const format = params.get('outputformat') ?? 'application/gml+xml; version=3.2';
  if (!['application/json', 'json'].includes(format)) {
    throw new OwsException(
      'InvalidParameterValue',
      'outputFormat',
      `This server answers application/json only, not ${format}.`,
    );
  }
  const box = params.has('bbox') ? readBbox(params.get('bbox')!) : undefined;
  const lonLatOut = longitudeFirst(params.get('srsname') ?? 'urn:ogc:def:crs:EPSG::4326', 'srsName');
  const matched = layer.features
    .map((feature, index) => ({ feature, id: `${typeName.split(':').pop()}.${index + 1}` }))
    .filter(({ feature }) => {
      if (!box) return true;
      return parts(feature.geometry).some((rings) => {
        const own = bboxOf(rings);
        const meet = own.xmin <= box.xmax && box.xmin <= own.xmax && own.ymin <= box.ymax && box.ymin <= own.ymax;
        return meet && polygonMeetsEnvelope(rings, box);
      });
    });
  const cap = layer.maxFeatures ?? 1000;
  const start = Number(params.get('startindex') ?? 0);
  const count = Math.min(Number(params.get('count') ?? cap), cap);
  const page = matched.slice(start, start + count);
  return {
    type: 'FeatureCollection',
    features: page.map(({ feature, id }) => ({
      type: 'Feature',
      id,
      geometry: lonLatOut
        ? feature.geometry
        : { type: feature.geometry.type, coordinates: swapped(feature.geometry.coordinates) },
      geometry_name: 'geom',
      properties: feature.properties,
    })),
    totalFeatures: matched.length,
    numberMatched: matched.length,
    numberReturned: page.length,
    timeStamp: new Date().toISOString(),
    crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } },
  };
}

export async function startWfsServer(layers: Record<string, WfsLayerFixture>): Promise<WfsTestServer> {
  let failure: WfsFailureMode | null = null;
  let failuresLeft = Infinity;
  const requests: Array<Map<string, string>> = [];
  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    if (!res.destroyed) res.writeHead(status, { 'content-type': type }).end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const params = new Map([...url.searchParams].map(([k, v]) => [k.toLowerCase(), v]));
      requests.push(params);
      const mode = failuresLeft > 0 ? failure : null;
      if (mode) failuresLeft -= 1;
      if (mode?.kind === 'reset') return req.socket.destroy();
      if (mode?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, mode.delayMs));
      if (mode?.kind === 'http') return send(res, mode.status, 'text/html', '<html><body>Bad Gateway</body></html>');
      if (mode?.kind === 'malformed')
        return send(res, 200, 'application/json', '{"type":"FeatureCollection","features":[{');
      if (mode?.kind === 'exception') {
        return send(res, mode.status, 'application/xml', exceptionReport(mode.code, 'noLocator', mode.text));
      }
      if (url.pathname !== '/geoserver/wfs') return send(res, 404, 'text/html', '<html><body>Not found</body></html>');
      try {
        send(res, 200, 'application/json;charset=UTF-8', JSON.stringify(answer(layers, params)));
      } catch (error) {
        const e = error instanceof OwsException ? error : new OwsException('NoApplicableCode', '', String(error), 500);
        send(res, e.status, 'application/xml', exceptionReport(e.code, e.locator, e.message));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    serviceUrl: `${base}/geoserver/wfs`,
    requests,
    failWith(mode, times = Infinity) {
      failure = mode;
      failuresLeft = times;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
