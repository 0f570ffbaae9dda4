import { createHash } from 'node:crypto';
import type { ApolloGateway } from '@apollo/gateway';
import type { DocumentNode, GraphQLFormattedError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { getOperationAST, GraphQLError, validate } from 'graphql';
import type { RequestScope } from '../core/context.ts';
import { BoundedMemo } from '../core/bounded-memo.ts';
import { logger } from '../core/logger.ts';
import type { CostModel, OperationMeasure } from '../core/operation-limits.ts';
import {
  costModelFromSupergraph,
  measureOperation,
  OperationLimitError,
  parseOperation,
} from '../core/operation-limits.ts';
import type { GatewayContext } from './datasources.ts';
import { withholdPlannerFields } from './field-access.ts';

type GatewayRequestContext = Parameters<ApolloGateway['executor']>[0];
/** The part of Apollo's cache policy the gateway calls (typed `any` in its interface). */
type CachePolicy = { restrict(hint: object): void; replace(hint: object): void; policyIfCacheable(): null };

/** An operation parsed and validated once, as the gateway's executor takes it. */
type Prepared =
  | { document: DocumentNode; operation: OperationDefinitionNode; queryHash: string }
  | { errors: GraphQLFormattedError[] };

/** What measuring a caller's operation found: its size, or the limit it passed. */
export type Admission = { measure: OperationMeasure } | { refused: OperationLimitError } | { unreadable: true };

const MAX_PREPARED = 500;
/** Distinct /graphql operations whose measure is kept; each costs its sender at least a token. */
const MAX_MEASURED = 2_000;
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
  private readonly measured = new BoundedMemo<string, Admission>(MAX_MEASURED);
  private schema: GraphQLSchema | null = null;
  private costModel: CostModel | null = null;

  constructor(private readonly gateway: ApolloGateway) {
    gateway.onSchemaLoadOrUpdate(({ apiSchema, coreSupergraphSdl }) => {
      this.schema = apiSchema;
      this.costModel = costModelFromSupergraph(coreSupergraphSdl);
      this.prepared.clear();
      this.measured.clear();
    });
  }

  /**
   * Measures a caller's operation against OPERATION_LIMITS: parsed (with the token bound) but
   * neither validated nor run, so a refusal costs no subgraph call and no validation pass.
   * `unreadable` is a document that does not parse or does not say which operation to run:
   * Apollo Server answers it with its own GraphQL error, having nothing to execute.
   */
  admit(query: string, operationName: string | null): Admission {
    const { schema, costModel } = this.loaded();
    return this.measured.get(`${operationName ?? ''}\n${query}`, () => {
      try {
        const measure = measureOperation(schema, costModel, parseOperation(query), operationName);
        return measure ? { measure } : { unreadable: true };
      } catch (error) {
        if (error instanceof OperationLimitError) return { refused: error };
        // A syntax error, or nesting past what the parser's stack holds.
        return { unreadable: true };
      }
    });
  }

  private loaded(): { schema: GraphQLSchema; costModel: CostModel } {
    const { schema, costModel } = this;
    if (!schema || !costModel) throw new Error('The gateway has not loaded its schema yet.');
    return { schema, costModel };
  }

  async execute<TData>(
    query: string,
    variables: Record<string, unknown>,
    scope: RequestScope,
  ): Promise<{ data?: TData | null; errors?: readonly GraphQLFormattedError[] }> {
    const { schema, costModel } = this.loaded();
    const prepared = this.prepare(schema, costModel, query);
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

  /**
   * The facade's operations are held to the same limits as a caller's: one that outgrows them
   * is a bug of ours, so it fails as INTERNAL (logged) rather than as the caller's bad request.
   */
  private prepare(schema: GraphQLSchema, costModel: CostModel, query: string): Prepared {
    return this.prepared.get(query, () => {
      try {
        const document = parseOperation(query);
        const errors = validate(schema, document);
        const operation = getOperationAST(document);
        if (errors.length > 0) return { errors: formatted(errors) };
        if (!operation) return { errors: [{ message: 'The document must hold exactly one operation.' }] };
        measureOperation(schema, costModel, document);
        return { document, operation, queryHash: createHash('sha256').update(query).digest('hex') };
      } catch (error) {
        if (error instanceof OperationLimitError) {
          logger.error('facade operation over the operation limits', { error: error.message });
          return { errors: [{ message: error.message, extensions: { code: 'INTERNAL', http: { status: 500 } } }] };
        }
        return { errors: formatted([error instanceof GraphQLError ? error : new GraphQLError(String(error))]) };
      }
    });
  }
}
