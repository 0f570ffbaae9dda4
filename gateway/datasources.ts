import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { RemoteGraphQLDataSource } from '@apollo/gateway';
import type { GraphQLError } from 'graphql';
import { parse, validate } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { BoundedMemo } from '../core/bounded-memo.ts';
import type { RequestScope } from '../core/context.ts';
import { INTERNAL_SCOPE, scopeHeaders } from '../core/context.ts';
import type { Subgraph } from '../core/subgraph.ts';

export type GatewayContext = {
  scope: RequestScope;
  /** Told what failed when an operation answers a 5xx, so the facade can log it with the request id. */
  onServerError?: (error: Error) => void;
};

const MAX_CACHED_OPERATIONS = 500;

/** The caller's scope; the gateway's own health and schema calls run as the service itself. */
function scopeOf(options: GraphQLDataSourceProcessOptions<GatewayContext>): RequestScope {
  if ('incomingRequestContext' in options) return options.context.scope;
  return INTERNAL_SCOPE;
}

type Prepared = { compiled: CompiledQuery } | { errors: readonly GraphQLError[] };

/**
 * Runs a subgraph in-process. Unlike Apollo's LocalGraphQLDataSource it builds the subgraph's
 * own context (fresh loaders per fetch) and keeps each operation parsed, validated and
 * compiled: the query planner sends the same few operations again and again, and
 * re-validating each costs more than executing it. The compiled form (graphql-jit, the
 * executor Mercurius uses) runs an operation for about 40 µs of CPU against about 95 µs for
 * graphql-js's interpreter (docs/benchmarks.md), with the same results and errors.
 */
export class InProcessSubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly operations = new BoundedMemo<string, Prepared>(MAX_CACHED_OPERATIONS);

  constructor(private readonly subgraph: Subgraph) {}

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>) {
    const { request } = options;
    const prepared = this.prepare(request.query ?? '', request.operationName);
    if ('errors' in prepared) return { errors: prepared.errors };
    const result = await prepared.compiled.query(
      undefined,
      this.subgraph.createContext(scopeOf(options)),
      request.variables ?? {},
    );
    return result as Awaited<ReturnType<GraphQLDataSource['process']>>;
  }

  private prepare(query: string, operationName: string | undefined): Prepared {
    return this.operations.get(`${operationName ?? ''}\n${query}`, () => {
      try {
        const document = parse(query);
        const errors = validate(this.subgraph.schema, document);
        if (errors.length > 0) return { errors };
        const compiled = compileQuery(this.subgraph.schema, document, operationName);
        return isCompiledQuery(compiled) ? { compiled } : { errors: compiled.errors ?? [] };
      } catch (error) {
        return { errors: [error as GraphQLError] };
      }
    });
  }
}

/** Calls a subgraph over HTTP, carrying the caller's dataset and request id as headers. */
export class HttpSubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    for (const [name, value] of Object.entries(scopeHeaders(scopeOf(options))))
      options.request.http?.headers.set(name, value);
  }
}
