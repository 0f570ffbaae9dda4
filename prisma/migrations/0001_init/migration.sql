-- Foundation tables. Every data layer lives in its own schema and every row carries
-- the dataset it belongs to ('sandbox' or 'live'), so a test key and a live key can
-- share one database and never see each other's data.
CREATE EXTENSION IF NOT EXISTS postgis;

CREATE SCHEMA IF NOT EXISTS address;
CREATE SCHEMA IF NOT EXISTS cadastre;
CREATE SCHEMA IF NOT EXISTS planning;

-- Address: a subset of G-NAF's model (locality, street locality, address detail with
-- its default geocode) plus the link from an address to the parcel it sits on.
CREATE TABLE address.locality (
  dataset        text NOT NULL,
  locality_pid   text NOT NULL,
  locality_name  text NOT NULL,
  state          text NOT NULL,
  postcode       text,
  lga_code       text,
  lga_name       text,
  PRIMARY KEY (dataset, locality_pid)
);

CREATE TABLE address.street_locality (
  dataset              text NOT NULL,
  street_locality_pid  text NOT NULL,
  locality_pid         text NOT NULL,
  street_name          text NOT NULL,
  street_type_code     text,
  street_suffix_code   text,
  PRIMARY KEY (dataset, street_locality_pid)
);

CREATE TABLE address.address_detail (
  dataset              text NOT NULL,
  gnaf_pid             text NOT NULL,
  street_locality_pid  text NOT NULL,
  locality_pid         text NOT NULL,
  state                text NOT NULL,
  postcode             text,
  flat_type_code       text,
  flat_number          integer,
  level_type_code      text,
  level_number         integer,
  number_first         integer,
  number_last          integer,
  lot_number           text,
  formatted_address    text NOT NULL,
  geocode_type         text NOT NULL,
  geom                 geometry(Point, 4326) NOT NULL,
  parcel_pfi           text,
  PRIMARY KEY (dataset, gnaf_pid)
);
CREATE INDEX address_detail_parcel_idx ON address.address_detail (dataset, state, parcel_pfi);
CREATE INDEX address_detail_geom_idx ON address.address_detail USING gist (geom);

-- Cadastre: land parcels as published by each state.
CREATE TABLE cadastre.parcel (
  dataset             text NOT NULL,
  state               text NOT NULL,
  parcel_pfi          text NOT NULL,
  parcel_spi          text,
  parcel_lot_number   text,
  parcel_plan_number  text,
  ezi_address         text,
  area_m2             double precision NOT NULL,
  geom                geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, state, parcel_pfi)
);
CREATE INDEX parcel_geom_idx ON cadastre.parcel USING gist (geom);

-- Where a layer's source reaches: inside it, "nothing here" is no_data; outside it is not_covered.
CREATE TABLE cadastre.coverage (
  dataset  text NOT NULL,
  state    text NOT NULL,
  name     text NOT NULL,
  geom     geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, state, name)
);
CREATE INDEX cadastre_coverage_geom_idx ON cadastre.coverage USING gist (geom);

-- Planning: zones and overlays in the Vicmap Planning attribute layout, used for every state.
CREATE TABLE planning.zone (
  dataset           text NOT NULL,
  id                text NOT NULL,
  state             text NOT NULL,
  scheme_code       text NOT NULL,
  zone_code         text NOT NULL,
  zone_description  text NOT NULL,
  lga_code          text,
  lga_name          text,
  geom              geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX zone_geom_idx ON planning.zone USING gist (geom);

CREATE TABLE planning.overlay (
  dataset              text NOT NULL,
  id                   text NOT NULL,
  state                text NOT NULL,
  scheme_code          text NOT NULL,
  overlay_code         text NOT NULL,
  overlay_description  text NOT NULL,
  lga_code             text,
  lga_name             text,
  geom                 geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX overlay_geom_idx ON planning.overlay USING gist (geom);

CREATE TABLE planning.coverage (
  dataset  text NOT NULL,
  state    text NOT NULL,
  name     text NOT NULL,
  geom     geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, state, name)
);
CREATE INDEX planning_coverage_geom_idx ON planning.coverage USING gist (geom);

-- Provenance of every dataset we hold: what it is, its credit and licence, when it was loaded.
CREATE TABLE public.dataset_source (
  dataset      text NOT NULL,
  layer        text NOT NULL,
  state        text NOT NULL,
  attribution  text NOT NULL,
  license      text NOT NULL,
  snapshot_id  text NOT NULL,
  loaded_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (dataset, layer, state)
);
