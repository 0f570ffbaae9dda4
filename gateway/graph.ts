import { existsSync, readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { GraphQLFormattedError } from 'graphql';
import type { RequestScope } from '../core/context.ts';
import { OPERATION_LIMITS } from '../core/operation-limits.ts';
import {
  ErrorCodes,
  RETRY_AFTER_SECONDS,
  isInternalGraphQLError,
  isRetryableStatus,
  publicGraphQLError,
  statusOfGraphQLError,
} from '../core/errors.ts';
import { logger } from '../core/logger.ts';
import type { Subgraph } from '../core/subgraph.ts';
import type { SubgraphName } from '../subgraphs/index.ts';
import { composeSupergraph } from './compose.ts';
import { installOperationMemo } from './operation-memo.ts';
import type { GatewayContext } from './datasources.ts';
import { HttpSubgraphDataSource, InProcessSubgraphDataSource } from './datasources.ts';
import type { Admission } from './operations.ts';
import { withholdPlannerFields } from './field-access.ts';
import { GatewayOperations, gatewayLogger } from './operations.ts';
import { GRAPH_VALIDATION_RULES } from './validation.ts';

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
  /** A caller's operation measured against the operation limits, before Apollo Server runs it. */
  admit(query: string, operationName: string | null): Admission;
  stop(): Promise<void>;
};

/**
 * What /graphql adds to Apollo's answer: it withholds the planner's identity fields the caller's
 * scopes do not open (field-access.ts), and an answer that carries data is 200 with its errors
 * beside it, so one refused field does not turn the others into a 403. An answer with no data
 * takes the highest status among its errors, as the REST facade does.
 */
const answerPlugin: ApolloServerPlugin<GatewayContext> = {
  requestDidStart: () =>
    Promise.resolve({
      didEncounterErrors: ({ errors, contextValue }) => {
        for (const error of errors.filter((e) => isInternalGraphQLError(e))) {
          logger.error('graphql internal error', {
            requestId: contextValue.scope?.requestId,
            path: error.path?.join('.'),
            code: error.extensions?.code,
            cause: error.message,
          });
        }
        return Promise.resolve();
      },
      willSendResponse: ({ response, document, schema, operationName, contextValue }) => {
        if (response.body.kind !== 'single') return Promise.resolve();
        const result = response.body.singleResult;
        if (document) {
          const withheld = withholdPlannerFields(schema, document, operationName, result.data, contextValue.scope);
          if (withheld.length > 0) result.errors = [...(result.errors ?? []), ...withheld];
        }
        if (!result.errors?.length) return Promise.resolve();
        const answered = Object.values(result.data ?? {}).some((value) => value !== null);
        if (answered) response.http.status = 200;
        else if (
          result.errors.every(
            (error) => typeof error.extensions?.code === 'string' && error.extensions.code in ErrorCodes,
          )
        )
          response.http.status = Math.max(...result.errors.map((error) => statusOfGraphQLError(error).status));
        return Promise.resolve();
      },
    }),
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
  installOperationMemo();
  const supergraphSdl = supergraphFor(mode);
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
    // Off (docs/decisions.md): a cache any key could fill was answered to keyless GETs, and
    // clients lose little by sending the whole operation, which is what the limits measure.
    persistedQueries: false,
    // The same bound the limits parse with, so Apollo never reads further than they did.
    parseOptions: { maxTokens: OPERATION_LIMITS.tokens },
    includeStacktraceInErrorResponses: false,
    // The process drains HTTP first and then stops the graph (cli/serve.ts); Apollo stopping
    // itself on SIGTERM would fail the requests still in flight.
    stopOnTerminationSignals: false,
    validationRules: GRAPH_VALIDATION_RULES,
    // Apollo spends extensions.http on the response status and drops it; GraphQL clients get
    // it back beside the code, so they see the same status a REST caller would. Internal errors
    // (logged with the request id by answerPlugin) reach the caller only as a generic message.
    formatError: (formatted) => publicGraphQLError(formatted),
    plugins: [
      ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
      answerPlugin,
      {
        // The one rule for failures behind the service holds on /graphql too: a 502 or 503 says when to retry.
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
    admit: (query, operationName) => operations.admit(query, operationName),
    stop: () => apollo.stop(),
  };
}
