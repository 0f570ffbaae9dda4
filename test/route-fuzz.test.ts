import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { bodySchema, pathParameters, queryParameters } from '../rest-facade/openapi/parameters.ts';
import type { RouteDefinition } from '../rest-facade/route.ts';
import { ROUTES } from '../rest-facade/routes/index.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

/**
 * Walks the route table: every route, every parameter its OpenAPI entry documents, each given
 * the values an attacker or a careless client sends, one at a time beside valid values for the
 * rest. No answer may be a 5xx, and every refusal is in the spec's error shape of its route.
 * The values are a fixed list, so a failure reproduces.
 */

let t: TestRuntime;
let f: Fixtures;

beforeAll(async () => {
  t = await testRuntime();
  f = await loadFixtures(t.runtime.db);
});

/** A hostile value as it goes on the wire (already percent-encoded); two entries repeat the parameter. */
type Hostile = { label: string; wire: string[] };

const HOSTILE: Hostile[] = [
  { label: 'NUL', wire: ['%00'] },
  { label: 'NUL inside', wire: ['GA%00X'] },
  { label: 'control characters', wire: ['%01%1B%7F'] },
  { label: 'overlong text', wire: ['x'.repeat(10_000)] },
  { label: 'overlong digits', wire: ['1'.repeat(10_000)] },
  { label: 'invalid UTF-8 (C3 28)', wire: ['%C3%28'] },
  { label: 'invalid UTF-8 (FF)', wire: ['%FF'] },
  { label: 'UTF-8 of a lone surrogate', wire: ['%ED%A0%80'] },
  { label: 'number as a word', wire: ['ten'] },
  { label: 'array for a scalar', wire: ['1', '2'] },
  { label: 'huge exponent', wire: ['1e400'] },
  { label: 'huge integer', wire: ['9'.repeat(400)] },
  { label: 'NaN', wire: ['NaN'] },
  { label: 'Infinity', wire: ['Infinity'] },
  { label: '-Infinity', wire: ['-Infinity'] },
  { label: 'hexadecimal', wire: ['0x90'] },
  { label: 'empty', wire: [''] },
];

/** Wrong JSON types and hostile strings for each field of a JSON body. */
const HOSTILE_JSON: Array<{ label: string; value: unknown }> = [
  { label: 'number', value: 123 },
  { label: 'huge number', value: 1e308 },
  { label: 'boolean', value: true },
  { label: 'null', value: null },
  { label: 'array', value: [1, 2] },
  { label: 'object', value: { a: 1 } },
  { label: 'word', value: 'ten' },
  { label: 'NUL', value: 'VIC\u0000' },
  { label: 'lone surrogate', value: '\ud800' },
  { label: 'overlong', value: 'x'.repeat(10_000) },
  { label: 'NUL deep inside', value: { type: 'Polygon', coordinates: [[['\u0000', 1]]] } },
  { label: 'nested arrays', value: { type: 'Polygon', coordinates: [[[[[[[[1]]]]]]]] } },
];

/** Whole bodies of the wrong kind. */
const HOSTILE_BODIES: Array<{ label: string; text: string }> = [
  { label: 'array', text: '[]' },
  { label: 'string', text: '"VIC"' },
  { label: 'number', text: '42' },
  { label: 'null', text: 'null' },
  { label: 'NUL key', text: '{"\\u0000":1}' },
];

/** Valid values for the parameters a route needs, so a hostile value reaches the code that reads it. */
function baseline(route: RouteDefinition, names: Set<string>): Record<string, string> {
  const { vicParcel, smallWindow } = f;
  const out: Record<string, string> = {};
  if (names.has('lat') && names.has('lng'))
    Object.assign(out, { lat: String(vicParcel.lat), lng: String(vicParcel.lng) });
  if (names.has('bbox') && !names.has('lat')) {
    const { west, south, east, north } = smallWindow;
    out.bbox = [west, south, east, north].join(',');
  }
  if (names.has('q')) out.q = route.path.endsWith('parse-lot') ? 'Lot 3 PS612345' : vicParcel.address;
  if (route.path.endsWith('autocomplete')) out.q = vicParcel.address.slice(0, 8);
  if (names.has('address')) out.address = vicParcel.address;
  if (route.path === '/api/contours/vector') out.state = smallWindow.state;
  if (names.has('suburb')) Object.assign(out, { state: 'VIC', suburb: 'Huntly' });
  return out;
}

const wireQuery = (values: Record<string, string>) =>
  Object.entries(values).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);

type Failure = { request: string; status: number; body: string };

/** Nothing is a 5xx, and every 4xx is JSON in the route's error shape. */
function answersWell(route: RouteDefinition, res: request.Response): boolean {
  if (res.status >= 500) return false;
  if (res.status < 400) return true;
  const body = res.body as Record<string, unknown>;
  if (!/^application\/json/.test(res.headers['content-type'] ?? '')) return false;
  if (body.success !== false || typeof body.error !== 'string' || body.error === '') return false;
  if (res.status !== 400) return true;
  // a 400 is the route's own refusal, so it is in the route family's shape
  if (route.errorStyle === 'envelope') return body.data === null && body.source === null;
  if (route.errorStyle === 'featureCollection') {
    return body.type === 'FeatureCollection' && body.attribution === null && body.license === null;
  }
  return true;
}

function check(route: RouteDefinition, label: string, res: request.Response, failures: Failure[]): void {
  if (answersWell(route, res)) return;
  failures.push({
    request: `${route.method.toUpperCase()} ${route.path} ${label}`,
    status: res.status,
    body: res.text.slice(0, 300),
  });
}

const auth = () => ({ Authorization: `Bearer ${t.key}` });

let exportSecret: Promise<string> | undefined;
/** A key with every scope and the bulk_export capability, for the export routes. */
const exportKey = () => (exportSecret ??= createTestKey(t.runtime, { capabilities: ['bulk_export'] }));

async function fuzzQueryRoute(route: RouteDefinition): Promise<Failure[]> {
  const failures: Failure[] = [];
  const inPath = pathParameters(route.path).map((p) => p.name);
  // and one parameter no route documents, which must be read as harmlessly as the rest
  const inQuery = [...queryParameters(route.query).map((p) => p.name), 'undocumented'].filter(
    (name) => !inPath.includes(name),
  );
  const base = baseline(route, new Set([...inPath, ...inQuery]));
  // a valid value for each path parameter, so a hostile one in another reaches the code that reads it
  const PATH_VALUES: Record<string, string> = {
    propertyId: f.vicParcel.parcel_pfi,
    state: 'VIC',
    id: 'job_0000000000000000',
    z: '14',
    x: '0',
    y: '0',
  };
  // `only`: the one parameter the hostile wire goes in (a path of several keeps the others valid)
  const pathWith = (wire: string | null, only?: string) =>
    route.path.replace(/:(\w+)/g, (_, name: string) =>
      wire !== null && (only === undefined || only === name) ? wire : encodeURIComponent(PATH_VALUES[name] ?? 'x'),
    );
  for (const hostile of HOSTILE) {
    for (const name of inQuery) {
      const others = Object.fromEntries(Object.entries(base).filter(([key]) => key !== name));
      const query = [...wireQuery(others), ...hostile.wire.map((wire) => `${encodeURIComponent(name)}=${wire}`)];
      const res = await request(t.app)
        [route.method](`${pathWith(null)}?${query.join('&')}`)
        .set(auth());
      check(route, `${name}=${hostile.label}`, res, failures);
    }
    if (hostile.wire.length === 1) {
      for (const name of inPath) {
        const res = await request(t.app)
          [route.method](`${pathWith(hostile.wire[0] ?? '', name)}?${wireQuery(base).join('&')}`)
          .set(auth());
        check(route, `path ${name}=${hostile.label}`, res, failures);
      }
    }
  }
  return failures;
}

async function fuzzBodyRoute(route: RouteDefinition): Promise<Failure[]> {
  const failures: Failure[] = [];
  const { lat, lng } = f.vicParcel;
  const d = 0.0003;
  const valid: Record<string, unknown> = {
    state: 'VIC',
    polygon: {
      type: 'Polygon',
      coordinates: [
        [
          [lng - d, lat - d],
          [lng + d, lat - d],
          [lng + d, lat + d],
          [lng - d, lat + d],
          [lng - d, lat - d],
        ],
      ],
    },
  };
  if (route.path === '/v1/siting/earthworks') {
    // a footprint of a few metres on the sandbox VIC lot: the fields reach the graph's checks
    const e = 0.00001;
    delete valid.polygon;
    Object.assign(valid, {
      pfi: f.vicParcel.parcel_pfi,
      footprint: {
        type: 'Polygon',
        coordinates: [
          [
            [lng - e, lat - e],
            [lng + e, lat - e],
            [lng + e, lat + e],
            [lng - e, lat + e],
            [lng - e, lat - e],
          ],
        ],
      },
    });
  }
  // an export is read only by a key holding bulk_export, from a body of selection and layers
  const exporting = route.path === '/v1/exports';
  const body = exporting ? { selection: { type: 'area', polygon: valid.polygon }, layers: ['soil'] } : valid;
  const headers = exporting ? { Authorization: `Bearer ${await exportKey()}` } : auth();
  const fields = Object.keys((bodySchema(route.query).properties as Record<string, unknown> | undefined) ?? {});
  const post = (text: string) =>
    request(t.app).post(route.path).set(headers).set('Content-Type', 'application/json').send(text);
  for (const name of fields) {
    for (const hostile of HOSTILE_JSON) {
      const res = await post(JSON.stringify({ ...body, [name]: hostile.value }));
      check(route, `${name}=${hostile.label}`, res, failures);
    }
  }
  for (const hostile of HOSTILE_BODIES) check(route, `body ${hostile.label}`, await post(hostile.text), failures);
  return failures;
}

describe('the route table under hostile parameters', () => {
  it('/graphql answers hostile bodies without a 5xx, in JSON', async () => {
    for (const text of [
      ...HOSTILE_BODIES.map((b) => b.text),
      // a variable the operation uses: the graph refuses it naming the argument (an unused one reaches nothing)
      '{"query":"query ($v: String!) { matchAddress(q: $v) { status } }","variables":{"v":"\\u0000"}}',
    ]) {
      const res = await request(t.app).post('/graphql').set(auth()).set('Content-Type', 'application/json').send(text);
      expect(res.status, text).toBeGreaterThanOrEqual(400);
      expect(res.status, text).toBeLessThan(500);
      expect(res.headers['content-type'], text).toMatch(/^application\/(graphql-response\+)?json/);
    }
  });

  it.each(ROUTES.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
    '%s answers no 5xx and refuses in its error shape',
    async (_name, route) => {
      const failures = route.input === 'body' ? await fuzzBodyRoute(route) : await fuzzQueryRoute(route);
      expect(failures).toEqual([]);
    },
  );
});
