-- Suburb analytics (spec 2.10, 4.4): the precomputed bundle of every suburb of a state, its flat
-- numeric metrics for the screen, its quarterly series, and what each rollup run computed.
-- Written only by the rollup (core/suburb-analytics/rollup.ts), which replaces a state's rows
-- whole in one transaction; read by the analytics subgraph.
CREATE SCHEMA IF NOT EXISTS analytics;

-- One bundle per suburb: the whole answer of /v1/suburb-analytics/{state}/{suburb}, as jsonb.
CREATE TABLE analytics.suburb_bundle (
  dataset           text NOT NULL,
  state             text NOT NULL,
  -- upper-cased and trimmed (core/suburb-metrics.ts suburbKey); the lookup key
  suburb            text NOT NULL,
  -- the locality's name as the address layer spells it
  name              text NOT NULL,
  lga_code          text,
  lga_name          text,
  livability_score  double precision,
  bundle            jsonb NOT NULL,
  -- the bundle's flat numeric metrics again, small: the screen filters on them, (metrics->>'name')::float8,
  -- reading a state's rows and never a whole bundle. Chosen over a flat (suburb, metric, value) table with a
  -- range index on EXPLAIN ANALYZE at 3,000 suburbs a state (docs/p8-notes-analytics.md): ~15 ms against ~60 ms.
  metrics           jsonb NOT NULL,
  computed_at       timestamptz NOT NULL,
  PRIMARY KEY (dataset, state, suburb)
);

-- Every metric name a dataset's bundles carry, with the section that fills it: the screen's
-- vocabulary (an unknown name is refused, naming it) without a DISTINCT over every row.
CREATE TABLE analytics.metric_catalog (
  dataset  text NOT NULL,
  state    text NOT NULL,
  metric   text NOT NULL,
  section  text NOT NULL,
  suburbs  integer NOT NULL,
  PRIMARY KEY (dataset, state, metric)
);

-- Quarterly series (prices, rents, approvals, bonds); property_type '' where a series is not split by type.
CREATE TABLE analytics.suburb_series (
  dataset        text NOT NULL,
  state          text NOT NULL,
  suburb         text NOT NULL,
  metric         text NOT NULL CHECK (metric IN ('prices', 'rents', 'approvals', 'bonds')),
  -- the bundle section (provider) the series came from: its credits are the series' credits
  section        text NOT NULL,
  period         text NOT NULL CHECK (period ~ '^\d{4}-Q[1-4]$'),
  property_type  text NOT NULL DEFAULT '',
  value          double precision,
  count          integer,
  PRIMARY KEY (dataset, state, suburb, metric, property_type, period)
);

-- One row per state and dataset rolled up: when, how many suburbs, which sections contributed.
CREATE TABLE analytics.rollup_run (
  dataset      text NOT NULL,
  state        text NOT NULL,
  suburbs      integer NOT NULL,
  sections     text[] NOT NULL,
  -- every credit any of the state's bundles carries: the list and the screen answer with these
  credits      jsonb NOT NULL,
  computed_at  timestamptz NOT NULL,
  took_ms      integer NOT NULL,
  PRIMARY KEY (dataset, state)
);
