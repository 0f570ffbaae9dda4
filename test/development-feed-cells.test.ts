import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaRecord } from '../cli/ingest/development-formats.ts';
import { upsertApplications } from '../cli/ingest/development.ts';
import type { BBox } from '../core/geo.ts';
import type { FeedFilter, FeedRow } from '../subgraphs/development/sql.ts';
import {
  FEED_CELL_LEVELS,
  FEED_CELLS_MOST,
  FEED_PAGE,
  FEED_WINDOW_WALK,
  feedCells,
} from '../subgraphs/development/sql.ts';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

/**
 * FEED_PAGE reads a window's page as a merge of the feeds of the grid cells covering it
 * (migration 0028). These tests hold it, row by row, to a plain ORDER BY over the window: on a
 * dataset of their own laid out to reach every path of the statement (a dense "city" straddling
 * cell edges at every level, scattered country, points exactly on cell edges, points without a
 * location, many rows sharing one received_at), for windows from a few metres to the feed's 2°
 * limit, first pages, every page after (by the cursor, as the feed does), a cursor placed deep in
 * the window, updated_since, and walks short enough that edge cells fall back to the GiST index.
 */
const DATASET = 'test-feed-cells';

/** A point at the exact edge of cells of every level (144.75 and -37.75 are multiples of 1/64). */
const EDGE_X = 144.75;
const EDGE_Y = -37.75;

describe('the DA feed window statement over grid cells', () => {
  let t: TestRuntime;

  /** Every page of a window, each from the previous page's last row, as the feed's cursor does. */
  async function pageThrough(
    filter: Omit<FeedFilter, 'after'>,
    limit: number,
    walk: number,
    from: FeedFilter['after'] = null,
  ): Promise<string[][]> {
    const pages: string[][] = [];
    let after = from;
    for (;;) {
      const rows: FeedRow[] = await t.runtime.db.sql<FeedRow>(FEED_PAGE(DATASET, { ...filter, after }, limit, walk));
      expect(rows.length).toBeLessThanOrEqual(limit + 1);
      const page = rows.slice(0, limit);
      pages.push(page.map((r) => r.feed_id));
      const last = page.at(-1);
      if (rows.length <= limit || !last) return pages;
      after = { at: last.received_at, id: last.feed_id };
    }
  }

  /** The oracle: the window's rows after `after` and since `since`, in the feed's order. */
  async function expected(
    bbox: BBox,
    since: string | null,
    after: FeedFilter['after'] = null,
  ): Promise<Array<{ feed_id: string; at: string }>> {
    return t.runtime.db.query<{ feed_id: string; at: string }>(
      `SELECT id::text AS feed_id, to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
       FROM development.application
       WHERE dataset = $1 AND geom && ST_MakeEnvelope($2, $3, $4, $5, 4326)
         AND ($6::timestamptz IS NULL OR received_at >= $6::timestamptz)
         AND ($7::timestamptz IS NULL OR (received_at, id) > ($7::timestamptz, $8::bigint))
       ORDER BY received_at, id`,
      [DATASET, bbox.west, bbox.south, bbox.east, bbox.north, since, after?.at ?? null, after?.id ?? null],
    );
  }

  const box = (west: number, south: number, east: number, north: number): BBox => ({ west, south, east, north });

  // the city: 3,000 rows around (144.76, -37.76), within 0.03° of it, half of them within 0.004°
  const WINDOWS: Array<{ name: string; bbox: BBox }> = [
    { name: 'a 2° window holding the city and the country', bbox: box(143.9, -38.7, 145.9, -36.7) },
    {
      name: 'a 2° window clipping a sliver of the city (edge cells mostly outside)',
      bbox: box(144.785, -38.5, 146.785, -36.5),
    },
    { name: 'a 0.5° window with its edges on cell edges', bbox: box(144.25, -38.25, EDGE_X, EDGE_Y) },
    { name: 'a 0.2° window across the city', bbox: box(144.66, -37.86, 144.86, -37.66) },
    { name: 'a 0.05° window crossing cell edges at every level', bbox: box(144.73, -37.77, 144.78, -37.72) },
    {
      name: 'a 0.01° window at the edge point',
      bbox: box(EDGE_X - 0.005, EDGE_Y - 0.005, EDGE_X + 0.005, EDGE_Y + 0.005),
    },
    { name: 'a window a few metres across', bbox: box(144.7601, -37.7601, 144.7605, -37.7597) },
    { name: 'a window of the country only', bbox: box(145.2, -38.9, 146.7, -37.9) },
    { name: 'the sea', bbox: box(150, -40, 151.5, -38.5) },
  ];

  let since: string;

  beforeAll(async () => {
    t = await testRuntime();
    await t.runtime.db.exec(`DELETE FROM development.application WHERE dataset = '${DATASET}'`);
    // deterministic spreads from hashes; received_at repeats every 997 rows so many rows share one
    // instant (the id breaks the tie)
    await t.runtime.db.exec(`
      INSERT INTO development.application (dataset, source, authority, council_reference, state, category, status,
        attribution, license, updated_at, received_at, geom)
      SELECT '${DATASET}', 'test', 'Test Council', 'T/' || g, 'VIC', 'dwelling', 'lodged', 'Test data', 'CC BY 4.0',
        timestamptz '2020-01-01 00:00:00+00' + (g % 997) * interval '1 hour',
        timestamptz '2020-01-01 00:00:00+00' + (g % 997) * interval '1 hour' + (g % 3) * interval '1 microsecond',
        CASE
          -- no location
          WHEN g % 50 = 0 THEN NULL
          -- exactly on cell edges of every level: the edge point, its lines, and whole degrees
          WHEN g % 50 = 1 THEN ST_SetSRID(ST_MakePoint(${EDGE_X}, ${EDGE_Y}), 4326)
          WHEN g % 50 = 2 THEN ST_SetSRID(ST_MakePoint(${EDGE_X}, ${EDGE_Y} + (g % 7 - 3) * 0.001), 4326)
          WHEN g % 50 = 3 THEN ST_SetSRID(ST_MakePoint(${EDGE_X} + (g % 7 - 3) * 0.001, ${EDGE_Y}), 4326)
          WHEN g % 50 = 4 THEN ST_SetSRID(ST_MakePoint(144 + g % 3, -38 + g % 2), 4326)
          -- the country: scattered over four degrees
          WHEN g % 5 = 0 THEN ST_SetSRID(ST_MakePoint(143 + 4 * h1, -39 + 3 * h2), 4326)
          -- the city's core and its spread
          WHEN g % 2 = 0 THEN ST_SetSRID(ST_MakePoint(144.76 + 0.008 * (h1 - 0.5), -37.76 + 0.008 * (h2 - 0.5)), 4326)
          ELSE ST_SetSRID(ST_MakePoint(144.76 + 0.06 * (h1 - 0.5), -37.76 + 0.06 * (h2 - 0.5)), 4326)
        END
      FROM (SELECT g, (abs(hashtext('x' || g)) % 1000000) / 1000000.0 AS h1,
              (abs(hashtext('y' || g)) % 1000000) / 1000000.0 AS h2
            FROM generate_series(1, 4000) g) s`);
    const [mid] = await t.runtime.db.query<{ at: string }>(
      `SELECT to_char(percentile_disc(0.6) WITHIN GROUP (ORDER BY received_at) AT TIME ZONE 'UTC',
         'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM development.application WHERE dataset = $1`,
      [DATASET],
    );
    since = mid!.at;
  });

  afterAll(async () => {
    await t.runtime.db.exec(`DELETE FROM development.application WHERE dataset = '${DATASET}'`);
  });

  it('fills the cells of every level from the point (generated columns), none without a point', async () => {
    const rows = await t.runtime.db.query<{ x: number; y: number; c1: number; c4: number; c16: number; c64: number }>(
      `SELECT ST_X(geom) AS x, ST_Y(geom) AS y, cell_1 AS c1, cell_4 AS c4, cell_16 AS c16, cell_64 AS c64
       FROM development.application WHERE dataset = $1 AND geom IS NOT NULL ORDER BY id LIMIT 400`,
      [DATASET],
    );
    expect(rows.length).toBe(400);
    for (const r of rows) {
      for (const [n, c] of [
        [1, r.c1],
        [4, r.c4],
        [16, r.c16],
        [64, r.c64],
      ] as const) {
        expect(c).toBe(Math.floor(r.x * n) * 16384 + Math.floor(r.y * n));
      }
    }
    const [none] = await t.runtime.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM development.application
       WHERE dataset = $1 AND geom IS NULL AND (cell_1 IS NOT NULL OR cell_64 IS NOT NULL)`,
      [DATASET],
    );
    expect(none!.n).toBe(0);
  });

  it('covers a window with at most the allowed cells of the finest level that fits, inside cells wholly inside', () => {
    for (const { bbox } of WINDOWS) {
      const { level, cells } = feedCells(bbox);
      expect(cells.length).toBeLessThanOrEqual(FEED_CELLS_MOST);
      // no finer level would have fitted
      const finer = FEED_CELL_LEVELS.filter((n) => n > level);
      for (const n of finer) {
        const across = Math.floor((bbox.east + 1e-4) * n) - Math.floor((bbox.west - 1e-4) * n) + 1;
        const up = Math.floor((bbox.north + 1e-4) * n) - Math.floor((bbox.south - 1e-4) * n) + 1;
        expect(across * up).toBeGreaterThan(FEED_CELLS_MOST);
      }
      for (const c of cells) {
        const x = Math.floor(c.cell / 16384 + 0.5);
        const y = c.cell - x * 16384;
        const inside = x / level >= bbox.west && (x + 1) / level <= bbox.east;
        expect(c.inside).toBe(inside && y / level >= bbox.south && (y + 1) / level <= bbox.north);
      }
    }
    // the feed's largest window, unaligned, still fits at 1°
    expect(feedCells(box(144.0001, -38.9999, 146.0001, -36.9999)).level).toBe(1);
    expect(feedCells(box(144.7601, -37.7601, 144.7605, -37.7597)).level).toBe(64);
  });

  it('gives every page of every window exactly as a plain ORDER BY does, whatever the walk, with and without updated_since', async () => {
    let shortWalks = 0;
    for (const { name, bbox } of WINDOWS) {
      for (const from of [null, since]) {
        const want = (await expected(bbox, from)).map((r) => r.feed_id);
        if (name === 'the sea') expect(want).toEqual([]);
        else if (name !== 'a window a few metres across') expect(want.length, name).toBeGreaterThan(40);
        // three to five pages per window whatever its size (at least 20 rows a page)
        const page = Math.max(20, Math.ceil(want.length / 5));
        for (const walk of [1, 7, 60, FEED_WINDOW_WALK]) {
          const pages = await pageThrough({ lgaCode: null, bbox, since: from }, page, walk);
          expect(pages.flat(), `${name}, since ${from}, walk ${walk}`).toEqual(want);
          // full pages until the last: no page cut short by a cell's walk
          expect(
            pages.slice(0, -1).every((p) => p.length === page),
            `${name}, walk ${walk}`,
          ).toBe(true);
          if (walk < want.length) shortWalks += 1;
        }
      }
    }
    expect(shortWalks).toBeGreaterThan(0);
    // each statement is planned afresh on the embedded database, where pages of 40 (some 600 statements)
    // took 74 s of the CI pass; three to five pages a window keep every cursor path
  }, 180_000);

  it('gives a deep page (a cursor 90% into the window) and the page after it as SQL does, pages of 200', async () => {
    for (const { name, bbox } of WINDOWS) {
      if (name === 'the sea') continue;
      for (const from of [null, since]) {
        const all = await expected(bbox, from);
        const at = all[Math.floor(all.length * 0.9)];
        if (!at) continue;
        const after = { at: at.at, id: at.feed_id };
        const want = (await expected(bbox, from, after)).map((r) => r.feed_id);
        for (const walk of [7, FEED_WINDOW_WALK]) {
          const pages = await pageThrough({ lgaCode: null, bbox, since: from }, 200, walk, after);
          expect(pages.flat(), `${name} deep, since ${from}, walk ${walk}`).toEqual(want);
        }
      }
    }
  });

  it('answers an empty page past the window’s last row, and a first page of 200 of the dense city', async () => {
    const bbox = WINDOWS[3]!.bbox;
    const all = await expected(bbox, null);
    const last = all.at(-1)!;
    const after = { at: last.at, id: last.feed_id };
    expect(
      await t.runtime.db.sql<FeedRow>(FEED_PAGE(DATASET, { lgaCode: null, bbox, since: null, after }, 200)),
    ).toEqual([]);
    const first = await t.runtime.db.sql<FeedRow>(
      FEED_PAGE(DATASET, { lgaCode: null, bbox, since: null, after: null }, 200),
    );
    expect(all.length).toBeGreaterThan(201);
    expect(first.map((r) => r.feed_id)).toEqual(all.slice(0, 201).map((r) => r.feed_id));
  });
  it('skips and repeats no window row across pages while rows change, arrive and move between cells', async () => {
    const LIVE = 'test-feed-cells-live';
    await t.runtime.db.query('DELETE FROM development.application WHERE dataset = $1', [LIVE]);
    // on both sides of a 1/64° edge (and of a 1/4° one) inside the window; n = 9 starts outside it
    const at = (n: number): [number, number] =>
      n === 9 ? [145.5, -37.5] : [EDGE_X + (n % 2 ? 0.001 : -0.001) * n, EDGE_Y];
    const record = (n: number, status: DaRecord['status'] = 'lodged', where = at(n)): DaRecord => ({
      seq: n,
      source: 'nsw-portal',
      authority: 'Cell Test Council',
      council_reference: `CT/${n}`,
      state: 'VIC',
      lga_code: null,
      lga_name: null,
      suburb: null,
      address: `${n} Cell Street (test)`,
      description: 'Alterations (test)',
      category: 'alterations',
      status,
      lodged_date: '2025-01-01',
      decided_date: status === 'approved' ? '2025-03-01' : null,
      estimated_cost: null,
      dwellings_proposed: null,
      source_url: null,
      attribution: 'Cell test credit',
      license: 'CC BY 4.0',
      updated_at: `2025-0${status === 'approved' ? 3 : 1}-01T00:00:00.000Z`,
      lng: where[0],
      lat: where[1],
    });
    const write = (records: DaRecord[]) =>
      t.runtime.db.transaction((query) => upsertApplications(query, LIVE, records));
    const bbox = box(EDGE_X - 0.02, EDGE_Y - 0.02, EDGE_X + 0.02, EDGE_Y + 0.02);
    await write([1, 2, 3, 4, 5, 6, 7, 9].map((n) => record(n)));

    const seen: Array<{ ref: string; status: string; at: string }> = [];
    let after: FeedFilter['after'] = null;
    const fetch = async () => {
      const rows = await t.runtime.db.sql<FeedRow>(FEED_PAGE(LIVE, { lgaCode: null, bbox, since: null, after }, 3, 2));
      const page = rows.slice(0, 3);
      seen.push(...page.map((r) => ({ ref: r.council_reference, status: r.status, at: r.received_at })));
      const last = page.at(-1);
      if (last) after = { at: last.received_at, id: last.feed_id };
      return rows.length > 3;
    };
    await fetch(); // CT/1..3
    // CT/2 (read) and CT/5 (not yet read) change; CT/8 arrives; CT/9 moves into the window (another cell)
    await write([
      record(2, 'approved'),
      record(5, 'approved'),
      record(8),
      record(9, 'lodged', [EDGE_X + 0.01, EDGE_Y + 0.01]),
    ]);
    await fetch();
    // CT/4 changes after it was read and moves across the cell edge
    await write([record(4, 'approved', [EDGE_X + 0.0005, EDGE_Y - 0.0005])]);
    while (await fetch());

    const refs = seen.map((r) => r.ref);
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) expect(refs, `CT/${n}`).toContain(`CT/${n}`);
    const last = new Map(seen.map((r) => [r.ref, r]));
    for (const n of [2, 4, 5]) expect(last.get(`CT/${n}`)!.status).toBe('approved');
    const counts = refs.reduce((m, r) => m.set(r, (m.get(r) ?? 0) + 1), new Map<string, number>());
    expect(
      [...counts]
        .filter(([, c]) => c > 1)
        .map(([r]) => r)
        .sort(),
    ).toEqual(['CT/2', 'CT/4']);
    const received = seen.map((r) => r.at);
    expect([...received].sort()).toEqual(received);
    await t.runtime.db.query('DELETE FROM development.application WHERE dataset = $1', [LIVE]);
  });
});
