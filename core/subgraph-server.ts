import type { Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { RequestScope } from './context.ts';
import { scopeFromHeaders } from './context.ts';
import { logger } from './logger.ts';
import type { Subgraph } from './subgraph.ts';

/**
 * Serves one subgraph over HTTP for the distributed mode: the gateway's headers become the
 * subgraph's request scope, exactly as the in-process data source builds it.
 */
export async function listenSubgraph(
  subgraph: Subgraph,
  port: number,
  host = '127.0.0.1',
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
  app.use(express.json({ limit: '5mb' }));
  app.get('/health', (_req, res) => {
    res.json({ status: 'healthy', subgraph: subgraph.name });
  });
  app.use(
    '/graphql',
    expressMiddleware(apollo, {
      context: async ({ req }) => subgraph.createContext(scopeFromHeaders((name) => req.get(name))),
    }),
  );
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, host, () => resolve(listening));
    listening.once('error', reject);
  });
  const url = `http://${host}:${port}/graphql`;
  logger.info(`subgraph ${subgraph.name} listening on ${url}`);
  return {
    server,
    url,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await apollo.stop();
    },
  };
}
