-- Census 2021 demographics: the ABS General Community Profile (GCP) figures of two ASGS 2021
-- geographies, Suburbs and Localities (SAL) and Statistical Areas Level 1 (SA1), and the
-- boundaries they refer to. Codes are kept as the boundary files write them (SAL_CODE21 '20495',
-- SA1_CODE21 '20601110601'); the DataPack CSVs' 'SAL' prefix is dropped on ingest. The first
-- digit of either code is the ABS state code, which gives the state column.
CREATE SCHEMA IF NOT EXISTS census;

CREATE TABLE census.boundary (
  dataset    text NOT NULL,
  geography  text NOT NULL CHECK (geography IN ('SAL', 'SA1')),
  code       text NOT NULL,
  -- the ABS name ('Richmond (Vic.)'); an SA1 has none of its own and takes its SA2's
  name       text NOT NULL,
  -- the name as a suburb is asked for: the state or council suffix in parentheses dropped,
  -- upper-cased ('RICHMOND'), as core/suburb-metrics.ts suburbKey writes it
  name_key   text NOT NULL,
  state      text NOT NULL,
  area_km2   double precision,
  geom       geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, geography, code)
);
CREATE INDEX census_boundary_geom_idx ON census.boundary USING gist (geom);
CREATE INDEX census_boundary_name_idx ON census.boundary (dataset, geography, state, name_key);

-- One profile per area: G01 (persons, age groups), G02 (medians and averages), G29 (family
-- composition), G35 (households), G36 (dwelling structure), G37 (tenure). A table the load did
-- not include leaves its columns null; the blocks are jsonb of counts as the tables give them.
CREATE TABLE census.profile (
  dataset                          text NOT NULL,
  geography                        text NOT NULL CHECK (geography IN ('SAL', 'SA1')),
  code                             text NOT NULL,
  state                            text NOT NULL,
  population                       integer,
  males                            integer,
  females                          integer,
  -- {"0_4": n, "5_14": n, ..., "85_over": n}: G01's persons by age group
  age_groups                       jsonb,
  median_age                       double precision,
  median_personal_income_weekly    double precision,
  median_family_income_weekly      double precision,
  median_household_income_weekly   double precision,
  median_rent_weekly               double precision,
  median_mortgage_monthly          double precision,
  average_household_size           double precision,
  average_persons_per_bedroom      double precision,
  families                         jsonb,
  households                       jsonb,
  dwellings                        jsonb,
  tenure                           jsonb,
  -- the DataPack tables the row was read from, e.g. {G01,G02,G37}
  tables                           text[] NOT NULL,
  PRIMARY KEY (dataset, geography, code)
);
CREATE INDEX census_profile_state_idx ON census.profile (dataset, geography, state);
