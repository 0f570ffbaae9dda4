import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchPoint } from '../bench/database.ts';
import { checkLayerRoutes, describeLayerChecks } from '../bench/layers-phase.ts';
import type { LayerQueries } from '../bench/layers-queries.ts';
import { LAYER_ROUTES, layerQueries } from '../bench/layers-queries.ts';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

/**
 * The layers phase of `npm run bench` measures what it sends: these are its own requests, built
 * for sandbox parcels and sent through its own check to the real facade, so a route renamed, a
 * parameter dropped or a graph operation refused shows here rather than as a fast 4xx in a run.
 */
describe('bench layers phase: its requests against the facade', () => {
  let t: TestRuntime;
  let server: Server;
  let url: string;
  let queries: LayerQueries;

  beforeAll(async () => {
    t = await testRuntime();
    server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // parcels the sandbox covers with every layer source, as the bench's hashed sample mostly does
    const points = await t.runtime.db.query<BenchPoint>(
      `SELECT state, parcel_pfi AS pfi, ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng
       FROM cadastre.parcel WHERE dataset = 'sandbox' AND state IN ('VIC', 'NSW')
       ORDER BY md5(state || ':' || parcel_pfi) LIMIT 6`,
    );
    queries = layerQueries(points.map((p) => ({ ...p, lat: Number(p.lat), lng: Number(p.lng) })));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gets a 200 for every request of every route, the GraphQL one sent as a POST', async () => {
    const checks = await checkLayerRoutes(url, { authorization: `Bearer ${t.key}` }, queries);
    for (const route of LAYER_ROUTES) {
      expect(checks[route].statuses.get(200), describeLayerChecks(checks).join('\n')).toBe(queries.points.length);
    }
    expect(queries.routes.graphql.every((r) => typeof r !== 'string')).toBe(true);
  });

  it('asks /graphql for the same layers the REST graph route returns, with the same statuses', async () => {
    const checks = await checkLayerRoutes(url, { authorization: `Bearer ${t.key}` }, queries);
    const rest = new Map(checks['property-graph'].layersNotOk);
    const graph = new Map([...checks.graphql.layersNotOk].filter(([layer]) => !layer.startsWith('address ')));
    expect(graph).toEqual(rest);
    expect(checks.graphql.layersNotOk.has('graphql errors')).toBe(false);
  });

  it('stops a run on a route that never answers 200, naming it', async () => {
    await expect(checkLayerRoutes(url, {}, queries)).rejects.toThrow(/no 200: soil, hazards/);
  });
});
