import type { z } from 'zod';
import type { RequestScope } from '../core/context.ts';
import type { Graph } from '../gateway/graph.ts';
import type { Runtime } from '../gateway/runtime.ts';

/** How a route writes its errors: each route family of the spec has its own body shape. */
export type ErrorStyle = 'envelope' | 'featureCollection' | 'plain';

export type Credit = { attribution: string; license: string };

export type RouteContext = { graph: Graph; scope: RequestScope; runtime: Runtime };

export type RouteResponse = {
  status?: number;
  body: Record<string, unknown>;
  /** Third-party credit of the payload: written to the attribution headers as well as the body. */
  credit?: Credit | null;
};

/**
 * One entry of the declarative route table: the request schema that validates (and documents)
 * the input, the scope it needs, and the handler that runs its graph operation and maps the
 * result to the spec's JSON.
 */
export type RouteDefinition<Query extends z.ZodType = z.ZodType> = {
  method: 'get' | 'post';
  path: string;
  tag: string;
  summary: string;
  /** Scope the key must hold; null for the open routes. Enforced from the platform issue on. */
  scope: string | null;
  query: Query;
  errorStyle: ErrorStyle;
  handle(input: z.output<Query>, ctx: RouteContext): Promise<RouteResponse>;
};

export function defineRoute<Query extends z.ZodType>(route: RouteDefinition<Query>): RouteDefinition<Query> {
  return route;
}
