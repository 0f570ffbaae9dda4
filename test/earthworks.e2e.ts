import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_SCOPE } from '../core/context.ts';
import type { ParcelGeometry } from '../core/polygons.ts';
import { interiorPoint } from '../core/polygons.ts';
import type { Fixtures } from './support/fixtures.ts';
import { loadFixtures } from './support/fixtures.ts';
import type { TestRuntime } from './support/runtime.ts';
import { createTestKey, testConfig, testRuntime } from './support/runtime.ts';

const BIN = fileURLToPath(new URL('../bin/landgraph.js', import.meta.url));
/** Ports of this file's subgraph services, clear of the other distributed e2e files' (4611, 4711-4770). */
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
  let parent: ChildProcessWithoutNullStreams;
  let exited: Promise<void>;
  let log = '';
  let url = '';
  let key = '';

  beforeAll(async () => {
    t = await testRuntime();
    f = await loadFixtures(t.runtime.db);
    key = await createTestKey(t.runtime, { scopes: ['siting.earthworks'] });
    const config = testConfig();
    parent = spawn(process.execPath, [BIN, 'serve', '--distributed'], {
      env: {
        ...process.env,
        DATABASE_URL: config.databaseUrl ?? '',
        LANDGRAPH_DATA_DIR: config.dataDir,
        LANDGRAPH_LOG_LEVEL: 'info',
        // the user sets no signing key: serve --distributed makes one for the run, and its worker must get it
        LANDGRAPH_INTERNAL_SECRET: '',
        LANDGRAPH_MODE: 'embedded',
        PORT: '0',
        LANDGRAPH_SUBGRAPH_BASE_PORT: String(BASE_PORT),
        LANDGRAPH_JOB_POLL_MS: '200',
      },
    });
    exited = new Promise<void>((resolve) => parent.once('exit', () => resolve()));
    const collect = (chunk: Buffer) => {
      log += chunk.toString('utf8');
    };
    parent.stdout.on('data', collect);
    parent.stderr.on('data', collect);
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        const match = /Landgraph gateway listening on (http:\/\/[^\s"]+)/.exec(log);
        if (match?.[1]) {
          url = match[1];
          resolve();
        }
      };
      parent.stdout.on('data', check);
      parent.stderr.on('data', check);
      parent.once('exit', (code) =>
        reject(new Error(`serve --distributed exited with ${code} before it was up:\n${log}`)),
      );
    });
  });

  afterAll(async () => {
    if (parent && parent.exitCode === null && parent.signalCode === null) {
      parent.kill('SIGTERM');
      await exited;
    }
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
    expect(submitted.status, `${JSON.stringify(queued)}\n${log.slice(-4000)}`).toBe(202);

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
    expect(body, log.slice(-3000)).toMatchObject({ status: 'succeeded', attempts: 1, error: null });
    const result = body.result as Record<string, number | string>;
    expect(result).toMatchObject({ state: 'VIC', parcel_pfi: f.vicParcel.parcel_pfi, pad_level_source: 'balanced' });
    // balanced: the cut equals the fill, and the level is the one the submit step found
    expect(Math.abs(Number(result.cut_m3) - Number(result.fill_m3))).toBeLessThan(0.05);
    expect(result.pad_level_m).toBeCloseTo(queued.checks.balanced_pad_level_m, 2);

    // the only worker in this run is the spawned process, and it read the graph in distributed mode
    const spawned = /"message":"spawned job worker".*?"pid":(\d+)/.exec(log);
    expect(spawned, log.slice(-3000)).not.toBeNull();
    expect(log).toMatch(new RegExp(`landgraph worker [^\\s]+:${spawned![1]} running \\(\\w+, distributed graph\\)`));
  });
});
