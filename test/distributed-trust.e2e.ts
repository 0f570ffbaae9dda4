import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { Server } from 'node:net';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DistributedServer } from '../cli/distributed.ts';
import { startDistributed } from '../cli/distributed.ts';
import type { Database } from '../core/db.ts';
import { openDatabase } from '../core/db.ts';
import { MAX_CLOCK_SKEW_MS, signRequest } from '../core/internal-auth.ts';
import { sandboxSamples } from '../prisma/sandbox/samples.ts';
import { SUBGRAPH_NAMES, subgraphPort } from '../subgraphs/index.ts';
import { createTestKey, testConfig } from './support/runtime.ts';

// Ports of their own, so this file never meets another distributed run (facade.e2e.ts: 4611).
const BASE_PORT = 4711;
const FAILING_BASE_PORT = 4731;
const KILLED_BASE_PORT = 4751;
const ROLLUP_EVERY_MS = 300;
const BIN = fileURLToPath(new URL('../bin/landgraph.js', import.meta.url));

const SDL_QUERY = JSON.stringify({ query: '{ _service { sdl } }' });

type Answer = { status: number; json(): Promise<unknown> };

/**
 * A POST straight at a subgraph port, as an attacker on the host would send it, on a connection
 * of its own (no pooled socket from the start's readiness polls).
 */
function postToSubgraph(url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, json: () => Promise.resolve(JSON.parse(text) as unknown) });
        });
      },
    );
    sent.once('error', reject);
    sent.end(body);
  });
}

describe('subgraphs trust only the gateway', () => {
  let running: DistributedServer;
  let secret: string;
  let terrainUrl: string;
  let key: string;
  let point: { lat: number; lng: number; state: string };

  beforeAll(async () => {
    running = await startDistributed(
      testConfig({
        PORT: '0',
        LANDGRAPH_SUBGRAPH_BASE_PORT: String(BASE_PORT),
        LANDGRAPH_SUBGRAPH_TIMEOUT_MS: '10000',
      }),
      // the land-supply rollup schedule, checked often enough to watch it here
      { landSupplyRollupEveryMs: ROLLUP_EVERY_MS },
    );
    secret = running.runtime.config.internalSecret!;
    terrainUrl = running.runtime.subgraphUrls!.terrain;
    key = await createTestKey(running.runtime);
    const sample = (await sandboxSamples(running.runtime.db)).find((s) => s.parcel_pfi && s.state === 'VIC')!;
    point = { lat: sample.lat, lng: sample.lng, state: sample.state };
  });

  afterAll(async () => {
    running.subgraphs.terrain.kill('SIGCONT');
    await running?.stop();
  });

  it('makes a secret per run and binds the subgraphs to loopback by default', () => {
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(terrainUrl).toBe(`http://127.0.0.1:${subgraphPort('terrain', BASE_PORT)}/graphql`);
  });

  it('refuses a forged `x-landgraph-scopes: *` sent straight at a subgraph port with 401', async () => {
    const response = await postToSubgraph(terrainUrl, SDL_QUERY, {
      'x-landgraph-scopes': '*',
      'x-landgraph-dataset': 'live',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'The request is not signed.',
          extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
        },
      ],
    });
  });

  it('answers a request signed with the run secret', async () => {
    const headers = { 'x-landgraph-scopes': '*', 'x-landgraph-dataset': 'sandbox', 'x-request-id': 'trust-1' };
    const signature = signRequest(secret, {
      method: 'POST',
      path: '/graphql',
      body: SDL_QUERY,
      header: (name) => headers[name as keyof typeof headers],
    });
    const response = await postToSubgraph(terrainUrl, SDL_QUERY, { ...headers, ...signature });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { _service: { sdl: string } } };
    expect(body.data._service.sdl).toContain('type TerrainLayer');
  });

  it('refuses a stale signature and a body changed after signing', async () => {
    const headers = { 'x-landgraph-scopes': '*', 'x-landgraph-dataset': 'sandbox', 'x-request-id': 'trust-2' };
    const header = (name: string) => headers[name as keyof typeof headers];
    const stale = signRequest(
      secret,
      { method: 'POST', path: '/graphql', body: SDL_QUERY, header },
      Date.now() - MAX_CLOCK_SKEW_MS - 60_000,
    );
    const staleResponse = await postToSubgraph(terrainUrl, SDL_QUERY, { ...headers, ...stale });
    expect(staleResponse.status).toBe(401);
    expect(await staleResponse.json()).toMatchObject({ errors: [{ message: 'The request signature has expired.' }] });

    const fresh = signRequest(secret, { method: 'POST', path: '/graphql', body: SDL_QUERY, header });
    const tampered = JSON.stringify({ query: '{ __typename }' });
    const tamperedResponse = await postToSubgraph(terrainUrl, tampered, { ...headers, ...fresh });
    expect(tamperedResponse.status).toBe(401);
    expect(await tamperedResponse.json()).toMatchObject({
      errors: [{ message: 'The request signature does not match.' }],
    });
  });

  it('answers /api/health with the database unhealthy, rather than hanging, while the database does not answer', async () => {
    const { db, config } = running.runtime;
    // Every connection held in an open transaction: PGlite runs one at a time, a pool runs its max.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: db.kind === 'pglite' ? 1 : config.databasePoolMax }, () =>
      db.transaction(async (query) => {
        await query('SELECT 1');
        await gate;
      }),
    );
    try {
      const response = await request(running.url).get('/api/health');
      expect(response.status).toBe(503);
      expect(response.body.status).toBe('unhealthy');
      expect(response.body.checks.database).toMatchObject({
        status: 'unhealthy',
        error: 'the database took longer than 2000 ms',
      });
      expect(response.body.checks.graph.status).toBe('healthy');
    } finally {
      release();
      await Promise.all(holders);
    }
    const recovered = await request(running.url).get('/api/health');
    expect(recovered.body.checks.database.status).toBe('healthy');
  });

  it('answers every layer of the property graph while all subgraphs are up', async () => {
    const response = await request(running.url)
      .get('/v1/property/graph')
      .query(point)
      .set('Authorization', `Bearer ${key}`);
    expect(response.status).toBe(200);
    expect(response.body.layers.terrain.status).toBe('ok');
    expect(response.body.layers.cadastre.status).toBe('ok');
  });

  it('counts suburb amenities inside the SAL boundary the demographics process sends through the gateway, and answers the P8 property fields', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const [suburb] = await running.runtime.db.query<{ name: string; code: string }>(
      `SELECT l.locality_name AS name, b.code FROM address.locality l
       JOIN census.boundary b ON b.dataset = l.dataset AND b.geography = 'SAL' AND b.state = l.state
         AND b.name_key = upper(l.locality_name)
       WHERE l.dataset = 'sandbox' AND l.state = 'VIC' ORDER BY l.locality_name LIMIT 1`,
    );
    const amenities = await request(running.url)
      .get('/api/locality/amenities/suburb')
      .query({ state: 'VIC', suburb: suburb!.name })
      .set(auth);
    expect(amenities.status).toBe(200);
    expect(amenities.body).toMatchObject({ extent_method: 'sal-boundary', sal: { code: suburb!.code } });
    const graph = await request(running.url)
      .post('/graphql')
      .set(auth)
      .send({
        query: `{ propertyAt(lat: ${point.lat}, lng: ${point.lng}, state: "VIC") {
          sales { status } walking_catchment(minutes: 5) { status approximate budget_m } } }`,
      });
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data.propertyAt.walking_catchment).toMatchObject({ status: 'ok', budget_m: 400 });
    expect(['ok', 'no_data']).toContain(graph.body.data.propertyAt.sales.status);
  });

  it('answers the development applications of a parcel and the change feed through the development process', async () => {
    const [parcel] = await running.runtime.db.query<{ parcel_pfi: string; lga_code: string }>(
      `SELECT parcel_pfi, lga_code FROM development.application WHERE dataset = 'sandbox' AND state = 'VIC'
       ORDER BY parcel_pfi LIMIT 1`,
    );
    const auth = { Authorization: `Bearer ${key}` };
    const graph = await request(running.url)
      .get('/v1/property/graph')
      .query({ pfi: parcel!.parcel_pfi, state: 'VIC' })
      .set(auth);
    expect(graph.status).toBe(200);
    expect(graph.body.layers.development_applications.status).toBe('ok');
    const feed = await request(running.url)
      .get('/v1/development-applications/feed')
      .query({ lga_code: parcel!.lga_code, limit: '5' })
      .set(auth);
    expect(feed.status).toBe(200);
    expect(feed.body).toMatchObject({ count: 5, has_more: true });
    const next = await request(running.url)
      .get('/v1/development-applications/feed')
      .query({ lga_code: parcel!.lga_code, limit: '5', cursor: feed.body.next_cursor as string })
      .set(auth);
    const refs = (body: { data: Array<{ council_reference: string }> }) => body.data.map((d) => d.council_reference);
    expect(refs(next.body).filter((r) => refs(feed.body).includes(r))).toEqual([]);
  });

  it("counts a suburb's supply pipeline from what the development and supply processes send through the gateway", async () => {
    const [suburb] = await running.runtime.db.query<{ name: string; pending: number; approved: number; lots: number }>(
      `SELECT s.name,
         (SELECT count(*)::int FROM development.application d WHERE d.dataset = 'sandbox' AND d.state = 'QLD'
           AND upper(d.suburb) = s.name AND d.status IN ('lodged', 'under_assessment')) AS pending,
         (SELECT count(*)::int FROM development.application d WHERE d.dataset = 'sandbox' AND d.state = 'QLD'
           AND upper(d.suburb) = s.name AND d.status = 'approved') AS approved,
         (SELECT count(*)::int FROM supply.lot l WHERE l.dataset = 'sandbox' AND l.state = 'QLD'
           AND upper(l.suburb) = s.name AND l.sales_status = 'available') AS lots
       FROM (SELECT DISTINCT upper(suburb) AS name FROM supply.lot WHERE dataset = 'sandbox' AND state = 'QLD'
         AND sales_status = 'available') s ORDER BY s.name LIMIT 1`,
    );
    expect(suburb!.lots).toBeGreaterThan(0);
    const trends = await request(running.url)
      .get(`/api/suburb-trends/QLD/${encodeURIComponent(suburb!.name)}`)
      .set({ Authorization: `Bearer ${key}` });
    expect(trends.status).toBe(200);
    expect(trends.body.pipeline).toMatchObject({
      status: 'ok',
      das_pending: suburb!.pending,
      das_approved: suburb!.approved,
      lots_available: suburb!.lots,
    });
  });

  it('answers SPEAR by parcel and in the property graph through the development process', async () => {
    const [row] = await running.runtime.db.query<{ pfi: string }>(
      `SELECT parcel_pfis[1] AS pfi FROM development.spear_application WHERE dataset = 'sandbox'
       ORDER BY spear_reference LIMIT 1`,
    );
    const auth = { Authorization: `Bearer ${key}` };
    const parcel = await request(running.url).get('/api/spear/parcel').query({ pfi: row!.pfi, state: 'VIC' }).set(auth);
    expect(parcel.status).toBe(200);
    expect(parcel.body.status).toBe('ok');
    expect(parcel.body.count).toBeGreaterThan(0);
    const graph = await request(running.url).get('/v1/property/graph').query({ pfi: row!.pfi, state: 'VIC' }).set(auth);
    expect(graph.status).toBe(200);
    expect(graph.body.layers.spear_applications.status).toBe('ok');
  });

  it('answers land supply nearby and a lot tile through the supply process', async () => {
    const [lot] = await running.runtime.db.query<{ lat: number; lng: number; estate_id: string }>(
      `SELECT ST_Y(geom) AS lat, ST_X(geom) AS lng, estate_id FROM supply.lot
       WHERE dataset = 'sandbox' AND state = 'VIC' AND boundary IS NOT NULL ORDER BY lot_id LIMIT 1`,
    );
    const auth = { Authorization: `Bearer ${key}` };
    const nearby = await request(running.url)
      .get('/v1/land-supply/estates/nearby')
      .query({ lat: String(lot!.lat), lng: String(lot!.lng), radius_km: '5' })
      .set(auth);
    expect(nearby.status).toBe(200);
    expect(nearby.body.data[0].estate_id).toBe(lot!.estate_id);
    const z = 16;
    const x = Math.floor(((lot!.lng + 180) / 360) * 2 ** z);
    const r = (lot!.lat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
    const tile = await request(running.url).get(`/api/land-supply/lots/tiles/${z}/${x}/${y}`).set(auth);
    expect(tile.status).toBe(200);
    expect(tile.headers['content-type']).toMatch(/^application\/vnd\.mapbox-vector-tile/);
    expect(Number(tile.headers['content-length'])).toBeGreaterThan(0);
  });

  it('rolls up a changed land-supply week in the supply process only, not in the gateway', async () => {
    const db = running.runtime.db;
    const rolledAt = async () =>
      (
        await db.query<{ at: Date }>(
          `SELECT max(rolled_at) AS at FROM supply.weekly_rollup
           WHERE dataset = 'sandbox' AND week = (SELECT max(week) FROM supply.lot_snapshot WHERE dataset = 'sandbox')`,
        )
      )[0]!.at;
    const [lot] = await db.query<{ lot_id: string; updated_at: Date }>(
      `SELECT lot_id, updated_at FROM supply.lot WHERE dataset = 'sandbox' ORDER BY lot_id LIMIT 1`,
    );
    const supply = running.subgraphs.supply;
    // the supply process stopped: a lot changes, and nothing else (the gateway) rolls the week up
    supply.kill('SIGSTOP');
    let changedAt: Date;
    try {
      [{ changed_at: changedAt }] = (await db.query<{ changed_at: Date }>(
        `UPDATE supply.lot SET updated_at = clock_timestamp() WHERE dataset = 'sandbox' AND lot_id = $1
         RETURNING updated_at AS changed_at`,
        [lot!.lot_id],
      )) as [{ changed_at: Date }];
      await new Promise((resolve) => setTimeout(resolve, ROLLUP_EVERY_MS * 6));
      expect((await rolledAt()).getTime()).toBeLessThan(changedAt.getTime());
    } finally {
      supply.kill('SIGCONT');
    }
    try {
      // running again, the supply process finds the week stale and rolls it up, once
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && (await rolledAt()).getTime() <= changedAt.getTime()) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const first = await rolledAt();
      expect(first.getTime()).toBeGreaterThan(changedAt.getTime());
      await new Promise((resolve) => setTimeout(resolve, ROLLUP_EVERY_MS * 4));
      expect(await rolledAt()).toEqual(first);
    } finally {
      await db.query(`UPDATE supply.lot SET updated_at = $2 WHERE dataset = 'sandbox' AND lot_id = $1`, [
        lot!.lot_id,
        lot!.updated_at,
      ]);
    }
  });

  it('marks only the terrain layer error while the terrain process hangs past the timeout', async () => {
    running.subgraphs.terrain.kill('SIGSTOP');
    try {
      const response = await request(running.url)
        .get('/v1/property/graph')
        .query(point)
        .set('Authorization', `Bearer ${key}`);
      expect(response.status).toBe(200);
      expect(response.body.layers.terrain).toEqual({
        status: 'error',
        source: null,
        attribution: null,
        license: null,
        freshness: null,
        message: 'The terrain service did not answer.',
        data: null,
      });
      expect(response.body.layers.cadastre.status).toBe('ok');
      expect(response.body.layers.planning.status).toBe('ok');
      expect(response.body.property.parcel_pfi).not.toBeNull();
    } finally {
      running.subgraphs.terrain.kill('SIGCONT');
    }
  });

  it('marks only the terrain layer error once the terrain process is stopped', async () => {
    const terrain = running.subgraphs.terrain;
    await new Promise<void>((resolve) => {
      terrain.once('exit', () => resolve());
      terrain.kill('SIGTERM');
    });
    const response = await request(running.url)
      .get('/v1/property/graph')
      .query(point)
      .set('Authorization', `Bearer ${key}`);
    expect(response.status).toBe(200);
    expect(response.body.layers.terrain.status).toBe('error');
    expect(response.body.layers.terrain.message).toBe('The terrain service did not answer.');
    for (const layer of ['cadastre', 'planning', 'provisions', 'envelope', 'climate_zone'])
      expect(response.body.layers[layer].status, layer).not.toBe('error');
    expect(response.body.layers.cadastre.data).not.toBeNull();
  });

  it('marks the roads layer and the products that stand on it error once the roads process is stopped', async () => {
    const roads = running.subgraphs.roads;
    await new Promise<void>((resolve) => {
      roads.once('exit', () => resolve());
      roads.kill('SIGTERM');
    });
    const response = await request(running.url)
      .get('/v1/property/graph')
      .query(point)
      .set('Authorization', `Bearer ${key}`);
    expect(response.status).toBe(200);
    expect(response.body.layers.roads).toMatchObject({ status: 'error', data: null });
    // no lot is classified as fronting no road because the roads did not answer
    for (const layer of ['provisions', 'envelope']) expect(response.body.layers[layer].status, layer).toBe('error');
    for (const layer of ['cadastre', 'planning', 'climate_zone'])
      expect(response.body.layers[layer].status, layer).not.toBe('error');
    // the envelope alone is a failing source behind the route: 502, retryable
    const envelope = await request(running.url).get('/api/envelope').query(point).set('Authorization', `Bearer ${key}`);
    expect(envelope.status).toBe(502);
    expect(envelope.body).toMatchObject({ success: false, retryable: true });
  });
});

/**
 * True while a process with this pid runs. An exited child whose parent is gone may linger as a
 * zombie until something reaps it; it holds nothing, so it counts as gone.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/\)\s+Z\s/.test(stat);
}

describe('a distributed start that fails', () => {
  let squatter: Server;

  beforeAll(async () => {
    // Something else already holds the terrain subgraph's port.
    squatter = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) =>
      squatter.listen(subgraphPort('terrain', FAILING_BASE_PORT), '127.0.0.1', resolve),
    );
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => squatter.close(() => resolve()));
  });

  it('stops every subgraph it spawned and exits non-zero', async () => {
    const config = testConfig();
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'serve', '--distributed'],
        {
          env: {
            ...process.env,
            DATABASE_URL: config.databaseUrl ?? '',
            LANDGRAPH_DATA_DIR: config.dataDir,
            LANDGRAPH_LOG_LEVEL: 'info',
            PORT: '0',
            LANDGRAPH_SUBGRAPH_BASE_PORT: String(FAILING_BASE_PORT),
          },
          // A start that hangs fails the test here rather than holding the suite.
          timeout: 120_000,
          killSignal: 'SIGKILL',
        },
        (error, _stdout, stderr) => resolve({ code: error ? ((error.code as number | undefined) ?? null) : 0, stderr }),
      );
    });
    expect(code).toBe(1);
    expect(stderr).toContain('EADDRINUSE');
    expect(stderr).toContain('landgraph serve failed');
    const pids = spawnedPids(stderr);
    expect(pids).toHaveLength(SUBGRAPH_NAMES.length);
    expect(pids.filter(alive)).toEqual([]);
  });
});

/** Subgraph pids from the parent's "spawned subgraph" log lines. */
function spawnedPids(log: string): number[] {
  return [...log.matchAll(/"message":"spawned subgraph (\w+)".*?"pid":(\d+)/g)].map((m) => Number(m[2]));
}

describe('a distributed parent that dies', () => {
  let db: Database;

  beforeAll(async () => {
    // This process holds the database, so killing the parent below never kills its owner.
    db = await openDatabase(testConfig());
  });

  afterAll(async () => {
    await db.close();
  });

  it('takes its subgraph processes with it, even when killed outright', async () => {
    const config = testConfig();
    const parent = spawn(process.execPath, [BIN, 'serve', '--distributed'], {
      env: {
        ...process.env,
        DATABASE_URL: config.databaseUrl ?? '',
        LANDGRAPH_DATA_DIR: config.dataDir,
        LANDGRAPH_LOG_LEVEL: 'info',
        PORT: '0',
        LANDGRAPH_SUBGRAPH_BASE_PORT: String(KILLED_BASE_PORT),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    const exited = new Promise<void>((resolve) => parent.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      parent.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString('utf8');
        if (log.includes('Landgraph gateway listening')) resolve();
      });
      parent.once('exit', (code) => reject(new Error(`the parent exited with ${code} before it was up:\n${log}`)));
    });
    const pids = spawnedPids(log);
    expect(pids).toHaveLength(SUBGRAPH_NAMES.length);
    expect(pids.filter(alive)).toEqual(pids);
    // the job worker too, even when the parent dies while the worker is still starting
    const worker = /"message":"spawned job worker".*?"pid":(\d+)/.exec(log);
    expect(worker, log).not.toBeNull();
    pids.push(Number(worker![1]));
    parent.kill('SIGKILL');
    await exited;
    // Each child notices its parent's IPC channel close and stops; wait for the last of them.
    while (pids.some(alive)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pids.filter(alive)).toEqual([]);
  });
});
