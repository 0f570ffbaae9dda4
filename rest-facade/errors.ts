import type { ErrorRequestHandler, Response } from 'express';
import { AppError } from '../core/errors.ts';
import { logger } from '../core/logger.ts';
import { sendJson } from './json.ts';
import type { ErrorStyle } from './route.ts';

/** The body of an error in the shape of the route family that raised it. */
export function errorBody(style: ErrorStyle, error: AppError): Record<string, unknown> {
  const hint = error.hint ?? null;
  switch (style) {
    case 'envelope':
      return { success: false, source: null, data: null, error: error.message, hint };
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
      };
    case 'plain':
      return hint ? { success: false, error: error.message, hint } : { success: false, error: error.message };
  }
}

export function sendError(res: Response, style: ErrorStyle, error: AppError): void {
  sendJson(res, error.status, errorBody(style, error));
}

/** Turns anything thrown into an AppError a caller may see: no stack, no internals. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
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
  logger.error('unhandled error', { error: (error as Error).message, stack: (error as Error).stack });
  return new AppError(
    'INTERNAL',
    'The request could not be completed.',
    'Retry later; if it persists, contact support with the X-Request-Id.',
  );
}

/** Last-resort handler for errors raised outside a route (body parsing, the GraphQL mount). */
export const errorHandler: ErrorRequestHandler = (error, _req, res, _next) => {
  if (res.headersSent) return;
  sendError(res, 'plain', toAppError(error));
};
