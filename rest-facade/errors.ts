import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { isDatabaseUnreachable } from '../core/db.ts';
import { AppError, DatabaseUnavailableError, RETRY_AFTER_SECONDS, isRetryableStatus } from '../core/errors.ts';
import { logger } from '../core/logger.ts';
import { sendJson } from './json.ts';
import type { ErrorStyle } from './route.ts';

/** The body of an error in the shape of the route family that raised it. */
export function errorBody(style: ErrorStyle, error: AppError): Record<string, unknown> {
  const hint = error.hint ?? null;
  // Only failures that may pass by themselves say so: a 4xx will answer the same on a retry.
  const retry = error.retryable ? { retryable: true } : {};
  switch (style) {
    case 'envelope':
      return { success: false, source: null, data: null, error: error.message, hint, ...retry };
    case 'featureCollection':
      // the credit keys of every FeatureCollection answer, empty: an error carries no data
      return {
        type: 'FeatureCollection',
        features: [],
        source: null,
        hint,
        success: false,
        error: error.message,
        attribution: null,
        license: null,
        ...retry,
      };
    case 'plain':
      return hint
        ? { success: false, error: error.message, hint, ...retry }
        : { success: false, error: error.message, ...retry };
  }
}

/** Retry-After on every answer a retry may mend (the one rule for upstream failures, core/errors.ts). */
export function setRetryAfter(res: Response, status: number): void {
  if (isRetryableStatus(status) && !res.getHeader('Retry-After')) {
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  }
}

export function sendError(res: Response, style: ErrorStyle, error: AppError): void {
  if (error.status >= 500) res.locals.failure = error;
  setRetryAfter(res, error.status);
  sendJson(res, error.status, errorBody(style, error));
}

/** Turns anything thrown into an AppError a caller may see: no stack, no internals. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnreachable(error)) return new DatabaseUnavailableError(error);
  const status = (error as { status?: unknown; type?: unknown }).status;
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.parse.failed') {
    return new AppError(
      'BAD_REQUEST',
      'The request body is not valid JSON.',
      'Send a JSON document with Content-Type: application/json.',
    );
  }
  if (type === 'entity.too.large') {
    return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.', 'Send a smaller body.');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError('BAD_REQUEST', 'The request could not be read.', (error as Error).message);
  }
  return new AppError(
    'INTERNAL',
    'The request could not be completed.',
    'Retry later; if it persists, contact support with the X-Request-Id.',
    { cause: error },
  );
}

/** What went wrong underneath an answer, for the log: the innermost cause's message and stack. */
function causeOf(error: unknown): { cause: string; stack?: string } {
  let current: unknown = error;
  for (let depth = 0; depth < 6; depth += 1) {
    const next = (current as { cause?: unknown } | null)?.cause;
    if (next === undefined || next === null) break;
    current = next;
  }
  if (current instanceof Error) return { cause: current.message, ...(current.stack ? { stack: current.stack } : {}) };
  return { cause: typeof current === 'string' ? current : JSON.stringify(current) };
}

/**
 * The log fields of a failure. The stack only for our own faults: an outage answers many calls
 * the same way, and a stack per call would bury the one line that matters.
 */
function described(failure: AppError): Record<string, unknown> {
  const { cause, stack } = causeOf(failure);
  return {
    code: failure.code,
    cause,
    ...(failure.hint ? { hint: failure.hint } : {}),
    ...(failure.retryable || !stack ? {} : { stack }),
  };
}

/**
 * Logs every 5xx answer once it is sent, with the request id the caller is told to quote, the
 * route and the cause: whichever path answered it (a route, access checks, the GraphQL mount,
 * the last-resort handler), so no failure leaves the log silent.
 */
export const logServerErrors: RequestHandler = (req, res, next) => {
  res.on('finish', () => {
    if (res.statusCode < 500) return;
    const failure: unknown = res.locals.failure;
    const route =
      typeof (req.route as { path?: unknown } | undefined)?.path === 'string'
        ? `${req.baseUrl}${(req.route as { path: string }).path}`
        : req.originalUrl.split('?')[0];
    logger.error('request failed', {
      requestId: res.getHeader('X-Request-Id'),
      method: req.method,
      route,
      status: res.statusCode,
      ...(failure instanceof AppError ? described(failure) : { cause: 'answered by the route' }),
    });
  });
  next();
};

/** Last-resort handler for errors raised outside a route (body parsing, the GraphQL mount). */
export const errorHandler: ErrorRequestHandler = (error, _req, res, _next) => {
  if (res.headersSent) return;
  sendError(res, 'plain', toAppError(error));
};
