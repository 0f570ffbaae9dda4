import { createHash } from 'node:crypto';
import type { ApolloGateway } from '@apollo/gateway';
import type { DocumentNode, GraphQLFormattedError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { getOperationAST, GraphQLError, parse, validate } from 'graphql';
import type { RequestScope } from '../core/context.ts';
import { BoundedMemo } from '../core/bounded-memo.ts';
import { logger } from '../core/logger.ts';
import type { GatewayContext } from './datasources.ts';
import { withholdPlannerFields } from './field-access.ts';

type GatewayRequestContext = Parameters<ApolloGateway['executor']>[0];
/** The part of Apollo's cache policy the gateway calls (typed `any` in its interface). */
type CachePolicy = { restrict(hint: object): void; replace(hint: object): void; policyIfCacheable(): null };

/** An operation parsed and validated once, as the gateway's executor takes it. */
type Prepared =
  | { document: DocumentNode; operation: OperationDefinitionNode; queryHash: string }
  | { errors: GraphQLFormattedError[] };

const MAX_PREPARED = 500;
/** Apollo Server 4+ passes a fixed text here too; the gateway does not read it. */
const SCHEMA_HASH = 'unused' as GatewayRequestContext['schemaHash'];

/** Apollo's logger interface over ours: the gateway's debug and info chatter is dropped. */
export const gatewayLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message: unknown) => logger.warn(String(message)),
  error: (message: unknown) => logger.error(String(message)),
};

/** The facade asks for no cache hints; subgraph hints are taken and dropped. */
function cachePolicy(): CachePolicy {
  return {
    restrict: () => undefined,
    replace: () => undefined,
    policyIfCacheable: () => null,
  };
}

const noCache: GatewayRequestContext['cache'] = {
  get: () => Promise.resolve(undefined),
  set: () => Promise.resolve(),
  delete: () => Promise.resolve(),
};

function formatted(errors: readonly GraphQLError[]): GraphQLFormattedError[] {
  return errors.map((error) => error.toJSON());
}

/**
 * Runs the facade's operations on the gateway's executor, the step Apollo Server itself ends
 * with. Apollo Server's request pipeline before it (hashing the text, looking the document up,
 * plugin hooks, formatting the response) cost about 60 µs of CPU per REST call here and adds
 * nothing to an operation of our own, which is parsed and validated against the API schema
 * once. The result is the one `executeOperation` gives: errors in their formatted shape.
 */
export class GatewayOperations {
  private readonly prepared = new BoundedMemo<string, Prepared>(MAX_PREPARED);
  private schema: GraphQLSchema | null = null;

  constructor(private readonly gateway: ApolloGateway) {
    gateway.onSchemaLoadOrUpdate(({ apiSchema }) => {
      this.schema = apiSchema;
      this.prepared.clear();
    });
  }

  async execute<TData>(
    query: string,
    variables: Record<string, unknown>,
    scope: RequestScope,
  ): Promise<{ data?: TData | null; errors?: readonly GraphQLFormattedError[] }> {
    const schema = this.schema;
    if (!schema) throw new Error('The gateway has not loaded its schema yet.');
    const prepared = this.prepare(schema, query);
    if ('errors' in prepared) return { errors: prepared.errors };
    const context: GatewayContext = { scope };
    const requestContext: GatewayRequestContext = {
      request: { query, variables },
      logger: gatewayLogger,
      schema,
      schemaHash: SCHEMA_HASH,
      context,
      cache: noCache,
      queryHash: prepared.queryHash,
      document: prepared.document,
      source: query,
      operationName: prepared.operation.name?.value ?? null,
      operation: prepared.operation,
      metrics: {},
      overallCachePolicy: cachePolicy(),
      requestIsBatched: false,
    };
    const result = await this.gateway.executor(requestContext);
    const withheld = withholdPlannerFields(schema, prepared.document, requestContext.operationName, result.data, scope);
    const all = [...(result.errors ? formatted(result.errors) : []), ...withheld];
    const errors = all.length > 0 ? all : undefined;
    return errors ? { data: result.data as TData | null | undefined, errors } : { data: result.data as TData | null };
  }

  private prepare(schema: GraphQLSchema, query: string): Prepared {
    return this.prepared.get(query, () => {
      try {
        const document = parse(query);
        const errors = validate(schema, document);
        const operation = getOperationAST(document);
        if (errors.length > 0) return { errors: formatted(errors) };
        if (!operation) return { errors: [{ message: 'The document must hold exactly one operation.' }] };
        return { document, operation, queryHash: createHash('sha256').update(query).digest('hex') };
      } catch (error) {
        return { errors: formatted([error instanceof GraphQLError ? error : new GraphQLError(String(error))]) };
      }
    });
  }
}
