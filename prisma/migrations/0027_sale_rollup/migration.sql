-- The market trends' sales figures, rolled up (docs/notes-market-rollup.md). The trends statement
-- (SUBURB_MARKETS) aggregated every sale of a suburb on every call: quarterly medians per type, four
-- trailing-year medians, the modal postcode, the state's newest sale. At a million parcels a suburb
-- holds ~75,000 sales, and that statement was most of the property graph's database time. It now
-- reads these tables, which hold the same figures per suburb, type and quarter.
--
-- Never stale: every statement that writes market.sale (an ingest, the sandbox seed, a test's
-- INSERT, an operator's UPDATE) marks the suburbs it touched in sale_rollup_pending, and a trigger
-- deferred to the commit recomputes each marked suburb once, from its sales as committed. So the
-- rollup moves in the same transaction as the sales, whoever wrote them, and a bulk load in many
-- batches recomputes each suburb once, not once per batch.

-- Per suburb (upper(locality), as the statement keys it), type and quarter (its first day), with a
-- row wherever the quarter or the year to it holds a sale: the quarter's sales and their median
-- (whatever their number: the reader applies its minimum), and the same over the four quarters to
-- this one, which is the trailing year of every quarter end the state's data may end on. A
-- trailing-year window ends on a quarter's last day, so k years before it is a quarter end too:
-- one row per window, whichever quarter the state's newest sale makes the latest full one.
CREATE TABLE market.sale_suburb_quarter (
  dataset            text NOT NULL,
  state              text NOT NULL,
  suburb             text NOT NULL,
  property_type      text NOT NULL,
  quarter            date NOT NULL,
  sales              integer NOT NULL,
  median_price       double precision,
  year_sales         integer NOT NULL,
  year_median_price  double precision NOT NULL,
  PRIMARY KEY (dataset, state, suburb, property_type, quarter)
);

-- The postcode most of a suburb's sales carry (mode(): of equally common ones, the first in order);
-- no row where none of its sales carries one.
CREATE TABLE market.sale_suburb (
  dataset   text NOT NULL,
  state     text NOT NULL,
  suburb    text NOT NULL,
  postcode  text NOT NULL,
  PRIMARY KEY (dataset, state, suburb)
);

-- Each state's newest sale date (contract, else settlement), over every sale of the state, with a
-- suburb or not; no row where the state holds no dated sale.
CREATE TABLE market.sale_state (
  dataset  text NOT NULL,
  state    text NOT NULL,
  newest   date NOT NULL,
  PRIMARY KEY (dataset, state)
);

-- The suburbs written since the last refresh ('' for sales without a locality: only the state's
-- newest sale moves). Empty outside a writing transaction: the deferred trigger empties it at commit.
CREATE TABLE market.sale_rollup_pending (
  dataset  text NOT NULL,
  state    text NOT NULL,
  suburb   text NOT NULL,
  PRIMARY KEY (dataset, state, suburb)
);

-- One suburb's rows (and its state's newest sale) recomputed from market.sale.
CREATE FUNCTION market.refresh_sale_rollup(p_dataset text, p_state text, p_suburb text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p_suburb <> '' THEN
    DELETE FROM market.sale_suburb_quarter WHERE dataset = p_dataset AND state = p_state AND suburb = p_suburb;
    -- each sale counts in its own quarter (j = 0) and in the trailing years of the three after it; the
    -- quarter truncates a timestamp, as the trends statement always has (no time-zone conversion)
    INSERT INTO market.sale_suburb_quarter (dataset, state, suburb, property_type, quarter, sales, median_price,
      year_sales, year_median_price)
    SELECT p_dataset, p_state, p_suburb, s.property_type, (s.quarter + make_interval(months => 3 * j.j))::date,
      (count(*) FILTER (WHERE j.j = 0))::int,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY s.price) FILTER (WHERE j.j = 0),
      count(*)::int,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY s.price)
    FROM (
      SELECT s.property_type, s.price,
        date_trunc('quarter', coalesce(s.contract_date, s.settlement_date)::timestamp) AS quarter
      FROM market.sale s
      WHERE s.dataset = p_dataset AND s.state = p_state AND upper(s.locality) = p_suburb
        AND coalesce(s.contract_date, s.settlement_date) IS NOT NULL
    ) s
    CROSS JOIN generate_series(0, 3) AS j(j)
    GROUP BY s.property_type, s.quarter + make_interval(months => 3 * j.j);

    DELETE FROM market.sale_suburb WHERE dataset = p_dataset AND state = p_state AND suburb = p_suburb;
    INSERT INTO market.sale_suburb (dataset, state, suburb, postcode)
    SELECT p_dataset, p_state, p_suburb, mode() WITHIN GROUP (ORDER BY s.postcode)
    FROM market.sale s
    WHERE s.dataset = p_dataset AND s.state = p_state AND upper(s.locality) = p_suburb AND s.postcode IS NOT NULL
    HAVING count(*) > 0;
  END IF;

  -- one backward step of sale_date_idx
  DELETE FROM market.sale_state WHERE dataset = p_dataset AND state = p_state;
  INSERT INTO market.sale_state (dataset, state, newest)
  SELECT p_dataset, p_state, n.newest
  FROM (SELECT max(coalesce(s.contract_date, s.settlement_date)) AS newest FROM market.sale s
        WHERE s.dataset = p_dataset AND s.state = p_state) n
  WHERE n.newest IS NOT NULL;
END $$;

-- Marking, once per statement: the suburbs of the rows it wrote (new), moved from or removed (old).
-- Three functions, one per transition table, so each only names the tables its trigger has.
CREATE FUNCTION market.sale_rollup_mark_new() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market.sale_rollup_pending (dataset, state, suburb)
  SELECT DISTINCT n.dataset, n.state, coalesce(upper(n.locality), '') FROM new_sales n
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION market.sale_rollup_mark_old() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market.sale_rollup_pending (dataset, state, suburb)
  SELECT DISTINCT o.dataset, o.state, coalesce(upper(o.locality), '') FROM old_sales o
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION market.sale_rollup_mark_both() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO market.sale_rollup_pending (dataset, state, suburb)
  SELECT n.dataset, n.state, coalesce(upper(n.locality), '') FROM new_sales n
  UNION
  SELECT o.dataset, o.state, coalesce(upper(o.locality), '') FROM old_sales o
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER sale_rollup_insert AFTER INSERT ON market.sale
  REFERENCING NEW TABLE AS new_sales FOR EACH STATEMENT EXECUTE FUNCTION market.sale_rollup_mark_new();
CREATE TRIGGER sale_rollup_update AFTER UPDATE ON market.sale
  REFERENCING OLD TABLE AS old_sales NEW TABLE AS new_sales FOR EACH STATEMENT EXECUTE FUNCTION market.sale_rollup_mark_both();
CREATE TRIGGER sale_rollup_delete AFTER DELETE ON market.sale
  REFERENCING OLD TABLE AS old_sales FOR EACH STATEMENT EXECUTE FUNCTION market.sale_rollup_mark_old();

-- The refresh, at commit, once per marked suburb (a mark already made in the transaction is not
-- made again: ON CONFLICT DO NOTHING inserts nothing, so fires nothing).
CREATE FUNCTION market.sale_rollup_refresh_pending() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM market.sale_rollup_pending WHERE dataset = NEW.dataset AND state = NEW.state AND suburb = NEW.suburb;
  IF FOUND THEN
    PERFORM market.refresh_sale_rollup(NEW.dataset, NEW.state, NEW.suburb);
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER sale_rollup_refresh AFTER INSERT ON market.sale_rollup_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION market.sale_rollup_refresh_pending();

-- The sales already held, rolled up when this migration commits.
INSERT INTO market.sale_rollup_pending (dataset, state, suburb)
SELECT DISTINCT s.dataset, s.state, coalesce(upper(s.locality), '') FROM market.sale s
ON CONFLICT DO NOTHING;
