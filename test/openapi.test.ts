import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import express from 'express';
import request from 'supertest';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { docsPageHtml, docsRouteList } from '../rest-facade/docs-page.ts';
import type { OpenApiDocument } from '../rest-facade/openapi.ts';
import {
  ROUTE_DOCS,
  buildOpenApiDocument,
  missingRouteDocs,
  openApiRouter,
  operationId,
} from '../rest-facade/openapi.ts';
import { openApiPath } from '../rest-facade/openapi/parameters.ts';
import type { JsonValue, MediaTypeObject, OperationObject, ResponseObject } from '../rest-facade/openapi/types.ts';
import { defineRoute, routeScope } from '../rest-facade/route.ts';
import type { RouteDefinition } from '../rest-facade/route.ts';
import { ROUTES } from '../rest-facade/routes/index.ts';
import { INTERNAL_SCOPE } from '../core/context.ts';
import type { ParcelGeometry } from '../core/polygons.ts';
import { interiorPoint } from '../core/polygons.ts';
import { earthworksHandler } from '../platform/jobs/earthworks.ts';
import { JobRegistry, JobWorker } from '../platform/jobs/worker.ts';
import { BAD_INPUTS } from './facade/bad-input-suite.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testRuntime } from './support/runtime.ts';

const VERSION = '1.0.0';

function operationOf(doc: OpenApiDocument, route: RouteDefinition): OperationObject {
  const op = doc.paths[openApiPath(route.path)]?.[route.method];
  if (!op) throw new Error(`${route.method.toUpperCase()} ${route.path} is not in the document`);
  return op;
}

/** The response object of a status, following a $ref into components.responses. */
function responseOf(doc: OpenApiDocument, op: OperationObject, status: string): ResponseObject | undefined {
  const response = op.responses[status];
  if (!response || !('$ref' in response)) return response;
  return doc.components.responses[response.$ref.replace('#/components/responses/', '')];
}

type LintProblem = {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
};

/**
 * Redocly CLI's `lint` with its recommended ruleset, plus examples checked against their schemas
 * with no properties beyond the schema's: a structural OpenAPI 3.1 validation and more.
 */
function redoclyLint(doc: OpenApiDocument): LintProblem[] {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'landgraph-openapi-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
    writeFileSync(
      join(dir, 'redocly.yaml'),
      [
        'extends:',
        '  - recommended',
        'rules:',
        '  no-invalid-media-type-examples:',
        '    severity: error',
        '    allowAdditionalProperties: false',
        '',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, [cli, 'lint', '--format=json', '--config=redocly.yaml', 'openapi.json'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    if (run.error) throw run.error;
    const start = run.stdout.indexOf('{');
    if (start < 0) throw new Error(`redocly printed no report (exit ${run.status}): ${run.stderr}`);
    const report = JSON.parse(run.stdout.slice(start)) as { problems: LintProblem[] };
    return report.problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const describeProblems = (problems: LintProblem[]) =>
  problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);

describe('OpenAPI document generated from the route table', () => {
  const doc = buildOpenApiDocument(ROUTES, { version: VERSION });

  it('has a hand-written success schema for every route of the table (add new routes to ROUTE_DOCS)', () => {
    expect(missingRouteDocs(ROUTES)).toEqual([]);
  });

  it('documents every route with its method, a stable operationId, summary, tag, scope and security', () => {
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(ROUTES.length);
    for (const route of ROUTES) {
      const op = operationOf(doc, route);
      expect(op.operationId).toBe(operationId(route));
      expect(op.summary).toBe(route.summary);
      expect(op.tags).toEqual([route.tag]);
      expect(doc.tags.map((tag) => tag.name)).toContain(route.tag);
      const scope = routeScope(route);
      const keyless = typeof route.access === 'object' && route.access.keyless !== undefined;
      if (route.access === 'open') {
        expect(op.security).toEqual([]);
        expect(op.description).toMatch(/no API key needed/);
      } else if (keyless) {
        // open without a key (the first-party map mount), the scope when a key is sent
        expect(op.security).toEqual([{}, { bearerAuth: [] }]);
        expect(op.description).toContain(`Open without a key`);
      } else {
        expect(op.security).toEqual([{ bearerAuth: [] }]);
      }
      expect(op['x-required-scope']).toBe(scope ?? undefined);
      if (scope) expect(op.description).toContain(keyless ? `needs scope ${scope}` : `Requires scope ${scope}`);
    }
    expect(operationId({ method: 'get', path: '/api/cadastre/lookup' })).toBe('getApiCadastreLookup');
    expect(operationId({ method: 'post', path: '/v1/enrich/jobs/:id/approve' })).toBe('postV1EnrichJobsByIdApprove');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it("lists every query parameter of each route's zod schema, required exactly when the schema requires it", () => {
    for (const route of ROUTES) {
      const json = z.toJSONSchema(route.query, { io: 'input', unrepresentable: 'any' });
      const op = operationOf(doc, route);
      if (route.input === 'body') {
        // a body route documents its schema as the request body, its path parameters in the path, and takes no query parameters
        const body = op.requestBody?.content['application/json']?.schema;
        const bodyPath = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
        expect(Object.keys(body?.properties ?? {}).sort(), route.path).toEqual(
          Object.keys(json.properties ?? {})
            .filter((name) => !bodyPath.includes(name))
            .sort(),
        );
        expect(body?.required ?? [], route.path).toEqual((json.required ?? []).filter((n) => !bodyPath.includes(n)));
        expect((op.parameters ?? []).map((p) => `${p.in}:${p.name}`)).toEqual(bodyPath.map((n) => `path:${n}`));
        continue;
      }
      const parameters = (op.parameters ?? []).filter((p) => p.in === 'query');
      // a path parameter (`:propertyId`) is validated by the same schema but documented in the path
      const inPath = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      expect((op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)).toEqual(inPath);
      expect(parameters.map((p) => p.name).sort()).toEqual(
        Object.keys(json.properties ?? {})
          .filter((name) => !inPath.includes(name))
          .sort(),
      );
      for (const parameter of parameters) {
        expect(parameter.required, `${route.path} ${parameter.name}`).toBe(
          (json.required ?? []).includes(parameter.name),
        );
        expect(parameter.description, `${route.path} ${parameter.name} needs a description`).not.toBe('');
        // Query values are text on the wire, whatever the schema parses them into.
        expect(parameter.schema.type, `${route.path} ${parameter.name}`).toMatch(/^(string|array)$/);
      }
    }
  });

  it('keeps what the zod schemas say: the VIC default of state, numbers as decimal text, length limits', () => {
    const lookup = operationOf(
      doc,
      ROUTES.find((r) => r.path === '/api/cadastre/lookup')!,
    );
    const param = (name: string) => lookup.parameters!.find((p) => p.name === name)!;
    expect(param('state').schema.default).toBe('VIC');
    expect(param('state').description).toMatch(/Defaults to VIC/);
    expect(param('lat').schema).toMatchObject({ type: 'string', format: 'decimal' });
    expect(new RegExp(param('lat').schema.pattern!).test(' -36.66 ')).toBe(true);
    expect(new RegExp(param('lat').schema.pattern!).test('north')).toBe(false);
    expect(param('pfi').schema).toMatchObject({ minLength: 1, maxLength: 64 });
    const bbox = operationOf(
      doc,
      ROUTES.find((r) => r.path === '/api/cadastre/bbox')!,
    );
    expect(bbox.parameters!.find((p) => p.name === 'bbox')!.required).toBe(true);
  });

  it('gives every route its error responses: bad input, the key checks, its own 404, 405, 429, 500 and a retryable 503', () => {
    const raises: Record<string, string[]> = {
      'GET /api/cadastre/lookup': ['404'],
      'GET /v1/property/graph': ['404'],
    };
    for (const route of ROUTES) {
      const key = `${route.method.toUpperCase()} ${route.path}`;
      const op = operationOf(doc, route);
      const statuses = Object.keys(op.responses);
      // the one status the route answers on success: a route that answers 201 or 202 documents no 200
      const success = ROUTE_DOCS[key]?.successStatus ?? '200';
      expect(statuses).toEqual(expect.arrayContaining([success, '405', '500', '503', ...(raises[key] ?? [])]));
      expect(
        statuses.filter((s) => s.startsWith('2')),
        key,
      ).toEqual([success]);
      if ((op.parameters ?? []).length > 0) expect(statuses).toContain('400');
      if (route.access === 'open') {
        expect(statuses).not.toContain('401');
        expect(statuses).not.toContain('403');
      } else {
        expect(statuses).toEqual(expect.arrayContaining(['401', '403', '429']));
        expect(responseOf(doc, op, '401')!.headers).toHaveProperty('WWW-Authenticate');
        expect(responseOf(doc, op, '429')!.headers).toHaveProperty('Retry-After');
        expect(responseOf(doc, op, success)!.headers).toHaveProperty('X-RateLimit-Remaining');
      }
      expect(responseOf(doc, op, success)!.headers).toHaveProperty('X-Request-Id');
      expect(responseOf(doc, op, '405')!.headers).toHaveProperty('Allow');
      expect(responseOf(doc, op, '503')!.headers).toHaveProperty('Retry-After');
      const scope = routeScope(route);
      if (scope) expect(JSON.stringify(op.responses['403'])).toContain(`Missing scope: ${scope}`);
    }
    const lookup = operationOf(
      doc,
      ROUTES.find((r) => r.path === '/api/cadastre/lookup')!,
    );
    expect(responseOf(doc, lookup, '200')!.headers).toHaveProperty('X-Service-Attribution');
    expect(responseOf(doc, lookup, '404')!.content!['application/json']!.schema.$ref).toBe(
      '#/components/schemas/EnvelopeError',
    );
  });

  it('documents the rule for failures behind a route: 502 where a source can fail, 503 on every route', () => {
    const exampleOf = (path: string, status: string): Record<string, unknown> => {
      const op = operationOf(
        doc,
        ROUTES.find((r) => r.path === path)!,
      );
      const response = responseOf(doc, op, status);
      expect(response, `${path} ${status}`).toBeDefined();
      expect(response!.headers, `${path} ${status}`).toHaveProperty('Retry-After');
      return response!.content!['application/json']!.example as Record<string, unknown>;
    };
    const sourceRoutes = [
      '/api/cadastre/lookup',
      '/api/cadastre/bbox',
      '/api/cadastre/by-address',
      '/api/cadastre/lot-detail/:propertyId',
      '/v1/planning-provisions',
      '/api/envelope',
      '/api/ugb/at-point',
      '/api/contours/terrain-stats',
    ];
    for (const path of sourceRoutes) {
      expect(exampleOf(path, '502'), path).toMatchObject({ success: false, retryable: true });
      expect(exampleOf(path, '503'), path).toMatchObject({ success: false, retryable: true });
    }
    // by-address meets both: its cadastre source failing (502) and a stage over its budget (503)
    expect(exampleOf('/api/cadastre/by-address', '502').error).toMatch(/cadastre source failed/);
    expect(exampleOf('/api/cadastre/by-address', '503').error).toMatch(/budget/);
    // a route with no source of its own documents only the service's own 503
    const usage = operationOf(
      doc,
      ROUTES.find((r) => r.path === '/v1/usage')!,
    );
    expect(Object.keys(usage.responses)).not.toContain('502');
    expect(exampleOf('/v1/usage', '503').error).toBe('The service is temporarily unavailable.');
    expect(doc.info.description).toMatch(/source behind a\s+layer fails[^]*502[^]*503/);
  });

  it('still documents a route with no response schema, as a generic object', () => {
    const extra = defineRoute({
      method: 'post',
      path: '/v1/things/:thing_id',
      tag: 'Catalog',
      summary: 'A route added without a response schema.',
      access: 'key',
      query: z.object({ n: z.coerce.number().int().min(1).describe('How many.') }),
      errorStyle: 'plain',
      handle: async () => ({ body: {} }),
    }) as RouteDefinition;
    const built = buildOpenApiDocument([...ROUTES, extra], { version: VERSION, serverUrl: 'https://api.example.test' });
    expect(missingRouteDocs([...ROUTES, extra])).toEqual(['POST /v1/things/:thing_id']);
    const op = built.paths['/v1/things/{thing_id}']!.post!;
    expect(op.responses['200']).toMatchObject({ content: { 'application/json': { schema: { type: 'object' } } } });
    expect(op.parameters!.map((p) => [p.name, p.in, p.required])).toEqual([
      ['thing_id', 'path', true],
      ['n', 'query', true],
    ]);
    expect(op.parameters![1]!.schema.pattern).toBeDefined();
    expect(op['x-required-scope']).toBeUndefined();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '413', '429']));
    expect(built.servers).toEqual([{ url: 'https://api.example.test', description: 'Landgraph API' }]);
  });

  it('is valid OpenAPI 3.1 by redocly lint (recommended rules, examples checked against their schemas)', () => {
    const problems = redoclyLint(doc);
    expect(describeProblems(problems.filter((p) => p.severity === 'error'))).toEqual([]);
  });

  it('would catch a body its schema does not describe (the example check really runs)', () => {
    const broken = buildOpenApiDocument(ROUTES, { version: VERSION });
    const lookup = ROUTES.find((r) => r.path === '/api/cadastre/lookup')!;
    const media = responseOf(broken, operationOf(broken, lookup), '200')!.content!['application/json']!;
    const properties = {
      parcel_pfi: '1',
      parcel_spi: null,
      parcel_lot_number: null,
      parcel_plan_number: null,
      ezi_address: null,
      state: 'VIC',
      area_m2: 'large',
    };
    const parcel = { type: 'Feature', geometry: { type: 'Point', coordinates: [144.3, -36.6] }, properties };
    const body = {
      success: true,
      source: null,
      data: parcel,
      error: null,
      hint: null,
      attribution: null,
      license: null,
    };
    delete media.example;
    media.examples = {
      wrongTypeDeepInside: { value: body },
      unnamedProperty: { value: { ...body, data: { ...parcel, properties: { ...properties, area_m2: 1 } }, extra: 1 } },
      valid: { value: { ...body, data: { ...parcel, properties: { ...properties, area_m2: 1 } } } },
    };
    const problems = redoclyLint(broken).filter((p) => p.severity === 'error');
    const flagged = (name: string) =>
      problems.some(
        (p) => p.ruleId === 'no-invalid-media-type-examples' && p.location[0]?.pointer.includes(`/${name}/`),
      );
    expect([flagged('wrongTypeDeepInside'), flagged('unnamedProperty'), flagged('valid')]).toEqual([true, true, false]);
    expect(problems).toHaveLength(2);
  });
});

type Exchange = { name: string; route: RouteDefinition; res: Response };

/** Adds a real response as a named example of the response it is documented as. */
function attachExample(doc: OpenApiDocument, { name, route, res }: Exchange): string | null {
  const op = operationOf(doc, route);
  const response = responseOf(doc, op, String(res.status));
  if (!response) return `${name}: status ${res.status} is not documented for ${route.method} ${route.path}`;
  const media: MediaTypeObject | undefined = response.content?.['application/json'];
  if (!media) return `${name}: ${res.status} has no application/json body documented`;
  if (media.example !== undefined) {
    media.examples = { documented: { value: media.example } };
    delete media.example;
  }
  media.examples = { ...media.examples, [name]: { value: res.body as JsonValue } };
  return null;
}

/** Headers the document declares as required on a response that the real response lacks. */
function missingHeaders(doc: OpenApiDocument, { name, route, res }: Exchange): string[] {
  const response = responseOf(doc, operationOf(doc, route), String(res.status));
  return Object.entries(response?.headers ?? {})
    .filter(([header, value]) => {
      const declared = '$ref' in value ? doc.components.headers[header] : value;
      return declared?.required === true && res.headers[header.toLowerCase()] === undefined;
    })
    .map(([header]) => `${name}: ${header}`);
}

/** Headers of our own (X-…, Retry-After, WWW-Authenticate) a real response sends that its documentation omits. */
function undocumentedHeaders(doc: OpenApiDocument, { name, route, res }: Exchange): string[] {
  const response = responseOf(doc, operationOf(doc, route), String(res.status));
  const documented = new Set(Object.keys(response?.headers ?? {}).map((h) => h.toLowerCase()));
  return Object.keys(res.headers)
    .filter((h) => /^(x-|retry-after$|www-authenticate$|allow$)/.test(h) && !documented.has(h))
    .map((h) => `${name}: ${h}`);
}

describe('the OpenAPI schemas against the facade’s real responses', () => {
  let t: TestRuntime;
  let f: Fixtures;
  const exchanges: Exchange[] = [];
  const routeAt = (path: string) => ROUTES.find((r) => r.path === path)!;

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    const get = (path: string, query: Record<string, string | string[]>, key: string | null = t.key) => {
      const req = request(t.app).get(path).query(query);
      return key === null ? req : req.set('Authorization', `Bearer ${key}`);
    };
    const record = async (name: string, path: string, res: Promise<Response> | Response) => {
      exchanges.push({ name, route: routeAt(path), res: await res });
    };
    const point = (p: { lat: number; lng: number }) => ({ lat: String(p.lat), lng: String(p.lng) });
    const window = (w: Fixtures['smallWindow']) => ({
      bbox: [w.west, w.south, w.east, w.north].join(','),
      state: w.state,
    });
    const lookup = '/api/cadastre/lookup';
    const graph = '/v1/property/graph';

    await record('health', '/api/health', get('/api/health', {}, null));
    await record('usage', '/v1/usage', get('/v1/usage', {}));
    await record('usageBadMonth', '/v1/usage', get('/v1/usage', { month: '2026-13' }));
    await record('lookupPoint', lookup, get(lookup, point(f.vicParcel)));
    await record('lookupPfi', lookup, get(lookup, { pfi: f.qldParcel.parcel_pfi, state: 'QLD' }));
    await record('lookupRoadReserve', lookup, get(lookup, { ...point(f.roadReserve), state: f.roadReserve.state }));
    await record('lookupOutsideCoverage', lookup, get(lookup, point(f.outsideCoverage)));
    await record('bboxSmall', '/api/cadastre/bbox', get('/api/cadastre/bbox', window(f.smallWindow)));
    await record('bboxCrowded', '/api/cadastre/bbox', get('/api/cadastre/bbox', window(f.crowdedWindow)));
    await record('bboxEmpty', '/api/cadastre/bbox', get('/api/cadastre/bbox', { bbox: '144.96,-37.82,144.97,-37.81' }));
    await record('graphPoint', graph, get(graph, point(f.vicParcel)));
    await record('graphGnaf', graph, get(graph, { gnaf_pid: f.nswParcel.gnaf_pid }));
    await record('graphPfi', graph, get(graph, { pfi: f.qldParcel.parcel_pfi, state: 'QLD' }));
    await record('graphNotPlanned', graph, get(graph, point(f.planningNotCovered)));
    await record('graphUnknownGnaf', graph, get(graph, { gnaf_pid: 'GANSW000000000' }));
    for (const [i, bad] of BAD_INPUTS.entries()) await record(`badInput${i}`, bad.path, get(bad.path, bad.query));
    const provisions = '/v1/planning-provisions';
    await record('provisionsPoint', provisions, get(provisions, point(f.vicParcel)));
    await record('provisionsPfi', provisions, get(provisions, { pfi: f.qldParcel.parcel_pfi, state: 'QLD' }));
    await record('provisionsNotPlanned', provisions, get(provisions, point(f.planningNotCovered)));
    await record('provisionsLot', provisions, get(provisions, { ...point(f.nswParcel), lot_area_m2: '450' }));
    const envelope = '/v1/envelope-by-address';
    await record('envelopeByAddress', envelope, get(envelope, { address: f.vicParcel.address }));
    await record('envelopeLot', '/api/envelope', get('/api/envelope', { pfi: f.vicParcel.parcel_pfi, state: 'VIC' }));
    await record('envelopeOffParcel', '/api/envelope', get('/api/envelope', point(f.roadReserve)));
    await record('envelopeUnmatched', envelope, get(envelope, { address: '1 Imaginary Lane, Nowhere VIC 3999' }));
    const around = (p: { lat: number; lng: number }, d: number) =>
      [p.lng - d, p.lat - d, p.lng + d, p.lat + d].join(',');
    await record('ugbVector', '/api/ugb/vector', get('/api/ugb/vector', { bbox: around(f.vicParcel, 0.05) }));
    await record(
      'ugbVectorNsw',
      '/api/ugb/vector',
      get('/api/ugb/vector', { bbox: around(f.nswParcel, 0.01), state: 'NSW' }),
    );
    await record('ugbAtPoint', '/api/ugb/at-point', get('/api/ugb/at-point', point(f.vicParcel)));
    await record('ugbAtPointKeyless', '/api/ugb/at-point', get('/api/ugb/at-point', point(f.vicParcel), null));
    await record('ugbAtPointNsw', '/api/ugb/at-point', get('/api/ugb/at-point', point(f.nswParcel)));
    await record('climateZone', '/api/climate-zone', get('/api/climate-zone', point(f.vicParcel)));
    const vicPfi = { pfi: f.vicParcel.parcel_pfi, state: 'VIC' };
    await record('ugbAtPointPfi', '/api/ugb/at-point', get('/api/ugb/at-point', vicPfi));
    await record('ugbAtPointGnaf', '/api/ugb/at-point', get('/api/ugb/at-point', { gnaf_pid: f.vicParcel.gnaf_pid }));
    await record('ugbAtPointPfiKeyless', '/api/ugb/at-point', get('/api/ugb/at-point', vicPfi, null));
    await record('climateZonePfi', '/api/climate-zone', get('/api/climate-zone', vicPfi));
    await record('climateZoneUnknownPfi', '/api/climate-zone', get('/api/climate-zone', { pfi: '999', state: 'VIC' }));
    const contours = '/api/contours/vector';
    await record('contours', contours, get(contours, { state: 'VIC', bbox: around(f.vicParcel, 0.004), zoom: '16' }));
    await record('contoursUncovered', contours, get(contours, { state: 'QLD', bbox: around(f.qldParcel, 0.004) }));
    const elevation = '/api/elevation/terrain';
    await record('elevationLot', elevation, get(elevation, { pfi: f.vicParcel.parcel_pfi, state: 'VIC' }));
    await record('elevationNsw', elevation, get(elevation, { pfi: f.nswParcel.parcel_pfi, state: 'NSW' }));
    const [nearest, fronting] = ['/api/roads/nearest', '/api/roads/fronting'];
    await record('roadsNearest', nearest, get(nearest, { ...point(f.vicParcel), limit: '3' }));
    await record('roadsNearestUncovered', nearest, get(nearest, { lat: '-34.93', lng: '138.6' }));
    await record('roadsFronting', fronting, get(fronting, { pfi: f.vicParcel.parcel_pfi, state: 'VIC' }));
    await record('roadsFrontingOffParcel', fronting, get(fronting, point(f.roadReserve)));
    const schools = '/api/locality/schools';
    await record('localitySchools', schools, get(schools, { ...point(f.vicParcel), radius_m: '5000', limit: '3' }));
    await record('localitySchoolsPfi', schools, get(schools, { pfi: f.vicParcel.parcel_pfi, state: 'VIC' }));
    await record('localitySchoolsNone', schools, get(schools, { ...point(f.vicParcel), radius_m: '1' }));
    const suburb = '/api/locality/amenities/suburb';
    await record('localitySuburb', suburb, get(suburb, { state: 'VIC', suburb: 'Huntly' }));
    await record('localitySuburbUnknown', suburb, get(suburb, { state: 'VIC', suburb: 'Nowhere Such' }));
    const walking = '/v1/catchment/walking';
    await record('catchment', walking, get(walking, { ...point(f.vicParcel), minutes: '10' }));
    await record('catchmentApproximate', walking, get(walking, { ...point(f.outsideCoverage), minutes: '5' }));
    await record('catchmentBadMinutes', walking, get(walking, { ...point(f.vicParcel), minutes: '7' }));
    const stats = '/api/contours/terrain-stats';
    const d = 0.0003;
    const { lat, lng } = f.vicParcel;
    const square = {
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
    };
    const post = (body: object) => request(t.app).post(stats).set('Authorization', `Bearer ${t.key}`).send(body);
    await record('terrainStats', stats, post({ state: 'VIC', polygon: square }));
    await record('terrainStatsExtraField', stats, post({ state: 'VIC', polygon: square, zoom: 3 }));
    await record('climateZoneFar', '/api/climate-zone', get('/api/climate-zone', { lat: '-31.95', lng: '115.86' }));
    // earthworks: a 3 m square footprint inside the sandbox VIC lot, queued (202) and polled (200)
    const earthworks = '/v1/siting/earthworks';
    const { data: lotData } = await t.runtime.graph.execute<{ p: { parcel_geometry: ParcelGeometry } }>(
      'query ($pfi: String!) { p: propertyByParcel(parcel_pfi: $pfi, state: "VIC") { parcel_geometry } }',
      { pfi: f.vicParcel.parcel_pfi },
      INTERNAL_SCOPE,
    );
    const inside = interiorPoint(lotData!.p.parcel_geometry);
    const e = 0.00001;
    const footprint = {
      type: 'Polygon',
      coordinates: [
        [
          [inside.lng - e, inside.lat - e],
          [inside.lng + e, inside.lat - e],
          [inside.lng + e, inside.lat + e],
          [inside.lng - e, inside.lat + e],
          [inside.lng - e, inside.lat - e],
        ],
      ],
    };
    const submit = (body: object) => request(t.app).post(earthworks).set('Authorization', `Bearer ${t.key}`).send(body);
    const queued = await submit({ state: 'VIC', pfi: f.vicParcel.parcel_pfi, footprint });
    await record('earthworksQueued', earthworks, queued);
    await record(
      'earthworksBadFootprint',
      earthworks,
      submit({ state: 'VIC', pfi: f.vicParcel.parcel_pfi, footprint: square.coordinates }),
    );
    await record(
      'earthworksOutsideLot',
      earthworks,
      submit({ state: 'VIC', pfi: f.vicParcel.parcel_pfi, footprint: square }),
    );
    await record('earthworksNoLot', earthworks, submit({ state: 'VIC', pfi: 'no-such-lot', footprint }));
    const result = '/v1/siting/earthworks/:id';
    await record('earthworksPolled', result, get(`/v1/siting/earthworks/${queued.body.job_id}`, {}));
    await record('earthworksMissing', result, get('/v1/siting/earthworks/job_nope', {}));
    const worker = new JobWorker(t.runtime.db, new JobRegistry().register(earthworksHandler), t.config, {
      sweepEveryMs: null,
      graph: t.runtime.graph,
    });
    // other files' earthworks jobs share the database: run them all, ours among them
    while (await worker.runOnce()) {
      /* next */
    }
    await record('earthworksSucceeded', result, get(`/v1/siting/earthworks/${queued.body.job_id}`, {}));

    const graphOnly = await createTestKey(t.runtime, { scopes: ['property-graph.read'] });
    await record('graphScopedLayers', graph, get(graph, point(f.vicParcel), graphOnly));
    await record('missingKey', lookup, get(lookup, point(f.vicParcel), null));
    await record('invalidKey', lookup, get(lookup, point(f.vicParcel), 'landgraph_test_not-a-real-key'));
    await record('missingScope', lookup, get(lookup, point(f.vicParcel), graphOnly));
    const { key: suspended, secret } = await t.runtime.keys.create({
      name: 'openapi-suspended',
      kind: 'test',
      scopes: ['property-graph.read'],
    });
    await t.runtime.keys.suspend(suspended.id);
    await record('suspendedKey', graph, get(graph, point(f.vicParcel), secret));
    const slow = await createTestKey(t.runtime, { rateLimitPerMinute: 1 });
    await get(lookup, point(f.vicParcel), slow);
    await record('rateLimited', lookup, get(lookup, point(f.vicParcel), slow));
    // bulk export: every answer of the routes but the CSV itself (text/csv)
    const exporter = await t.runtime.keys.create({
      name: 'openapi-export',
      kind: 'test',
      scopes: ['soil.read', 'planning.read'],
      capabilities: ['bulk_export'],
      account: 'openapi-export',
      exportRowsMonthly: 4,
      rateLimitPerMinute: 100_000,
    });
    const exportPost = (body: object, secret = exporter.secret) =>
      request(t.app).post('/v1/exports').set('Authorization', `Bearer ${secret}`).send(body);
    const list = (n: number) => ({
      type: 'addresses',
      addresses: Array.from({ length: n }, (_, i) => `${i + 1} A St`),
    });
    const submitted = await exportPost({ selection: list(2), layers: ['soil', 'hazards'] });
    await record('exportSubmitted', '/v1/exports', submitted);
    await record('exportNoCapability', '/v1/exports', exportPost({ selection: list(1) }, t.key));
    await record('exportNoScope', '/v1/exports', exportPost({ selection: list(1), layers: ['hazards'] }));
    await record('exportTooLarge', '/v1/exports', exportPost({ selection: list(5_001) }));
    await record('exportAllowance', '/v1/exports', exportPost({ selection: list(3) }));
    await record('exportNotExportable', '/v1/exports', exportPost({ selection: list(1), layers: ['sales_history'] }));
    await record(
      'exportEmpty',
      '/v1/exports',
      exportPost({ selection: { type: 'suburb', name: 'Nowhere Such', state: 'VIC' } }),
    );
    const jobPath = `/v1/exports/${submitted.body.jobId as string}`;
    const exportGet = (path: string) => get(path, {}, exporter.secret);
    await record('exportStatus', '/v1/exports/:id', exportGet(jobPath));
    await record('exportNotReady', '/v1/exports/:id/result', exportGet(`${jobPath}/result`));
    await record('exportManifest', '/v1/exports/:id/manifest', exportGet(`${jobPath}/manifest`));
    await record('exportOtherAccount', '/v1/exports/:id', get(jobPath, {}));
    await record('exportUsage', '/v1/exports/usage', exportGet('/v1/exports/usage'));
    await record('exportLayers', '/v1/exports/layers', exportGet('/v1/exports/layers'));
    for (const route of ROUTES) {
      await record(`wrongMethod${operationId(route)}`, route.path, request(t.app).delete(route.path));
    }
  });

  afterAll(() => {
    exchanges.length = 0;
  });

  it('covers every status the facade gave with a documented response, headers included', () => {
    const statuses = [...new Set(exchanges.map((e) => e.res.status))];
    expect(statuses).toEqual(expect.arrayContaining([200, 202, 400, 401, 403, 404, 405, 422, 429]));
    const doc = buildOpenApiDocument(ROUTES, { version: VERSION });
    expect(exchanges.map((e) => attachExample(doc, e)).filter(Boolean)).toEqual([]);
    expect(exchanges.flatMap((e) => missingHeaders(doc, e))).toEqual([]);
    expect(exchanges.flatMap((e) => undocumentedHeaders(doc, e))).toEqual([]);
  });

  it('accepts every real body, and no property the schemas do not name (redocly example validation)', () => {
    const doc = buildOpenApiDocument(ROUTES, { version: VERSION });
    for (const exchange of exchanges) attachExample(doc, exchange);
    const problems = redoclyLint(doc).filter((p) => p.severity === 'error');
    expect(describeProblems(problems)).toEqual([]);
  });

  it('documents the changelog as Markdown', async () => {
    const res = await request(t.app).get('/changelog').expect(200);
    const op = operationOf(buildOpenApiDocument(ROUTES, { version: VERSION }), routeAt('/changelog'));
    expect(res.headers['content-type']).toMatch(/^text\/markdown/);
    expect(Object.keys(responseOf(buildOpenApiDocument(ROUTES, { version: VERSION }), op, '200')!.content!)).toEqual([
      'text/markdown',
    ]);
  });
});

describe('the /docs page and the router that serves the document', () => {
  it('lists every route with method, path, scope and summary, readable without JavaScript', () => {
    const html = docsPageHtml('/openapi.json', ROUTES);
    expect(html).toContain('<noscript>');
    expect(html).toContain('href="/openapi.json"');
    for (const route of ROUTES) {
      expect(html).toContain(`<code>${route.path}</code>`);
      const scope = routeScope(route);
      if (scope) expect(html).toContain(`<code>${scope}</code>`);
    }
    expect(html).toMatch(
      /<script src="https:\/\/cdn\.jsdelivr\.net\/npm\/redoc@[\d.]+\/bundles\/redoc\.standalone\.js" integrity="sha384-/,
    );
  });

  it('escapes what it renders, in HTML and in the inline script', () => {
    const sneaky = defineRoute({
      method: 'get',
      path: '/v1/<b>',
      tag: 'X',
      summary: '<script>alert(1)</script> & more',
      access: 'open',
      query: z.object({}),
      errorStyle: 'plain',
      handle: async () => ({ body: {} }),
    }) as RouteDefinition;
    expect(docsRouteList([sneaky])).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; more');
    const html = docsPageHtml('/x.json"</script><script>alert(1)//');
    expect(html).not.toContain('</script><script>alert(1)');
  });

  it('serves /openapi.json and /docs from an Express router', async () => {
    const app = express().use(openApiRouter(ROUTES, { version: VERSION }));
    const spec = await request(app)
      .get('/openapi.json')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(spec.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(ROUTES, { version: VERSION }))));
    const page = await request(app)
      .get('/docs')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(page.text).toContain('Landgraph API reference');
  });
});
