import type {
  DocumentNode,
  FragmentDefinitionNode,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import {
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  Lexer,
  parse,
  Source,
  TokenKind,
} from 'graphql';
import { AppError } from './errors.ts';

/**
 * What one GraphQL operation may ask for, on /graphql and for the facade's own operations.
 * Chosen so the largest real callers fit with room to spare and a flood does not:
 * - depth 12: no type of the data graph refers back to itself, and the facade's operations
 *   nest 5 levels at most. Introspection (`__schema`, `__type`) is not held to it: its `ofType`
 *   chain is 15 deep in graphql-js's own query, and graphql-js's MaxIntrospectionDepthRule
 *   already refuses the nesting that would multiply (`fields { type { fields ...`).
 * - aliases 30: a page of lookups in one call; measured, 2,000 aliased property lookups held
 *   the server 14 s, so the bound stays in the tens.
 * - root fields 25: the query type has 22 fields, so one of each fits.
 * - fields 1,000: introspection selects 230 with its fragments expanded; the facade's full property
 *   graph, every one of the ten layers of spec 2.6 with their credits, selects about 600.
 * - cost 100: a dozen lookups of five Property layers (8 units each, see `measureOperation`);
 *   the facade's full property graph, every layer, costs 12.
 * - tokens 5,000 (names, punctuation and values, as the GraphQL lexer reads them): bounds the
 *   parse of a hostile document, which the 1 MB body limit alone does not (the measured flood
 *   was 383 KB), and the nesting it can build. The full introspection query is about 300.
 */
export const OPERATION_LIMITS = Object.freeze({
  depth: 12,
  aliases: 30,
  rootFields: 25,
  fields: 1_000,
  cost: 100,
  tokens: 5_000,
});

export type OperationLimit = keyof typeof OPERATION_LIMITS;

/**
 * Fields visited before measuring stops counting: only fragments spread within fragments can
 * make a document of 5,000 tokens select more, and past this its counts are lower bounds.
 */
const MAX_VISITS = 20 * OPERATION_LIMITS.fields;

/** Cost units per rate-limit token: a single property lookup (cost up to 10) is one token, as on REST. */
export const COST_UNITS_PER_TOKEN = 10;

/** The limits counted on a parsed operation; `tokens` is counted before there is one. */
type CountedLimit = Exclude<OperationLimit, 'tokens'>;
const COUNTED: readonly CountedLimit[] = ['depth', 'aliases', 'rootFields', 'fields', 'cost'];

/** What an operation asks for, in the units of OPERATION_LIMITS. */
export type OperationMeasure = Record<CountedLimit, number>;

/** Who resolves what, read from the supergraph: what the cost of a selection depends on. */
export interface CostModel {
  /** Entity types (those with a @key) are fetched again from every subgraph their fields come from. */
  isEntity(type: string): boolean;
  /** The subgraph that resolves a field; null for a key or shared field any subgraph can give. */
  ownerOf(type: string, field: string): string | null;
}

const LIMIT_NAMES: Record<OperationLimit, string> = {
  depth: 'depth',
  aliases: 'aliases',
  rootFields: 'root fields',
  fields: 'selected fields',
  cost: 'cost',
  tokens: 'GraphQL tokens',
};

/** One limit an operation passed: `value` is a lower bound when counting stopped early. */
export type Excess = { limit: OperationLimit; value: number; max: number; atLeast: boolean };

/** An operation over OPERATION_LIMITS, refused before anything runs; names every limit passed. */
export class OperationLimitError extends AppError {
  constructor(readonly excesses: readonly Excess[]) {
    const named = excesses.map(
      ({ limit, value, max, atLeast }) => `${LIMIT_NAMES[limit]} ${atLeast ? 'over ' : ''}${value} (limit ${max})`,
    );
    super(
      'BAD_REQUEST',
      `The operation is over its limits: ${named.join(', ')}.`,
      'Split it into smaller operations; the limits and the cost rule are in the GraphQL section of /docs.',
    );
    this.name = 'OperationLimitError';
  }
}

/** Rate-limit tokens an operation of this cost takes: never fewer than one. */
export function tokensFor(cost: number): number {
  return Math.max(1, Math.ceil(cost / COST_UNITS_PER_TOKEN));
}

/**
 * Parses a caller's operation once it is known to be within the token limit (a lexer pass, which
 * holds no nesting); a syntax error is a GraphQLError as from `parse`.
 */
export function parseOperation(source: string, max = OPERATION_LIMITS.tokens): DocumentNode {
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  // The lexer's own errors are left to `parse`, which reports them with their position.
  try {
    while (lexer.advance().kind !== TokenKind.EOF) {
      tokens += 1;
      if (tokens > max) throw new OperationLimitError([{ limit: 'tokens', value: max, max, atLeast: true }]);
    }
  } catch (error) {
    if (error instanceof OperationLimitError) throw error;
  }
  return parse(source, { maxTokens: max, noLocation: true });
}

function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | null {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName) return operations.find((o) => o.name?.value === operationName) ?? null;
  return operations.length === 1 ? operations[0]! : null;
}

/** Counting stopped at MAX_VISITS: the counts so far are lower bounds. */
class StopCounting extends Error {}

/** The parts of a selection that count. */
class Tally {
  readonly measure: OperationMeasure = { depth: 0, aliases: 0, rootFields: 0, fields: 0, cost: 0 };
  private visits = 0;

  add(limit: CountedLimit, amount: number): void {
    this.measure[limit] += amount;
  }

  reach(depth: number): void {
    this.measure.depth = Math.max(this.measure.depth, depth);
  }

  visit(): void {
    this.visits += 1;
    if (this.visits > MAX_VISITS) throw new StopCounting();
  }

  excesses(limits: OperationMeasure, atLeast: boolean): Excess[] {
    return COUNTED.filter((limit) => this.measure[limit] > limits[limit]).map((limit) => ({
      limit,
      value: this.measure[limit],
      max: limits[limit],
      atLeast,
    }));
  }
}

/** The subgraphs an entity's selected fields come from, beyond the one that returned it. */
type EntityFrame = { type: string; owners: Set<string> };

class Walker {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly model: CostModel,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly tally: Tally,
  ) {}

  walk(
    selections: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    depth: number,
    entity: EntityFrame | null,
    inFragments: ReadonlySet<string>,
    introspection = false,
  ): void {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
        this.walk(selection.selectionSet, type ?? undefined, depth, entity, inFragments, introspection);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        const fragment = this.fragments.get(name);
        // A cycle or an unknown fragment is for validation to refuse; it must not loop here.
        if (!fragment || inFragments.has(name)) continue;
        const type = this.schema.getType(fragment.typeCondition.name.value) ?? undefined;
        this.walk(fragment.selectionSet, type, depth, entity, new Set([...inFragments, name]), introspection);
        continue;
      }
      const name = selection.name.value;
      const fieldDepth = depth + 1;
      const inIntrospection = introspection || (fieldDepth === 1 && name.startsWith('__') && name !== '__typename');
      this.tally.visit();
      if (!inIntrospection) this.tally.reach(fieldDepth);
      this.tally.add('fields', 1);
      if (selection.alias) this.tally.add('aliases', 1);
      if (fieldDepth === 1) {
        this.tally.add('rootFields', 1);
        this.tally.add('cost', 1);
      }
      const definition =
        parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[name] : undefined;
      const type = definition ? getNamedType(definition.type) : undefined;
      if (entity && parent) {
        const owner = this.model.ownerOf(parent.name, name);
        if (owner) entity.owners.add(owner);
        // A layer of the entity: each is its own resolver, and most their own queries.
        if (type && isCompositeType(type)) this.tally.add('cost', 1);
      }
      if (!selection.selectionSet) continue;
      if (type && this.model.isEntity(type.name)) {
        const frame: EntityFrame = { type: type.name, owners: new Set() };
        this.walk(selection.selectionSet, type, fieldDepth, frame, inFragments);
        const from = parent ? this.model.ownerOf(parent.name, name) : null;
        frame.owners.delete(from ?? '');
        this.tally.add('cost', frame.owners.size);
      } else {
        this.walk(selection.selectionSet, type, fieldDepth, null, inFragments, inIntrospection);
      }
    }
  }
}

/**
 * Measures the operation a request would run, against the limits, without running it or even
 * validating it (validation of a flood is itself the work to avoid). Fragments are counted
 * where they are spread, as execution would. Throws OperationLimitError naming every limit
 * passed; counting stops after MAX_VISITS fields, so a fragment bomb costs no more to look at.
 * (`tokens` is counted by `parseOperation`, before there is a document.)
 *
 * Cost units: every root field (each alias) is 1; every entity selection (a Property) adds 1 for
 * each other subgraph its fields come from (a fetch the query planner makes) and 1 for each of
 * its layers selected (an object-typed field such as `planning` or `terrain`, each resolved on
 * its own). A scalar field is free. `propertyAt { cadastre planning provisions terrain }` costs
 * 1 + 2 subgraphs + 4 layers = 7.
 *
 * Returns null when the document does not say which operation to run: execution refuses it.
 */
export function measureOperation(
  schema: GraphQLSchema,
  model: CostModel,
  document: DocumentNode,
  operationName?: string | null,
  limits: OperationMeasure = OPERATION_LIMITS,
): OperationMeasure | null {
  const operation = operationOf(document, operationName);
  if (!operation) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const tally = new Tally();
  const root = schema.getRootType(operation.operation) ?? undefined;
  let stopped = false;
  try {
    new Walker(schema, model, fragments, tally).walk(operation.selectionSet, root, 0, null, new Set());
  } catch (error) {
    if (!(error instanceof StopCounting)) throw error;
    stopped = true;
  }
  const excesses = tally.excesses(limits, stopped);
  if (excesses.length > 0) throw new OperationLimitError(excesses);
  return tally.measure;
}

function argument(directive: { arguments?: readonly { name: { value: string }; value: unknown }[] }, name: string) {
  const value = directive.arguments?.find((a) => a.name.value === name)?.value as
    { kind: string; value?: unknown } | undefined;
  return value;
}

/**
 * The cost model of a composed supergraph, from its join directives: an entity is a type some
 * subgraph gives a key; a field's owner is the one subgraph that resolves it (not merely
 * declares it external), or the type's only subgraph.
 */
export function costModelFromSupergraph(supergraphSdl: string): CostModel {
  const entities = new Set<string>();
  const owners = new Map<string, string | null>();
  for (const definition of parse(supergraphSdl, { noLocation: true }).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.INTERFACE_TYPE_DEFINITION) continue;
    const type = definition.name.value;
    const typeGraphs = new Set<string>();
    for (const directive of definition.directives ?? []) {
      if (directive.name.value !== 'join__type') continue;
      const graph = argument(directive, 'graph');
      if (graph?.kind === Kind.ENUM) typeGraphs.add(String(graph.value));
      if (argument(directive, 'key')) entities.add(type);
    }
    for (const field of definition.fields ?? []) {
      const graphs = new Set<string>();
      for (const directive of field.directives ?? []) {
        if (directive.name.value !== 'join__field') continue;
        const external = argument(directive, 'external');
        if (external?.kind === Kind.BOOLEAN && external.value === true) continue;
        const graph = argument(directive, 'graph');
        if (graph?.kind === Kind.ENUM) graphs.add(String(graph.value));
      }
      const resolvers = graphs.size > 0 ? graphs : typeGraphs;
      owners.set(`${type}.${field.name.value}`, resolvers.size === 1 ? [...resolvers][0]! : null);
    }
  }
  return {
    isEntity: (type) => entities.has(type),
    ownerOf: (type, field) => owners.get(`${type}.${field}`) ?? null,
  };
}
