/**
 * A subgraph service's /health says whether it can serve: its process and its own database. The
 * distributed start and the gateway's /api/health read it, so a service whose database is gone
 * must not answer healthy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../bench/processes.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { generateInternalSecret } from '../core/internal-auth.ts';
import { listenSubgraph } from '../core/subgraph-server.ts';
import { SUBGRAPHS } from '../subgraphs/index.ts';
import { captureLog } from './support/log-capture.ts';
import type { TestRuntime } from './support/runtime.ts';
import { testConfig, testRuntime } from './support/runtime.ts';

describe('a subgraph service answering /health', () => {
  let t: TestRuntime;
  const services: Array<Awaited<ReturnType<typeof listenSubgraph>>> = [];

  beforeAll(async () => {
    t = await testRuntime();
  });

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
  });

  async function serve(db: Database) {
    const subgraph = SUBGRAPHS.roads({ db, catalog: t.runtime.catalog });
    const service = await listenSubgraph(subgraph, await freePort(), {
      host: '127.0.0.1',
      secret: generateInternalSecret(),
      db,
    });
    services.push(service);
    return service.url.replace(/\/graphql$/, '/health');
  }

  it('is healthy while its database answers', async () => {
    const response = await fetch(await serve(t.runtime.db));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'healthy', subgraph: 'roads', database: 'healthy' });
  });

  it('is unhealthy (503) once its database is gone, without saying why to the unauthenticated caller', async () => {
    const own = await openDatabase(testConfig());
    const url = await serve(own);
    expect((await fetch(url)).status).toBe(200);
    await own.close();
    const log = captureLog();
    try {
      const response = await fetch(url);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'unhealthy', subgraph: 'roads', database: 'unhealthy' });
      expect(log.lines.some((line) => /roads: health check found the database unavailable/.test(line.message))).toBe(
        true,
      );
    } finally {
      log.restore();
    }
  });
});
