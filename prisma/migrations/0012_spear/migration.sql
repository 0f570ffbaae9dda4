-- SPEAR applications (Victoria's Surveying and Planning through Electronic Applications and
-- Referrals): planning permit and subdivision applications as a council (the responsible
-- authority) holds them in SPEAR. They live beside the development applications (same domain,
-- same subgraph) in a table of their own: SPEAR's identity is its own reference, not a council
-- reference, and one application touches several lots (a subdivision) where a DA names one.
-- Victoria only: SPEAR is a Victorian system.
CREATE TABLE development.spear_application (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  dataset           text NOT NULL,
  -- the publisher the record came from: spear-export, sandbox
  source            text NOT NULL,
  -- SPEAR's own reference, e.g. S123456A; unique across Victoria
  spear_reference   text NOT NULL,
  application_type  text NOT NULL CHECK (application_type IN
    ('planning_permit', 'subdivision_permit', 'certification', 'permit_and_certification',
     'statement_of_compliance', 'plan_of_subdivision', 'other')),
  -- the responsible authority (council) as SPEAR names it, and the council's own permit number
  responsible_authority text NOT NULL,
  council_reference text,
  lga_code          text,
  status            text NOT NULL CHECK (status IN
    ('lodged', 'under_assessment', 'approved', 'certified', 'compliance_issued', 'registered',
     'refused', 'withdrawn', 'lapsed')),
  description       text,
  lodged_date       date,
  decided_date      date,
  -- the Vicmap parcel PFIs the application touches: a lot can be touched by several applications
  -- and an application touch several lots (GIN-indexed, so a lookup by lot is an index probe)
  parcel_pfis       text[] NOT NULL DEFAULT '{}',
  address           text,
  source_url        text,
  attribution       text NOT NULL,
  license           text NOT NULL,
  updated_at        timestamptz NOT NULL,
  -- when our copy last changed: set on insert and on a real change only
  received_at       timestamptz NOT NULL,
  -- the application's point: the source's, or a point on its first matched lot
  geom              geometry(Point, 4326),
  UNIQUE (dataset, spear_reference)
);
CREATE INDEX spear_application_geom_idx ON development.spear_application USING gist (geom);
CREATE INDEX spear_application_pfis_idx ON development.spear_application USING gin (parcel_pfis);
