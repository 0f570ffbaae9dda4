import { Prisma } from '../../generated/prisma/client.ts';

export type LiveRollup = {
  active_lots: number;
  available_lots: number;
  under_offer_lots: number;
  sold_lots: number;
  withdrawn_lots: number;
  median_asking_price: number | null;
};

export type EstateRow = {
  estate_id: string;
  name: string;
  developer: string | null;
  state: string;
  lga_code: string | null;
  lga_name: string | null;
  suburb: string | null;
  status: string;
  location: { lat: number; lng: number };
  rollup: LiveRollup;
  attribution: string;
  license: string;
  distance_km?: number | null;
};

export type LotRow = {
  lot_id: string;
  lot_number: string | null;
  estate: { estate_id: string; name: string; developer: string | null; active_lots: number; available_lots: number };
  state: string;
  suburb: string | null;
  asking_price: number | null;
  area_m2: number | null;
  frontage_m: number | null;
  depth_m: number | null;
  title_status: string;
  sales_status: string;
  location: { lat: number; lng: number };
  aspect: string | null;
  aspect_source: string | null;
  attribution: string;
  license: string;
  distance_km?: number | null;
};

export type WeekRow = {
  week: string;
  active_lots: number;
  available_lots: number;
  new_lots: number;
  sold_or_delisted_lots: number;
  median_asking_price: number | null;
};

const ON_MARKET = Prisma.sql`('available', 'under_offer')`;

/** The lots of the estates `estates` (a subquery of estate ids) now, one row per estate (the live rollup). */
const LIVE = (dataset: string, estates: Prisma.Sql) => Prisma.sql`
  SELECT l.estate_id,
    count(*) FILTER (WHERE l.sales_status IN ${ON_MARKET})::int AS active_lots,
    count(*) FILTER (WHERE l.sales_status = 'available')::int AS available_lots,
    count(*) FILTER (WHERE l.sales_status = 'under_offer')::int AS under_offer_lots,
    count(*) FILTER (WHERE l.sales_status = 'sold')::int AS sold_lots,
    count(*) FILTER (WHERE l.sales_status = 'withdrawn')::int AS withdrawn_lots,
    percentile_cont(0.5) WITHIN GROUP (ORDER BY l.asking_price) FILTER (WHERE l.sales_status = 'available')
      AS median_asking_price
  FROM supply.lot l WHERE l.dataset = ${dataset} AND l.estate_id IN (${estates}) GROUP BY l.estate_id`;

const ESTATE_COLUMNS = Prisma.sql`e.estate_id, e.name, e.developer, e.state, e.lga_code, e.lga_name, e.suburb, e.status,
  json_build_object('lat', ST_Y(e.geom), 'lng', ST_X(e.geom)) AS location,
  json_build_object('active_lots', coalesce(r.active_lots, 0), 'available_lots', coalesce(r.available_lots, 0),
    'under_offer_lots', coalesce(r.under_offer_lots, 0), 'sold_lots', coalesce(r.sold_lots, 0),
    'withdrawn_lots', coalesce(r.withdrawn_lots, 0), 'median_asking_price', r.median_asking_price) AS rollup,
  e.attribution, e.license`;

const point = (lng: number, lat: number) => Prisma.sql`ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326)`;

/** Estates within a radius, nearest first; the box lets the GiST index narrow, the geography distance decides. */
export const ESTATES_NEAR = (dataset: string, lng: number, lat: number, radiusM: number, box: Box, limit: number) =>
  Prisma.sql`
  WITH live AS (${LIVE(
    dataset,
    Prisma.sql`SELECT b.estate_id FROM supply.estate b WHERE b.dataset = ${dataset}
      AND b.geom && ${envelope(box)}`,
  )})
  SELECT ${ESTATE_COLUMNS}, ST_Distance(e.geom::geography, ${point(lng, lat)}::geography) / 1000 AS distance_km
  FROM supply.estate e LEFT JOIN live r ON r.estate_id = e.estate_id
  WHERE e.dataset = ${dataset} AND e.geom && ${envelope(box)}
    AND ST_DWithin(e.geom::geography, ${point(lng, lat)}::geography, ${radiusM})
  ORDER BY distance_km, e.estate_id
  LIMIT ${limit + 1}`;

export type Box = { west: number; south: number; east: number; north: number };
const envelope = (box: Box) => Prisma.sql`ST_MakeEnvelope(${box.west}, ${box.south}, ${box.east}, ${box.north}, 4326)`;

const LOT_COLUMNS = Prisma.sql`l.lot_id, l.lot_number,
  json_build_object('estate_id', e.estate_id, 'name', e.name, 'developer', e.developer,
    'active_lots', coalesce(r.active_lots, 0), 'available_lots', coalesce(r.available_lots, 0)) AS estate,
  l.state, l.suburb, l.asking_price, l.area_m2, l.frontage_m, l.depth_m, l.title_status, l.sales_status,
  json_build_object('lat', ST_Y(l.geom), 'lng', ST_X(l.geom)) AS location, l.aspect, l.aspect_source,
  e.attribution, e.license`;

/** Lots within a radius, nearest first (only the available ones when asked). */
export const LOTS_NEAR = (
  dataset: string,
  lng: number,
  lat: number,
  radiusM: number,
  box: Box,
  availableOnly: boolean,
  limit: number,
) => Prisma.sql`
  WITH live AS (${LIVE(
    dataset,
    Prisma.sql`SELECT b.estate_id FROM supply.lot b WHERE b.dataset = ${dataset} AND b.geom && ${envelope(box)}`,
  )})
  SELECT ${LOT_COLUMNS}, ST_Distance(l.geom::geography, ${point(lng, lat)}::geography) / 1000 AS distance_km
  FROM supply.lot l
  JOIN supply.estate e ON e.dataset = l.dataset AND e.estate_id = l.estate_id
  LEFT JOIN live r ON r.estate_id = l.estate_id
  WHERE l.dataset = ${dataset} AND l.geom && ST_MakeEnvelope(${box.west}, ${box.south}, ${box.east}, ${box.north}, 4326)
    AND ST_DWithin(l.geom::geography, ${point(lng, lat)}::geography, ${radiusM})
    ${availableOnly ? Prisma.sql`AND l.sales_status = 'available'` : Prisma.empty}
  ORDER BY distance_km, l.lot_id
  LIMIT ${limit + 1}`;

/**
 * A place's weekly series over the `weeks` weeks to the latest rolled-up week of the dataset:
 * every week listed, zero where the place had nothing that week.
 */
export const SERIES = (dataset: string, level: 'estate' | 'suburb' | 'state', place: string, weeks: number) =>
  Prisma.sql`
  WITH last AS (SELECT max(week) AS week FROM supply.weekly_rollup WHERE dataset = ${dataset}),
  calendar AS (
    SELECT (l.week - 7 * g)::date AS week FROM last l, generate_series(0, ${weeks - 1}) AS g WHERE l.week IS NOT NULL
  )
  SELECT c.week::text AS week, coalesce(r.active_lots, 0) AS active_lots, coalesce(r.available_lots, 0) AS available_lots,
    coalesce(r.new_lots, 0) AS new_lots, coalesce(r.sold_or_delisted_lots, 0) AS sold_or_delisted_lots,
    r.median_asking_price
  FROM calendar c LEFT JOIN supply.weekly_rollup r
    ON r.dataset = ${dataset} AND r.level = ${level} AND r.place = ${place} AND r.week = c.week
  ORDER BY c.week`;

/** Estates by id, or of a suburb (only those selling now when asked), with their live rollups. */
export const ESTATES_WHERE = (
  dataset: string,
  where: { estateId: string } | { state: string; suburb: string; selling: boolean },
) => Prisma.sql`
  WITH live AS (${LIVE(
    dataset,
    'estateId' in where
      ? Prisma.sql`${where.estateId}`
      : Prisma.sql`SELECT b.estate_id FROM supply.estate b WHERE b.dataset = ${dataset} AND b.state = ${where.state}
        AND upper(b.suburb) = upper(${where.suburb})`,
  )})
  SELECT ${ESTATE_COLUMNS}
  FROM supply.estate e LEFT JOIN live r ON r.estate_id = e.estate_id
  WHERE e.dataset = ${dataset} AND ${
    'estateId' in where
      ? Prisma.sql`e.estate_id = ${where.estateId}`
      : Prisma.sql`e.state = ${where.state} AND upper(e.suburb) = upper(${where.suburb})${
          where.selling ? Prisma.sql` AND coalesce(r.active_lots, 0) > 0` : Prisma.empty
        }`
  }
  ORDER BY e.name, e.estate_id`;

/** Whether a place has any lot, ever: a place unknown to the layer is no_data, not a run of zero weeks. */
export const PLACE_KNOWN = (dataset: string, where: { state: string; suburb?: string }) => Prisma.sql`
  SELECT EXISTS (SELECT 1 FROM supply.estate e WHERE e.dataset = ${dataset} AND e.state = ${where.state}
    ${where.suburb === undefined ? Prisma.empty : Prisma.sql`AND upper(e.suburb) = upper(${where.suburb})`}) AS known,
    (SELECT upper(max(e.suburb)) FROM supply.estate e WHERE e.dataset = ${dataset} AND e.state = ${where.state}
    ${where.suburb === undefined ? Prisma.empty : Prisma.sql`AND upper(e.suburb) = upper(${where.suburb})`}) AS suburb`;

export type StateLatestRow = WeekRow & { state: string };

/** Each covered state's rollup of the latest week rolled up for it. */
export const STATES_LATEST = (dataset: string) => Prisma.sql`
  SELECT DISTINCT ON (r.state) r.state, r.week::text AS week, r.active_lots, r.available_lots, r.new_lots,
    r.sold_or_delisted_lots, r.median_asking_price
  FROM supply.weekly_rollup r
  WHERE r.dataset = ${dataset} AND r.level = 'state'
  ORDER BY r.state, r.week DESC`;

/** The attributes every lot feature of a tile carries: those of the lot lookups (spec 2.9). */
const TILE_ATTRIBUTES = Prisma.sql`l.lot_id, l.lot_number, l.estate_id, e.name AS estate_name, e.developer,
  coalesce(r.active_lots, 0) AS estate_active_lots, coalesce(r.available_lots, 0) AS estate_available_lots,
  l.state, l.suburb, l.asking_price, l.area_m2, l.frontage_m, l.depth_m, l.title_status, l.sales_status,
  l.aspect, l.aspect_source`;

export const TILE_EXTENT = 4096;
export const TILE_BUFFER = 64;

/** The lots of a tile: their drawn boundary, or their point where no plan was drawn. */
const TILE_LOTS = (dataset: string, z: number, x: number, y: number) => Prisma.sql`
  bounds AS (SELECT ST_TileEnvelope(${z}, ${x}, ${y}) AS env,
    ST_Transform(ST_TileEnvelope(${z}, ${x}, ${y}, margin => ${TILE_BUFFER / TILE_EXTENT}), 4326) AS box),
  live AS (${LIVE(
    dataset,
    Prisma.sql`SELECT b.estate_id FROM supply.lot b, bounds t WHERE b.dataset = ${dataset}
      AND (b.boundary && t.box OR (b.boundary IS NULL AND b.geom && t.box))`,
  )}),
  picked AS (
    SELECT ${TILE_ATTRIBUTES}, ST_Transform(coalesce(l.boundary, l.geom), 3857) AS shape
    FROM supply.lot l
    JOIN supply.estate e ON e.dataset = l.dataset AND e.estate_id = l.estate_id
    LEFT JOIN live r ON r.estate_id = l.estate_id, bounds b
    WHERE l.dataset = ${dataset} AND (l.boundary && b.box OR (l.boundary IS NULL AND l.geom && b.box))
  )`;

/** The tile by PostGIS itself (ST_AsMVT over ST_AsMVTGeom), where it was built with protobuf. */
export const TILE_MVT = (dataset: string, z: number, x: number, y: number) => Prisma.sql`
  WITH ${TILE_LOTS(dataset, z, x, y)},
  features AS (
    SELECT p.lot_id, p.lot_number, p.estate_id, p.estate_name, p.developer, p.estate_active_lots,
      p.estate_available_lots, p.state, p.suburb, p.asking_price, p.area_m2, p.frontage_m, p.depth_m, p.title_status,
      p.sales_status, p.aspect, p.aspect_source,
      ST_AsMVTGeom(p.shape, b.env, ${TILE_EXTENT}, ${TILE_BUFFER}, true) AS geom
    FROM picked p, bounds b
  )
  SELECT coalesce((SELECT ST_AsMVT(f, 'lots', ${TILE_EXTENT}, 'geom') FROM features f WHERE f.geom IS NOT NULL), ''::bytea)
      AS mvt,
    (SELECT count(*)::int FROM features f WHERE f.geom IS NOT NULL) AS features`;

export type TileFeatureRow = Record<string, string | number | null> & { geometry: string };

/**
 * The same features with ST_AsMVTGeom's work done in plain SQL (to tile coordinates, clipped to
 * the buffered tile, snapped to the integer grid), for a PostGIS built without protobuf (PGlite's):
 * the bytes are then encoded by mvt.ts.
 */
export const TILE_FEATURES = (dataset: string, z: number, x: number, y: number) => Prisma.sql`
  WITH ${TILE_LOTS(dataset, z, x, y)},
  frame AS (
    SELECT b.env, ST_XMin(b.env) AS x0, ST_YMax(b.env) AS y1,
      ${TILE_EXTENT} / (ST_XMax(b.env) - ST_XMin(b.env)) AS sx, ${TILE_EXTENT} / (ST_YMax(b.env) - ST_YMin(b.env)) AS sy,
      (ST_XMax(b.env) - ST_XMin(b.env)) * ${TILE_BUFFER / TILE_EXTENT} AS pad
    FROM bounds b
  ),
  shaped AS (
    SELECT p.*, ST_SnapToGrid(ST_Affine(ST_ClipByBox2D(p.shape, ST_Expand(f.env, f.pad)::box2d),
      f.sx, 0, 0, -f.sy, -f.x0 * f.sx, f.y1 * f.sy), 1) AS tile_shape
    FROM picked p, frame f
  )
  SELECT s.lot_id, s.lot_number, s.estate_id, s.estate_name, s.developer, s.estate_active_lots, s.estate_available_lots,
    s.state, s.suburb, s.asking_price, s.area_m2, s.frontage_m, s.depth_m, s.title_status, s.sales_status, s.aspect,
    s.aspect_source, ST_AsGeoJSON(s.tile_shape) AS geometry
  FROM shaped s
  WHERE NOT ST_IsEmpty(s.tile_shape)
  ORDER BY s.lot_id`;

/** The credit of the layer's states (dataset_source rows of layer land-supply). */
export const STATE_CREDITS = (dataset: string) => Prisma.sql`
  SELECT state, attribution, license FROM public.dataset_source
  WHERE dataset = ${dataset} AND layer = 'land-supply' ORDER BY state`;

export type SuburbLotCountsRow = { i: number; lots_available: number; estates_selling: number };

/**
 * Per suburb (state and upper-cased name, in key order): its lots on the market now and its
 * estates selling, by the suburb name they record. The market's supply pipeline reads these
 * through the graph.
 */
export const SUBURB_LOT_COUNTS = (dataset: string, states: string[], names: string[]) => Prisma.sql`
  SELECT (k.i - 1)::int AS i,
    (SELECT count(*)::int FROM supply.lot l WHERE l.dataset = ${dataset} AND l.state = k.state
      AND upper(l.suburb) = k.name AND l.sales_status = 'available') AS lots_available,
    (SELECT count(*)::int FROM supply.estate e WHERE e.dataset = ${dataset} AND e.state = k.state
      AND upper(e.suburb) = k.name AND e.status = 'selling') AS estates_selling
  FROM unnest(${states}::text[], ${names}::text[]) WITH ORDINALITY AS k(state, name, i)
  ORDER BY k.i`;
