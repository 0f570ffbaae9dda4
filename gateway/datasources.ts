import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { RemoteGraphQLDataSource } from '@apollo/gateway';
import type { DocumentNode, GraphQLError } from 'graphql';
import { execute, parse, validate } from 'graphql';
import type { RequestScope } from '../core/context.ts';
import { INTERNAL_SCOPE, scopeHeaders } from '../core/context.ts';
import type { Subgraph } from '../core/subgraph.ts';

export type GatewayContext = { scope: RequestScope };

const MAX_CACHED_OPERATIONS = 500;

/** The caller's scope; the gateway's own health and schema calls run as the service itself. */
function scopeOf(options: GraphQLDataSourceProcessOptions<GatewayContext>): RequestScope {
  if ('incomingRequestContext' in options) return options.context.scope;
  return INTERNAL_SCOPE;
}

/**
 * Runs a subgraph in-process. Unlike Apollo's LocalGraphQLDataSource it builds the subgraph's
 * own context (fresh loaders per fetch) and keeps parsed, validated operations: the query
 * planner sends the same few operations again and again, and re-validating each costs more
 * than executing it.
 */
export class InProcessSubgraphDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly documents = new Map<string, DocumentNode | readonly GraphQLError[]>();

  constructor(private readonly subgraph: Subgraph) {}

  async process(options: GraphQLDataSourceProcessOptions<GatewayContext>) {
    const { request } = options;
    const query = request.query ?? '';
    const document = this.prepare(query);
    if (!('kind' in document)) return { errors: document };
    const result = await execute({
      schema: this.subgraph.schema,
      document,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: this.subgraph.createContext(scopeOf(options)),
    });
    return result as Awaited<ReturnType<GraphQLDataSource['process']>>;
  }

  private prepare(query: string): DocumentNode | readonly GraphQLError[] {
    const cached = this.documents.get(query);
    if (cached) return cached;
    let prepared: DocumentNode | readonly GraphQLError[];
    try {
      const document = parse(query);
      const errors = validate(this.subgraph.schema, document);
      prepared = errors.length > 0 ? errors : document;
    } catch (error) {
      return [error as GraphQLError];
    }
    if (this.documents.size >= MAX_CACHED_OPERATIONS) this.documents.clear();
    this.documents.set(query, prepared);
    return prepared;
  }
}

/** Calls a subgraph over HTTP, carrying the caller's dataset and request id as headers. */
export class HttpSubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    for (const [name, value] of Object.entries(scopeHeaders(scopeOf(options))))
      options.request.http?.headers.set(name, value);
  }
}
