import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { RemoteGraphQLDataSource } from '@apollo/gateway';
import type { GraphQLError, GraphQLFormattedError, SelectionNode } from 'graphql';
import { Kind, parse, validate } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { BoundedMemo } from '../core/bounded-memo.ts';
import type { RequestScope } from '../core/context.ts';
import { INTERNAL_SCOPE, scopeHeaders } from '../core/context.ts';
import { ErrorCodes } from '../core/errors.ts';
import { signRequest } from '../core/internal-auth.ts';
import { logger } from '../core/logger.ts';
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

type Fetcher = RemoteGraphQLDataSource['fetcher'];
type GatewayResponse = Awaited<ReturnType<GraphQLDataSource['process']>>;

export type HttpSubgraphOptions = {
  name: string;
  url: string;
  /** Key of the signature every request carries (core/internal-auth.ts). */
  secret: string;
  /** Budget of one call; past it the subgraph counts as down for that call. */
  timeoutMs: number;
};

/**
 * Signs each request as it leaves, over the exact body bytes sent, and gives it a deadline: a
 * subgraph that hangs must cost its own fields, not hold the caller's whole request.
 */
function signingFetcher(secret: string, timeoutMs: number): Fetcher {
  return async (url, init = {}) => {
    const headers = { ...init.headers };
    const target = new URL(url);
    Object.assign(
      headers,
      signRequest(secret, {
        method: init.method ?? 'GET',
        path: `${target.pathname}${target.search}`,
        body: init.body ?? '',
        header: (name) => headers[name],
      }),
    );
    return fetch(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
  };
}

/**
 * The response keys an operation asks of the subgraph: the fields under `_entities` for an
 * entity fetch (each one a layer of the entity), else its root fields.
 */
function requestedFields(query: string): string[] {
  const keys = (selections: readonly SelectionNode[]): string[] =>
    selections.flatMap((selection) => {
      if (selection.kind === Kind.INLINE_FRAGMENT) return keys(selection.selectionSet.selections);
      if (selection.kind !== Kind.FIELD || selection.name.value === '__typename') return [];
      return [selection.alias?.value ?? selection.name.value];
    });
  try {
    const operation = parse(query).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    const roots = operation?.selectionSet.selections ?? [];
    const entities = roots.find((s) => s.kind === Kind.FIELD && s.name.value === '_entities');
    return entities?.kind === Kind.FIELD && entities.selectionSet
      ? keys(entities.selectionSet.selections)
      : keys(roots);
  } catch {
    return [];
  }
}

/** Calls a subgraph over HTTP, carrying the caller's dataset and request id as signed headers. */
export class HttpSubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  private readonly subgraphName: string;

  constructor({ name, url, secret, timeoutMs }: HttpSubgraphOptions) {
    super({ url, fetcher: signingFetcher(secret, timeoutMs) });
    this.subgraphName = name;
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    for (const [name, value] of Object.entries(scopeHeaders(scopeOf(options))))
      options.request.http?.headers.set(name, value);
  }

  /**
   * A subgraph that is down, slow or refusing answers as an error on each field it was asked
   * for, at that field's path: the gateway places it on the entity's own layer (a property's
   * `terrain`), so the layers other subgraphs serve still answer (spec 7).
   */
  override async process(options: GraphQLDataSourceProcessOptions<GatewayContext>): Promise<GatewayResponse> {
    try {
      return await super.process(options);
    } catch (error) {
      const cause = (error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message;
      logger.warn(`subgraph ${this.subgraphName} did not answer`, {
        requestId: scopeOf(options).requestId,
        cause,
      });
      return { errors: this.unavailable(options.request) };
    }
  }

  private unavailable(request: GraphQLDataSourceProcessOptions<GatewayContext>['request']): GraphQLFormattedError[] {
    const extensions = { code: 'UPSTREAM_UNAVAILABLE', http: { status: ErrorCodes.UPSTREAM_UNAVAILABLE } };
    const message = `The ${this.subgraphName} service did not answer.`;
    const fields = requestedFields(request.query ?? '');
    const representations: unknown = request.variables?.representations;
    if (Array.isArray(representations)) {
      return representations.flatMap((_, index) =>
        fields.map((field) => ({ message, path: ['_entities', index, field], extensions })),
      );
    }
    if (fields.length === 0) return [{ message, extensions }];
    return fields.map((field) => ({ message, path: [field], extensions }));
  }
}
