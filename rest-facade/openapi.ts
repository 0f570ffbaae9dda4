import { Router } from 'express';
import { docsPageHtml, docsPagePolicy } from './docs-page.ts';
import { bodySchema, openApiPath, pathParameters, queryParameters } from './openapi/parameters.ts';
import { usedComponents } from './openapi/components.ts';
import { GRAPHQL_DOCS } from './openapi/graphql-docs.ts';
import { routeResponses } from './openapi/responses.ts';
import { ROUTE_DOCS, routeKey } from './openapi/route-docs.ts';
import type { OpenApiDocument, OperationObject, PathItemObject, SchemaObject, TagObject } from './openapi/types.ts';
import type { RouteDefinition } from './route.ts';
import { routeScope } from './route.ts';

export type { OpenApiDocument } from './openapi/types.ts';
export { ROUTE_DOCS, routeKey } from './openapi/route-docs.ts';

export type OpenApiOptions = {
  /** Where the API is served; by default the document's own server (a relative `/`). */
  serverUrl?: string;
  /** The version of this interface document (spec 9: 1.0.0). */
  version: string;
};

/** Route groups of spec 1.3 (and the products of 1.4), in the words of spec 4 and 5.6. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Platform: "The platform around the data: the calling key's usage and the public changelog (spec 8, 9).",
  Enrich:
    'Batch address enrichment (spec 4.7): upload a CSV, check the proposed column mapping, approve, poll, download the enriched CSV (scopes enrich.submit, enrich.read).',
  Jobs: "Durable jobs (exports, enrich, earthworks, webhook deliveries): a job's state and progress, for its own account only.",
  Webhooks:
    'Signed event callbacks (spec 6): register https:// endpoints for event kinds, rotate their secrets, read the delivery log (scope webhooks.manage).',
  Health: 'Health of the service and its dependencies (spec 4.1). No key needed.',
  Cadastre: 'Land parcels: lot boundaries, parcel attributes and PFI lookups (spec 4.2; scope cadastre.read).',
  Property: 'The property graph: one call fanning out to every data layer the key may read (spec 4.4).',
  Planning: 'Zone resolution, overlays and schedule references (scope planning.read).',
  Envelope: 'Building envelope, setbacks, cut/fill, contours (scope envelope.read).',
  Siting: 'Envelope fit, footprint clash and breach checks, async DEM earthworks (spec 4.11).',
  Locality: 'Schools, childcare, supermarkets, transport stops and amenity proximity (scope locality.read).',
  'Suburb Trends': 'Quarterly median prices and rents, growth, yields and approvals by suburb (scope locality.suburb).',
  Demographics:
    'Census 2021 demographic context of a place (its SA1 and suburb) and of a suburb by name (scope locality.read).',
  'Property Sales': 'Property sales records and comparable sales (scope dossier.read).',
  'Development Applications': 'Development-application lookups, statistics and the change feed (spec 4.6).',
  SPEAR: 'Victorian planning applications touching a lot, by point, bbox or PFI (scope spear.read).',
  Risk: 'Flood, bushfire (BAL) and contamination overlays at a coordinate (scope risk.read).',
  Soil: 'Indicative clay content and soil depth as a footing-risk band (scope soil.read).',
  'Building Footprints': 'Building footprints by bbox, point or parcel PFI (scope dossier.read).',
  Suitability: 'Site suitability (scope dossier.read).',
  Catalog: 'Home design and builder catalogue (scope catalog.read).',
  Address: 'Address autocomplete and validation (scope locality.read).',
  'Climate Zone': 'Building-code climate zone for a coordinate (scope envelope.read).',
  Valuation: 'Valuation calculators (scope valuation.compute).',
  'Image and Object Access': 'Raw images and mirror snapshot artefacts by storage key (scope image-access.read).',
  Basemap: 'Style JSON, tiles, glyphs and sprites (scope basemap.read).',
  Elevation: 'Terrain statistics for a lot or bbox; VIC only (scope elevation.read).',
  Roads: 'Nearest road centrelines and fronting roads (scope roads.read).',
  UGB: 'Urban growth boundary (spec 4.3; scope ugb.read for keyed callers).',
  Easements: 'Easement features by bbox or parcel PFI (scope easement.read).',
  'Land Values': "A parcel's land value from the valuer-general (scope dossier.read).",
  'Suburb Analytics':
    'Precomputed suburb bundles, their list, quarterly series and the metric screen (spec 2.10, 4.4; scope suburb-analytics.read).',
};

const DESCRIPTION = `**Authentication.** Send \`Authorization: Bearer <API key>\`. Live keys start \`landgraph_live_\`; test keys
start \`landgraph_test_\` and read the frozen sandbox dataset. A missing or invalid key is a 401 with
\`WWW-Authenticate: Bearer\`; a key without a route's scope is a 403 \`Missing scope: <scope>\`. A client that presents
more than 20 unknown keys in a burst is answered 429 with \`Retry-After\` (one more attempt every 3 s).

**Browsers.** A key's embed allow-list names the origins whose pages may call the API with it: those get CORS
headers (and preflights are answered for origins on any active key's list); other origins get none.

**Limits.** Each key has a token bucket of 60 requests per minute unless its tier says otherwise; every keyed
response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`, and a 429 carries
\`Retry-After\` (seconds).

**Conventions.** Coordinates are WGS84 decimal degrees (lat, lng); areas are square metres; timestamps ISO 8601 UTC.
Query values are text on the wire: numbers are documented as strings of decimal form.

**Credit.** A payload with third-party data carries \`attribution\` and \`license\` in the body and the
\`X-Service-Attribution\` and \`X-Service-License\` headers; reproduce the credit wherever the data is shown.

**Errors.** Each route family writes its errors in its own shape: the cadastre envelope (\`success\`, \`error\`,
\`hint\`), an empty FeatureCollection for window queries, or \`{ success: false, error, hint }\`. Key, scope and
rate-limit refusals and wrong methods always take that last, plain shape. Every answer of a route carries an
\`X-Request-Id\`; quote it to support.

**Failures behind the service.** One rule on every route, for failures that may pass: when a source behind a
layer fails (a state's live map service, the object store, a service of the graph that did not answer) the answer
is a 502; when the service itself cannot answer (its database unreachable, a stage over its time budget) it is a
503. Both carry \`retryable: true\` in the body and \`Retry-After\` (seconds). A 500 is a fault of ours that
retrying will not mend.

${GRAPHQL_DOCS}`;

/** `get /api/cadastre/by-address` → `getApiCadastreByAddress`; `:id` → `ById`. Stable while the path is. */
export function operationId(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(':') ? ['by', ...segment.slice(1).split(/[-_]/)] : segment.split(/[-_.]/),
    )
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return route.method + words.join('');
}

/** Routes of the table with no entry in ROUTE_DOCS: their success body is documented only as an object. */
export function missingRouteDocs(routes: readonly RouteDefinition[]): string[] {
  return routes.map(routeKey).filter((key) => !(key in ROUTE_DOCS));
}

/** Who may call the route, in words for its description. */
function accessSentence(route: RouteDefinition): string {
  const scope = routeScope(route);
  if (scope && typeof route.access === 'object' && route.access.keyless) {
    return (
      `Open without a key (${route.access.keyless.why}), at most 120 keyless calls a minute from one client by ` +
      `default (LANDGRAPH_KEYLESS_RATE_LIMIT; 429 with Retry-After beyond); a call with a key needs scope ${scope}.`
    );
  }
  if (scope) return `Requires scope ${scope} (Authorization: Bearer <API key>).`;
  return route.access === 'key' ? 'Requires an API key; no particular scope.' : 'Open: no API key needed.';
}

/** A body schema without the path parameters its zod schema also validates: they are documented in the path. */
function withoutPathFields(schema: SchemaObject, inPath: readonly { name: string }[]): SchemaObject {
  if (inPath.length === 0 || !schema.properties) return schema;
  const names = new Set(inPath.map((p) => p.name));
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([name]) => !names.has(name)));
  const required = schema.required?.filter((name) => !names.has(name));
  return { ...schema, properties, ...(required ? { required } : {}) };
}

function operation(route: RouteDefinition, methodsOfPath: string[]): OperationObject {
  const doc = ROUTE_DOCS[routeKey(route)];
  const inPath = pathParameters(route.path);
  // a path parameter is validated by the same schema as the query, but documented once, in the path
  const fromQuery = route.input === 'body' ? [] : queryParameters(route.query);
  const parameters = [...inPath, ...fromQuery.filter((p) => !inPath.some((q) => q.name === p.name))];
  const scope = routeScope(route);
  const words = [doc?.notes, accessSentence(route)];
  if (route.access !== 'open' && route.metered === false) words.push("Free: not counted against the key's quota.");
  if (route.deprecated) {
    words.push(
      `Deprecated since ${route.deprecated.since}; answers until ${route.deprecated.sunset} (see /changelog).`,
    );
  }
  const op: OperationObject = {
    operationId: operationId(route),
    summary: route.summary,
    description: words.filter(Boolean).join('\n\n'),
    tags: [route.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    security:
      route.access === 'open'
        ? []
        : typeof route.access === 'object' && route.access.keyless
          ? [{}, { bearerAuth: [] }]
          : [{ bearerAuth: [] }],
    responses: routeResponses(
      route,
      doc,
      methodsOfPath,
      parameters.filter((p) => p.in === 'query').map((p) => p.name),
    ),
  };
  if (route.input === 'body')
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: withoutPathFields(bodySchema(route.query), inPath) } },
    };
  if (scope) op['x-required-scope'] = scope;
  if (route.deprecated) op.deprecated = true;
  return op;
}

/** The OpenAPI 3.1 document of the facade, generated from the route table so it cannot drift from it. */
export function buildOpenApiDocument(routes: readonly RouteDefinition[], options: OpenApiOptions): OpenApiDocument {
  const methodsByPath = new Map<string, string[]>();
  for (const route of routes) {
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method.toUpperCase()]);
  }
  const paths: Record<string, PathItemObject> = {};
  const ids = new Set<string>();
  for (const route of routes) {
    const op = operation(route, methodsByPath.get(route.path) ?? []);
    if (ids.has(op.operationId)) throw new Error(`Two routes make the operationId ${op.operationId}.`);
    ids.add(op.operationId);
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method] = op;
  }
  const tags: TagObject[] = [...new Set(routes.map((route) => route.tag))].map((name) => {
    const description = TAG_DESCRIPTIONS[name];
    return description ? { name, description } : { name };
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Landgraph Property Intelligence API',
      version: options.version,
      summary: 'Australian property intelligence as JSON: parcels, planning and the property graph.',
      description: DESCRIPTION,
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [
      options.serverUrl
        ? { url: options.serverUrl, description: 'Landgraph API' }
        : { url: '/', description: 'This server' },
    ],
    tags,
    paths,
    components: {
      ...usedComponents(paths),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'landgraph_live_… or landgraph_test_… API key',
          description: 'An API key from the account console; each route names the scope it needs.',
        },
      },
    },
  };
}

export type OpenApiRouterOptions = OpenApiOptions & {
  /** Where the document is served; /docs loads it from here. */
  openApiPath?: string;
  docsPath?: string;
};

/**
 * Serves the document and its reference page: mount with `app.use(openApiRouter(ROUTES, {...}))`.
 * The document is built once, when the router is made.
 */
export function openApiRouter(routes: readonly RouteDefinition[], options: OpenApiRouterOptions): Router {
  const documentPath = options.openApiPath ?? '/openapi.json';
  const body = JSON.stringify(buildOpenApiDocument(routes, options));
  const page = docsPageHtml(documentPath, routes);
  const pagePolicy = docsPagePolicy(documentPath);
  const router = Router();
  router.get(documentPath, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/json').send(body);
  });
  router.get(options.docsPath ?? '/docs', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Content-Security-Policy', pagePolicy);
    res.type('html').send(page);
  });
  return router;
}
