import { existsSync, readFileSync } from 'node:fs';
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

/**
 * The embedded supergraph as the build composed it (bin/build.js), beside the compiled code: dist/
 * only runs when built from the schemas as they are, so it is what composing here would give, without
 * the half second of CPU composition costs every start. The sources compose at start, as before.
 */
const BUILT_SUPERGRAPH = new URL('./supergraph.embedded.graphql', import.meta.url);

function supergraphFor(mode: GraphMode): string {
  if (mode.kind === 'distributed') return composeSupergraph({ urlFor: (name) => mode.urls[name] });
  if (import.meta.url.endsWith('.js') && existsSync(BUILT_SUPERGRAPH)) return readFileSync(BUILT_SUPERGRAPH, 'utf8');
  return composeSupergraph();
}

export async function createGraph(mode: GraphMode): Promise<Graph> {
  const supergraphSdl = supergraphFor(mode);
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
