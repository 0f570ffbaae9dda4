import type { Server, Socket } from 'node:net';
import { connect, createServer } from 'node:net';

/**
 * A loopback TCP relay in front of a real server (the test database), that a test can cut
 * and restore: while cut, open connections are reset and new ones are refused at once, which
 * is how a database that crashed or fell off the network looks to the service.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private cut = false;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  /** Listens on a free loopback port and relays to `target`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP port assigned');
    const proxy = new TcpProxy(target, address.port);
    proxy.serve(server);
    return proxy;
  }

  /** The target URL with its host and port swapped for the relay's. */
  static rewrite(url: string, port: number): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(port);
    return parsed.toString();
  }

  private serve(server: Server): void {
    this.server = server;
    server.on('connection', (client) => {
      if (this.cut) {
        client.resetAndDestroy();
        return;
      }
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  /** Resets every relayed connection and refuses new ones until restored. */
  down(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
  }

  up(): void {
    this.cut = false;
  }

  async close(): Promise<void> {
    this.down();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
