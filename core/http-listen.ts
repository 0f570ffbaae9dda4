import type { Server } from 'node:http';
import type express from 'express';

/**
 * How long an idle keep-alive connection is kept open: longer than the 60 s idle timeout of the
 * common load balancers and than the gateway's pooled connections, so the far side always closes
 * first. A server that closes first can close a connection just as the other side reuses it,
 * which that side reports as a 502 (Node's default is 5 s).
 */
export const KEEP_ALIVE_MS = 65_000;

/** How long a request under way when a server stops gets to finish before its connection is cut. */
export const SHUTDOWN_GRACE_MS = 3_000;

/**
 * Express 5 hands a bind failure (EADDRINUSE) to the listen callback as its argument, so a
 * callback that ignores it would report a server that never bound as listening.
 */
export function listen(app: express.Express, port: number, host: string): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(listening)));
    listening.keepAliveTimeout = KEEP_ALIVE_MS;
  });
}

/**
 * Stops a server without waiting out its keep-alive: idle connections are closed at once, and a
 * connection still busy after the grace is cut.
 */
export async function closeServer(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cutOff = setTimeout(() => server.closeAllConnections(), graceMs);
  cutOff.unref();
  await closed;
  clearTimeout(cutOff);
}
