/**
 * The one error vocabulary. Every failure a caller can see is one of these codes, carrying
 * its HTTP status; GraphQL errors carry both in `extensions`, and the REST facade turns the
 * highest status into the response and writes the spec's body shape.
 */
export const ErrorCodes = {
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  /** The resource is not in a state that allows the change (a finished job cancelled). */
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  /** A source behind a layer failed (a state's map service, the object store, a subgraph service): down, timed out or unreadable. */
  UPSTREAM_UNAVAILABLE: 502,
  /** Our own side cannot serve right now: the database is unreachable, or a stage ran over its budget. */
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

/**
 * One rule for failures behind the facade (docs/decisions.md, DESIGN.md §4): a source behind a
 * layer that fails (a state's live service, the object store, a subgraph service) is 502; the
 * service itself unable to answer (its database unreachable, a stage over its time budget) is
 * 503. Both carry `retryable: true` and this Retry-After, because what the caller can do is the
 * same: try again shortly. 500 is left for our own faults, which retrying will not mend.
 */
export const RETRY_AFTER_SECONDS = 5;

/** Whether a failure with this status may go away by itself, so the caller should retry. */
export const isRetryableStatus = (status: number): boolean => status === 502 || status === 503;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.status = ErrorCodes[code];
    this.hint = hint;
  }

  get retryable(): boolean {
    return isRetryableStatus(this.status);
  }

  /**
   * graphql-js copies an original error's `extensions` onto the GraphQL error it reports, and
   * the gateway keeps a subgraph error's own code: so a resolver may simply throw an AppError.
   */
  get extensions(): Record<string, unknown> {
    return { code: this.code, http: { status: this.status }, ...(this.hint ? { hint: this.hint } : {}) };
  }
}

/** The database could not be reached (down, restarting, connection lost): our side, and it may come back. */
export class DatabaseUnavailableError extends AppError {
  constructor(cause: unknown) {
    super(
      'SERVICE_UNAVAILABLE',
      'The service is temporarily unavailable.',
      'Retry in a few seconds; quote the X-Request-Id if it persists.',
      { cause },
    );
  }
}

export const badRequest = (message: string, hint?: string) => new AppError('BAD_REQUEST', message, hint);
export const notFound = (message: string, hint?: string) => new AppError('NOT_FOUND', message, hint);

/** Reads the code and status back from a GraphQL error, wherever in the graph it was raised. */
export function statusOfGraphQLError(error: { extensions?: Record<string, unknown> }): {
  code: ErrorCode;
  status: number;
} {
  const code = error.extensions?.code;
  const http = error.extensions?.http as { status?: unknown } | undefined;
  if (typeof code === 'string' && code in ErrorCodes) {
    return {
      code: code as ErrorCode,
      status: typeof http?.status === 'number' ? http.status : ErrorCodes[code as ErrorCode],
    };
  }
  return { code: 'INTERNAL', status: typeof http?.status === 'number' ? http.status : 500 };
}

/** What Apollo and graphql-js call the caller's own mistakes: the spec's BAD_REQUEST. */
const CLIENT_MISTAKES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
]);
/** Codes of the persisted-query protocol: clients act on them, so they pass unchanged. */
const PROTOCOL_CODES = new Set(['PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED']);

export const INTERNAL_MESSAGE = 'The request could not be completed.';
export const INTERNAL_HINT = 'Retry later; if it persists, contact support with the X-Request-Id.';

/**
 * Whether a GraphQL error is ours rather than the caller's: anything without one of our codes
 * (a database or client library's text, a subgraph's unexpected throw) or with INTERNAL.
 * Its text may hold SQL or internals, so the caller gets INTERNAL_MESSAGE and the log the rest.
 */
export function isInternalGraphQLError(error: { extensions?: Record<string, unknown> }): boolean {
  const code = error.extensions?.code;
  if (typeof code !== 'string') return true;
  if (CLIENT_MISTAKES.has(code) || PROTOCOL_CODES.has(code)) return false;
  return !(code in ErrorCodes) || code === 'INTERNAL';
}

/**
 * A GraphQL error as a caller may see it: our codes with the status a REST caller would get,
 * the caller's own mistakes as BAD_REQUEST (400) with graphql-js's message, which names the
 * argument or field, and everything else as a generic INTERNAL (500).
 */
export function publicGraphQLError<T extends { message: string; extensions?: Record<string, unknown> }>(error: T): T {
  const code = error.extensions?.code;
  if (typeof code === 'string' && PROTOCOL_CODES.has(code)) return error;
  if (isInternalGraphQLError(error)) {
    return {
      ...error,
      message: INTERNAL_MESSAGE,
      extensions: { code: 'INTERNAL', http: { status: ErrorCodes.INTERNAL }, hint: INTERNAL_HINT },
    };
  }
  const ours: ErrorCode = typeof code === 'string' && code in ErrorCodes ? (code as ErrorCode) : 'BAD_REQUEST';
  return { ...error, extensions: { ...error.extensions, code: ours, http: { status: ErrorCodes[ours] } } };
}
