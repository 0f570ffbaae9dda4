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

export type WalkInputRow = {
  i: number;
  node_id: string | null;
  node_distance_m: number | null;
  /** Every edge within the key's reach; null where no node is near (no walk). */
  edges: EdgeRow[] | null;
};

/**
 * What the walks of a batch of points start from, in one statement: for each point (by index),
 * the network node nearest it within `snapM` (as NEAREST_NODE) and, where there is one, every edge
 * within its reach (as EDGES_WITHIN).
 */
export const WALK_INPUTS = (
  dataset: string,
  states: string[],
  lngs: number[],
  lats: number[],
  reaches: number[],
  snapM: number,
) => Prisma.sql`
  WITH k AS (
    SELECT (u.i - 1)::int AS i, u.state, u.reach, ST_SetSRID(ST_MakePoint(u.lng, u.lat), 4326) AS g
    FROM unnest(${states}::text[], ${lngs}::float8[], ${lats}::float8[], ${reaches}::float8[])
      WITH ORDINALITY AS u(state, lng, lat, reach, i)
  )
  SELECT k.i, n.id AS node_id, n.distance_m AS node_distance_m,
    CASE WHEN n.id IS NULL THEN NULL ELSE (
      SELECT coalesce(json_agg(json_build_object('id', e.id, 'source', e.source, 'target', e.target,
        'length_m', e.length_m::float8)), '[]'::json)
      FROM amenities.walk_edge e
      WHERE e.dataset = ${dataset} AND e.state = k.state
        -- the bbox lets the GiST index answer (degrees surely covering the reach, as degreesFor)
        AND e.geom && ST_Expand(k.g, k.reach / 80000.0 + 0.0005)
        AND ST_DWithin(e.geom::geography, k.g::geography, k.reach)
    ) END AS edges
  FROM k
  LEFT JOIN LATERAL (
    SELECT c.id, ST_Distance(c.geom::geography, k.g::geography)::float8 AS distance_m
    FROM (
      SELECT n.id, n.geom FROM amenities.walk_node n
      WHERE n.dataset = ${dataset} AND n.state = k.state
      ORDER BY n.geom <-> k.g
      LIMIT 8
    ) c
    WHERE ST_DWithin(c.geom::geography, k.g::geography, ${snapM}::float8)
    ORDER BY distance_m, c.id
    LIMIT 1
  ) n ON true
  ORDER BY k.i`;

export type CatchmentsRow = { i: number; polygon: string | null; amenities: AmenityRow[] | null };

/** One catchment of a batch: its point, and the straight-line radius where it has no walk. */
export type CatchmentKey = { state: string; lng: number; lat: number; bufferM: number | null };

/**
 * Every catchment of a batch in one statement, by index: its polygon as GeoJSON and every amenity
 * inside it with its walking distance, nearest walk first.
 * - the area of a walked catchment is a band `bandM` metres along each reached part (`parts`),
 *   each part buffered on its own in metres on GDA94 Australian Albers (EPSG:3577) and the bands
 *   unioned: not one buffer of all the parts, for which the embedded database's GEOS returns no row
 *   at all (a 15-minute walk's few hundred lines), and on PostgreSQL the union of small bands is
 *   the fastest form measured (docs/benchmarks.md); at 40 m Albers' scale error is centimetres;
 * - the area of a catchment with no walk (`bufferM`) is the straight-line buffer round its point;
 * - an amenity's walking distance is taken over its own catchment's reached edges (`reached`: the
 *   metres from the origin to each edge's ends), null within none.
 */
export const CATCHMENTS = (
  dataset: string,
  keys: readonly CatchmentKey[],
  parts: { i: number[]; ids: string[]; froms: number[]; tos: number[] },
  reached: { i: number[]; ids: string[]; ds: number[]; dt: number[] },
  bandM: number,
  snapM: number,
) => Prisma.sql`
  WITH k AS MATERIALIZED (
    SELECT (u.i - 1)::int AS i, u.state, u.buffer_m, ST_SetSRID(ST_MakePoint(u.lng, u.lat), 4326) AS g
    FROM unnest(${keys.map((k) => k.state)}::text[], ${keys.map((k) => k.lng)}::float8[],
      ${keys.map((k) => k.lat)}::float8[], ${keys.map((k) => k.bufferM)}::float8[])
      WITH ORDINALITY AS u(state, lng, lat, buffer_m, i)
  ),
  part AS (
    SELECT p.i, ST_LineSubstring(e.geom, p.f, p.t) AS g
    FROM unnest(${parts.i}::int[], ${parts.ids}::text[], ${parts.froms}::float8[], ${parts.tos}::float8[]) AS p(i, id, f, t)
    JOIN amenities.walk_edge e ON e.dataset = ${dataset} AND e.id = p.id
    WHERE p.t > p.f
  ),
  area AS MATERIALIZED (
    SELECT part.i, ST_Transform(ST_Union(ST_Buffer(ST_Transform(part.g, 3577), ${bandM}::float8, 'quad_segs=4')), 4326) AS g
    FROM part GROUP BY part.i
    UNION ALL
    SELECT k.i, ST_Buffer(k.g::geography, k.buffer_m, 'quad_segs=16')::geometry FROM k WHERE k.buffer_m IS NOT NULL
  ),
  reached AS MATERIALIZED (
    SELECT * FROM unnest(${reached.i}::int[], ${reached.ids}::text[], ${reached.ds}::float8[], ${reached.dt}::float8[])
      AS r(i, id, ds, dt)
  ),
  inside AS (
    SELECT k.i, a.*, ST_Distance(a.geom::geography, k.g::geography)::float8 AS distance_m
    FROM k
    JOIN area ON area.i = k.i
    JOIN amenities.amenity a ON a.dataset = ${dataset} AND a.state = k.state AND a.geom && area.g
      AND ST_Intersects(a.geom, area.g)
  ),
  found AS (
    SELECT a.i, ${AMENITY_COLUMNS}, a.distance_m, w.walk_m::float8 AS walking_distance_m
    FROM inside a
    LEFT JOIN LATERAL (
      SELECT least(r.ds + f.frac * e.length_m, r.dt + (1 - f.frac) * e.length_m)
               + ST_Distance(a.geom::geography, ST_LineInterpolatePoint(e.geom, f.frac)::geography) AS walk_m
      FROM amenities.walk_edge e
      JOIN reached r ON r.id = e.id AND r.i = a.i
      CROSS JOIN LATERAL (SELECT ST_LineLocatePoint(e.geom, a.geom) AS frac) f
      WHERE e.dataset = ${dataset} AND e.id = ANY(SELECT r2.id FROM reached r2 WHERE r2.i = a.i)
        AND ST_DWithin(e.geom::geography, a.geom::geography, ${snapM}::float8)
      ORDER BY e.geom <-> a.geom
      LIMIT 1
    ) w ON true
  )
  SELECT k.i, (SELECT ST_AsGeoJSON(area.g, 7) FROM area WHERE area.i = k.i) AS polygon,
    (SELECT coalesce(json_agg(to_jsonb(f) - 'i' ORDER BY f.walking_distance_m NULLS LAST, f.distance_m, f.id), '[]'::json)
     FROM found f WHERE f.i = k.i) AS amenities
  FROM k ORDER BY k.i`;

export type SuburbCountRow = { category: string; count: number; nearest_m: number | null; nearest_name: string | null };
export type SuburbCountWithCentreRow = SuburbCountRow & { centre_lat: number; centre_lng: number };

/**
 * Per category: how many amenities lie inside the extent, and the nearest to its centre (KNN);
 * every row also carries the centre (the extent's centroid). The extent is `shape` itself where
 * `marginM` is null (a SAL boundary), else `shape` widened `marginM` metres (a suburb's address
 * hull, which the address subgraph gives through the graph). A widened extent is written out and
 * read back at 7 decimals: the extent the hull answers have always been counted in (centimetres;
 * it came from the SQL that drew it as GeoJSON text), so the counts and centre stay the same.
 */
export const SUBURB_COUNTS = (
  dataset: string,
  state: string,
  shape: string,
  marginM: number | null,
  categories: string[],
) => Prisma.sql`
  WITH given AS MATERIALIZED (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${shape}::text), 4326) AS g),
  area AS MATERIALIZED (
    SELECT CASE WHEN ${marginM}::float8 IS NULL THEN g
      ELSE ST_SetSRID(ST_GeomFromGeoJSON(ST_AsGeoJSON(ST_Buffer(g::geography, ${marginM}::float8)::geometry, 7)), 4326)
      END AS g
    FROM given
  ),
  centre AS MATERIALIZED (SELECT ST_Centroid(g) AS g FROM area)
  SELECT c.category, ST_Y(centre.g)::float8 AS centre_lat, ST_X(centre.g)::float8 AS centre_lng,
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
