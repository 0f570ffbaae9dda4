-- The land around a parcel beyond its boundary: registered easements, building footprints and
-- the valuer-general's land values. Each layer records where its source reaches (coverage), so
-- "nothing here" (no_data) is told apart from "the source does not reach here" (not_covered),
-- and the date of the snapshot that reaches it (the layer's freshness).
CREATE SCHEMA IF NOT EXISTS land;

-- Easements as the state's cadastre registers them on a plan: a strip of one parcel (the
-- burdened land, parcel_pfi) reserved for a purpose such as drainage, sewerage or carriageway.
CREATE TABLE land.easement (
  dataset        text NOT NULL,
  id             text NOT NULL,
  state          text NOT NULL,
  parcel_pfi     text,
  easement_type  text NOT NULL,
  width_m        double precision CHECK (width_m > 0),
  plan_number    text,
  geom           geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX easement_parcel_idx ON land.easement (dataset, state, parcel_pfi);
CREATE INDEX easement_geom_idx ON land.easement USING gist (geom);

-- Building footprints: outlines from OpenStreetMap (ODbL) supplemented by a state's CC BY
-- building layer; source says which, so a payload credits only the sources it carries.
CREATE TABLE land.building_footprint (
  dataset   text NOT NULL,
  id        text NOT NULL,
  state     text NOT NULL,
  source    text NOT NULL CHECK (source IN ('osm', 'state')),
  height_m  double precision CHECK (height_m > 0),
  storeys   integer CHECK (storeys > 0),
  geom      geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX building_footprint_geom_idx ON land.building_footprint USING gist (geom);

-- Land values as the valuer-general publishes them per parcel: the site (land) value, the
-- capital improved value where the state publishes one, in whole dollars, at a base date.
CREATE TABLE land.land_value (
  dataset                 text NOT NULL,
  state                   text NOT NULL,
  parcel_pfi              text NOT NULL,
  site_value              double precision NOT NULL CHECK (site_value >= 0),
  capital_improved_value  double precision CHECK (capital_improved_value >= 0),
  base_date               date NOT NULL,
  valuer                  text NOT NULL,
  PRIMARY KEY (dataset, state, parcel_pfi)
);

-- Where each layer's source reaches, per state: layer is easements, buildings or land-values.
CREATE TABLE land.coverage (
  dataset        text NOT NULL,
  layer          text NOT NULL CHECK (layer IN ('easements', 'buildings', 'land-values')),
  state          text NOT NULL,
  name           text NOT NULL,
  snapshot_date  date NOT NULL,
  geom           geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, layer, state, name)
);
CREATE INDEX land_coverage_geom_idx ON land.coverage USING gist (geom);
