-- The DA feed's window pages read by grid cell (FEED_PAGE in subgraphs/development/sql.ts).
--
-- Before, a window's page walked the whole dataset's feed index in (received_at, id) order and
-- kept the rows inside the window, then asked the GiST index when 50,000 entries held too few: a
-- window holding a small share of the feed paid the whole walk (13 ms of PostgreSQL time for a
-- 0.05-1° window at 1,000,000 DAs, 28 ms for a sparse 2° one). Now each application carries the
-- cell it lies in at four grid levels (cells of 1/n degree, n = 1, 4, 16, 64), and each level has
-- the feed's keyset index within a cell: a window is covered by a few cells of the level that
-- suits its size and its page is a merge of those cells' own feeds, where a cell wholly inside
-- the window is read without any geometry test and one on its edge only passes over rows of its
-- own neighbourhood.
--
-- A cell is x * 16384 + y, x and y the point's floor(lng * n) and floor(lat * n): n a power of
-- two, so the products are exact and the cell edges the statement computes in JavaScript (x / n)
-- are exactly the ones these columns use. A point outside -180..180, -90..90 has no cell (no
-- window reaches it; the cast would fail on it). Generated columns: every writer (the ingest, the
-- sandbox, the bench's INSERT ... SELECT) fills them without knowing of them.
ALTER TABLE development.application
  ADD COLUMN cell_1 integer GENERATED ALWAYS AS (CASE WHEN ST_X(geom) BETWEEN -180 AND 180 AND ST_Y(geom) BETWEEN -90 AND 90
    THEN floor(ST_X(geom))::integer * 16384 + floor(ST_Y(geom))::integer END) STORED,
  ADD COLUMN cell_4 integer GENERATED ALWAYS AS (CASE WHEN ST_X(geom) BETWEEN -180 AND 180 AND ST_Y(geom) BETWEEN -90 AND 90
    THEN floor(ST_X(geom) * 4)::integer * 16384 + floor(ST_Y(geom) * 4)::integer END) STORED,
  ADD COLUMN cell_16 integer GENERATED ALWAYS AS (CASE WHEN ST_X(geom) BETWEEN -180 AND 180 AND ST_Y(geom) BETWEEN -90 AND 90
    THEN floor(ST_X(geom) * 16)::integer * 16384 + floor(ST_Y(geom) * 16)::integer END) STORED,
  ADD COLUMN cell_64 integer GENERATED ALWAYS AS (CASE WHEN ST_X(geom) BETWEEN -180 AND 180 AND ST_Y(geom) BETWEEN -90 AND 90
    THEN floor(ST_X(geom) * 64)::integer * 16384 + floor(ST_Y(geom) * 64)::integer END) STORED;

-- geom included: a cell on the window's edge is filtered in the index (an index-only scan)
CREATE INDEX application_cell_1_feed_idx ON development.application (dataset, cell_1, received_at, id) INCLUDE (geom);
CREATE INDEX application_cell_4_feed_idx ON development.application (dataset, cell_4, received_at, id) INCLUDE (geom);
CREATE INDEX application_cell_16_feed_idx ON development.application (dataset, cell_16, received_at, id) INCLUDE (geom);
CREATE INDEX application_cell_64_feed_idx ON development.application (dataset, cell_64, received_at, id) INCLUDE (geom);

-- statistics for the new columns (the embedded database has no autovacuum to gather them)
ANALYZE development.application;
