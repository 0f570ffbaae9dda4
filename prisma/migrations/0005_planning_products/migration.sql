-- What the planning products stand on beyond zones and overlays: Melbourne-style urban growth
-- boundaries, building-code climate zones, road centrelines (to tell a parcel's front boundary
-- from its sides) and a terrain model (contours, terrain statistics and elevation derive from it).
CREATE SCHEMA IF NOT EXISTS roads;
CREATE SCHEMA IF NOT EXISTS terrain;

-- Urban growth boundary (Vicmap Planning's UGB layer): land inside is set aside for urban
-- growth; GAIC (Growth Areas Infrastructure Contribution) applies only in the contribution areas.
CREATE TABLE planning.ugb (
  dataset       text NOT NULL,
  id            text NOT NULL,
  state         text NOT NULL,
  lga_code      text,
  lga_name      text NOT NULL,
  gaic_applies  boolean NOT NULL,
  geom          geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX ugb_geom_idx ON planning.ugb USING gist (geom);

-- National Construction Code climate zones (1 to 8), as the ABCB climate zone map draws them.
CREATE TABLE planning.climate_zone (
  dataset       text NOT NULL,
  id            text NOT NULL,
  state         text NOT NULL,
  climate_zone  integer NOT NULL CHECK (climate_zone BETWEEN 1 AND 8),
  geom          geometry(MultiPolygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX climate_zone_geom_idx ON planning.climate_zone USING gist (geom);

-- Road centrelines (Vicmap Transport / NSW and QLD road networks): name and class per segment.
CREATE TABLE roads.centreline (
  dataset     text NOT NULL,
  id          text NOT NULL,
  state       text NOT NULL,
  road_name   text,
  road_class  text NOT NULL,
  geom        geometry(LineString, 4326) NOT NULL,
  PRIMARY KEY (dataset, id)
);
CREATE INDEX centreline_geom_idx ON roads.centreline USING gist (geom);

-- A digital elevation model as tiles of a regular lng/lat grid: heights (metres AHD) row by
-- row from the north-west corner, cell centres at west + (col + 0.5) * cell_lng and
-- north - (row + 0.5) * cell_lat. Tiles of one dataset and state share the grid, so
-- neighbours join without seams.
CREATE TABLE terrain.dem_tile (
  dataset   text NOT NULL,
  state     text NOT NULL,
  tile_id   text NOT NULL,
  west      double precision NOT NULL,
  north     double precision NOT NULL,
  cell_lng  double precision NOT NULL,
  cell_lat  double precision NOT NULL,
  cols      integer NOT NULL CHECK (cols > 0),
  rows      integer NOT NULL CHECK (rows > 0),
  heights   double precision[] NOT NULL,
  extent    geometry(Polygon, 4326) NOT NULL,
  PRIMARY KEY (dataset, state, tile_id),
  CHECK (cardinality(heights) = cols * rows)
);
CREATE INDEX dem_tile_extent_idx ON terrain.dem_tile USING gist (extent);
