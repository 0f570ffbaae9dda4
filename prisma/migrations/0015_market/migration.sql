-- Market: property sales (NSW Valuer General bulk Property Sales Information, sandbox), quarterly
-- rents and rental bonds (NSW Fair Trading rental bond data, sandbox) and building approvals
-- (ABS building approvals by SA2, sandbox). Every table leads with `dataset`, as the other layers:
-- a dataset is loaded, replaced and deleted on its own, and every index starts with it.
CREATE SCHEMA IF NOT EXISTS market;

-- One sale of one property. A source record id is unique per source, so a rerun of an ingest
-- upserts in place (NSW: district/property id/strata lot/dealing number of the PSI B record).
CREATE TABLE market.sale (
  dataset             text NOT NULL,
  -- the publisher the record came from: nsw-vg-psi, sandbox
  source              text NOT NULL,
  source_record_id    text NOT NULL,
  state               text NOT NULL,
  contract_date       date,
  settlement_date     date,
  price               double precision NOT NULL CHECK (price > 0),
  -- house, unit, land or other: read from the Valuer General's nature of property and strata lot
  property_type       text NOT NULL CHECK (property_type IN ('house', 'unit', 'land', 'other')),
  -- the publisher's own words: nature of property (R, V, 3) and primary purpose (RESIDENCE, ...)
  nature_of_property  text,
  primary_purpose     text,
  -- the area as published, its unit (m2 or ha) and in square metres
  area                double precision CHECK (area > 0),
  area_unit           text CHECK (area_unit IN ('m2', 'ha')),
  area_m2             double precision CHECK (area_m2 > 0),
  address             text,
  locality            text,
  postcode            text,
  zoning              text,
  strata_lot_number   text,
  dealing_number      text,
  -- the legal description (lot/plan) the sale was matched by, as published
  legal_description   text,
  district_code       text,
  property_id         text,
  -- where matched: the G-NAF address and parcel the sale is of, and the point it is placed at
  gnaf_pid            text,
  parcel_pfi          text,
  geom                geometry(Point, 4326),
  attribution         text NOT NULL,
  license             text NOT NULL,
  loaded_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (dataset, source, source_record_id)
);
CREATE INDEX sale_geom_idx ON market.sale USING gist (geom);
CREATE INDEX sale_parcel_idx ON market.sale (dataset, state, parcel_pfi);
CREATE INDEX sale_gnaf_idx ON market.sale (dataset, gnaf_pid);
CREATE INDEX sale_suburb_idx ON market.sale (dataset, state, upper(locality), contract_date);

-- One rental bond lodgement as NSW Fair Trading publishes it (one row per bond), kept so a
-- quarter's median is taken over every lodgement of the quarter whichever monthly files carry
-- them. A rerun of a file replaces that file's rows (source_file, line).
CREATE TABLE market.bond_lodgement (
  dataset         text NOT NULL,
  source_file     text NOT NULL,
  line            integer NOT NULL,
  state           text NOT NULL,
  lodgement_date  date NOT NULL,
  postcode        text NOT NULL,
  dwelling_type   text NOT NULL CHECK (dwelling_type IN ('house', 'unit', 'townhouse', 'other', 'unknown')),
  bedrooms        text NOT NULL,
  weekly_rent     double precision CHECK (weekly_rent > 0),
  PRIMARY KEY (dataset, source_file, line)
);
CREATE INDEX bond_lodgement_area_idx ON market.bond_lodgement (dataset, state, postcode, lodgement_date);

-- Quarterly rents and bonds of an area (a suburb, or a postcode where the publisher keys by
-- postcode), by dwelling type and bedrooms ('all' where not split). quarter is its first day.
CREATE TABLE market.rent_bond (
  dataset             text NOT NULL,
  source              text NOT NULL,
  state               text NOT NULL,
  area_kind           text NOT NULL CHECK (area_kind IN ('suburb', 'postcode')),
  area                text NOT NULL,
  dwelling_type       text NOT NULL CHECK (dwelling_type IN ('house', 'unit', 'townhouse', 'other', 'unknown', 'all')),
  bedrooms            text NOT NULL,
  quarter             date NOT NULL,
  median_weekly_rent  double precision CHECK (median_weekly_rent > 0),
  new_bonds           integer CHECK (new_bonds >= 0),
  bonds_held          integer CHECK (bonds_held >= 0),
  attribution         text NOT NULL,
  license             text NOT NULL,
  PRIMARY KEY (dataset, state, area_kind, area, dwelling_type, bedrooms, quarter)
);

-- Building approvals as the ABS publishes them by SA2: one observation per region, period and
-- breakdown (measure, sector, type of work, type of building), the codes as published.
CREATE TABLE market.building_approval (
  dataset        text NOT NULL,
  source         text NOT NULL,
  state          text NOT NULL,
  sa2_code       text NOT NULL,
  sa2_name       text,
  -- the first day of the month (freq M) or quarter (freq Q) observed
  period         date NOT NULL,
  freq           text NOT NULL CHECK (freq IN ('M', 'Q')),
  measure        text NOT NULL,
  sector         text NOT NULL,
  work_type      text NOT NULL,
  building_type  text NOT NULL,
  -- house, unit, all or other: read from the type of building
  dwelling_type  text NOT NULL,
  value          double precision NOT NULL,
  attribution    text NOT NULL,
  license        text NOT NULL,
  PRIMARY KEY (dataset, sa2_code, period, freq, measure, sector, work_type, building_type)
);
CREATE INDEX building_approval_name_idx ON market.building_approval (dataset, state, upper(sa2_name));
