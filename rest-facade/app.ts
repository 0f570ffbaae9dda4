import { randomUUID } from 'node:crypto';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../core/errors.ts';
import type { RequestScope } from '../core/context.ts';
import type { GatewayContext } from '../gateway/datasources.ts';
import type { Runtime } from '../gateway/runtime.ts';
import { errorHandler, sendError, toAppError } from './errors.ts';
import type { Credit, RouteDefinition } from './route.ts';
import { ROUTES } from './routes/index.ts';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Header values must be Latin-1: anything else in a credit is spelled out in ASCII. */
function headerSafe(value: string): string {
  return value.replace(/[\u2013\u2014]/g, '-').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

export function setCreditHeaders(res: Response, credit: Credit): void {
  res.setHeader('X-Service-Attribution', headerSafe(credit.attribution));
  res.setHeader('X-Service-License', headerSafe(credit.license));
}

function requestScope(req: Request, res: Response): RequestScope {
  const given = req.get('x-request-id');
  const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  // Until keys exist every caller reads the sandbox; the platform issue derives this from the key.
  return { dataset: 'sandbox', requestId };
}

function routeHandler(route: RouteDefinition, runtime: Runtime): RequestHandler {
  return async (req, res) => {
    const scope = requestScope(req, res);
    try {
      const parsed = route.query.safeParse(req.query);
      if (!parsed.success) {
        const message = parsed.error.issues.map((issue) => issue.message).join(' ');
        throw new AppError('BAD_REQUEST', message, 'See /openapi.json for the parameters of this route.');
      }
      const response = await route.handle(parsed.data, { graph: runtime.graph, scope, runtime });
      if (response.credit) setCreditHeaders(res, response.credit);
      res.status(response.status ?? 200).json(response.body);
    } catch (error) {
      sendError(res, route.errorStyle, toAppError(error));
    }
  };
}

export function createApp(runtime: Runtime): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(express.json({ limit: '1mb' }));

  app.use(
    '/graphql',
    expressMiddleware<GatewayContext>(runtime.graph.apollo, {
      context: async ({ req, res }) => ({ scope: requestScope(req, res) }),
    }),
  );

  const methodsByPath = new Map<string, string[]>();
  for (const route of ROUTES) {
    app[route.method](route.path, routeHandler(route, runtime));
    methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) {
    app.all(path, (req, res) => {
      res.setHeader('Allow', methods.join(', '));
      sendError(
        res,
        'plain',
        new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}.`, `Use ${methods.join(' or ')}.`),
      );
    });
  }
  app.use((req, res) => {
    sendError(
      res,
      'plain',
      new AppError('NOT_FOUND', `No route ${req.method} ${req.path}.`, 'See /openapi.json for the routes of this API.'),
    );
  });
  app.use(errorHandler);
  return app;
}
