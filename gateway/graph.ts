import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { GraphQLFormattedError } from 'graphql';
import type { RequestScope } from '../core/context.ts';
import type { ErrorCode } from '../core/errors.ts';
import { ErrorCodes, RETRY_AFTER_SECONDS, isRetryableStatus } from '../core/errors.ts';
import type { Subgraph } from '../core/subgraph.ts';
import type { SubgraphName } from '../subgraphs/index.ts';
import { composeSupergraph } from './compose.ts';
import type { GatewayContext } from './datasources.ts';
import { HttpSubgraphDataSource, InProcessSubgraphDataSource } from './datasources.ts';
import { GatewayOperations, gatewayLogger } from './operations.ts';

export type GraphMode =
  | { kind: 'embedded'; subgraphs: Record<SubgraphName, Subgraph> }
  | { kind: 'distributed'; urls: Record<SubgraphName, string> };

export type GraphResult<TData> = { data?: TData | null; errors?: readonly GraphQLFormattedError[] };

/**
 * The composed graph: an Apollo server over the gateway for /graphql, and `execute` for the
 * facade's own operations, which go to the same gateway's executor directly.
 */
export type Graph = {
  apollo: ApolloServer<GatewayContext>;
  execute<TData>(query: string, variables: Record<string, unknown>, scope: RequestScope): Promise<GraphResult<TData>>;
  stop(): Promise<void>;
};

export async function createGraph(mode: GraphMode): Promise<Graph> {
  const supergraphSdl =
    mode.kind === 'distributed' ? composeSupergraph({ urlFor: (name) => mode.urls[name] }) : composeSupergraph();
  const gateway = new ApolloGateway({
    supergraphSdl,
    logger: gatewayLogger,
    buildService: ({ name, url }) =>
      mode.kind === 'embedded'
        ? new InProcessSubgraphDataSource(mode.subgraphs[name as SubgraphName])
        : new HttpSubgraphDataSource({ url }),
  });
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // The process drains HTTP first and then stops the graph (cli/serve.ts); Apollo stopping
    // itself on SIGTERM would fail the requests still in flight.
    stopOnTerminationSignals: false,
    // Apollo spends extensions.http on the response status and drops it; GraphQL clients get
    // it back beside the code, so they see the same status a REST caller would.
    formatError: (formatted) => {
      const code = formatted.extensions?.code;
      if (typeof code !== 'string' || !(code in ErrorCodes)) return formatted;
      return { ...formatted, extensions: { ...formatted.extensions, http: { status: ErrorCodes[code as ErrorCode] } } };
    },
    plugins: [
      ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
      {
        // The one rule for failures behind the service holds on /graphql too: a 503 says when to retry.
        async requestDidStart() {
          return {
            async willSendResponse({ response, errors, contextValue }) {
              const status = response.http.status ?? 200;
              if (status < 500) return;
              if (isRetryableStatus(status)) response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
              const failure = errors?.[0];
              if (failure) contextValue.onServerError?.(failure);
            },
          };
        },
      },
    ],
  });
  const operations = new GatewayOperations(gateway);
  await apollo.start();
  return {
    apollo,
    execute: <TData>(query: string, variables: Record<string, unknown>, scope: RequestScope) =>
      operations.execute<TData>(query, variables, scope),
    stop: () => apollo.stop(),
  };
}
