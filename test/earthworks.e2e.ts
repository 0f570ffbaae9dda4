import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_SCOPE } from '../core/context.ts';
import type { ParcelGeometry } from '../core/polygons.ts';
import { interiorPoint } from '../core/polygons.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';
import type { ServedDistributed } from './support/serve-distributed.ts';
import { expectSpawnedDistributedWorker, serveDistributed } from './support/serve-distributed.ts';

/** Ports of this file's subgraph services, clear of the other distributed e2e files' (4611, 4711-4770, 4811). */
const BASE_PORT = 4791;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `landgraph serve --distributed` as a user starts it: the gateway, a process per subgraph and
 * the job worker it spawns. An earthworks job submitted through the REST facade must be run by
 * that worker, reading the terrain through the subgraph services (its graph in distributed mode).
 */
describe('earthworks through serve --distributed and its spawned worker', () => {
  let t: TestRuntime;
  let f: Fixtures;
  let served: ServedDistributed;
  let url = '';
  let key = '';

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    key = await createTestKey(t.runtime, { scopes: ['siting.earthworks'] });
    served = await serveDistributed(testConfig(), BASE_PORT);
    url = served.url;
  });

  afterAll(async () => {
    await served?.stop();
  });

  it('queues the job through the facade, and the spawned worker runs it over the subgraph services', async () => {
    const { data } = await t.runtime.graph.execute<{ property: { parcel_geometry: ParcelGeometry } }>(
      'query ($pfi: String!) { property: propertyByParcel(parcel_pfi: $pfi, state: "VIC") { parcel_geometry } }',
      { pfi: f.vicParcel.parcel_pfi },
      INTERNAL_SCOPE,
    );
    const p = interiorPoint(data!.property.parcel_geometry);
    const e = 0.00002;
    const footprint = {
      type: 'Polygon',
      coordinates: [
        [
          [p.lng - e, p.lat - e],
          [p.lng + e, p.lat - e],
          [p.lng + e, p.lat + e],
          [p.lng - e, p.lat + e],
          [p.lng - e, p.lat - e],
        ],
      ],
    };
    const submitted = await fetch(`${url}/v1/siting/earthworks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ state: 'VIC', pfi: f.vicParcel.parcel_pfi, footprint }),
    });
    const queued = (await submitted.json()) as { job_id: string; checks: { balanced_pad_level_m: number } };
    // the serving processes' log names the cause of anything but a 202
    expect(submitted.status, `${JSON.stringify(queued)}\n${served.log().slice(-4000)}`).toBe(202);

    let body: Record<string, unknown> = {};
    const end = Date.now() + 90_000;
    while (Date.now() < end) {
      const res = await fetch(`${url}/v1/siting/earthworks/${queued.job_id}`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      body = (await res.json()) as Record<string, unknown>;
      if (['succeeded', 'failed'].includes(body.status as string)) break;
      await sleep(250);
    }
    expect(body, served.log().slice(-3000)).toMatchObject({ status: 'succeeded', attempts: 1, error: null });
    const result = body.result as Record<string, number | string>;
    expect(result).toMatchObject({ state: 'VIC', parcel_pfi: f.vicParcel.parcel_pfi, pad_level_source: 'balanced' });
    // balanced: the cut equals the fill, and the level is the one the submit step found
    expect(Math.abs(Number(result.cut_m3) - Number(result.fill_m3))).toBeLessThan(0.05);
    expect(result.pad_level_m).toBeCloseTo(queued.checks.balanced_pad_level_m, 2);

    // the only worker in this run is the spawned process, and it read the graph in distributed mode
    expectSpawnedDistributedWorker(served.log());
  });
});
