/**
 * P7's latency targets at sandbox scale: the DA change feed's 200-row page, land-supply lots
 * nearby and lot vector tiles at zoom 14, 15 and 16, each sent one at a time (one connection)
 * through the whole facade over loopback, on whatever database the environment names (the
 * embedded PGlite in LANDGRAPH_DATA_DIR by default, loading the sandbox if it is not there).
 *
 *   node --import tsx bench/p7-sandbox.ts [--requests 200]
 *
 * Sandbox scale only: a few hundred DAs and some 200 lots. The issue's feed target is stated with
 * 1,000,000 DAs in the table; this does not build that table, so it says nothing about it.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { startRuntime } from '../app/runtime.ts';
import { loadConfig } from '../core/config.ts';
import { listen } from '../core/http-listen.ts';
import { setLogLevel } from '../core/logger.ts';
import { createApp } from '../rest-facade/app.ts';

const WARM_UP = 20;

type Row = { name: string; target: string; n: number; p50: number; p95: number; max: number; note: string };

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function tileOf(lng: number, lat: number, z: number): string {
  const x = Math.floor(((lng + 180) / 360) * 2 ** z);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
  return `${z}/${x}/${y}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { requests: { type: 'string', default: '200' } } });
  const requests = Number(values.requests);
  if (!Number.isInteger(requests) || requests < 10) throw new Error('--requests must be a whole number of 10 or more');
  setLogLevel('warn');
  const config = loadConfig();
  const runtime = await startRuntime(config);
  const server = await listen(createApp(runtime), 0, '127.0.0.1');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const db = runtime.db;
    // a test key reads the sandbox; no rate limit gets in the way of the measurement
    const { secret } = await runtime.keys.create({
      name: `p7-bench-${Date.now()}`,
      kind: 'test',
      scopes: ['development-applications.feed.read', 'land-supply.read'],
      rateLimitPerMinute: 1_000_000,
    });
    const headers = { Authorization: `Bearer ${secret}` };
    const get = async (path: string) => {
      const started = performance.now();
      const response = await fetch(`${url}${path}`, { headers });
      const body = Buffer.from(await response.arrayBuffer());
      const ms = performance.now() - started;
      if (response.status !== 200)
        throw new Error(`${path}: ${response.status} ${body.toString('utf8').slice(0, 300)}`);
      return { ms, body };
    };
    const rows: Row[] = [];
    const run = async (name: string, target: string, paths: string[], note: (last: Buffer) => string) => {
      let last = Buffer.alloc(0);
      for (let i = 0; i < WARM_UP; i++) await get(paths[i % paths.length]!);
      const times: number[] = [];
      for (let i = 0; i < requests; i++) {
        const answer = await get(paths[i % paths.length]!);
        times.push(answer.ms);
        last = answer.body;
      }
      times.sort((a, b) => a - b);
      rows.push({
        name,
        target,
        n: requests,
        p50: pct(times, 50),
        p95: pct(times, 95),
        max: times.at(-1)!,
        note: note(last),
      });
    };

    // the feed: the sandbox's whole VIC and NSW windows, 200 rows a page, every page in turn
    const das = (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM development.application WHERE dataset = 'sandbox'`)
    )[0]!.n;
    const windows = await db.query<{ bbox: string }>(
      `SELECT concat_ws(',', ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e)) AS bbox
       FROM (SELECT state, ST_Extent(geom)::geometry AS e FROM development.application WHERE dataset = 'sandbox'
             GROUP BY state) s ORDER BY state`,
    );
    const feedPaths: string[] = [];
    for (const { bbox } of windows) {
      let cursor: string | null = null;
      for (let page = 0; page < 50; page++) {
        const path = `/v1/development-applications/feed?bbox=${bbox}&limit=200${cursor ? `&cursor=${cursor}` : ''}`;
        feedPaths.push(path);
        const body = JSON.parse((await get(path)).body.toString('utf8')) as { has_more: boolean; next_cursor: string };
        if (!body.has_more) break;
        cursor = encodeURIComponent(body.next_cursor);
      }
    }
    const fullPages = feedPaths.length;
    await run('GET /v1/development-applications/feed (limit=200)', '< 30 ms with 1M DAs', feedPaths, (last) => {
      const body = JSON.parse(last.toString('utf8')) as { count: number };
      return `${das} DAs in the sandbox; ${fullPages} pages over ${windows.length} state windows; last page ${body.count} rows`;
    });

    const lots = await db.query<{ lat: number; lng: number }>(
      `SELECT ST_Y(geom) AS lat, ST_X(geom) AS lng FROM supply.lot WHERE dataset = 'sandbox' ORDER BY lot_id`,
    );
    await run(
      'GET /v1/land-supply/lots/nearby (radius_km=1)',
      '< 10 ms',
      lots.map((l) => `/v1/land-supply/lots/nearby?lat=${l.lat}&lng=${l.lng}&radius_km=1`),
      (last) =>
        `${lots.length} sandbox lots, each point in turn; last answer ${(JSON.parse(last.toString('utf8')) as { count: number }).count} lots`,
    );
    for (const z of [14, 15, 16]) {
      const tiles = [...new Set(lots.map((l) => tileOf(l.lng, l.lat, z)))];
      await run(
        `GET /api/land-supply/lots/tiles/${z}/x/y`,
        '< 20 ms',
        tiles.map((t) => `/api/land-supply/lots/tiles/${t}`),
        (last) => `${tiles.length} distinct tiles holding lots; last tile ${last.length} bytes`,
      );
    }

    process.stdout.write(
      `P7 at sandbox scale on ${db.kind} (${requests} requests each, one at a time, after ${WARM_UP} warm-up; loopback, whole facade)\n\n`,
    );
    process.stdout.write('| route | target | p50 ms | p95 ms | max ms | what was asked |\n|---|---|---|---|---|---|\n');
    for (const r of rows) {
      process.stdout.write(
        `| ${r.name} | ${r.target} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.max.toFixed(1)} | ${r.note} |\n`,
      );
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await runtime.close();
  }
}

await main();
