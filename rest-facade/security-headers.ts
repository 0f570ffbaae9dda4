import type { RequestHandler, Response } from 'express';

/**
 * What every answer may do in a browser: JSON and other data render nothing, load nothing and
 * may not be framed. HTML pages replace the policy with one naming exactly what they load.
 */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Directives every HTML page shares: nothing by default, no framing, no base or form tricks. */
const PAGE_BASE = ["default-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"];

export function pagePolicy(directives: readonly string[]): string {
  return [...PAGE_BASE, ...directives].join('; ');
}

/**
 * Apollo Sandbox's landing page, as @apollo/server renders it with `embed: true`: the embed
 * script and its inline start-up script and styles (both carrying a per-render nonce), the Source
 * Sans Pro stylesheet and fonts from Google, the favicon and manifest from Apollo's landing-page
 * CDN, and the Sandbox itself in an iframe from sandbox.embed.apollographql.com. The page's
 * operations run against this origin. The explorer and classic landing-page CDNs Apollo's own meta
 * policy also lists are left out: the embedded Sandbox never loads them.
 */
export function sandboxPagePolicy(nonce: string): string {
  return pagePolicy([
    `script-src 'nonce-${nonce}' https://embeddable-sandbox.cdn.apollographql.com`,
    `style-src 'nonce-${nonce}' https://fonts.googleapis.com`,
    'font-src https://fonts.gstatic.com',
    'img-src https://apollo-server-landing-page.cdn.apollographql.com',
    'manifest-src https://apollo-server-landing-page.cdn.apollographql.com',
    'frame-src https://sandbox.embed.apollographql.com',
    "connect-src 'self'",
  ]);
}

/** The landing page's nonce: Apollo draws a fresh one per render and writes it into its own meta policy. */
const APOLLO_NONCE = /'nonce-([0-9a-f]{16,128})'/;

/**
 * nosniff on every answer (a JSON body is never run as script or styled as CSS), frame
 * protection twice over (X-Frame-Options for browsers that predate frame-ancestors), and the
 * data policy until a page sets its own.
 */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', DATA_CSP);
  next();
};

/**
 * Mounted on /graphql: when Apollo answers with its landing page, the header policy takes the
 * page's nonce. A meta policy cannot forbid framing, and a header policy that did not know the
 * nonce would block the page's own inline scripts, so the nonce is read from the page itself.
 */
export const sandboxPageHeaders: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET') {
    next();
    return;
  }
  const send = res.send.bind(res) as Response['send'];
  res.send = ((body?: unknown) => {
    if (typeof body === 'string' && /^text\/html/.test(String(res.getHeader('content-type') ?? ''))) {
      const nonce = APOLLO_NONCE.exec(body)?.[1];
      // No nonce means Apollo changed how it renders: the data policy stays and the page shows
      // its offline notice rather than running scripts nobody reviewed.
      if (nonce) res.setHeader('Content-Security-Policy', sandboxPagePolicy(nonce));
    }
    return send(body);
  }) as Response['send'];
  next();
};
