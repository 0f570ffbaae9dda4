import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { parse } from 'graphql';
import type { RequestScope } from './context.ts';
import { hasScope } from './context.ts';
import { AppError } from './errors.ts';
import { FIELD_SCOPES } from './scopes.ts';
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

/**
 * Puts the scope check of every field in FIELD_SCOPES in front of its resolver, so no
 * subgraph can forget one. A field lacking its scope fails alone; the rest of the query resolves.
 */
function withFieldScopes(resolvers: object): object {
  const guarded: Record<string, Record<string, unknown>> = {
    ...(resolvers as Record<string, Record<string, unknown>>),
  };
  for (const [coordinate, scopes] of Object.entries(FIELD_SCOPES)) {
    const [typeName, fieldName] = coordinate.split('.') as [string, string];
    const typeResolvers = guarded[typeName];
    const resolve = typeResolvers?.[fieldName] as FieldResolver | undefined;
    if (!typeResolvers || !resolve) continue;
    guarded[typeName] = {
      ...typeResolvers,
      [fieldName]: (parent: unknown, args: unknown, ctx: RequestScope, info: unknown) => {
        if (!scopes.some((scope) => hasScope(ctx, scope))) throw missingScope(scopes[0]!);
        return resolve(parent, args, ctx, info);
      },
    };
  }
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
  const schema = buildSubgraphSchema({ typeDefs, resolvers: withFieldScopes(resolvers) as ResolverMap });
  return { name, typeDefs, schema, createContext };
}
