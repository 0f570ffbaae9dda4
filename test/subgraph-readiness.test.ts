import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForSubgraphServices } from '../cli/subgraph-readiness.ts';
import { captureLog } from './support/log-capture.ts';
import { until } from './support/worker-process.ts';

const servers: Server[] = [];

/** A stand-in service that answers /health as a subgraph service does, on `port` (0: any free one). */
async function healthService(port = 0): Promise<number> {
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'healthy' }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const graphqlUrl = (port: number) => `http://127.0.0.1:${port}/graphql`;

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

describe('a distributed worker waiting for its subgraph services', () => {
  it('goes on once every service answers /health', async () => {
    const urls = { address: graphqlUrl(await healthService()), cadastre: graphqlUrl(await healthService()) };
    await expect(waitForSubgraphServices(urls, new AbortController().signal)).resolves.toBe(true);
  });

  it('keeps waiting while one service is down, names it, and goes on once it comes up', async () => {
    const late = await closedPort();
    const urls = { address: graphqlUrl(await healthService()), cadastre: graphqlUrl(late) };
    const log = captureLog('info');
    try {
      const waited = waitForSubgraphServices(urls, new AbortController().signal);
      // the first round found the late service down, and said which one it waits for
      await until(
        'the worker to report what it waits for',
        () => Promise.resolve(log.lines),
        (lines) => lines.some((l) => l.message === 'waiting for the subgraph services before claiming jobs'),
        { timeoutMs: 10_000, everyMs: 20 },
      );
      expect(log.lines.find((l) => l.message.startsWith('waiting for'))?.waiting).toEqual(['cadastre']);
      await healthService(late);
      await expect(waited).resolves.toBe(true);
      expect(log.lines.at(-1)?.message).toBe('the subgraph services answer; claiming jobs');
    } finally {
      log.restore();
    }
  });

  it('gives up without claiming when the worker is stopped while a service is down', async () => {
    const stop = new AbortController();
    stop.abort();
    const urls = { address: graphqlUrl(await healthService()), cadastre: graphqlUrl(await closedPort()) };
    await expect(waitForSubgraphServices(urls, stop.signal)).resolves.toBe(false);
  });
});
