import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { KEEP_ALIVE_MS, closeServer, listen } from '../core/http-listen.ts';

/** One GET over `agent`, answered in full. */
function get(port: number, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

describe('the HTTP servers (public facade, gateway and subgraphs)', () => {
  it('keep an idle connection longer than a load balancer does (60 s), yet stop at once with one open', async () => {
    const app = express();
    app.get('/', (_req, res) => {
      res.send('ok');
    });
    const server = await listen(app, 0, '127.0.0.1');
    // Node's own 5 s would close pooled connections under a 60 s balancer: the 502 race
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
    const agent = new Agent({ keepAlive: true });
    const { port } = server.address() as AddressInfo;
    expect(await get(port, agent)).toBe(200);
    expect(await get(port, agent)).toBe(200);
    // the pooled connection is idle now: stopping must not wait out the 65 s keep-alive (past this
    // test's time limit)
    await closeServer(server);
    expect(server.listening).toBe(false);
    agent.destroy();
  });

  it('cuts a connection still busy after the grace', async () => {
    const app = express();
    app.get('/', () => {
      // never answers, as a call the other side gave up on
    });
    const server = await listen(app, 0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true });
    const { port } = server.address() as AddressInfo;
    const hanging = get(port, agent).catch((error: Error) => error.message);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await closeServer(server, 200);
    expect(await hanging).toMatch(/socket hang up|ECONNRESET/);
    agent.destroy();
  });
});
