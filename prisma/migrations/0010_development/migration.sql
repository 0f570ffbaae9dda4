-- Development applications (DAs) as councils and state portals publish them: one row per
-- application of one council, as the source names that council. A council reference is unique
-- only within its council (two councils both lodge "DA/1/2024"), so the row's identity is the
-- source, the council and its reference.
CREATE SCHEMA IF NOT EXISTS development;

CREATE TABLE development.application (
  -- the feed's tie-breaker: never reused, never shown as an identifier of the application
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  dataset             text NOT NULL,
  -- the publisher the record came from: planningalerts, nsw-portal, sandbox
  source              text NOT NULL,
  -- the council (consent authority) as the source names it
  authority           text NOT NULL,
  council_reference   text NOT NULL,
  state               text NOT NULL,
  lga_code            text,
  lga_name            text,
  suburb              text,
  address             text,
  -- the address and parcel the application's point fell on, where it was matched
  gnaf_pid            text,
  parcel_pfi          text,
  description         text,
  category            text NOT NULL CHECK (category IN
    ('dwelling', 'alterations', 'subdivision', 'demolition', 'commercial', 'industrial', 'other')),
  status              text NOT NULL CHECK (status IN
    ('lodged', 'under_assessment', 'approved', 'refused', 'withdrawn', 'determined')),
  lodged_date         date,
  decided_date        date,
  estimated_cost      double precision CHECK (estimated_cost >= 0),
  dwellings_proposed  integer CHECK (dwellings_proposed >= 0),
  source_url          text,
  -- the credit the publishing state (or aggregator) asks for, carried by every record
  attribution         text NOT NULL,
  license             text NOT NULL,
  -- when the source last changed the record, as it says
  updated_at          timestamptz NOT NULL,
  -- when our copy last changed: set on insert and on a real change only; the feed's order
  received_at         timestamptz NOT NULL,
  geom                geometry(Point, 4326),
  UNIQUE (dataset, source, authority, council_reference)
);
CREATE INDEX application_geom_idx ON development.application USING gist (geom);
-- the feed's keyset, over the whole dataset and within one LGA
CREATE INDEX application_feed_idx ON development.application (dataset, received_at, id);
CREATE INDEX application_lga_feed_idx ON development.application (dataset, lga_code, received_at, id);
CREATE INDEX application_lga_idx ON development.application (dataset, lga_code, lodged_date);
CREATE INDEX application_parcel_idx ON development.application (dataset, state, parcel_pfi);
CREATE INDEX application_suburb_idx ON development.application (dataset, state, upper(suburb));
