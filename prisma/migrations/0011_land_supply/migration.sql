-- Land supply: greenfield estates, their lots as developers list them, a snapshot of every
-- listed lot per week (so the series exist) and the weekly rollup the series are read from.
-- A week is named by its Monday (ISO week start, a date). No foreign keys, like the other layers:
-- loaders write a dataset's tables in parallel batches and delete it table by table.
CREATE SCHEMA IF NOT EXISTS supply;

CREATE TABLE supply.estate (
  dataset      text NOT NULL,
  estate_id    text NOT NULL,
  name         text NOT NULL,
  developer    text,
  state        text NOT NULL,
  lga_code     text,
  lga_name     text,
  suburb       text,
  status       text NOT NULL CHECK (status IN ('selling', 'coming_soon', 'sold_out')),
  source       text NOT NULL,
  attribution  text NOT NULL,
  license      text NOT NULL,
  geom         geometry(Point, 4326) NOT NULL,
  PRIMARY KEY (dataset, estate_id)
);
CREATE INDEX estate_geom_idx ON supply.estate USING gist (geom);
CREATE INDEX estate_suburb_idx ON supply.estate (dataset, state, upper(suburb));

CREATE TABLE supply.lot (
  dataset        text NOT NULL,
  lot_id         text NOT NULL,
  estate_id      text NOT NULL,
  lot_number     text,
  state          text NOT NULL,
  suburb         text,
  asking_price   double precision CHECK (asking_price > 0),
  area_m2        double precision CHECK (area_m2 > 0),
  frontage_m     double precision CHECK (frontage_m > 0),
  depth_m        double precision CHECK (depth_m > 0),
  title_status   text NOT NULL CHECK (title_status IN ('titled', 'untitled')),
  -- the lot's status as last listed; a lot leaves the market as sold or withdrawn
  sales_status   text NOT NULL CHECK (sales_status IN ('available', 'under_offer', 'sold', 'withdrawn')),
  -- the 16-point compass direction from the front boundary to the rear (N: the rear yard faces
  -- north) and how it was derived; both null when nothing could say
  aspect         text CHECK (aspect IN ('N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE',
                                        'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW')),
  aspect_source  text CHECK (aspect_source IN ('geometry', 'plan-compass', 'text-flip')),
  CHECK ((aspect IS NULL) = (aspect_source IS NULL)),
  -- the listing's own words, where one was read (the text-flip input)
  listing_text   text,
  listed_week    date,
  updated_at     timestamptz NOT NULL,
  geom           geometry(Point, 4326) NOT NULL,
  -- the lot as drawn on the estate's plan, and the boundary it fronts its road on
  boundary       geometry(Polygon, 4326),
  frontage_edge  geometry(LineString, 4326),
  PRIMARY KEY (dataset, lot_id)
);
CREATE INDEX lot_geom_idx ON supply.lot USING gist (geom);
CREATE INDEX lot_boundary_idx ON supply.lot USING gist (boundary);
CREATE INDEX lot_estate_idx ON supply.lot (dataset, estate_id);

CREATE TABLE supply.lot_snapshot (
  dataset       text NOT NULL,
  lot_id        text NOT NULL,
  week          date NOT NULL CHECK (extract(isodow FROM week) = 1),
  asking_price  double precision CHECK (asking_price > 0),
  sales_status  text NOT NULL CHECK (sales_status IN ('available', 'under_offer', 'sold', 'withdrawn')),
  PRIMARY KEY (dataset, lot_id, week)
);
CREATE INDEX lot_snapshot_week_idx ON supply.lot_snapshot (dataset, week);

-- One row per place per week: an estate (place = its id), a suburb (place = STATE/SUBURB) or a
-- state (place = its code). Written only by the rollup, which replaces a week whole.
CREATE TABLE supply.weekly_rollup (
  dataset                text NOT NULL,
  level                  text NOT NULL CHECK (level IN ('estate', 'suburb', 'state')),
  place                  text NOT NULL,
  state                  text NOT NULL,
  suburb                 text,
  estate_id              text,
  week                   date NOT NULL CHECK (extract(isodow FROM week) = 1),
  active_lots            integer NOT NULL,
  available_lots         integer NOT NULL,
  new_lots               integer NOT NULL,
  sold_or_delisted_lots  integer NOT NULL,
  median_asking_price    double precision,
  rolled_at              timestamptz NOT NULL,
  PRIMARY KEY (dataset, level, place, week)
);
CREATE INDEX weekly_rollup_week_idx ON supply.weekly_rollup (dataset, week);
