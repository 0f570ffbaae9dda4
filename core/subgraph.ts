import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { Kind, parse } from 'graphql';
import type { RequestScope } from './context.ts';
import { hasScope } from './context.ts';
import { AppError } from './errors.ts';
import { FIELD_SCOPES, PLANNER_FIELDS } from './scopes.ts';
import { assertTextInput } from './validate.ts';
import type { Database } from './db.ts';
import type { ProvenanceCatalog } from './provenance.ts';

/** What every subgraph is built from: the process's database and the shared credits catalogue. */
type SubgraphModuleArgs = Extract<Parameters<typeof buildSubgraphSchema>[0], { typeDefs: DocumentNode }>;
type ResolverMap = NonNullable<SubgraphModuleArgs['resolvers']>;

export type SubgraphDeps = { db: Database; catalog: ProvenanceCatalog };

/**
 * A subgraph as the gateway and its own server see it: its schema, built from the
 * checked-in schema.graphql, and a context factory that makes fresh per-request loaders.
 */
export type Subgraph<Context extends RequestScope = RequestScope> = {
  name: string;
  typeDefs: DocumentNode;
  schema: GraphQLSchema;
  createContext(scope: RequestScope): Context;
};

export function loadTypeDefs(schemaUrl: URL): DocumentNode {
  return parse(readFileSync(schemaUrl, 'utf8'));
}

type FieldResolver = (parent: unknown, args: unknown, ctx: RequestScope, info: unknown) => unknown;

export function missingScope(scope: string): AppError {
  return new AppError('FORBIDDEN', `Missing scope: ${scope}`, 'Ask your account admin to add the scope to this key.');
}

/** The `Type.field` coordinates this subgraph resolves itself (not the ones it marks @external). */
function ownFields(typeDefs: DocumentNode): Set<string> {
  const own = new Set<string>();
  for (const definition of typeDefs.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    for (const field of definition.fields ?? []) {
      if (field.directives?.some((directive) => directive.name.value === 'external')) continue;
      own.add(`${definition.name.value}.${field.name.value}`);
    }
  }
  return own;
}

const defaultResolver: FieldResolver = (parent, _args, _ctx, info) =>
  (parent as Record<string, unknown> | null)?.[(info as { fieldName: string }).fieldName];

/**
 * Every root field checks its text arguments before any resolver reads them; the scoped ones
 * already do in their scope guard (`guarded`), so only the open ones are wrapped here.
 */
function withCleanArguments(resolvers: Record<string, Record<string, unknown>>, guarded: ReadonlySet<string>): void {
  const query = resolvers.Query;
  if (!query) return;
  resolvers.Query = Object.fromEntries(
    Object.entries(query).map(([fieldName, resolve]) => [
      fieldName,
      typeof resolve !== 'function' || guarded.has(`Query.${fieldName}`)
        ? resolve
        : (parent: unknown, args: Record<string, unknown>, ctx: RequestScope, info: unknown) => {
            for (const [name, value] of Object.entries(args ?? {})) assertTextInput(value, name);
            return (resolve as FieldResolver)(parent, args, ctx, info);
          },
    ]),
  );
}

/**
 * Puts the scope check of every field in FIELD_SCOPES in front of its resolver, so no
 * subgraph can forget one. A field lacking its scope fails alone; the rest of the query resolves.
 * Fields read by the default resolver are guarded too: a scoped field is never open merely
 * because nothing resolves it explicitly. The planner's own fields are the gateway's to withhold.
 */
function withFieldScopes(resolvers: object, typeDefs: DocumentNode): object {
  const guarded: Record<string, Record<string, unknown>> = {
    ...(resolvers as Record<string, Record<string, unknown>>),
  };
  const own = ownFields(typeDefs);
  const wrapped = new Set<string>();
  for (const [coordinate, scopes] of Object.entries(FIELD_SCOPES)) {
    if (!own.has(coordinate) || PLANNER_FIELDS.includes(coordinate)) continue;
    wrapped.add(coordinate);
    const [typeName, fieldName] = coordinate.split('.') as [string, string];
    const typeResolvers = guarded[typeName] ?? {};
    const resolve = (typeResolvers[fieldName] as FieldResolver | undefined) ?? defaultResolver;
    guarded[typeName] = {
      ...typeResolvers,
      [fieldName]: (parent: unknown, args: Record<string, unknown> | null, ctx: RequestScope, info: unknown) => {
        if (!scopes.some((scope) => hasScope(ctx, scope))) throw missingScope(scopes[0]!);
        for (const [name, value] of Object.entries(args ?? {})) assertTextInput(value, name);
        return resolve(parent, args, ctx, info);
      },
    };
  }
  withCleanArguments(guarded, wrapped);
  return guarded;
}

export function buildSubgraph<Context extends RequestScope>(
  name: string,
  schemaUrl: URL,
  resolvers: object,
  createContext: (scope: RequestScope) => Context,
): Subgraph<Context> {
  const typeDefs = loadTypeDefs(schemaUrl);
  // The generated resolver types are stricter than Apollo's loose map; both describe the same object.
  const schema = buildSubgraphSchema({ typeDefs, resolvers: withFieldScopes(resolvers, typeDefs) as ResolverMap });
  return { name, typeDefs, schema, createContext };
}
