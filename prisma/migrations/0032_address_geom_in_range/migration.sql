-- An address's point must lie in longitude and latitude range. The principal-address lookups are
-- folded with the other layers' statements of their turn (core/folded-sql.ts), which returns
-- columns through JSON, where a float8 NaN or Infinity from ST_X / ST_Y would come back as a
-- string. (PostgreSQL orders NaN above every number, so the ranges refuse it as well as the
-- infinities; an empty point has no coordinates, NULL, which JSON returns as the driver does.)
ALTER TABLE address.address_detail ADD CONSTRAINT address_detail_geom_in_range CHECK (
  geom IS NULL OR (ST_X(geom) BETWEEN -180 AND 180 AND ST_Y(geom) BETWEEN -90 AND 90)
);
