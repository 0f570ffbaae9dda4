-- Amenities and the walking network, from OpenStreetMap (ODbL, "© OpenStreetMap contributors"):
-- the points people walk to (schools, childcare, supermarkets, transport stops, retail,
-- recreation, cafes, hospitals) and the walkable ways between them, split at every node two
-- ways share, so the walking catchment (/v1/catchment/walking) can run Dijkstra over edges.
-- Every table is partitioned by dataset, like every other layer; no foreign keys (loaders write
-- a dataset table by table and delete it the same way).
CREATE SCHEMA IF NOT EXISTS amenities;

CREATE TABLE amenities.amenity (
  dataset         text NOT NULL,
  -- 'node/123' or 'way/456' for OpenStreetMap objects; the sandbox's own ids otherwise
  id              text NOT NULL,
  osm_type        text NOT NULL CHECK (osm_type IN ('node', 'way', 'relation', 'synthetic')),
  osm_id          bigint,
  state           text NOT NULL,
  category        text NOT NULL CHECK (category IN
    ('school', 'childcare', 'supermarket', 'transport', 'retail', 'recreation', 'cafe', 'hospital')),
  -- the tag value that classed it: primary school, kindergarten, bus_stop, park, bakery...
  subcategory     text,
  -- schools: government, catholic or independent, and primary, secondary, combined or special,
  -- where the tags say (operator:type, isced:level, school:AU:type...); null where they do not
  school_sector   text CHECK (school_sector IN ('government', 'catholic', 'independent')),
  school_level    text CHECK (school_level IN ('primary', 'secondary', 'combined', 'special')),
  -- transport stops: bus, train, tram, light_rail or ferry
  transport_mode  text CHECK (transport_mode IN ('bus', 'train', 'tram', 'light_rail', 'ferry')),
  name            text,
  -- every tag of the object as mapped
  tags            jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- a node's point, or a closed way's centroid (a point on its surface where the centroid falls outside)
  geom            geometry(Point, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX amenity_geom_idx ON amenities.amenity USING gist (geom);
CREATE INDEX amenity_category_idx ON amenities.amenity (dataset, state, category);

-- The walking network: a node wherever a walkable way ends or meets another.
CREATE TABLE amenities.walk_node (
  dataset  text NOT NULL,
  -- OpenStreetMap's node id as text, or the sandbox's own
  id       text NOT NULL,
  state    text NOT NULL,
  geom     geometry(Point, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX walk_node_geom_idx ON amenities.walk_node USING gist (geom);

-- One edge per stretch of a walkable way between two network nodes; walked both ways.
CREATE TABLE amenities.walk_edge (
  dataset    text NOT NULL,
  -- '<way id>-<n>': the way and the edge's place along it
  id         text NOT NULL,
  state      text NOT NULL,
  source     text NOT NULL,
  target     text NOT NULL,
  -- the way's highway tag: footway, path, residential, primary...
  highway    text NOT NULL,
  length_m   double precision NOT NULL CHECK (length_m >= 0),
  geom       geometry(LineString, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX walk_edge_geom_idx ON amenities.walk_edge USING gist (geom);

-- Where each layer's source reaches, per state: layer is amenities or walking-network.
CREATE TABLE amenities.coverage (
  dataset        text NOT NULL,
  layer          text NOT NULL CHECK (layer IN ('amenities', 'walking-network')),
  state          text NOT NULL,
  name           text NOT NULL,
  snapshot_date  date NOT NULL,
  geom           geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, layer, state, name)
);
CREATE INDEX amenities_coverage_geom_idx ON amenities.coverage USING gist (geom);
