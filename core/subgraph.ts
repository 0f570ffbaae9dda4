import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { parse } from 'graphql';
import type { RequestScope } from './context.ts';
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

export function buildSubgraph<Context extends RequestScope>(
  name: string,
  schemaUrl: URL,
  resolvers: object,
  createContext: (scope: RequestScope) => Context,
): Subgraph<Context> {
  const typeDefs = loadTypeDefs(schemaUrl);
  // The generated resolver types are stricter than Apollo's loose map; both describe the same object.
  const schema = buildSubgraphSchema({ typeDefs, resolvers: resolvers as ResolverMap });
  return { name, typeDefs, schema, createContext };
}
