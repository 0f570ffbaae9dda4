import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { GraphQLFormattedError } from 'graphql';
import type { RequestScope } from '../core/context.ts';
import type { ErrorCode } from '../core/errors.ts';
import { ErrorCodes } from '../core/errors.ts';
import type { Subgraph } from '../core/subgraph.ts';
import type { SubgraphName } from '../subgraphs/index.ts';
import { composeSupergraph } from './compose.ts';
import type { GatewayContext } from './datasources.ts';
import { HttpSubgraphDataSource, InProcessSubgraphDataSource } from './datasources.ts';
import { GatewayOperations, gatewayLogger } from './operations.ts';

export type GraphMode =
  | { kind: 'embedded'; subgraphs: Record<SubgraphName, Subgraph> }
  | { kind: 'distributed'; urls: Record<SubgraphName, string>; secret: string; timeoutMs: number };

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
        : new HttpSubgraphDataSource({
            name,
            url: url ?? mode.urls[name as SubgraphName],
            secret: mode.secret,
            timeoutMs: mode.timeoutMs,
          }),
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
    plugins: [ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false })],
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
