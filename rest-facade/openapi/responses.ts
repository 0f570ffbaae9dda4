import { AppError, DatabaseUnavailableError, isRetryableStatus } from '../../core/errors.ts';
import type { ErrorCode } from '../../core/errors.ts';
import { requireScope } from '../access.ts';
import { errorBody } from '../errors.ts';
import type { ErrorStyle, RouteDefinition } from '../route.ts';
import { routeScope } from '../route.ts';
import type { RaisedError, RouteDoc } from './route-docs.ts';
import type { HeaderObject, JsonValue, MediaTypeObject, ReferenceObject, ResponseObject } from './types.ts';
import { headerRef, responseRef, schemaRef } from './types.ts';

/** The headers the facade sends (spec 2.2, 8, 9.2; DESIGN.md §4). */
export const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description: 'Identifies the request in our logs: the caller’s own X-Request-Id when well-formed, else a new UUID.',
    required: true,
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description:
      'Size of the key’s token bucket (spec 8: 60 requests per minute by default). On every answer once the key is known.',
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the bucket after this one.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Unix epoch seconds at which the bucket is full again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'X-Service-Attribution': {
    description: 'Credit line of the third-party data in the body (its attribution); present when the body has any.',
    schema: { type: 'string' },
  },
  'X-Service-License': {
    description: 'Licence of the third-party data in the body (its license); present when the body has any.',
    schema: { type: 'string' },
  },
  'X-Mirror-Source': {
    description: 'Provenance of the answer: mirror:<state>/<layer>@<snapshot_id> or live:<state>/<layer> (spec 4.3).',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: 'How long a cache may keep the answer (the lot tiles).',
    schema: { type: 'string' },
  },
  ETag: {
    description: "The answer's version: send it back as If-None-Match for a 304 when it has not changed.",
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme to use: Bearer.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer\\b' },
  },
  Allow: { description: 'The methods this path takes.', required: true, schema: { type: 'string' } },
  Deprecation: {
    description: 'When the route was deprecated, as @<epoch seconds> (RFC 9745).',
    required: true,
    schema: { type: 'string', pattern: '^@\\d+$' },
  },
  Sunset: {
    description: 'When the route stops answering, as an HTTP date (RFC 8594).',
    required: true,
    schema: { type: 'string' },
  },
  Link: { description: 'The changelog entry: <…/changelog>; rel="deprecation".', schema: { type: 'string' } },
  'X-Content-Type-Options': {
    description: 'nosniff, on every answer: a browser takes the body as the Content-Type says, never as script.',
    required: true,
    schema: { type: 'string', enum: ['nosniff'] },
  },
  'X-Frame-Options': {
    description: 'DENY, on every answer (with the Content-Security-Policy frame-ancestors): no page may frame ours.',
    required: true,
    schema: { type: 'string', enum: ['DENY'] },
  },
};

/** The browser-protection headers every answer of the app carries (rest-facade/security-headers.ts). */
const ALWAYS = ['X-Content-Type-Options', 'X-Frame-Options'];

const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const DEPRECATION = ['Deprecation', 'Sunset', 'Link'];

const ERROR_SCHEMA: Record<ErrorStyle, string> = {
  envelope: 'EnvelopeError',
  featureCollection: 'FeatureCollectionError',
  plain: 'PlainError',
};

const toJson = (body: Record<string, unknown>): JsonValue => JSON.parse(JSON.stringify(body)) as JsonValue;

/** An error body as the facade writes it, made by its own errorBody so the example cannot drift. */
const exampleBody = (style: ErrorStyle, error: AppError): JsonValue => toJson(errorBody(style, error));

const json = (schemaName: string, example?: JsonValue): Record<string, MediaTypeObject> => ({
  'application/json':
    example === undefined ? { schema: schemaRef(schemaName) } : { schema: schemaRef(schemaName), example },
});

/** Responses that are the same on every route: referenced, not repeated. */
export function sharedResponses(): Record<string, ResponseObject> {
  return {
    Unauthorized: {
      description: 'No API key, or one that is not valid: send Authorization: Bearer <API key>.',
      headers: refs('WWW-Authenticate', 'X-Request-Id'),
      content: {
        'application/json': {
          schema: schemaRef('Unauthorized'),
          examples: {
            missing: {
              summary: 'No Authorization header',
              value: exampleBody(
                'plain',
                new AppError('UNAUTHENTICATED', 'Missing API key', 'Send Authorization: Bearer <your API key>.'),
              ),
            },
            invalid: {
              summary: 'A key that is unknown, revoked or rotated away',
              value: exampleBody(
                'plain',
                new AppError(
                  'UNAUTHENTICATED',
                  'Invalid API key',
                  'Check the key was copied whole; a rotated or revoked key stops working at once.',
                ),
              ),
            },
          },
        },
      },
    },
    RateLimited: {
      description: 'The key’s rate limit (or the demo key’s daily cap) is used up; retry after Retry-After seconds.',
      headers: refs('Retry-After', ...RATE_LIMIT, 'X-Request-Id'),
      content: json(
        ERROR_SCHEMA.plain,
        exampleBody(
          'plain',
          new AppError('RATE_LIMITED', 'Rate limit of 60 requests per minute exceeded.', 'Retry after 1 s.'),
        ),
      ),
    },
  };
}

function refs(...names: string[]): Record<string, ReferenceObject> {
  return Object.fromEntries([...names, ...ALWAYS].map((name) => [name, headerRef(name)]));
}

/** The words requireScope (access.ts) really answers with when a key lacks the scope. */
function missingScopeError(scope: string): AppError {
  try {
    requireScope({ dataset: 'sandbox', requestId: 'openapi', scopes: [] }, scope);
  } catch (error) {
    if (error instanceof AppError) return error;
  }
  return new AppError('FORBIDDEN', `Missing scope: ${scope}`);
}

/**
 * The words of a real refusal, from the route's own schema: an empty query, or else the first
 * parameter given twice (app.ts joins the issue messages the same way).
 */
function badInputMessage(route: RouteDefinition, parameterNames: string[]): string {
  const attempts: Array<Record<string, unknown>> = [{}];
  if (parameterNames[0]) attempts.push({ [parameterNames[0]]: ['1', '2'] });
  for (const attempt of attempts) {
    const parsed = route.query.safeParse(attempt);
    if (!parsed.success) return parsed.error.issues.map((issue) => issue.message).join(' ');
  }
  return 'The request is not valid.';
}

const CREDIT_HEADERS = ['X-Service-Attribution', 'X-Service-License'];

/** The responses of one route, and the headers every answer of the route carries. */
class RouteResponses {
  readonly responses: Record<string, ResponseObject | ReferenceObject> = {};
  private readonly keyed: boolean;

  constructor(private readonly route: RouteDefinition) {
    this.keyed = route.access !== 'open';
  }

  /** X-Request-Id, the deprecation headers and, once a key passed, the rate-limit headers. */
  headers(afterKey: boolean, ...extra: string[]): Record<string, ReferenceObject> {
    return refs(
      'X-Request-Id',
      ...(this.keyed && afterKey ? RATE_LIMIT : []),
      ...(this.route.deprecated ? DEPRECATION : []),
      ...extra,
    );
  }

  error(status: string, description: string, code: ErrorCode, message: string, hint?: string): void {
    this.responses[status] = {
      description,
      headers: this.headers(true),
      content: json(
        ERROR_SCHEMA[this.route.errorStyle],
        exampleBody(this.route.errorStyle, new AppError(code, message, hint)),
      ),
    };
  }

  raised(status: '404' | '409' | '422', code: ErrorCode, error: RaisedError | undefined): void {
    if (error) this.error(status, error.description, code, error.message, error.hint);
  }

  /**
   * The rule for failures behind a route (core/errors.ts), both retryable with Retry-After: 502
   * when a source behind one of its layers failed (only routes that read one document it), 503
   * when the service itself cannot answer, which every route can meet (its database at least).
   */
  unavailable(source: RaisedError | undefined, own: RaisedError | undefined): void {
    const retry = 'Retryable: retry after Retry-After seconds.';
    if (source) {
      this.responses['502'] = {
        description: `${source.description} ${retry}`,
        headers: this.headers(true, 'Retry-After'),
        content: json(
          ERROR_SCHEMA[this.route.errorStyle],
          exampleBody(this.route.errorStyle, new AppError('UPSTREAM_UNAVAILABLE', source.message, source.hint)),
        ),
      };
    }
    const example = own
      ? new AppError('SERVICE_UNAVAILABLE', own.message, own.hint)
      : new DatabaseUnavailableError(undefined);
    const description = own
      ? `${own.description} Or the service's own database is unreachable.`
      : "The service's database is unreachable for a moment.";
    this.responses['503'] = {
      description: `${description} ${retry}`,
      headers: this.headers(true, 'Retry-After'),
      content: json(ERROR_SCHEMA[this.route.errorStyle], exampleBody(this.route.errorStyle, example)),
    };
  }
}

/**
 * Every response a route can give, in the order app.ts can give them: its success body and other
 * statuses, bad input, the key checks of keyed routes, its handler's errors, a wrong method, the
 * rate limit and an internal failure.
 */
export function routeResponses(
  route: RouteDefinition,
  doc: RouteDoc | undefined,
  methodsOfPath: string[],
  parameterNames: string[],
): Record<string, ResponseObject | ReferenceObject> {
  const out = new RouteResponses(route);
  const contentType = doc?.contentType ?? 'application/json';
  // only the status the route answers on success: a 201 or 202 route documents no 200
  out.responses[doc?.successStatus ?? '200'] = {
    description: doc?.successDescription ?? 'Success.',
    headers: out.headers(true, ...(doc?.credited ? CREDIT_HEADERS : []), ...(doc?.headers ?? [])),
    content: { [contentType]: { schema: doc?.success ?? { type: 'object' } } },
  };
  // a route whose parameters are all in its path (the lot tiles) refuses bad ones too
  const inPath = /\/:\w/.test(route.path);
  if (parameterNames.length > 0 || inPath || route.method !== 'get') {
    out.error(
      '400',
      'A parameter is missing, malformed or out of range; error says which and how to fix it.',
      'BAD_REQUEST',
      badInputMessage(route, parameterNames),
      'See /openapi.json for the parameters of this route.',
    );
  }
  const scope = routeScope(route);
  if (route.access !== 'open') {
    out.responses['401'] = responseRef('Unauthorized');
    const suspended = exampleBody(
      'plain',
      new AppError('FORBIDDEN', 'API key suspended', 'Contact your account admin or support to reinstate it.'),
    );
    out.responses['403'] = {
      description: scope ? `The key lacks scope ${scope}, or the key is suspended.` : 'The key is suspended.',
      // Key checks answer in the plain shape whatever the route's style (app.ts sendAccessError);
      // a missing scope is found after the rate limit is taken, so its answer has the limit headers.
      headers: out.headers(true),
      content: {
        'application/json': {
          schema: schemaRef(ERROR_SCHEMA.plain),
          examples: {
            ...(scope
              ? {
                  missingScope: {
                    summary: 'The key lacks the scope',
                    value: exampleBody('plain', missingScopeError(scope)),
                  },
                }
              : {}),
            suspended: { summary: 'The key is suspended', value: suspended },
          },
        },
      },
    };
  }
  out.raised('404', 'NOT_FOUND', doc?.raises?.[404]);
  out.responses['405'] = {
    description: 'Another method on this path; Allow lists the ones it takes.',
    headers: refs('Allow', 'X-Request-Id'),
    // app.ts answers a wrong method before the route runs, always in the plain shape.
    content: json(
      ERROR_SCHEMA.plain,
      exampleBody(
        'plain',
        new AppError(
          'METHOD_NOT_ALLOWED',
          `${route.method === 'get' ? 'DELETE' : 'GET'} is not allowed on ${route.path}.`,
          `Use ${methodsOfPath.join(' or ')}.`,
        ),
      ),
    ),
  };
  if (route.bodyLimit) {
    out.error(
      '413',
      'The upload is over its limits.',
      'PAYLOAD_TOO_LARGE',
      route.bodyLimit.message,
      route.bodyLimit.hint,
    );
  } else if (route.method !== 'get') {
    out.error(
      '413',
      'The request body is over 1 MB.',
      'PAYLOAD_TOO_LARGE',
      'The request body is too large.',
      'Send a smaller body.',
    );
  }
  if (route.access !== 'open') out.responses['429'] = responseRef('RateLimited');
  out.error(
    '500',
    'The request could not be completed; quote X-Request-Id to support.',
    'INTERNAL',
    'The request could not be completed.',
    'Retry later; if it persists, contact support with the X-Request-Id.',
  );
  out.raised('409', 'CONFLICT', doc?.raises?.[409]);
  out.raised('422', 'UNPROCESSABLE', doc?.raises?.[422]);
  out.unavailable(doc?.raises?.[502], doc?.raises?.[503]);
  // a route's own bodies for other statuses win over the shared error responses (e.g. its own 500 shape)
  for (const [status, other] of Object.entries(doc?.alsoReturns ?? {})) {
    out.responses[status] = {
      description: other.description,
      // app.ts sends Retry-After with every 502 and 503, whatever body the route gives it.
      headers: out.headers(
        true,
        ...(other.credited ? CREDIT_HEADERS : []),
        ...(isRetryableStatus(Number(status)) ? ['Retry-After'] : []),
      ),
      content: { [other.contentType ?? contentType]: { schema: other.schema } },
    };
  }
  return out.responses;
}
