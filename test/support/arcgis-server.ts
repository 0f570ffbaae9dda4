import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking the ArcGIS REST feature query protocol (`<layer>/query`), serving
 * layers built from GeoJSON features. It parses what a real server parses (f, where,
 * geometry + geometryType + inSR, spatialRel, outFields, returnGeometry, outSR,
 * resultOffset/resultRecordCount), answers Esri JSON with oriented rings (or GeoJSON), pages
 * at its maxRecordCount with exceededTransferLimit, and can be told to fail. Its geometry tests
 * are its own, independent of the code under test.
 */
type Position = number[];
type Polygon = Position[][];
export type FixtureGeometry =
  { type: 'Polygon'; coordinates: Polygon } | { type: 'MultiPolygon'; coordinates: Polygon[] };
export type FixtureFeature = { geometry: FixtureGeometry; properties: Record<string, unknown> };

export type ArcGisLayerFixture = {
  features: FixtureFeature[];
  /** No page holds more than this, whatever resultRecordCount asks (ArcGIS's maxRecordCount). Default 1000. */
  maxRecordCount?: number;
  /** Match envelopes by bounding box only, as a careless service might; the client must still be exact. */
  envelopeByBoundingBox?: boolean;
};

export type FailureMode =
  | { kind: 'http'; status: number }
  | { kind: 'arcgis-error'; code: number; message: string }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'malformed' }
  /** The connection is dropped without an answer (a reset). */
  | { kind: 'reset' };

export type RecordedRequest = { method: string; layer: string; params: URLSearchParams };

export type ArcGisTestServer = {
  url: string;
  /** The layer URL of a service, as LANDGRAPH_CADASTRE_LIVE takes it; any layer number serves the service's fixture. */
  layerUrl(service: string, layer?: number): string;
  requests: RecordedRequest[];
  /**
   * Every request from now on fails this way (null: answer normally again); with `times`, only
   * the next that many requests fail and the server then answers normally.
   */
  failWith(mode: FailureMode | null, times?: number): void;
  close(): Promise<void>;
};

class QueryError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

// ---- geometry: the test servers' own (the WFS server shares it) ----

export const bboxOf = (rings: Polygon) => {
  const xs = rings[0]!.map((p) => p[0]!);
  const ys = rings[0]!.map((p) => p[1]!);
  return { xmin: Math.min(...xs), ymin: Math.min(...ys), xmax: Math.max(...xs), ymax: Math.max(...ys) };
};
export type Envelope = ReturnType<typeof bboxOf>;

function onEdge(x: number, y: number, a: Position, b: Position): boolean {
  const cross = (b[0]! - a[0]!) * (y - a[1]!) - (b[1]! - a[1]!) * (x - a[0]!);
  const within =
    x >= Math.min(a[0]!, b[0]!) &&
    x <= Math.max(a[0]!, b[0]!) &&
    y >= Math.min(a[1]!, b[1]!) &&
    y <= Math.max(a[1]!, b[1]!);
  return within && Math.abs(cross) < 1e-18;
}

/** 1 inside, 0 on the boundary, -1 outside. */
function ringSide(ring: Position[], x: number, y: number): number {
  let inside = false;
  for (let i = 0; i < ring.length - 1; i += 1) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    if (onEdge(x, y, a, b)) return 0;
    if (a[1]! > y !== b[1]! > y && x < a[0]! + ((y - a[1]!) / (b[1]! - a[1]!)) * (b[0]! - a[0]!)) inside = !inside;
  }
  return inside ? 1 : -1;
}

const polygonHas = (rings: Polygon, x: number, y: number) =>
  ringSide(rings[0]!, x, y) >= 0 && rings.slice(1).every((hole) => ringSide(hole, x, y) <= 0);

export const parts = (g: FixtureGeometry): Polygon[] => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates);

function segmentsCross(p: Position, q: Position, r: Position, s: Position): boolean {
  const d = (a: Position, b: Position, c: Position) =>
    (b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!);
  const d1 = d(r, s, p);
  const d2 = d(r, s, q);
  const d3 = d(p, q, r);
  const d4 = d(p, q, s);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    onEdge(p[0]!, p[1]!, r, s) || onEdge(q[0]!, q[1]!, r, s) || onEdge(r[0]!, r[1]!, p, q) || onEdge(s[0]!, s[1]!, p, q)
  );
}

export function polygonMeetsEnvelope(rings: Polygon, e: Envelope): boolean {
  const corners = [
    [e.xmin, e.ymin],
    [e.xmax, e.ymin],
    [e.xmax, e.ymax],
    [e.xmin, e.ymax],
    [e.xmin, e.ymin],
  ];
  for (const ring of rings) {
    for (let i = 0; i < ring.length - 1; i += 1) {
      const [x, y] = ring[i]!;
      if (x! >= e.xmin && x! <= e.xmax && y! >= e.ymin && y! <= e.ymax) return true;
      for (let k = 0; k < 4; k += 1)
        if (segmentsCross(ring[i]!, ring[i + 1]!, corners[k]!, corners[k + 1]!)) return true;
    }
  }
  return polygonHas(rings, e.xmin, e.ymin);
}

const signedArea = (ring: Position[]) =>
  ring.slice(0, -1).reduce((sum, p, i) => sum + p[0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * p[1]!, 0) / 2;
/** Esri winds outer rings clockwise and holes counter-clockwise. */
const wound = (ring: Position[], clockwise: boolean) =>
  signedArea(ring) < 0 === clockwise ? ring : [...ring].reverse();

// ---- the query protocol ----

function wkidOf(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const parsed = JSON.parse(value) as { wkid?: number; latestWkid?: number };
  return parsed.latestWkid ?? parsed.wkid;
}

type SpatialFilter = { point: [number, number] } | { envelope: Envelope };

function readGeometry(params: URLSearchParams): SpatialFilter | undefined {
  const raw = params.get('geometry');
  if (raw === null || raw === '') return undefined;
  const type = params.get('geometryType') ?? 'esriGeometryEnvelope';
  const inSR = wkidOf(params.get('inSR'));
  const simple = raw.trim().startsWith('{') ? undefined : raw.split(',').map(Number);
  const json = simple ? undefined : (JSON.parse(raw) as Record<string, number | { wkid?: number }>);
  const geometrySR = json && typeof json.spatialReference === 'object' ? json.spatialReference.wkid : undefined;
  if ((inSR ?? geometrySR ?? 4326) !== 4326 || (geometrySR ?? 4326) !== 4326) {
    throw new QueryError(400, 'This server only accepts geometry in wkid 4326.');
  }
  const num = (key: string, index: number) => Number(simple ? simple[index] : json?.[key]);
  if (type === 'esriGeometryPoint') {
    const point: [number, number] = [num('x', 0), num('y', 1)];
    if (!point.every(Number.isFinite)) throw new QueryError(400, 'Invalid point geometry.');
    return { point };
  }
  if (type === 'esriGeometryEnvelope') {
    const envelope = { xmin: num('xmin', 0), ymin: num('ymin', 1), xmax: num('xmax', 2), ymax: num('ymax', 3) };
    if (!Object.values(envelope).every(Number.isFinite)) throw new QueryError(400, 'Invalid envelope geometry.');
    return { envelope };
  }
  throw new QueryError(400, `geometryType ${type} is not supported.`);
}

const LITERAL = String.raw`'(?:[^']|'')*'|-?\d+(?:\.\d+)?`;
const unquote = (literal: string): string | number =>
  literal.startsWith("'") ? literal.slice(1, -1).replace(/''/g, "'") : Number(literal);

/** The where clauses the clients send: `1=1`, `1=0`, `FIELD = literal`, `FIELD IN (literal, ...)`. */
function readWhere(where: string): (attributes: Record<string, unknown>) => boolean {
  const clause = where.trim();
  if (clause === '' || /^1\s*=\s*1$/.test(clause)) return () => true;
  if (/^1\s*=\s*0$/.test(clause)) return () => false;
  const match = new RegExp(String.raw`^(\w+)\s*(?:=\s*(${LITERAL})|IN\s*\(((?:\s*(?:${LITERAL})\s*,?)+)\))$`, 'i').exec(
    clause,
  );
  if (!match) throw new QueryError(400, "Unable to perform query. Please check your parameters. ('where' clause).");
  const field = match[1]!.toLowerCase();
  const values = match[2]
    ? [unquote(match[2])]
    : [...match[3]!.matchAll(new RegExp(LITERAL, 'g'))].map((m) => unquote(m[0]));
  return (attributes) => {
    const key = Object.keys(attributes).find((k) => k.toLowerCase() === field);
    const value = key === undefined ? undefined : attributes[key];
    return values.some((v) => v === value || (typeof v === 'number' && String(v) === String(value)));
  };
}

function answer(layer: ArcGisLayerFixture, params: URLSearchParams): unknown {
  const f = params.get('f') ?? 'html';
  if (!['json', 'pjson', 'geojson'].includes(f)) throw new QueryError(400, `Unsupported format '${f}'.`);
  const spatialRel = params.get('spatialRel') ?? 'esriSpatialRelIntersects';
  if (spatialRel !== 'esriSpatialRelIntersects')
    throw new QueryError(400, `spatialRel ${spatialRel} is not supported.`);
  if ((wkidOf(params.get('outSR')) ?? 4326) !== 4326)
    throw new QueryError(400, 'This server only answers in wkid 4326.');
  const filter = readGeometry(params);
  const where = readWhere(params.get('where') ?? '1=1');
  const matched = layer.features
    .map((feature, index) => ({ feature, objectId: index + 1 }))
    .filter(({ feature }) => where(feature.properties))
    .filter(({ feature }) => {
      if (!filter) return true;
      return parts(feature.geometry).some((rings) => {
        const box = bboxOf(rings);
        if ('point' in filter) {
          const [x, y] = filter.point;
          return x >= box.xmin && x <= box.xmax && y >= box.ymin && y <= box.ymax && polygonHas(rings, x, y);
        }
        const e = filter.envelope;
        const boxesMeet = box.xmin <= e.xmax && e.xmin <= box.xmax && box.ymin <= e.ymax && e.ymin <= box.ymax;
        return boxesMeet && (layer.envelopeByBoundingBox || polygonMeetsEnvelope(rings, e));
      });
    });
  const max = layer.maxRecordCount ?? 1000;
  const offset = Number(params.get('resultOffset') ?? 0);
  const count = Math.min(Number(params.get('resultRecordCount') ?? max), max);
  const page = matched.slice(offset, offset + count);
  const exceeded = offset + page.length < matched.length;
  const outFields = (params.get('outFields') ?? '').split(',').map((s) => s.trim().toLowerCase());
  const attributesOf = (objectId: number, properties: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries({ OBJECTID: objectId, ...properties }).filter(
        ([k]) => outFields.includes('*') || outFields.includes(k.toLowerCase()),
      ),
    );
  const withGeometry = params.get('returnGeometry') !== 'false';
  if (f === 'geojson') {
    return {
      type: 'FeatureCollection',
      ...(exceeded ? { properties: { exceededTransferLimit: true } } : {}),
      features: page.map(({ feature, objectId }) => ({
        type: 'Feature',
        id: objectId,
        geometry: withGeometry ? feature.geometry : null,
        properties: attributesOf(objectId, feature.properties),
      })),
    };
  }
  return {
    objectIdFieldName: 'OBJECTID',
    geometryType: 'esriGeometryPolygon',
    spatialReference: { wkid: 4326, latestWkid: 4326 },
    ...(exceeded ? { exceededTransferLimit: true } : {}),
    features: page.map(({ feature, objectId }) => ({
      attributes: attributesOf(objectId, feature.properties),
      ...(withGeometry
        ? {
            geometry: {
              rings: parts(feature.geometry).flatMap(([outer, ...holes]) => [
                wound(outer!, true),
                ...holes.map((h) => wound(h, false)),
              ]),
            },
          }
        : {}),
    })),
  };
}

async function paramsOf(req: IncomingMessage, url: URL): Promise<URLSearchParams> {
  if (req.method !== 'POST') return url.searchParams;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const QUERY_PATH = /^\/arcgis\/rest\/services\/([\w/-]+)\/(?:MapServer|FeatureServer)\/\d+\/query\/?$/;

export async function startArcGisServer(layers: Record<string, ArcGisLayerFixture>): Promise<ArcGisTestServer> {
  let failure: FailureMode | null = null;
  let failuresLeft = Infinity;
  const requests: RecordedRequest[] = [];
  const send = (res: ServerResponse, status: number, body: string) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = QUERY_PATH.exec(url.pathname);
      const params = await paramsOf(req, url);
      const layer = path ? layers[path[1]!] : undefined;
      requests.push({ method: req.method ?? 'GET', layer: path?.[1] ?? url.pathname, params });
      const mode = failuresLeft > 0 ? failure : null;
      if (mode) failuresLeft -= 1;
      if (mode?.kind === 'reset') return req.socket.destroy();
      if (mode?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, mode.delayMs));
      if (mode?.kind === 'http') return send(res, mode.status, '<html><body>Server Error</body></html>');
      if (mode?.kind === 'malformed') return send(res, 200, '{"features": [{"attributes": ');
      if (mode?.kind === 'arcgis-error') {
        return send(res, 200, JSON.stringify({ error: { code: mode.code, message: mode.message, details: [] } }));
      }
      try {
        if (!layer) throw new QueryError(400, 'Invalid URL');
        send(res, 200, JSON.stringify(answer(layer, params)));
      } catch (error) {
        const code = error instanceof QueryError ? error.code : 500;
        const message = error instanceof Error ? error.message : 'Unable to complete operation.';
        send(res, 200, JSON.stringify({ error: { code, message, details: [] } }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    layerUrl: (service, layer = 0) => `${url}/arcgis/rest/services/${service}/MapServer/${layer}`,
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
