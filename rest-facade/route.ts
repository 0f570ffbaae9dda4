import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Dataset, RequestScope } from '../core/context.ts';
import type { AppError } from '../core/errors.ts';
import type { Scope } from '../core/scopes.ts';
import type { AuthenticatedKey } from '../platform/keys.ts';
import type { Graph } from '../gateway/graph.ts';
import type { Runtime } from '../app/runtime.ts';

/** How a route writes its errors: each route family of the spec has its own body shape. */
export type ErrorStyle = 'envelope' | 'featureCollection' | 'plain';

export type Credit = { attribution: string; license: string };

/** `key` is null only on open routes. */
export type RouteContext = { graph: Graph; scope: RequestScope; runtime: Runtime; key: AuthenticatedKey | null };

export type RouteResponse = {
  status?: number;
  body: Record<string, unknown>;
  /** A non-JSON answer (the changelog's Markdown); `body` is then not sent. */
  raw?: { contentType: string; content: string | Buffer };
  /** A non-JSON answer streamed as it is produced (an export's CSV); `body` is then not sent. */
  stream?: { contentType: string; content: Readable };
  /** Third-party credit of the payload: written to the attribution headers as well as the body. */
  credit?: Credit | null;
  /** Further response headers (e.g. X-Mirror-Source on the UGB routes). */
  headers?: Record<string, string>;
  /** What failed, when the route answers a 5xx in its own shape: the log names it with the request id. */
  failure?: AppError;
};

/**
 * A scoped route that also answers callers without a key (spec 5.5: the first-party map mount
 * of the UGB routes is open; keyed callers need the scope): what a keyless call reads.
 */
export type KeylessAccess = {
  dataset: Dataset;
  why: string;
  /** Query parameters that take a call out of the open mount: with any of them the key check applies as usual. */
  keyedParams?: readonly string[];
};

/**
 * One entry of the declarative route table: the request schema that validates (and documents)
 * the input, the scope it needs, and the handler that runs its graph operation and maps the
 * result to the spec's JSON.
 */
export type RouteDefinition<Query extends z.ZodType = z.ZodType> = {
  method: 'get' | 'post' | 'delete';
  path: string;
  tag: string;
  summary: string;
  /**
   * `scope`: the key must hold it. `key`: any valid key (e.g. a key's own usage). `open`: no
   * key at all (health, changelog).
   */
  access: { scope: Scope; keyless?: KeylessAccess } | 'key' | 'open';
  /** Marks the route deprecated: Deprecation, Sunset and a Link to /changelog on every answer (spec 9.2). */
  deprecated?: { since: string; sunset: string };
  /** Whether a call counts against the key's quota; lookups do, free helpers do not. Default true. */
  metered?: boolean;
  /** The request schema: of the query string (with path parameters), or of the JSON body when `input` is 'body'. */
  query: Query;
  /** Where the input comes from; 'body' routes take a JSON object body (with the path parameters) and refuse query parameters. */
  input?: 'query' | 'body';
  /**
   * A body route that takes more than the facade's default JSON body (an enrich upload): the most
   * it reads, and the 413 it answers beyond that.
   */
  bodyLimit?: { bytes: number; message: string; hint: string };
  errorStyle: ErrorStyle;
  /**
   * A refusal decided by the key alone, made after its scope check and before the input is read
   * or validated, so a caller the route refuses gets the same answer whatever it sent (an export
   * without the bulk_export capability is 402 for a malformed body as for a good one). Null: go on.
   */
  admit?(key: AuthenticatedKey): RouteResponse | null;
  handle(input: z.output<Query>, ctx: RouteContext): Promise<RouteResponse>;
};

export function defineRoute<Query extends z.ZodType>(route: RouteDefinition<Query>): RouteDefinition<Query> {
  return route;
}

export function routeScope(route: Pick<RouteDefinition, 'access'>): Scope | null {
  return typeof route.access === 'object' ? route.access.scope : null;
}

/** The group a call is metered under: the route's tag, as a stable lower-case name. */
export function routeGroup(route: Pick<RouteDefinition, 'tag'>): string {
  return route.tag.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
