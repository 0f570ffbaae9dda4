import { beforeAll, describe, expect, it } from 'vitest';
import type { BBox } from '../core/geo.ts';
import type { FeedFilter, FeedRow } from '../subgraphs/development/sql.ts';
import { FEED_PAGE, FEED_WINDOW_WALK } from '../subgraphs/development/sql.ts';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

/**
 * FEED_PAGE's window statement reads a page in two parts (the window's rows among the next
 * `walk` rows of the feed, then, when those hold too few, the window's rows after them by the
 * spatial index). The sandbox holds too few applications to reach the second part with the
 * production walk of 50,000, so the statement is run here with walks of a few rows as well: every
 * page of every walk must be exactly the rows a plain ORDER BY over the window gives.
 */
describe('the DA feed window statement', () => {
  let t: TestRuntime;
  const LIMIT = 40;

  /** Every page of a window, each from the previous page's last row, as the feed's cursor does. */
  async function pageThrough(filter: Omit<FeedFilter, 'after'>, walk: number): Promise<string[][]> {
    const pages: string[][] = [];
    let after: FeedFilter['after'] = null;
    for (;;) {
      const rows: FeedRow[] = await t.runtime.db.sql<FeedRow>(FEED_PAGE('sandbox', { ...filter, after }, LIMIT, walk));
      expect(rows.length).toBeLessThanOrEqual(LIMIT + 1);
      const page = rows.slice(0, LIMIT);
      pages.push(page.map((r) => r.feed_id));
      const last = page.at(-1);
      if (rows.length <= LIMIT || !last) return pages;
      after = { at: last.received_at, id: last.feed_id };
    }
  }

  async function expected(bbox: BBox, since: string | null): Promise<string[]> {
    const rows = await t.runtime.db.query<{ feed_id: string }>(
      `SELECT id::text AS feed_id FROM development.application
       WHERE dataset = 'sandbox' AND geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)
         AND ($5::timestamptz IS NULL OR received_at >= $5::timestamptz)
       ORDER BY received_at, id`,
      [bbox.west, bbox.south, bbox.east, bbox.north, since],
    );
    return rows.map((r) => r.feed_id);
  }

  let windows: Array<{ name: string; bbox: BBox }>;
  let since: string;

  beforeAll(async () => {
    t = await testRuntime();
    const extents = await t.runtime.db.query<{
      state: string;
      west: number;
      south: number;
      east: number;
      north: number;
    }>(
      `SELECT state, ST_XMin(e) AS west, ST_YMin(e) AS south, ST_XMax(e) AS east, ST_YMax(e) AS north
       FROM (SELECT state, ST_Extent(geom)::geometry AS e FROM development.application WHERE dataset = 'sandbox'
             GROUP BY state) s ORDER BY state`,
    );
    const vic = extents.find((e) => e.state === 'VIC')!;
    const [mid] = await t.runtime.db.query<{ at: string }>(
      `SELECT to_char(percentile_disc(0.5) WITHIN GROUP (ORDER BY received_at) AT TIME ZONE 'UTC',
         'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM development.application WHERE dataset = 'sandbox'`,
    );
    since = mid!.at;
    windows = [
      // a state's applications: about a third of the sandbox's
      { name: 'a state', bbox: vic },
      // a corner of it: a window holding few
      {
        name: 'a corner',
        bbox: { west: vic.west, south: vic.south, east: vic.west + (vic.east - vic.west) / 5, north: vic.north },
      },
      { name: 'the sea', bbox: { west: 150, south: -40, east: 151, north: -39 } },
    ];
  });

  it('gives every page of a window exactly as a plain ORDER BY does, whatever the walk, with and without updated_since', async () => {
    let rest = 0;
    for (const { name, bbox } of windows) {
      for (const from of [null, since]) {
        const want = await expected(bbox, from);
        if (name !== 'the sea') expect(want.length, name).toBeGreaterThan(LIMIT);
        for (const walk of [1, 7, 60, FEED_WINDOW_WALK]) {
          const pages = await pageThrough({ lgaCode: null, bbox, since: from }, walk);
          expect(pages.flat(), `${name}, since ${from}, walk ${walk}`).toEqual(want);
          // full pages until the last: no page cut short by the walk
          expect(pages.slice(0, -1).every((p) => p.length === LIMIT)).toBe(true);
          if (walk < want.length) rest += 1;
        }
      }
    }
    // the second part (after the walk) was needed in some of these runs
    expect(rest).toBeGreaterThan(0);
  });

  it('pages an LGA from its own index exactly as a plain ORDER BY does', async () => {
    const [lga] = await t.runtime.db.query<{ lga_code: string }>(
      `SELECT lga_code FROM development.application WHERE dataset = 'sandbox' AND lga_code IS NOT NULL
       GROUP BY lga_code ORDER BY count(*) DESC LIMIT 1`,
    );
    const want = await t.runtime.db.query<{ feed_id: string }>(
      `SELECT id::text AS feed_id FROM development.application WHERE dataset = 'sandbox' AND lga_code = $1
       ORDER BY received_at, id`,
      [lga!.lga_code],
    );
    const pages = await pageThrough({ lgaCode: lga!.lga_code, bbox: null, since: null }, FEED_WINDOW_WALK);
    expect(pages.flat()).toEqual(want.map((r) => r.feed_id));
  });
});
