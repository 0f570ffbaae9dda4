import { HEADERS, sharedResponses } from './responses.ts';
import { ERROR_SCHEMAS } from './error-schemas.ts';
import { BODY_SCHEMAS } from './schemas.ts';
import type { ComponentsObject, HeaderObject, PathItemObject, ResponseObject, SchemaObject } from './types.ts';

type Kind = 'schemas' | 'responses' | 'headers';
type Library = {
  schemas: Record<string, SchemaObject>;
  responses: Record<string, ResponseObject>;
  headers: Record<string, HeaderObject>;
};

const REF = /"#\/components\/(schemas|responses|headers)\/([^"]+)"/g;

function refsIn(value: unknown): Array<[Kind, string]> {
  return [...JSON.stringify(value).matchAll(REF)].map(([, kind, name]) => [kind as Kind, name ?? '']);
}

function pick<T>(all: Record<string, T>, names: Set<string>): Record<string, T> {
  return Object.fromEntries(Object.entries(all).filter(([name]) => names.has(name)));
}

/**
 * The components the paths reference, directly or through other components: a schema or
 * header no route uses (the deprecation headers while nothing is deprecated) is left out.
 */
export function usedComponents(paths: Record<string, PathItemObject>): Omit<ComponentsObject, 'securitySchemes'> {
  const all: Library = {
    schemas: { ...BODY_SCHEMAS, ...ERROR_SCHEMAS },
    responses: sharedResponses(),
    headers: HEADERS,
  };
  const used: Record<Kind, Set<string>> = { schemas: new Set(), responses: new Set(), headers: new Set() };
  const pending: unknown[] = [paths];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const [kind, name] of refsIn(next)) {
      if (used[kind].has(name)) continue;
      used[kind].add(name);
      pending.push(all[kind][name]);
    }
  }
  return {
    schemas: pick(all.schemas, used.schemas),
    responses: pick(all.responses, used.responses),
    headers: pick(all.headers, used.headers),
  };
}
