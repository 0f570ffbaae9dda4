import { readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import type { SubgraphName } from '../subgraphs/index.ts';
import { SUBGRAPH_NAMES, subgraphPort, subgraphSchemaUrl } from '../subgraphs/index.ts';

export const DEFAULT_SUBGRAPH_BASE_PORT = 4101;

export function defaultSubgraphUrl(name: SubgraphName, basePort = DEFAULT_SUBGRAPH_BASE_PORT): string {
  return `http://127.0.0.1:${subgraphPort(name, basePort)}/graphql`;
}

export class CompositionFailed extends Error {}

/**
 * Composes the supergraph from the checked-in subgraph schemas. Any composition error
 * (a clashing field, a key a subgraph cannot resolve) fails here, at start and in the tests.
 */
export function composeSupergraph(
  options: {
    urlFor?: (name: SubgraphName) => string;
    /** SDL to compose in place of a checked-in schema (tests use it to prove breakage is caught). */
    sdlOverrides?: Partial<Record<SubgraphName, string>>;
  } = {},
): string {
  const urlFor = options.urlFor ?? ((name: SubgraphName) => defaultSubgraphUrl(name));
  const result = composeServices(
    SUBGRAPH_NAMES.map((name) => ({
      name,
      url: urlFor(name),
      typeDefs: parse(options.sdlOverrides?.[name] ?? readFileSync(subgraphSchemaUrl(name), 'utf8')),
    })),
  );
  if (result.errors) {
    throw new CompositionFailed(
      `Supergraph composition failed:\n${result.errors.map((e) => `- ${e.message}`).join('\n')}`,
    );
  }
  return result.supergraphSdl;
}
