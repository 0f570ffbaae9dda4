import type { Server } from 'node:http';
import type express from 'express';

/**
 * Express 5 hands a bind failure (EADDRINUSE) to the listen callback as its argument, so a
 * callback that ignores it would report a server that never bound as listening.
 */
export function listen(app: express.Express, port: number, host: string): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
}
