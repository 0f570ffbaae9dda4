-- Soil: indicative clay content and soil depth, mapped to a footing-risk band (AS 2870 site
-- classes). The attributes follow CSIRO's Soil and Landscape Grid of Australia (SLGA): CLY
-- (clay, the < 2 µm mass fraction of the < 2 mm soil, percent) and DES (depth of soil, the A
-- and B horizons, metres), summarised over polygons as ASRIS land-unit tracts are; reactivity
-- is the source's shrink-swell class. Coverage is where the source was mapped, so a point
-- inside it with no polygon is "no data" and one outside it "not covered".
CREATE SCHEMA IF NOT EXISTS soil;

CREATE TABLE soil.polygon (
  dataset       text NOT NULL,
  id            text NOT NULL,
  state         text NOT NULL,
  clay_percent  double precision NOT NULL CHECK (clay_percent BETWEEN 0 AND 100),
  depth_m       double precision NOT NULL CHECK (depth_m >= 0),
  -- 'problem' marks land no reactivity class describes: deep fill, soft soils, mine tailings
  reactivity    text NOT NULL
    CHECK (reactivity IN ('nil', 'low', 'moderate', 'high', 'very_high', 'extreme', 'problem')),
  -- the product the figures come from, e.g. 'SLGA CLY/DES v2 (modelled, 90 m)'
  source        text NOT NULL,
  -- when the source published them: the layer's freshness
  source_date   date NOT NULL,
  geom          geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX soil_polygon_geom_idx ON soil.polygon USING gist (geom);

CREATE TABLE soil.coverage (
  dataset  text NOT NULL,
  state    text NOT NULL,
  name     text NOT NULL,
  geom     geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, state, name)
);
CREATE INDEX soil_coverage_geom_idx ON soil.coverage USING gist (geom);
