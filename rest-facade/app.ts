import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { RequestScope } from '../core/context.ts';
import { AppError, statusOfGraphQLError } from '../core/errors.ts';
import { badTextError } from '../core/validate.ts';
import type { GatewayContext } from '../gateway/datasources.ts';
import type { Runtime } from '../app/runtime.ts';
import type { AuthenticatedKey } from '../platform/keys.ts';
import {
  InvalidKeysError,
  admitGraphqlOperation,
  authenticate,
  enforceKeylessLimit,
  enforceLimits,
  isSandboxPageRequest,
  requireScope,
  scopeOfKey,
} from './access.ts';
import { allowEmbedOrigin, embedPreflight } from './cors.ts';
import { errorHandler, logServerErrors, sendError, setRetryAfter, toAppError } from './errors.ts';
import { sendJson } from './json.ts';
import type { Credit, RouteDefinition } from './route.ts';
import { routeGroup, routeScope } from './route.ts';
import { openApiRouter } from './openapi.ts';
import { assertTextParameters, noteBodyEncoding, undecodablePathParam } from './params.ts';
import { ROUTES } from './routes/index.ts';
import { sandboxPageHeaders, securityHeaders } from './security-headers.ts';
import { deprecationHeaders } from './versioning.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const BODY_LIMIT = '1mb';
export const API_VERSION = '1.0.0';

/**
 * Header values go out as ASCII: Node writes them as UTF-8 bytes beside a string body, which a
 * client reading Latin-1 shows as "Â©". The usual marks of a credit line are spelled out.
 */
export function headerSafe(value: string): string {
  return value
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u00a9/g, '(c)')
    .replace(/\u00ae/g, '(R)')
    .replace(/[^\x20-\x7e]/g, '?');
}

export function setCreditHeaders(res: Response, credit: Credit): void {
  res.setHeader('X-Service-Attribution', headerSafe(credit.attribution));
  res.setHeader('X-Service-License', headerSafe(credit.license));
}

function requestId(req: Request, res: Response): string {
  const given = req.get('x-request-id');
  const id = given && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Auth and limit failures answer in the plain shape of DESIGN.md §4, with the headers HTTP asks for. */
function sendAccessError(res: Response, error: AppError): void {
  if (error.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="landgraph"');
  if (error instanceof InvalidKeysError) res.setHeader('Retry-After', String(error.retryAfter));
  sendError(res, 'plain', error);
}

/**
 * What a route's schema validates: the query string with the path parameters (which win over a
 * query namesake), or for body routes the JSON body, which must be an object.
 */
function routeInput(route: RouteDefinition, req: Request): unknown {
  if (route.input !== 'body') return { ...req.query, ...req.params };
  if (!req.is('application/json')) {
    throw new AppError('BAD_REQUEST', 'Send the request body as JSON (Content-Type: application/json).');
  }
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('BAD_REQUEST', 'The request body must be a JSON object.');
  }
  // a body route under a path with parameters (POST /v1/enrich/jobs/{id}/approve) reads both; the path wins
  return Object.keys(req.params).length === 0 ? body : { ...body, ...req.params };
}

function routeHandler(route: RouteDefinition, runtime: Runtime): RequestHandler {
  const scopeNeeded = routeScope(route);
  const metered = route.metered !== false;
  // Fixed per route: worked out once here rather than on every call.
  const group = routeGroup(route);
  const deprecation = Object.entries(deprecationHeaders(route));
  const readBody = routeBodyReader(route);
  return async (req, res) => {
    const id = requestId(req, res);
    for (const [name, value] of deprecation) res.setHeader(name, value);
    let key: AuthenticatedKey | null = null;
    let scope: RequestScope = { dataset: 'sandbox', requestId: id, scopes: [] };
    try {
      const keyless = typeof route.access === 'object' ? route.access.keyless : undefined;
      const keyedCall = keyless?.keyedParams?.some((name) => name in req.query) ?? false;
      if (keyless && !keyedCall && !req.get('authorization')) {
        await enforceKeylessLimit(req, res, runtime);
        scope = { dataset: keyless.dataset, requestId: id, scopes: scopeNeeded ? [scopeNeeded] : [] };
      } else if (route.access !== 'open') {
        key = await authenticate(req, runtime);
        allowEmbedOrigin(req, res, key);
        await enforceLimits(key, res, runtime, metered);
        scope = scopeOfKey(key, id);
        if (scopeNeeded) requireScope(scope, scopeNeeded);
      }
    } catch (error) {
      sendAccessError(res, toAppError(error));
      return;
    }
    try {
      let response = key && route.admit ? route.admit(key) : null;
      if (!response) {
        await readBody(req, res);
        assertTextParameters(req);
        const parsed = route.query.safeParse(routeInput(route, req));
        if (!parsed.success) {
          const message = parsed.error.issues.map((issue) => issue.message).join(' ');
          throw new AppError('BAD_REQUEST', message, 'See /openapi.json for the parameters of this route.');
        }
        response = await route.handle(parsed.data, { graph: runtime.graph, scope, runtime, key });
      }
      if (response.failure) res.locals.failure = response.failure;
      setRetryAfter(res, response.status ?? 200);
      if (response.credit) setCreditHeaders(res, response.credit);
      for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, headerSafe(value));
      if (response.stream) {
        res.status(response.status ?? 200).type(response.stream.contentType);
        await pipeline(response.stream.content, res);
      } else if (response.raw)
        res
          .status(response.status ?? 200)
          .type(response.raw.contentType)
          .send(response.raw.content);
      else sendJson(res, response.status ?? 200, response.body);
    } catch (error) {
      // a stream that fails once its first bytes are out can only be cut short: the client sees a broken transfer
      if (res.headersSent) {
        res.locals.failure = toAppError(error);
        res.destroy();
      } else sendError(res, route.errorStyle, toAppError(error));
    }
    // A call is metered when it was served: answered, or answered "not found" after a lookup.
    if (key && metered && (res.statusCode < 400 || res.statusCode === 404)) runtime.meter.record(key.id, group);
  };
}

/**
 * /graphql takes the same keys, limits and metering as REST. The Apollo Sandbox landing
 * page (exactly a browser's GET of it) is open; every operation needs a key, and is measured
 * and charged by its cost before Apollo Server sees it.
 */
function graphqlAccess(runtime: Runtime): RequestHandler {
  return async (req, res, next) => {
    const id = requestId(req, res);
    if (!['GET', 'POST', 'HEAD'].includes(req.method)) {
      res.setHeader('Allow', 'GET, POST');
      sendError(
        res,
        'plain',
        new AppError(
          'METHOD_NOT_ALLOWED',
          `${req.method} is not allowed on /graphql.`,
          'Use POST (or GET for queries).',
        ),
      );
      return;
    }
    if (isSandboxPageRequest(req)) {
      // the landing page is a GET that needs no body, and a keyless caller's body is never read;
      // Apollo's middleware only asks that the body step has run
      (req as { body?: unknown }).body = undefined;
      res.locals.scope = { dataset: 'sandbox', requestId: id, scopes: [] };
      next();
      return;
    }
    try {
      const key = await authenticate(req, runtime);
      allowEmbedOrigin(req, res, key);
      await readSharedBody(req, res);
      await admitGraphqlOperation(req, res, key, runtime);
      assertTextParameters(req, { jsonBody: 'bytes' });
      res.locals.scope = scopeOfKey(key, id);
      res.on('finish', () => {
        if (res.statusCode < 400) runtime.meter.record(key.id, 'graphql');
      });
      next();
    } catch (error) {
      sendAccessError(res, toAppError(error));
    }
  };
}

/**
 * JSON body parsers. A body is read only once the caller is known (after the key, its limits and
 * the route's scope): an anonymous or refused caller never has up to a megabyte of JSON parsed on
 * its behalf, and is told 401/403/429 whatever it sent. Node discards an unread body itself.
 */
const sharedBodyParser = express.json({ limit: BODY_LIMIT, strict: false, verify: noteBodyEncoding });

/** Runs a body parser as a step of a handler; `tooLarge` is the 413 a route with its own limit gives. */
function bodyReader(parse: RequestHandler, tooLarge?: () => AppError): (req: Request, res: Response) => Promise<void> {
  return (req, res) =>
    new Promise((resolve, reject) => {
      void parse(req, res, (error?: unknown) => {
        if (error === undefined || error === null) resolve();
        // body-parser fails only with its http-errors (Error instances with a `type`)
        else if (tooLarge && (error as { type?: unknown }).type === 'entity.too.large') reject(tooLarge());
        else reject(error instanceof Error ? error : new Error('The request body could not be read.'));
      });
    });
}

/** A route's reader: its own limit where it has one, with a 413 that says what that limit is for. */
function routeBodyReader(route: RouteDefinition): (req: Request, res: Response) => Promise<void> {
  const limit = route.bodyLimit;
  if (!limit) return bodyReader(sharedBodyParser);
  const parse = express.json({ limit: limit.bytes, strict: false, verify: noteBodyEncoding });
  return bodyReader(parse, () => new AppError('PAYLOAD_TOO_LARGE', limit.message, limit.hint));
}

const readSharedBody = bodyReader(sharedBodyParser);

/**
 * Express refuses a path segment that is not UTF-8 before any route runs; the route it was
 * meant for answers in its own shape, naming the parameter.
 */
const undecodablePathHandler: ErrorRequestHandler = (error, req, res, next) => {
  if (!(error instanceof URIError)) {
    next(error);
    return;
  }
  for (const route of ROUTES) {
    const name = undecodablePathParam(route.path, req.path);
    if (name === null) continue;
    requestId(req, res);
    sendError(res, route.errorStyle, badTextError(name, 'is not valid UTF-8'));
    return;
  }
  next(error);
};

export function createApp(runtime: Runtime): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // API answers are not revalidated by clients; hashing every body for an ETag is wasted work.
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(logServerErrors);
  // Who the client is (the invalid-key slowdown counts per client) behind the configured proxies only.
  app.set('trust proxy', runtime.config.trustProxyHops);
  app.use(securityHeaders, embedPreflight(runtime));

  app.use(
    '/graphql',
    sandboxPageHeaders,
    graphqlAccess(runtime),
    expressMiddleware<GatewayContext>(runtime.graph.apollo, {
      context: async ({ res }) => ({
        scope: res.locals.scope as GatewayContext['scope'],
        onServerError: (error: Error) => {
          const { code } = statusOfGraphQLError(error as { extensions?: Record<string, unknown> });
          res.locals.failure = new AppError(code, error.message, undefined, { cause: error });
        },
      }),
    }),
  );

  const methodsByPath = new Map<string, string[]>();
  for (const route of ROUTES) {
    app[route.method](route.path, routeHandler(route, runtime));
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) {
    app.all(path, (req, res) => {
      requestId(req, res);
      res.setHeader('Allow', methods.join(', '));
      sendError(
        res,
        'plain',
        new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}.`, `Use ${methods.join(' or ')}.`),
      );
    });
  }
  app.use(openApiRouter(ROUTES, { version: API_VERSION }));
  app.use((req, res) => {
    requestId(req, res);
    sendError(
      res,
      'plain',
      new AppError('NOT_FOUND', `No route ${req.method} ${req.path}.`, 'See /openapi.json for the routes of this API.'),
    );
  });
  app.use(undecodablePathHandler);
  app.use(errorHandler);
  return app;
}
