-- A DEM tile's header (its corner and cell sizes) must be finite numbers. The terrain statement is
-- folded with the other layers' statements of its turn (core/folded-sql.ts), which returns columns
-- through JSON, where a float8 NaN or Infinity would come back as a string. (PostgreSQL orders NaN
-- above every number, so the ranges below refuse it as well as the infinities.)
ALTER TABLE terrain.dem_tile ADD CONSTRAINT dem_tile_finite_header CHECK (
  west BETWEEN -180 AND 180 AND north BETWEEN -90 AND 90
  AND cell_lng > 0 AND cell_lng < 1 AND cell_lat > 0 AND cell_lat < 1
);
