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
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  /** A third-party source we read live (a state's map service) failed: down, timed out or unreadable. */
  UPSTREAM_UNAVAILABLE: 503,
  /** Our own side cannot serve right now: the database is unreachable, or a stage ran over its budget. */
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

/**
 * One rule for failures behind the facade (docs/decisions.md): whatever failed — our database,
 * a subgraph, a state's live service — the caller gets 503 with `retryable: true` and this
 * Retry-After, because what the caller can do is the same: try again shortly. 500 is left for
 * our own faults, which retrying will not mend.
 */
export const RETRY_AFTER_SECONDS = 5;

/** Whether a failure with this status may go away by itself, so the caller should retry. */
export const isRetryableStatus = (status: number): boolean => status === 503;

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
