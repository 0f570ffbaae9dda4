/**
 * The requests of the P7 phase, built from the bench database: the DA feed by LGA and by window
 * (first pages, `updated_since`, deep pages from a cursor placed far into the feed), lots nearby
 * and lot tiles at zoom 14, 15 and 16 around the lots.
 *
 * A deep page's cursor is the feed's own: the first page's `next_cursor` (base64url JSON of the
 * last row's received_at, id and the query's digest) with the place moved to the row 90% of the
 * way through the query's rows, found in SQL. Paging there through the API would take thousands of
 * requests per query; the check in p7-phase.ts proves the page the API then answers is the one SQL
 * finds after that row.
 */
import type { Database } from '../core/db.ts';
import { withDatabase } from './database.ts';

export const FEED_PAGE_ROWS = 200;
export const FEED = '/v1/development-applications/feed';

export type P7Row =
  | 'lga-first'
  | 'lga-since'
  | 'lga-deep'
  | 'box2-first'
  | 'box-small-first'
  | 'box2-since'
  | 'box2-deep'
  | 'box2-sparse'
  | 'lots-nearby'
  | 'tile-14'
  | 'tile-15'
  | 'tile-16';

export const P7_ROW: Record<P7Row, { label: string; targetMs: number }> = {
  'lga-first': { label: 'feed by lga_code, first page', targetMs: 30 },
  'lga-since': { label: 'feed by lga_code, updated_since (last 90 days), first page', targetMs: 30 },
  'lga-deep': { label: 'feed by lga_code, deep page (cursor 90% in)', targetMs: 30 },
  'box2-first': { label: 'feed by 2° bbox (city), first page', targetMs: 30 },
  'box-small-first': { label: 'feed by 0.05–1° bbox, first page', targetMs: 30 },
  'box2-since': { label: 'feed by 2° bbox, updated_since (last 90 days), first page', targetMs: 30 },
  'box2-deep': { label: 'feed by 2° bbox, deep page (cursor 90% in)', targetMs: 30 },
  'box2-sparse': { label: 'feed by 2° bbox, sparse (under 5,000 DAs), first page', targetMs: 30 },
  'lots-nearby': { label: 'lots nearby (radius_km=1)', targetMs: 10 },
  'tile-14': { label: 'lot tile z14', targetMs: 20 },
  'tile-15': { label: 'lot tile z15', targetMs: 20 },
  'tile-16': { label: 'lot tile z16', targetMs: 20 },
};
export const P7_ROWS = Object.keys(P7_ROW) as P7Row[];

/** A feed query: its filter as the route takes it, and the SQL condition selecting the same rows. */
export type FeedQuery = { params: string; where: string; args: unknown[] };

export type P7Queries = {
  since: string;
  feed: Record<Exclude<P7Row, 'lots-nearby' | 'tile-14' | 'tile-15' | 'tile-16'>, FeedQuery[]>;
  lotPoints: Array<{ lat: number; lng: number }>;
  tiles: Record<14 | 15 | 16, string[]>;
};

// the city centres the windows are laid around (lng, lat)
const CITIES: ReadonlyArray<[number, number]> = [
  [144.96, -37.81],
  [151.0, -33.85],
  [153.02, -27.47],
  [153.38, -28.0],
  [144.36, -38.15],
  [144.28, -36.76],
  [151.75, -32.93],
  [153.05, -26.65],
  [151.95, -27.56],
  [146.8, -19.28],
];
const SMALL_SPANS = [1, 0.5, 0.2, 0.1, 0.05];
/** A sparse window holds fewer DAs than this. */
export const SPARSE_MOST = 5_000;

const round = (n: number) => Math.round(n * 1e4) / 1e4;

function box(lng: number, lat: number, span: number): FeedQuery {
  const [w, s, e, n] = [lng - span / 2, lat - span / 2, lng + span / 2, lat + span / 2].map(round) as [
    number,
    number,
    number,
    number,
  ];
  return {
    params: `bbox=${w},${s},${e},${n}`,
    where: `geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)`,
    args: [w, s, e, n],
  };
}

const withSince = (q: FeedQuery, since: string): FeedQuery => ({
  params: `${q.params}&updated_since=${since}`,
  where: `${q.where} AND received_at >= $${q.args.length + 1}::timestamptz`,
  args: [...q.args, since],
});

/** How many sandbox applications a query selects. */
export async function feedCount(db: Database, q: FeedQuery): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM development.application WHERE dataset = 'sandbox' AND ${q.where}`,
    q.args,
  );
  return row?.n ?? 0;
}

export function p7Queries(url: string, lotSample: number): Promise<P7Queries> {
  return withDatabase(url, async (db) => {
    const [last] = await db.query<{ since: string }>(
      `SELECT (max(received_at) - interval '90 days')::date::text AS since FROM development.application
       WHERE dataset = 'sandbox'`,
    );
    const since = last?.since;
    if (!since) throw new Error('The P7 bench database holds no development applications.');
    const lgas = await db.query<{ lga_code: string }>(
      `SELECT lga_code FROM development.application WHERE dataset = 'sandbox' AND lga_code IS NOT NULL
       GROUP BY lga_code HAVING count(*) > ${FEED_PAGE_ROWS * 2} ORDER BY lga_code`,
    );
    const byLga = lgas.map((l): FeedQuery => ({
      params: `lga_code=${l.lga_code}`,
      where: 'lga_code = $1',
      args: [l.lga_code],
    }));
    const big = CITIES.map(([lng, lat]) => box(lng, lat, 2));
    const small = CITIES.flatMap(([lng, lat]) => SMALL_SPANS.map((span) => box(lng, lat, span)));
    // 2° windows whose centre is 1° to 1.5° inland or along the coast from a city: mostly country, kept when they hold
    // some DAs but fewer than SPARSE_MOST (the worst case of an index walked in feed order)
    const sparse = CITIES.flatMap(([lng, lat]) =>
      [1, 1.25, 1.5].flatMap((d) => [box(lng - d, lat, 2), box(lng, lat - d, 2), box(lng + d, lat + d, 2)]),
    );
    const sparseKept: FeedQuery[] = [];
    for (const q of sparse) {
      const n = await feedCount(db, q);
      if (n > 0 && n < SPARSE_MOST) sparseKept.push(q);
    }
    const lots = await db.query<{ lat: number; lng: number }>(
      `SELECT ST_Y(geom) AS lat, ST_X(geom) AS lng FROM supply.lot WHERE dataset = 'sandbox'
       ORDER BY md5(lot_id) LIMIT $1`,
      [lotSample],
    );
    const lotPoints = lots.map((l) => ({ lat: Number(l.lat), lng: Number(l.lng) }));
    const tilesAt = (z: number) => [...new Set(lotPoints.map((p) => tileOf(p.lng, p.lat, z)))];
    return {
      since,
      feed: {
        'lga-first': byLga,
        'lga-since': byLga.map((q) => withSince(q, since)),
        'lga-deep': byLga,
        'box2-first': big,
        'box-small-first': small,
        'box2-since': big.map((q) => withSince(q, since)),
        'box2-deep': big,
        'box2-sparse': sparseKept,
      },
      lotPoints,
      tiles: { 14: tilesAt(14), 15: tilesAt(15), 16: tilesAt(16) },
    };
  });
}

export function tileOf(lng: number, lat: number, z: number): string {
  const x = Math.floor(((lng + 180) / 360) * 2 ** z);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
  return `${z}/${x}/${y}`;
}

/** The place in the feed's order of the row `fraction` of the way through a query's rows. */
export async function feedPlace(
  db: Database,
  q: FeedQuery,
  fraction: number,
): Promise<{ at: string; id: string; offset: number } | undefined> {
  const n = await feedCount(db, q);
  const offset = Math.floor(n * fraction);
  if (offset === 0) return undefined;
  const [row] = await db.query<{ at: string; id: string }>(
    `SELECT to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id::text AS id
     FROM development.application WHERE dataset = 'sandbox' AND ${q.where}
     ORDER BY received_at, id OFFSET ${offset - 1} LIMIT 1`,
    q.args,
  );
  return row ? { ...row, offset } : undefined;
}

/** Source, authority and council reference (a record's identity) of the `limit` rows after `offset` in the feed's order. */
export async function feedSlice(db: Database, q: FeedQuery, offset: number, limit: number): Promise<string[]> {
  const rows = await db.query<{ ref: string }>(
    `SELECT source || '|' || authority || '|' || council_reference AS ref FROM development.application WHERE dataset = 'sandbox' AND ${q.where}
     ORDER BY received_at, id OFFSET ${offset} LIMIT ${limit}`,
    q.args,
  );
  return rows.map((r) => r.ref);
}

/** A cursor of the same query moved to another place: the feed's own cursor form (see the file comment). */
export function movedCursor(cursor: string, place: { at: string; id: string }): string {
  const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (body.v !== 1 || typeof body.q !== 'string') throw new Error('The feed issued a cursor of an unknown form.');
  return Buffer.from(JSON.stringify({ ...body, at: place.at, id: place.id })).toString('base64url');
}
