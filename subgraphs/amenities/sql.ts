import { Prisma } from '../../generated/prisma/client.ts';

/** Statements of the amenities subgraph: amenities, the walking network and its catchment. */

const point = (lng: number, lat: number) => Prisma.sql`ST_SetSRID(ST_MakePoint(${lng}::float8, ${lat}::float8), 4326)`;

/** Degrees that surely cover `m` metres at Australian latitudes (a longitude degree is >= 80 km there). */
const degreesFor = (m: number) => m / 80_000 + 0.0005;

export type NearestNodeRow = { id: string; distance_m: number };

/** The network node nearest a point (GiST KNN), with its distance in metres; none beyond `snapM`. */
export const NEAREST_NODE = (dataset: string, state: string, lng: number, lat: number, snapM: number) => Prisma.sql`
  WITH pt AS NOT MATERIALIZED (SELECT ${point(lng, lat)} AS g),
  candidates AS (
    SELECT n.id, n.geom FROM amenities.walk_node n, pt
    WHERE n.dataset = ${dataset} AND n.state = ${state}
    ORDER BY n.geom <-> pt.g
    LIMIT 8
  )
  SELECT c.id, ST_Distance(c.geom::geography, pt.g::geography)::float8 AS distance_m
  FROM candidates c, pt
  WHERE ST_DWithin(c.geom::geography, pt.g::geography, ${snapM}::float8)
  ORDER BY distance_m, c.id
  LIMIT 1`;

export type EdgeRow = { id: string; source: string; target: string; length_m: number };

/** Every edge within `reachM` metres of a point, in one statement (the bbox lets the GiST index answer). */
export const EDGES_WITHIN = (dataset: string, state: string, lng: number, lat: number, reachM: number) => Prisma.sql`
  WITH pt AS NOT MATERIALIZED (SELECT ${point(lng, lat)} AS g)
  SELECT e.id, e.source, e.target, e.length_m::float8 AS length_m
  FROM amenities.walk_edge e, pt
  WHERE e.dataset = ${dataset} AND e.state = ${state}
    AND e.geom && ST_Expand(pt.g, ${degreesFor(reachM)}::float8)
    AND ST_DWithin(e.geom::geography, pt.g::geography, ${reachM}::float8)`;

export type AmenityRow = {
  id: string;
  osm_type: string;
  osm_id: number | null;
  category: string;
  subcategory: string | null;
  school_sector: string | null;
  school_level: string | null;
  transport_mode: string | null;
  name: string | null;
  tags: Record<string, string> | string;
  lat: number;
  lng: number;
  distance_m: number;
  walking_distance_m: number | null;
};

const AMENITY_COLUMNS = Prisma.sql`a.id, a.osm_type, a.osm_id::float8 AS osm_id, a.category, a.subcategory, a.school_sector,
  a.school_level, a.transport_mode, a.name, a.tags, ST_Y(a.geom)::float8 AS lat, ST_X(a.geom)::float8 AS lng`;

/**
 * Where the walk reaches an amenity: its nearest reached edge (GiST KNN among the edges the walk
 * reached), the point of that edge nearest it, the network distance to that point from the
 * nearer end (`ds`/`dt`: metres to the edge's source and target, from the walk), plus the
 * straight step from the edge to the amenity. Null when no reached edge lies within `snapM`.
 */
const walkTo = (dataset: string, snapM: number) => Prisma.sql`
  LEFT JOIN LATERAL (
    SELECT least(r.ds + f.frac * e.length_m, r.dt + (1 - f.frac) * e.length_m)
             + ST_Distance(a.geom::geography, ST_LineInterpolatePoint(e.geom, f.frac)::geography) AS walk_m
    FROM amenities.walk_edge e
    JOIN reached r ON r.id = e.id
    CROSS JOIN LATERAL (SELECT ST_LineLocatePoint(e.geom, a.geom) AS frac) f
    WHERE e.dataset = ${dataset} AND e.id = ANY(SELECT id FROM reached)
      AND ST_DWithin(e.geom::geography, a.geom::geography, ${snapM}::float8)
    ORDER BY e.geom <-> a.geom
    LIMIT 1
  ) w ON true`;

const reachedCte = (ids: string[], ds: number[], dt: number[]) => Prisma.sql`
  reached AS MATERIALIZED (SELECT * FROM unnest(${ids}::text[], ${ds}::float8[], ${dt}::float8[]) AS r(id, ds, dt))`;

/**
 * Amenities of `categories` within `radiusM` of a point, nearest first, at most `limit`, with
 * straight-line distance and, from the walk's reached edges, walking distance.
 */
export const AMENITIES_NEAR = (
  dataset: string,
  state: string,
  lng: number,
  lat: number,
  categories: string[],
  radiusM: number,
  limit: number,
  walk: { ids: string[]; ds: number[]; dt: number[]; snapM: number },
) => Prisma.sql`
  WITH pt AS NOT MATERIALIZED (SELECT ${point(lng, lat)} AS g),
  ${reachedCte(walk.ids, walk.ds, walk.dt)},
  near AS (
    SELECT a.*, ST_Distance(a.geom::geography, pt.g::geography)::float8 AS distance_m
    FROM amenities.amenity a, pt
    WHERE a.dataset = ${dataset} AND a.state = ${state} AND a.category = ANY(${categories}::text[])
      AND a.geom && ST_Expand(pt.g, ${degreesFor(radiusM)}::float8)
      AND ST_DWithin(a.geom::geography, pt.g::geography, ${radiusM}::float8)
    ORDER BY distance_m, a.id
    LIMIT ${limit}::int
  )
  SELECT ${AMENITY_COLUMNS}, a.distance_m, w.walk_m::float8 AS walking_distance_m
  FROM near a
  ${walkTo(dataset, walk.snapM)}
  ORDER BY a.distance_m, a.id`;

/** The catchment's area from the walk's reached parts: a band `bandM` metres along each (see CATCHMENT). */
export const AREA_OF_PARTS = (dataset: string, ids: string[], froms: number[], tos: number[], bandM: number) =>
  Prisma.sql`
  part AS (
    SELECT ST_LineSubstring(e.geom, p.f, p.t) AS g
    FROM unnest(${ids}::text[], ${froms}::float8[], ${tos}::float8[]) AS p(id, f, t)
    JOIN amenities.walk_edge e ON e.dataset = ${dataset} AND e.id = p.id
    WHERE p.t > p.f
  ),
  -- The band is each reached part buffered on its own, in metres on GDA94 Australian Albers
  -- (EPSG:3577), and the bands unioned. Not one buffer of all the parts together: the embedded
  -- database's GEOS returns no row at all for a buffer of a few hundred lines (a 15-minute walk),
  -- and on PostgreSQL the union of small bands is the fastest of the forms measured (16 ms for a
  -- 15-minute walk, against 43 ms for one buffer; docs/benchmarks.md). At 40 m Albers' scale
  -- error is centimetres.
  area AS MATERIALIZED (
    SELECT ST_Transform(ST_Union(ST_Buffer(ST_Transform(g, 3577), ${bandM}::float8, 'quad_segs=4')), 4326) AS g
    FROM part
  )`;

/** The catchment's area with no network: a straight-line buffer of `radiusM` round the point. */
export const AREA_OF_BUFFER = (lng: number, lat: number, radiusM: number) => Prisma.sql`
  area AS MATERIALIZED (SELECT ST_Buffer(${point(lng, lat)}::geography, ${radiusM}::float8, 'quad_segs=16')::geometry AS g)`;

export type CatchmentRow = { polygon: string | null; amenities: AmenityRow[] | null };

/**
 * The catchment in one statement: its polygon (`area`: AREA_OF_PARTS or AREA_OF_BUFFER) as
 * GeoJSON, and every amenity inside it with its walking distance, nearest walk first. With no
 * network (`ids` empty) the walking distance is null and the straight line stands.
 */
export const CATCHMENT = (
  dataset: string,
  state: string,
  lng: number,
  lat: number,
  area: Prisma.Sql,
  walk: { ids: string[]; ds: number[]; dt: number[]; snapM: number },
) => Prisma.sql`
  WITH pt AS NOT MATERIALIZED (SELECT ${point(lng, lat)} AS g),
  ${area},
  ${reachedCte(walk.ids, walk.ds, walk.dt)},
  inside AS (
    SELECT a.*, ST_Distance(a.geom::geography, pt.g::geography)::float8 AS distance_m
    FROM amenities.amenity a, area, pt
    WHERE a.dataset = ${dataset} AND a.state = ${state} AND a.geom && area.g AND ST_Intersects(a.geom, area.g)
  ),
  found AS (
    SELECT ${AMENITY_COLUMNS}, a.distance_m, w.walk_m::float8 AS walking_distance_m
    FROM inside a
    ${walkTo(dataset, walk.snapM)}
  )
  SELECT (SELECT ST_AsGeoJSON(g, 7) FROM area) AS polygon,
    (SELECT coalesce(json_agg(f ORDER BY f.walking_distance_m NULLS LAST, f.distance_m, f.id), '[]'::json)
     FROM found f) AS amenities`;

export type SuburbExtentRow = {
  addresses: number;
  centre_lat: number | null;
  centre_lng: number | null;
  extent: string | null;
};

/**
 * A suburb's extent until the Census SAL boundaries are held: the convex hull of its G-NAF
 * address points, widened `marginM` metres (an amenity on the boundary road still counts).
 */
export const SUBURB_EXTENT = (dataset: string, state: string, suburb: string, marginM: number) => Prisma.sql`
  WITH hull AS (
    SELECT count(*)::int AS addresses, ST_ConvexHull(ST_Collect(d.geom)) AS g
    FROM address.locality l
    JOIN address.address_detail d ON d.dataset = l.dataset AND d.locality_pid = l.locality_pid
    WHERE l.dataset = ${dataset} AND l.state = ${state} AND upper(l.locality_name) = ${suburb}
  ), extent AS (
    SELECT addresses, ST_Buffer(g::geography, ${marginM}::float8)::geometry AS g FROM hull WHERE g IS NOT NULL
  )
  SELECT addresses, ST_Y(ST_Centroid(g))::float8 AS centre_lat, ST_X(ST_Centroid(g))::float8 AS centre_lng,
    ST_AsGeoJSON(g, 7) AS extent
  FROM extent`;

export type SuburbCountRow = { category: string; count: number; nearest_m: number | null; nearest_name: string | null };

/** Per category: how many amenities lie inside the extent, and the nearest to its centre (KNN). */
export const SUBURB_COUNTS = (dataset: string, state: string, extent: string, categories: string[]) => Prisma.sql`
  WITH area AS MATERIALIZED (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${extent}::text), 4326) AS g),
  centre AS MATERIALIZED (SELECT ST_Centroid(g) AS g FROM area)
  SELECT c.category,
    (SELECT count(*)::int FROM amenities.amenity a, area
     WHERE a.dataset = ${dataset} AND a.state = ${state} AND a.category = c.category
       AND a.geom && area.g AND ST_Intersects(a.geom, area.g)) AS count,
    n.nearest_m, n.name AS nearest_name
  FROM unnest(${categories}::text[]) WITH ORDINALITY AS c(category, i)
  CROSS JOIN centre
  LEFT JOIN LATERAL (
    SELECT a.name, ST_Distance(a.geom::geography, centre.g::geography)::float8 AS nearest_m
    FROM amenities.amenity a
    WHERE a.dataset = ${dataset} AND a.state = ${state} AND a.category = c.category
    ORDER BY a.geom <-> centre.g
    LIMIT 1
  ) n ON true
  ORDER BY c.i`;
