import type { Response } from 'express';

/**
 * Writes a JSON answer straight to the response. Express's `res.json` goes through `res.send`
 * (charset negotiation, freshness checks, a Buffer copy of the body) and cost about 35 µs of
 * CPU per answer here (docs/benchmarks.md); none of that applies to an API body. Node itself
 * leaves the body out of HEAD, 204 and 304 answers.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const json = JSON.stringify(body) ?? 'null';
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
