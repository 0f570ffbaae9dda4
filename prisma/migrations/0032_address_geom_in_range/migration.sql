-- An address's point must lie in longitude and latitude range. No place in Australia is outside it,
-- and a NaN or infinite coordinate (a G-NAF LATITUDE of "NaN" casts to one) would reach every route
-- that reads the point: JSON built in SQL spells it as a string, and distances and intersections
-- with it answer nothing. The G-NAF ingest checks each geocode as it reads it and names the line
-- (cli/ingest/gnaf.ts); this is the rule for every other writer. PostgreSQL orders NaN above every
-- number, so the ranges refuse it as well as the infinities; an empty point has no coordinates (NULL).
ALTER TABLE address.address_detail ADD CONSTRAINT address_detail_geom_in_range CHECK (
  geom IS NULL OR (ST_X(geom) BETWEEN -180 AND 180 AND ST_Y(geom) BETWEEN -90 AND 90)
);
