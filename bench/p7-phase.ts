/**
 * The P7 phase (`npm run bench -- --only p7`): the DA feed over 1,000,000 applications, lots
 * nearby and lot tiles through the facade, each row checked before it is measured, then measured
 * at each connection count. The feed's checks hold it to its keyset semantics at scale: a first
 * page, the page its next_cursor leads to and a deep page must each be exactly the rows SQL finds
 * at that place in (received_at, id) order.
 */
import type { Database } from '../core/db.ts';
import { withDatabase } from './database.ts';
import type { LoadOptions, Measurement, Target } from './load.ts';
import { measure, warmUp } from './load.ts';
import type { FeedQuery, P7Queries, P7Row } from './p7-queries.ts';
import { FEED, FEED_PAGE_ROWS, feedCount, feedPlace, feedSlice, movedCursor, P7_ROW, P7_ROWS } from './p7-queries.ts';

/** How far into a query's rows a deep page starts. */
export const DEEP_FRACTION = 0.9;
/** Feed queries per row whose pages are compared with SQL row by row. */
const COMPARED_PER_ROW = 4;

export type P7RowChecks = {
  row: P7Row;
  paths: number;
  /** Rows the row's queries select (feed), or answers' features (lots, tiles): least, median, most. */
  selected: [number, number, number];
  /** Answers holding a full page (feed), answers with at least one lot (nearby), non-empty tiles. */
  full: number;
  compared: number;
};

export type P7Requests = { paths: Record<P7Row, string[]>; checks: P7RowChecks[] };

type FeedBody = {
  count: number;
  data: Array<{ source: string; authority: string; council_reference: string }>;
  next_cursor: string | null;
  has_more: boolean;
};

async function get(url: string, headers: Record<string, string>, path: string): Promise<Response> {
  const response = await fetch(`${url}${path}`, { headers, signal: AbortSignal.timeout(60_000) });
  if (response.status !== 200) {
    throw new Error(`${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  return response;
}

const refs = (body: FeedBody) => body.data.map((d) => `${d.source}|${d.authority}|${d.council_reference}`);

function same(what: string, got: string[], want: string[]): void {
  if (got.length !== want.length || got.some((ref, i) => ref !== want[i])) {
    const at = got.findIndex((ref, i) => ref !== want[i]);
    throw new Error(
      `${what}: the API's page (${got.length} rows) is not SQL's (${want.length} rows); first difference at row ${at}: ${got[at]} against ${want[at]}`,
    );
  }
}

const spread = (ns: number[]): [number, number, number] => {
  const sorted = [...ns].sort((a, b) => a - b);
  return [sorted[0] ?? 0, sorted[Math.floor(sorted.length / 2)] ?? 0, sorted.at(-1) ?? 0];
};

/** One feed row's paths, each asked once; the first few compared with SQL (and their second pages). */
async function feedRow(
  db: Database,
  url: string,
  headers: Record<string, string>,
  row: P7Row,
  queries: readonly FeedQuery[],
): Promise<{ paths: string[]; checks: P7RowChecks }> {
  const deep = row.endsWith('-deep');
  const paths: string[] = [];
  const counts: number[] = [];
  let full = 0;
  let compared = 0;
  for (const [i, q] of queries.entries()) {
    const firstPath = `${FEED}?${q.params}&limit=${FEED_PAGE_ROWS}`;
    const first = (await (await get(url, headers, firstPath)).json()) as FeedBody;
    const compare = i < COMPARED_PER_ROW;
    let path = firstPath;
    let body = first;
    let offset = 0;
    if (deep) {
      const place = await feedPlace(db, q, DEEP_FRACTION);
      if (!place || !first.next_cursor) continue;
      path = `${firstPath}&cursor=${movedCursor(first.next_cursor, place)}`;
      body = (await (await get(url, headers, path)).json()) as FeedBody;
      offset = place.offset;
    }
    if (compare) {
      same(`${path}`, refs(body), await feedSlice(db, q, offset, FEED_PAGE_ROWS));
      if (body.has_more && body.next_cursor) {
        const next = `${firstPath}&cursor=${body.next_cursor}`;
        const second = (await (await get(url, headers, next)).json()) as FeedBody;
        same(`${next} (the page after)`, refs(second), await feedSlice(db, q, offset + FEED_PAGE_ROWS, FEED_PAGE_ROWS));
      }
      compared += 1;
    }
    if (body.count === FEED_PAGE_ROWS) full += 1;
    counts.push(await feedCount(db, q));
    paths.push(path);
  }
  return { paths, checks: { row, paths: paths.length, selected: spread(counts), full, compared } };
}

/** Every path of every row, each asked once and checked; the feed's pages compared with SQL. */
export function p7Requests(
  databaseUrl: string,
  url: string,
  headers: Record<string, string>,
  queries: P7Queries,
): Promise<P7Requests> {
  return withDatabase(databaseUrl, async (db) => {
    const paths = {} as Record<P7Row, string[]>;
    const checks: P7RowChecks[] = [];
    for (const [row, feedQueries] of Object.entries(queries.feed) as Array<[P7Row, FeedQuery[]]>) {
      const done = await feedRow(db, url, headers, row, feedQueries);
      paths[row] = done.paths;
      checks.push(done.checks);
    }
    const nearby = queries.lotPoints.map((p) => `/v1/land-supply/lots/nearby?lat=${p.lat}&lng=${p.lng}&radius_km=1`);
    const lots: number[] = [];
    for (const path of nearby) lots.push(((await (await get(url, headers, path)).json()) as { count: number }).count);
    paths['lots-nearby'] = nearby;
    checks.push({
      row: 'lots-nearby',
      paths: nearby.length,
      selected: spread(lots),
      full: lots.filter((n) => n > 0).length,
      compared: 0,
    });
    for (const z of [14, 15, 16] as const) {
      const tilePaths = queries.tiles[z].map((t) => `/api/land-supply/lots/tiles/${t}`);
      const bytes: number[] = [];
      for (const path of tilePaths) bytes.push((await (await get(url, headers, path)).arrayBuffer()).byteLength);
      paths[`tile-${z}`] = tilePaths;
      checks.push({
        row: `tile-${z}`,
        paths: tilePaths.length,
        selected: spread(bytes),
        full: bytes.filter((n) => n > 0).length,
        compared: 0,
      });
    }
    for (const check of checks) {
      if (check.paths === 0) throw new Error(`${P7_ROW[check.row].label}: no request to measure`);
    }
    return { paths, checks };
  });
}

export function describeP7Checks(checks: readonly P7RowChecks[]): string[] {
  return checks.map((c) => {
    const [least, median, most] = c.selected.map((n) => n.toLocaleString('en-AU'));
    const label = P7_ROW[c.row].label;
    if (c.row === 'lots-nearby')
      return `${label}: ${c.paths} points, lots within 1 km ${least} / ${median} / ${most} (least / median / most), ${c.full} with lots`;
    if (c.row.startsWith('tile-'))
      return `${label}: ${c.paths} distinct tiles holding lots, ${least} / ${median} / ${most} bytes, ${c.full} non-empty`;
    return `${label}: ${c.paths} queries selecting ${least} / ${median} / ${most} DAs, ${c.full} full pages of ${FEED_PAGE_ROWS}; ${c.compared} compared row by row with SQL (with the page after)`;
  });
}

export type P7Result = { row: P7Row; connections: number; m: Measurement; p50s: number[] };

/** Each row at each connection count, `rounds` times; the round with the lowest p50 is kept, every p50 listed. */
export async function measureP7(
  target: Target,
  requests: P7Requests,
  options: { load: LoadOptions; connections: readonly number[]; rounds: number; initialWarmupS: number },
  report: (row: P7Row, connections: number, m: Measurement) => void,
): Promise<P7Result[]> {
  const mixed = P7_ROWS.flatMap((row) => requests.paths[row].slice(0, 50));
  process.stdout.write(`warming the facade up on the P7 routes: ${options.initialWarmupS} s\n`);
  await warmUp(target, mixed, Math.max(...options.connections), options.initialWarmupS);
  const out: P7Result[] = [];
  for (const row of P7_ROWS) {
    for (const connections of options.connections) {
      let kept: P7Result | undefined;
      for (let round = 0; round < options.rounds; round += 1) {
        process.stdout.write(`${P7_ROW[row].label} at ${connections}, round ${round + 1}/${options.rounds}\n`);
        const m = await measure(target, requests.paths[row], { ...options.load, connections });
        report(row, connections, m);
        const p50s = [...(kept?.p50s ?? []), m.p50];
        kept = !kept || m.p50 < kept.m.p50 ? { row, connections, m, p50s } : { ...kept, p50s };
      }
      if (kept) out.push(kept);
    }
  }
  return out;
}
