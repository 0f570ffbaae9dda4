import type { Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import type { Request, RequestHandler } from 'express';
import express from 'express';
import type { RequestScope } from './context.ts';
import type { Database } from './db.ts';
import { probeDatabase } from './db.ts';
import { scopeFromHeaders } from './context.ts';
import { closeServer, listen } from './http-listen.ts';
import { verifyRequest } from './internal-auth.ts';
import { logger } from './logger.ts';
import type { Subgraph } from './subgraph.ts';

/**
 * Refuses, with a GraphQL-shaped 401, any request the gateway did not sign: the scope headers
 * are only believed when the signature over them and the body holds. It reads the body as raw
 * bytes (the signature covers those, not a re-serialisation) and parses the JSON only once the
 * signature holds, so an unsigned caller cannot make the subgraph parse anything.
 */
function requireGatewaySignature(secret: string, subgraph: string): RequestHandler {
  return (req: Request, res, next) => {
    const raw: unknown = req.body;
    const body = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
    const verdict = verifyRequest(secret, {
      method: req.method,
      path: req.originalUrl,
      body,
      header: (name) => req.get(name),
    });
    if (verdict.ok) {
      try {
        req.body = body.length > 0 && req.is('application/json') ? (JSON.parse(body.toString('utf8')) as unknown) : {};
      } catch {
        res.status(400).json({
          errors: [{ message: 'The request body is not valid JSON.', extensions: { code: 'BAD_REQUEST' } }],
        });
        return;
      }
      next();
      return;
    }
    logger.warn(`subgraph ${subgraph} refused a request: ${verdict.reason}`, { ip: req.ip });
    res.status(401).json({
      errors: [{ message: verdict.reason, extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } }],
    });
  };
}

export type SubgraphListenOptions = {
  /** Interface to bind; loopback unless the deployment says otherwise. */
  host: string;
  /** Key the gateway signs its requests with. */
  secret: string;
  /**
   * The service's own database: /health answers 503 while it does not answer in time, so the gateway's
   * /api/health and a load balancer see a subgraph that cannot serve, not only one whose process is up.
   */
  db?: Pick<Database, 'query'>;
};

/**
 * Serves one subgraph over HTTP for the distributed mode: the gateway's signed headers become
 * the subgraph's request scope, exactly as the in-process data source builds it.
 */
export async function listenSubgraph(
  subgraph: Subgraph,
  port: number,
  { host, secret, db }: SubgraphListenOptions,
): Promise<{ server: Server; url: string; stop(): Promise<void> }> {
  const apollo = new ApolloServer<RequestScope>({
    schema: subgraph.schema,
    includeStacktraceInErrorResponses: false,
    plugins: [
      {
        // An executed operation answers 200 even when a field failed: the gateway reads the
        // errors (and their codes) from the body, but treats any other status as the whole
        // subgraph being down and would lose the code.
        async requestDidStart() {
          return {
            async willSendResponse({ response }) {
              if (response.body.kind === 'single' && 'data' in response.body.singleResult) response.http.status = 200;
            },
          };
        },
      },
    ],
  });
  await apollo.start();
  const app = express();
  app.disable('x-powered-by');
  // Open: it says only whether the service can serve (its process and its database), and the
  // distributed start polls it before the gateway (the only holder of the secret) exists. The
  // database's own error stays in the log: the probe is unauthenticated.
  app.get('/health', async (_req, res) => {
    if (db) {
      try {
        await probeDatabase(db);
      } catch (error) {
        logger.warn(`subgraph ${subgraph.name}: health check found the database unavailable`, {
          error: (error as Error).message,
        });
        res.status(503).json({ status: 'unhealthy', subgraph: subgraph.name, database: 'unhealthy' });
        return;
      }
    }
    res.json({ status: 'healthy', subgraph: subgraph.name, ...(db ? { database: 'healthy' } : {}) });
  });
  app.use(
    '/graphql',
    express.raw({ type: () => true, limit: '5mb' }),
    requireGatewaySignature(secret, subgraph.name),
    expressMiddleware(apollo, {
      context: async ({ req }) => subgraph.createContext(scopeFromHeaders((name) => req.get(name))),
    }),
  );
  const server = await listen(app, port, host).catch(async (error: unknown) => {
    await apollo.stop();
    throw error;
  });
  const url = `http://${host}:${port}/graphql`;
  logger.info(`subgraph ${subgraph.name} listening on ${url}`);
  return {
    server,
    url,
    async stop() {
      // The gateway's pooled keep-alive connections would otherwise hold the close for a minute.
      await closeServer(server);
      await apollo.stop();
    },
  };
}
