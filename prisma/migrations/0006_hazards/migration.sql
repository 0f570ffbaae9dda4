-- Hazards: flood, bushfire and contamination, as each state publishes them. Overlays are the
-- planning schemes' and state mappings' polygons (VIC LSIO/FO/SBO, BPA/BMO, EAO; NSW flood
-- planning area and bush fire prone land; QLD flood hazard and bushfire prone area), each with
-- the severity the code implies and the snapshot date of its source. Coverage tells "checked and
-- clear" from "the dataset does not reach the land", per hazard kind.
CREATE SCHEMA IF NOT EXISTS hazards;

CREATE TABLE hazards.overlay (
  dataset        text NOT NULL,
  id             text NOT NULL,
  state          text NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('flood', 'bushfire', 'contamination')),
  code           text NOT NULL,
  description    text NOT NULL,
  severity       text NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'extreme')),
  source_name    text NOT NULL,
  snapshot_date  date NOT NULL,
  geom           geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX hazard_overlay_geom_idx ON hazards.overlay USING gist (geom);

-- Contaminated land registers (EPA priority sites and the like): one point per listed site.
CREATE TABLE hazards.contamination_site (
  dataset        text NOT NULL,
  id             text NOT NULL,
  state          text NOT NULL,
  name           text NOT NULL,
  status         text NOT NULL,
  register       text NOT NULL,
  snapshot_date  date NOT NULL,
  geom           geometry(Point, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX contamination_site_geom_idx ON hazards.contamination_site USING gist (geom);

-- Classified bushfire vegetation (AS 3959 classes), for the BAL estimate's distance and class.
CREATE TABLE hazards.vegetation (
  dataset           text NOT NULL,
  id                text NOT NULL,
  state             text NOT NULL,
  vegetation_class  text NOT NULL CHECK (vegetation_class IN
    ('forest', 'woodland', 'shrubland', 'scrub', 'mallee_mulga', 'rainforest', 'grassland')),
  geom              geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX vegetation_geom_idx ON hazards.vegetation USING gist (geom);

-- Where each hazard's datasets reach, and the snapshot date of what is held there.
CREATE TABLE hazards.coverage (
  dataset        text NOT NULL,
  state          text NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('flood', 'bushfire', 'contamination')),
  name           text NOT NULL,
  snapshot_date  date NOT NULL,
  geom           geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, state, kind, name)
);
CREATE INDEX hazard_coverage_geom_idx ON hazards.coverage USING gist (geom);
