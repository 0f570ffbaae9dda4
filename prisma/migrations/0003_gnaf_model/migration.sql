-- The address layer in G-NAF's own model. 0001 held a subset (locality, street locality,
-- address detail with one geocode); this adds what G-NAF publishes beside it: states, the
-- authority code tables, every address detail column, default geocodes as their own table,
-- and the locality, street and address aliases. Names follow G-NAF's PSV columns in lower case.

-- The Authority Code folder: one row per (authority table, code). G-NAF's files all carry
-- CODE|NAME and most DESCRIPTION; the authority is the file's table name without its
-- "Authority_Code_" prefix and "_AUT_psv" suffix (STREET_TYPE, FLAT_TYPE, GEOCODE_TYPE, ...).
-- Codes are national, not per dataset.
CREATE TABLE address.authority_code (
  authority    text NOT NULL,
  code         text NOT NULL,
  name         text NOT NULL,
  description  text,
  PRIMARY KEY (authority, code)
);

CREATE TABLE address.state (
  dataset             text NOT NULL,
  state_pid           text NOT NULL,
  state_name          text NOT NULL,
  state_abbreviation  text NOT NULL,
  date_created        date,
  date_retired        date,
  PRIMARY KEY (dataset, state_pid)
);

ALTER TABLE address.locality
  ADD COLUMN state_pid             text,
  ADD COLUMN locality_class_code   text,
  ADD COLUMN gnaf_locality_pid     text,
  ADD COLUMN gnaf_reliability_code integer,
  ADD COLUMN date_created          date,
  ADD COLUMN date_retired          date;
COMMENT ON COLUMN address.locality.postcode IS 'G-NAF PRIMARY_POSTCODE, else the postcode most of its addresses carry';
CREATE INDEX locality_name_idx ON address.locality (dataset, locality_name);
CREATE INDEX locality_postcode_idx ON address.locality (dataset, postcode);

CREATE TABLE address.locality_alias (
  dataset             text NOT NULL,
  locality_alias_pid  text NOT NULL,
  locality_pid        text NOT NULL,
  name                text NOT NULL,
  postcode            text,
  alias_type_code     text,
  state_pid           text,
  PRIMARY KEY (dataset, locality_alias_pid)
);
CREATE INDEX locality_alias_name_idx ON address.locality_alias (dataset, name);

ALTER TABLE address.street_locality
  ADD COLUMN street_class_code       text,
  ADD COLUMN gnaf_street_pid         text,
  ADD COLUMN gnaf_street_confidence  integer,
  ADD COLUMN gnaf_reliability_code   integer,
  ADD COLUMN date_created            date,
  ADD COLUMN date_retired            date;
CREATE INDEX street_locality_name_idx ON address.street_locality (dataset, street_name);
CREATE INDEX street_locality_locality_idx ON address.street_locality (dataset, locality_pid);

CREATE TABLE address.street_locality_alias (
  dataset                    text NOT NULL,
  street_locality_alias_pid  text NOT NULL,
  street_locality_pid        text NOT NULL,
  street_name                text NOT NULL,
  street_type_code           text,
  street_suffix_code         text,
  alias_type_code            text,
  PRIMARY KEY (dataset, street_locality_alias_pid)
);
CREATE INDEX street_locality_alias_name_idx ON address.street_locality_alias (dataset, street_name);

-- Every ADDRESS_DETAIL column. geom and geocode_type keep the address's default geocode
-- beside it (copied from address_default_geocode) because every lookup needs it; they are
-- null until the geocode is loaded. formatted_address is G-NAF's single-line form and
-- search_key the same words with street types spelled out, for prefix search.
ALTER TABLE address.address_detail
  ADD COLUMN building_name         text,
  ADD COLUMN lot_number_prefix     text,
  ADD COLUMN lot_number_suffix     text,
  ADD COLUMN flat_number_prefix    text,
  ADD COLUMN flat_number_suffix    text,
  ADD COLUMN level_number_prefix   text,
  ADD COLUMN level_number_suffix   text,
  ADD COLUMN number_first_prefix   text,
  ADD COLUMN number_first_suffix   text,
  ADD COLUMN number_last_prefix    text,
  ADD COLUMN number_last_suffix    text,
  ADD COLUMN location_description  text,
  ADD COLUMN alias_principal       text,
  ADD COLUMN private_street        text,
  ADD COLUMN legal_parcel_id       text,
  ADD COLUMN confidence            integer,
  ADD COLUMN address_site_pid      text,
  ADD COLUMN level_geocoded_code   integer,
  ADD COLUMN property_pid          text,
  ADD COLUMN gnaf_property_pid     text,
  ADD COLUMN primary_secondary     text,
  ADD COLUMN date_created          date,
  ADD COLUMN date_last_modified    date,
  ADD COLUMN date_retired          date,
  ADD COLUMN search_key            text;
ALTER TABLE address.address_detail ALTER COLUMN geom DROP NOT NULL;
ALTER TABLE address.address_detail ALTER COLUMN geocode_type DROP NOT NULL;
CREATE INDEX address_detail_street_number_idx ON address.address_detail (dataset, street_locality_pid, number_first);
CREATE INDEX address_detail_street_lot_idx ON address.address_detail (dataset, street_locality_pid, lot_number);
-- text_pattern_ops: a prefix LIKE uses the index whatever the database's collation.
CREATE INDEX address_detail_search_key_idx ON address.address_detail (dataset, search_key text_pattern_ops);

CREATE TABLE address.address_default_geocode (
  dataset                       text NOT NULL,
  address_default_geocode_pid   text NOT NULL,
  address_detail_pid            text NOT NULL,
  geocode_type_code             text NOT NULL,
  geom                          geometry(Point, 4326) NOT NULL,
  date_created                  date,
  date_retired                  date,
  PRIMARY KEY (dataset, address_default_geocode_pid)
);
CREATE INDEX address_default_geocode_detail_idx ON address.address_default_geocode (dataset, address_detail_pid);

CREATE TABLE address.address_alias (
  dataset            text NOT NULL,
  address_alias_pid  text NOT NULL,
  principal_pid      text NOT NULL,
  alias_pid          text NOT NULL,
  alias_type_code    text,
  alias_comment      text,
  date_created       date,
  date_retired       date,
  PRIMARY KEY (dataset, address_alias_pid)
);
CREATE INDEX address_alias_alias_idx ON address.address_alias (dataset, alias_pid);

-- Resumable ingests: which file of which release has been loaded completely.
CREATE TABLE address.ingest_progress (
  dataset     text NOT NULL,
  release     text NOT NULL,
  file        text NOT NULL,
  rows        bigint NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (dataset, release, file)
);
