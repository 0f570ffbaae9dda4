/** Statements of the OpenStreetMap ingest (cli/ingest/osm.ts): amenities, the walking network, coverage. */

export const UPSERT_AMENITIES = `INSERT INTO amenities.amenity (dataset, id, osm_type, osm_id, state, category, subcategory,
  school_sector, school_level, transport_mode, name, tags, geom)
SELECT $1::text, t.id, t.osm_type, t.osm_id, t.state, t.category, t.subcategory, t.school_sector, t.school_level,
  t.transport_mode, t.name, t.tags::jsonb, p.geom
FROM unnest($2::text[], $3::text[], $4::int8[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
  $10::text[], $11::text[], $12::text[], $13::text[])
  AS t(id, osm_type, osm_id, state, category, subcategory, school_sector, school_level, transport_mode, name, tags, wkt),
LATERAL (SELECT ST_GeomFromText(t.wkt, 4326) AS g) s,
-- a node is its point; a closed way its centroid, or a point on its surface where the centroid falls outside
-- (an L-shaped school ground); an open way (a platform drawn as a line) the middle of its length
LATERAL (SELECT CASE
  WHEN GeometryType(s.g) = 'POINT' THEN s.g
  WHEN GeometryType(s.g) = 'POLYGON' AND ST_IsValid(s.g) AND ST_Contains(s.g, ST_Centroid(s.g)) THEN ST_Centroid(s.g)
  WHEN GeometryType(s.g) = 'POLYGON' THEN ST_PointOnSurface(ST_MakeValid(s.g))
  ELSE ST_LineInterpolatePoint(s.g, 0.5) END AS geom) p
WHERE p.geom IS NOT NULL AND GeometryType(p.geom) = 'POINT'
ON CONFLICT (dataset, id) DO UPDATE SET osm_type = EXCLUDED.osm_type, osm_id = EXCLUDED.osm_id, state = EXCLUDED.state,
  category = EXCLUDED.category, subcategory = EXCLUDED.subcategory, school_sector = EXCLUDED.school_sector,
  school_level = EXCLUDED.school_level, transport_mode = EXCLUDED.transport_mode, name = EXCLUDED.name,
  tags = EXCLUDED.tags, geom = EXCLUDED.geom`;

export const UPSERT_NODES = `INSERT INTO amenities.walk_node (dataset, id, state, geom)
SELECT $1::text, t.id, t.state, ST_SetSRID(ST_MakePoint(t.lng, t.lat), 4326)
FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[]) AS t(id, state, lng, lat)
ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, geom = EXCLUDED.geom`;

export const UPSERT_EDGES = `INSERT INTO amenities.walk_edge (dataset, id, state, source, target, highway, length_m, geom)
SELECT $1::text, t.id, t.state, t.source, t.target, t.highway, ST_Length(s.g::geography), s.g
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
  AS t(id, state, source, target, highway, wkt),
LATERAL (SELECT ST_GeomFromText(t.wkt, 4326) AS g) s
ON CONFLICT (dataset, id) DO UPDATE SET state = EXCLUDED.state, source = EXCLUDED.source, target = EXCLUDED.target,
  highway = EXCLUDED.highway, length_m = EXCLUDED.length_m, geom = EXCLUDED.geom`;

/**
 * The area a layer of one file reaches in a state: the convex hull of what was loaded there,
 * widened by $6 metres, replacing the area of the same name.
 */
export const UPSERT_COVERAGE = `WITH hull AS (
  SELECT ST_ConvexHull(ST_Collect(geom)) AS g FROM (
    SELECT geom FROM amenities.walk_edge WHERE $3::text = 'walking-network' AND dataset = $1 AND state = $2
      AND id = ANY($7::text[])
    UNION ALL
    SELECT geom FROM amenities.amenity WHERE $3::text = 'amenities' AND dataset = $1 AND state = $2
      AND id = ANY($7::text[])
  ) x
)
INSERT INTO amenities.coverage (dataset, layer, state, name, snapshot_date, geom)
SELECT $1::text, $3::text, $2::text, $4::text, $5::date,
  ST_Multi(ST_CollectionExtract(ST_Buffer(hull.g::geography, $6::float8)::geometry, 3))
FROM hull WHERE hull.g IS NOT NULL
ON CONFLICT (dataset, layer, state, name) DO UPDATE SET snapshot_date = EXCLUDED.snapshot_date, geom = EXCLUDED.geom
RETURNING name`;

export const ANALYZE_AMENITY_TABLES =
  'ANALYZE amenities.amenity, amenities.walk_node, amenities.walk_edge, amenities.coverage';
