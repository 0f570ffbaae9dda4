import type { Request, RequestHandler, Response } from 'express';
import { logger } from '../core/logger.ts';
import type { Runtime } from '../app/runtime.ts';
import type { AuthenticatedKey } from '../platform/keys.ts';

/** What a page's script may read of an answer beyond the CORS-safelisted headers. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Service-Attribution',
  'X-Service-License',
  'X-Mirror-Source',
  'Deprecation',
  'Sunset',
  'Link',
].join(', ');
const ALLOWED_METHODS = 'GET, HEAD, POST';
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id';
/** Browsers cap this themselves (Chromium at 2 h); 10 minutes lets a removed origin lapse soon. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for an authenticated request: the key's own embed allow-list decides. An origin on it may
 * read the answer (errors after the key check included); any other origin gets no CORS headers,
 * so the browser withholds the answer from the page. Keys are sent as a header, never as a
 * cookie, so credentials are never allowed.
 */
export function allowEmbedOrigin(req: Request, res: Response, key: AuthenticatedKey): void {
  const origin = req.get('origin');
  if (!origin) return;
  res.vary('Origin');
  if (!key.embedAllowList.includes(origin)) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}

/**
 * A preflight carries no key, so it is answered for an origin on any active key's allow-list
 * (read from the key store, cached): a preflight only lets the browser send the real request,
 * whose answer is then readable only if that request's own key lists the origin. Any other
 * OPTIONS goes on to the routes, which answer it 405 without CORS headers.
 */
export function embedPreflight(runtime: Runtime): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    if (req.method !== 'OPTIONS' || !origin || !req.get('access-control-request-method')) {
      next();
      return;
    }
    res.vary('Origin');
    res.vary('Access-Control-Request-Method');
    res.vary('Access-Control-Request-Headers');
    runtime.keys.embedOriginKnown(origin).then(
      (known) => {
        if (!known) {
          next();
          return;
        }
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
        res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_S));
        res.status(204).end();
      },
      (error: unknown) => {
        // Without the list no origin can be vouched for; the preflight fails closed.
        logger.warn('embed allow-list unavailable for a preflight', { error: (error as Error).message });
        next();
      },
    );
  };
}
