import { Prisma } from '../../generated/prisma/client.ts';
import type { BBox } from '../../core/geo.ts';

export type DevelopmentRow = {
  source: string;
  authority: string;
  council_reference: string;
  state: string;
  lga_code: string | null;
  lga_name: string | null;
  suburb: string | null;
  address: string | null;
  gnaf_pid: string | null;
  parcel_pfi: string | null;
  location: { lat: number; lng: number } | null;
  description: string | null;
  category: string;
  status: string;
  lodged_date: string | null;
  decided_date: string | null;
  estimated_cost: number | null;
  dwellings_proposed: number | null;
  source_url: string | null;
  attribution: string;
  license: string;
  updated_at: string;
  received_at: string;
  distance_m?: number | null;
};

/** A feed row: the application and its id, which with received_at (to the microsecond) places it in the feed. */
export type FeedRow = DevelopmentRow & { feed_id: string };

/** What one statement finds for one parcel: the state's newest receipt (null: no application of it) and the applications. */
export type Found = { i: number; freshness: string | null; features: DevelopmentRow[] };

// Instants to the microsecond in UTC, so a cursor names exactly the row it stopped at.
const instant = (column: Prisma.Sql) =>
  Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const COLUMNS = Prisma.sql`a.source, a.authority, a.council_reference, a.state, a.lga_code, a.lga_name, a.suburb,
  a.address, a.gnaf_pid, a.parcel_pfi,
  CASE WHEN a.geom IS NULL THEN NULL ELSE json_build_object('lat', ST_Y(a.geom), 'lng', ST_X(a.geom)) END AS location,
  a.description, a.category, a.status, a.lodged_date::text AS lodged_date, a.decided_date::text AS decided_date,
  a.estimated_cost, a.dwellings_proposed, a.source_url, a.attribution, a.license,
  ${instant(Prisma.sql`a.updated_at`)} AS updated_at, ${instant(Prisma.sql`a.received_at`)} AS received_at`;

/** The day the newest application of a state was received: the layer's freshness. */
const freshness = (dataset: string, state: Prisma.Sql) => Prisma.sql`
  (SELECT max(f.received_at)::date::text FROM development.application f WHERE f.dataset = ${dataset} AND f.state = ${state})`;

/** The applications of each parcel of a batch, newest lodged first: one statement for every property of a request. */
export const APPLICATIONS_OF_PARCELS = (dataset: string, states: string[], pfis: string[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, ${freshness(dataset, Prisma.sql`k.state`)} AS freshness,
    coalesce((SELECT json_agg(f) FROM (
      SELECT ${COLUMNS} FROM development.application a
      WHERE a.dataset = ${dataset} AND a.state = k.state AND a.parcel_pfi = k.pfi
      ORDER BY a.lodged_date DESC NULLS LAST, a.council_reference) f), '[]'::json) AS features
  FROM unnest(${states}::text[], ${pfis}::text[]) WITH ORDINALITY AS k(state, pfi, i)`;

/**
 * Applications within a radius of a point, nearest first, one row past the limit so an over-full
 * radius is refused rather than cut short. The box (`&&`) lets the GiST index narrow; the
 * geography distance is the exact test.
 */
export const APPLICATIONS_NEAR = (
  dataset: string,
  state: string,
  lng: number,
  lat: number,
  radiusM: number,
  box: BBox,
  limit: number,
) => Prisma.sql`
  SELECT 0 AS i, ${freshness(dataset, Prisma.sql`${state}`)} AS freshness,
    coalesce((SELECT json_agg(f) FROM (
      SELECT ${COLUMNS}, ST_Distance(a.geom::geography, p.pt::geography) AS distance_m
      FROM development.application a, (SELECT ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326) AS pt) p
      WHERE a.dataset = ${dataset} AND a.state = ${state}
        AND a.geom && ST_MakeEnvelope(${box.west}, ${box.south}, ${box.east}, ${box.north}, 4326)
        AND ST_DWithin(a.geom::geography, p.pt::geography, ${radiusM})
      ORDER BY distance_m, a.lodged_date DESC NULLS LAST, a.id
      LIMIT ${limit + 1}) f), '[]'::json) AS features`;

const lgaWhere = (dataset: string, lgaCode: string, state: string | null) =>
  Prisma.sql`a.dataset = ${dataset} AND a.lga_code = ${lgaCode}${state ? Prisma.sql` AND a.state = ${state}` : Prisma.empty}`;

/** One page of an LGA's applications, newest lodged first, with how many there are and the states they are in. */
export const APPLICATIONS_IN_LGA = (
  dataset: string,
  lgaCode: string,
  state: string | null,
  limit: number,
  offset: number,
) => Prisma.sql`
  SELECT (SELECT count(*)::int FROM development.application a WHERE ${lgaWhere(dataset, lgaCode, state)}) AS total,
    (SELECT coalesce(json_agg(DISTINCT a.state), '[]'::json) FROM development.application a
     WHERE ${lgaWhere(dataset, lgaCode, state)}) AS states,
    coalesce((SELECT json_agg(f) FROM (
      SELECT ${COLUMNS} FROM development.application a WHERE ${lgaWhere(dataset, lgaCode, state)}
      ORDER BY a.lodged_date DESC NULLS LAST, a.id DESC
      LIMIT ${limit} OFFSET ${offset}) f), '[]'::json) AS features`;

export type LgaPageRow = { total: number; states: string[]; features: DevelopmentRow[] };

export type StatisticsPlace = { lgaCode: string } | { suburb: string; state: string };

/**
 * Applications lodged per month over `months` months to the current one, of an LGA or a suburb:
 * every month listed (zero where none was lodged), counts by current status and by category,
 * and the median days from lodgement to decision of the decided ones (withdrawals are not
 * decisions).
 */
export const APPLICATION_STATISTICS = (dataset: string, place: StatisticsPlace, months: number) => {
  const where =
    'lgaCode' in place
      ? Prisma.sql`a.lga_code = ${place.lgaCode}`
      : Prisma.sql`a.state = ${place.state} AND upper(a.suburb) = upper(${place.suburb})`;
  return Prisma.sql`
  WITH bounds AS (
    SELECT (date_trunc('month', now()) - make_interval(months => ${months - 1}))::date AS first,
      date_trunc('month', now())::date AS last
  ), picked AS (
    SELECT a.state, a.lga_code, a.lga_name, a.suburb, a.status, a.category,
      to_char(a.lodged_date, 'YYYY-MM') AS month,
      CASE WHEN a.status IN ('approved', 'refused', 'determined') AND a.decided_date IS NOT NULL
        THEN (a.decided_date - a.lodged_date) END AS decision_days
    FROM development.application a, bounds b
    WHERE a.dataset = ${dataset} AND ${where} AND a.lodged_date >= b.first
  ), calendar AS (
    SELECT to_char(m, 'YYYY-MM') AS month
    FROM bounds b, generate_series(b.first, b.last, interval '1 month') AS m
  ), per_month AS (
    SELECT c.month, count(p.month)::int AS lodged,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY p.decision_days) AS median_decision_days
    FROM calendar c LEFT JOIN picked p ON p.month = c.month GROUP BY c.month
  ), by_status AS (
    SELECT month, json_agg(json_build_object('key', status, 'count', n) ORDER BY status) AS counts
    FROM (SELECT month, status, count(*)::int AS n FROM picked GROUP BY month, status) s GROUP BY month
  ), by_category AS (
    SELECT month, json_agg(json_build_object('key', category, 'count', n) ORDER BY category) AS counts
    FROM (SELECT month, category, count(*)::int AS n FROM picked GROUP BY month, category) s GROUP BY month
  )
  SELECT (SELECT to_char(first, 'YYYY-MM') FROM bounds) AS from_month,
    (SELECT to_char(last, 'YYYY-MM') FROM bounds) AS to_month,
    (SELECT count(*)::int FROM picked) AS total,
    (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY decision_days) FROM picked) AS median_decision_days,
    (SELECT coalesce(json_agg(DISTINCT state), '[]'::json) FROM picked) AS states,
    (SELECT json_build_object('lga_code', max(a.lga_code), 'lga_name', max(a.lga_name), 'suburb', max(a.suburb),
       'state', max(a.state), 'known', count(*) > 0)
     FROM development.application a WHERE a.dataset = ${dataset} AND ${where}) AS place,
    (SELECT json_agg(json_build_object('month', m.month, 'lodged', m.lodged,
       'median_decision_days', m.median_decision_days,
       'by_status', coalesce(s.counts, '[]'::json), 'by_category', coalesce(c.counts, '[]'::json)) ORDER BY m.month)
     FROM per_month m LEFT JOIN by_status s USING (month) LEFT JOIN by_category c USING (month)) AS months`;
};

export type StatisticsRow = {
  from_month: string;
  to_month: string;
  total: number;
  median_decision_days: number | null;
  states: string[];
  place: {
    lga_code: string | null;
    lga_name: string | null;
    suburb: string | null;
    state: string | null;
    known: boolean;
  };
  months: Array<{
    month: string;
    lodged: number;
    median_decision_days: number | null;
    by_status: Array<{ key: string; count: number }>;
    by_category: Array<{ key: string; count: number }>;
  }>;
};

export type FeedFilter = {
  lgaCode: string | null;
  bbox: BBox | null;
  /** ISO 8601 instant: changes received at or after it. */
  since: string | null;
  /** The last row of the page before: the feed resumes strictly after it. */
  after: { at: string; id: string } | null;
};

/** The grid levels of migration 0028: cells of 1/n degree, `cell_<n>` of each application (n a power of two). */
export const FEED_CELL_LEVELS = [64, 16, 4, 1] as const;
export type FeedCellLevel = (typeof FEED_CELL_LEVELS)[number];
/** A cell's number: x * CELL_ROW + y (migration 0028). */
const CELL_ROW = 16384;
/**
 * How many cells a window's page may merge: the finest level covering the window with at most
 * this many is used (any window of the feed's 2° limit fits at 1°). Finer cells leave less of the
 * window's edge to filter, more cells cost a walk of up to a page each.
 */
export const FEED_CELLS_MOST = 16;
/**
 * How far a cell on the window's edge is walked in feed order looking for the window's rows before
 * the GiST index is asked for the rest of them: a cell where the window holds fewer than 1 in 20
 * of the rows after the cursor (a sliver of a city's cell) is read by its part of the window.
 */
export const FEED_WINDOW_WALK = 4_000;
/**
 * Cells are chosen for the window widened by this (degrees): `&&` compares boxes rounded outwards
 * to single precision (up to 2^-16° at these longitudes), so it matches points a hair outside the
 * window, and the cells must hold those too.
 */
const CELL_MARGIN = 1e-4;

/**
 * One cell of a window's cover: its number, whether it lies wholly inside the window (its rows
 * need no geometry test), and the part of the window it holds, widened by the margin (where the
 * GiST index looks for an edge cell's rows).
 */
export type FeedCell = { cell: number; inside: boolean; west: number; south: number; east: number; north: number };

/** The cells of the finest level covering a window with at most `most` of them (the coarsest when none does). */
export function feedCells(b: BBox, most = FEED_CELLS_MOST): { level: FeedCellLevel; cells: FeedCell[] } {
  const span = (n: number) => {
    const x0 = Math.floor((b.west - CELL_MARGIN) * n);
    const x1 = Math.floor((b.east + CELL_MARGIN) * n);
    const y0 = Math.floor((b.south - CELL_MARGIN) * n);
    const y1 = Math.floor((b.north + CELL_MARGIN) * n);
    return { x0, x1, y0, y1, count: (x1 - x0 + 1) * (y1 - y0 + 1) };
  };
  const level = FEED_CELL_LEVELS.find((n) => span(n).count <= most) ?? FEED_CELL_LEVELS.at(-1)!;
  const { x0, x1, y0, y1 } = span(level);
  const cells: FeedCell[] = [];
  for (let x = x0; x <= x1; x += 1) {
    for (let y = y0; y <= y1; y += 1) {
      // exact: x / level and (x + 1) / level are the edges cell_<level> uses
      const [w, e, s, n] = [x / level, (x + 1) / level, y / level, (y + 1) / level];
      cells.push({
        cell: x * CELL_ROW + y,
        inside: w >= b.west && e <= b.east && s >= b.south && n <= b.north,
        west: Math.max(w, b.west) - CELL_MARGIN,
        south: Math.max(s, b.south) - CELL_MARGIN,
        east: Math.min(e, b.east) + CELL_MARGIN,
        north: Math.min(n, b.north) + CELL_MARGIN,
      });
    }
  }
  return { level, cells };
}

/**
 * One page of the change feed in the order our copy changed (received_at, then id), one row
 * past the limit to tell whether there is more. Keyset, not offset: a row that changes while a
 * client pages moves to the end of the order, so it is read again after the cursor, never
 * skipped; rows not yet committed are newer than any committed one (the writers serialise on
 * one lock and stamp their rows after taking it), so a page never passes a row it cannot see.
 *
 * The page's ids come from the indexes alone and only those rows are then read from the table.
 * An LGA's page is the head of its own index. A window's page merges the feeds of the grid cells
 * covering it (migration 0028, `feedCells`): the cells partition the window's rows, so the first
 * limit + 1 rows of the union of each cell's first limit + 1 window rows after the cursor are the
 * page. A cell wholly inside the window is the head of its index. A cell on the window's edge is
 * walked in feed order for up to `walk` entries keeping the window's rows (`head`); where those
 * hold too few and the cell goes on past them (the window holds a sliver of a dense cell), its
 * window rows after the walk's last entry (`edge`) come from the GiST index over its part of the
 * window (`rest`). One statement for every window of a level, whatever its density: the pool names
 * its statements, so PostgreSQL may plan it once for every window, and its plan has no choice to
 * get wrong (a nested loop over the cells, each an index walk).
 */
export const FEED_PAGE = (dataset: string, filter: FeedFilter, limit: number, walk = FEED_WINDOW_WALK) => {
  const conditions: Prisma.Sql[] = [Prisma.sql`k.dataset = ${dataset}`];
  if (filter.lgaCode !== null) conditions.push(Prisma.sql`k.lga_code = ${filter.lgaCode}`);
  if (filter.since !== null) conditions.push(Prisma.sql`k.received_at >= ${filter.since}::timestamptz`);
  if (filter.after !== null) {
    conditions.push(Prisma.sql`(k.received_at, k.id) > (${filter.after.at}::timestamptz, ${filter.after.id}::bigint)`);
  }
  const where = Prisma.join(conditions, ' AND ');
  const read = (ids: Prisma.Sql) => Prisma.sql`
  SELECT ${COLUMNS}, a.id::text AS feed_id
  FROM (${ids}) page
  JOIN development.application a ON a.id = page.id
  ORDER BY a.received_at, a.id
  LIMIT ${limit + 1}`;
  if (filter.bbox === null) {
    return read(Prisma.sql`SELECT k.id FROM development.application k WHERE ${where}
      ORDER BY k.received_at, k.id LIMIT ${limit + 1}`);
  }
  const b = filter.bbox;
  const box = Prisma.sql`ST_MakeEnvelope(${b.west}, ${b.south}, ${b.east}, ${b.north}, 4326)`;
  const { level, cells } = feedCells(b);
  // the level names the column and its index: one statement text per level
  const cell = Prisma.raw(`k.cell_${level}`);
  return Prisma.sql`
  WITH cell AS MATERIALIZED (
    -- the envelopes built once here: written into the scans' filters, a generic plan would build
    -- them again for every row it tests
    SELECT c.cell, c.inside = 1 AS inside, ${box} AS window,
      ST_MakeEnvelope(c.west, c.south, c.east, c.north, 4326) AS part
    FROM unnest(${cells.map((c) => c.cell)}::int[], ${cells.map((c) => (c.inside ? 1 : 0))}::int[],
      ${cells.map((c) => c.west)}::float8[], ${cells.map((c) => c.south)}::float8[],
      ${cells.map((c) => c.east)}::float8[], ${cells.map((c) => c.north)}::float8[]) AS c(cell, inside, west, south, east, north)
  ), head AS MATERIALIZED (
    SELECT c.cell, h.id, h.received_at FROM cell c CROSS JOIN LATERAL (
      SELECT w.id, w.received_at FROM (
        SELECT k.id, k.received_at, k.geom FROM development.application k
        WHERE ${where} AND ${cell} = c.cell
        ORDER BY k.received_at, k.id LIMIT ${walk}
      ) w
      WHERE c.inside OR w.geom && c.window
      ORDER BY w.received_at, w.id LIMIT ${limit + 1}
    ) h
  ), found AS MATERIALIZED (
    SELECT h.cell, count(*) AS n FROM head h GROUP BY h.cell
  ), edge AS MATERIALIZED (
    SELECT c.cell, c.window, c.part, x.received_at, x.id
    FROM cell c CROSS JOIN LATERAL (
      SELECT k.received_at, k.id FROM development.application k
      WHERE ${where} AND ${cell} = c.cell
      ORDER BY k.received_at, k.id OFFSET ${walk - 1} LIMIT 1
    ) x
    WHERE coalesce((SELECT f.n FROM found f WHERE f.cell = c.cell), 0) <= ${limit}
  ), rest AS (
    SELECT r.id, r.received_at FROM edge e CROSS JOIN LATERAL (
      SELECT g.id, g.received_at FROM (
        -- OFFSET 0 keeps the keyset out of this scan: the cell's part of the window is read by the
        -- GiST index, never by the cell's feed index filtered (the walk that already fell short)
        SELECT k.id, k.received_at, k.geom, ${cell} AS cell FROM development.application k
        WHERE k.dataset = ${dataset} AND k.geom && e.part
        OFFSET 0
      ) g
      WHERE g.cell = e.cell AND g.geom && e.window AND (g.received_at, g.id) > (e.received_at, e.id)
      ORDER BY g.received_at, g.id LIMIT ${limit + 1}
    ) r
  )
  ${read(Prisma.sql`SELECT id FROM (SELECT id, received_at FROM head UNION ALL SELECT id, received_at FROM rest
      ORDER BY received_at, id LIMIT ${limit + 1}) merged`)}`;
};

export type SuburbApplicationCountsRow = {
  i: number;
  das_pending: number;
  dwellings_pending: number;
  das_approved: number;
  dwellings_approved: number;
};

/**
 * Per suburb (state and upper-cased name, in key order): its development applications in
 * assessment (lodged, under assessment) and approved, with the dwellings they propose; by the
 * suburb name the application records. The market's supply pipeline reads these through the graph.
 */
export const SUBURB_APPLICATION_COUNTS = (dataset: string, states: string[], names: string[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i, c.das_pending, c.dwellings_pending, c.das_approved, c.dwellings_approved
  FROM unnest(${states}::text[], ${names}::text[]) WITH ORDINALITY AS k(state, name, i)
  CROSS JOIN LATERAL (
    SELECT
      count(*) FILTER (WHERE d.status IN ('lodged', 'under_assessment'))::int AS das_pending,
      coalesce(sum(d.dwellings_proposed) FILTER (WHERE d.status IN ('lodged', 'under_assessment')), 0)::int AS dwellings_pending,
      count(*) FILTER (WHERE d.status = 'approved')::int AS das_approved,
      coalesce(sum(d.dwellings_proposed) FILTER (WHERE d.status = 'approved'), 0)::int AS dwellings_approved
    FROM development.application d
    WHERE d.dataset = ${dataset} AND d.state = k.state AND upper(d.suburb) = k.name
  ) c
  ORDER BY k.i`;
