import { Prisma } from '../../generated/prisma/client.ts';
import type { DemTile } from './dem.ts';

/**
 * A DEM tile as the statement returns it: its state and row version, its heights in `array_send`
 * form (null where the caller already holds that version: tile-cache.ts), and the indexes (in the
 * batch) of every window it serves.
 */
export type DemTileRow = Omit<DemTile, 'heights'> & {
  state: string;
  version: string;
  heights: Uint8Array | string | null;
  keys: number[];
};

const FLOAT8_OID = 701;

/**
 * The heights of a tile from `array_send(heights)`: PostgreSQL's binary form of a float8[]
 * (dimensions, then each element as a length, -1 for NULL, and 8 big-endian bytes). A tile's
 * 4,096 heights as text cost the driver more CPU to parse than the rest of the terrain layer
 * (postgres-array walks them character by character); the binary doubles are the stored values
 * bit for bit, as the shortest-round-trip text PostgreSQL prints would parse to. NULL (no
 * survey) becomes NaN, which the grid already treats as a hole.
 */
export function heightsFromArraySend(sent: Uint8Array | string): Float64Array {
  // a folded statement returns the bytea through JSON, as PostgreSQL's hex text (\\x…); alone, the driver gives bytes
  const bytes = typeof sent === 'string' ? Buffer.from(sent.slice(2), 'hex') : sent;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dims = view.getInt32(0);
  if (dims === 0) return new Float64Array(0);
  if (dims !== 1 || view.getUint32(8) !== FLOAT8_OID)
    throw new RangeError('DEM heights must be a float8[] of one dimension');
  const count = view.getInt32(12);
  const heights = new Float64Array(count);
  let at = 20; // ndim, has-null flag, element type, then the one dimension's length and lower bound
  for (let i = 0; i < count; i += 1) {
    const length = view.getInt32(at);
    at += 4;
    if (length === -1) heights[i] = Number.NaN;
    else {
      heights[i] = view.getFloat64(at);
      at += 8;
    }
  }
  return heights;
}

/**
 * The largest DEM cell the index prefilter allows for (about 1 km): a tile is read when it
 * comes within one of its own cells of a window, so slopes and lines at the edge have neighbours.
 */
export const PREFILTER_MARGIN_DEGREES = 0.01;

/**
 * Every DEM tile within a cell of any window of a batch, in one statement: each tile once,
 * with the windows it serves, its heights left out where `held` names its current version.
 * The `&&` on the expanded window lets the GiST index on the extent pick candidates; the
 * exact one-cell test then drops tiles merely near a window.
 */
export const DEM_TILES_FOR_WINDOWS = (
  dataset: string,
  states: string[],
  wests: number[],
  souths: number[],
  easts: number[],
  norths: number[],
  held: { states: string[]; ids: string[]; versions: string[] },
) => Prisma.sql`
  WITH k AS (
    SELECT (i - 1)::int AS i, state, w, s, e, n
    FROM unnest(${states}::text[], ${wests}::float8[], ${souths}::float8[], ${easts}::float8[], ${norths}::float8[])
      WITH ORDINALITY AS u(state, w, s, e, n, i)
  )
  SELECT t.tile_id, t.state, t.xmin::text AS version, t.west, t.north, t.cell_lng, t.cell_lat, t.cols, t.rows,
         CASE WHEN EXISTS (
           SELECT 1 FROM unnest(${held.states}::text[], ${held.ids}::text[], ${held.versions}::text[]) AS h(state, tile_id, version)
           WHERE h.state = t.state AND h.tile_id = t.tile_id AND h.version = t.xmin::text
         ) THEN NULL ELSE array_send(t.heights) END AS heights,
         array_agg(k.i ORDER BY k.i) AS keys
  FROM k
  JOIN terrain.dem_tile t
    ON t.dataset = ${dataset} AND t.state = k.state
   AND t.extent && ST_Expand(ST_MakeEnvelope(k.w, k.s, k.e, k.n, 4326), ${PREFILTER_MARGIN_DEGREES}::float8)
   AND t.west - t.cell_lng <= k.e AND t.west + (t.cols + 1) * t.cell_lng >= k.w
   AND t.north + t.cell_lat >= k.s AND t.north - (t.rows + 1) * t.cell_lat <= k.n
  GROUP BY t.dataset, t.state, t.tile_id, t.xmin
  ORDER BY t.tile_id`;

export type FootprintCheckRow = {
  footprint_valid: boolean;
  footprint_reason: string;
  lot_valid: boolean;
  lot_reason: string;
  covered: boolean;
  area_m2: number;
};

/**
 * The geometry checks of an earthworks footprint: OGC validity of both polygons (a
 * self-intersecting ring is invalid, with the place it crosses in the reason), whether the lot
 * covers the footprint (its boundary included), and the footprint's area on the ellipsoid.
 * ST_CoveredBy and the area are only asked of valid polygons, which they need to be meaningful.
 */
export const FOOTPRINT_ON_LOT = (footprint: string, lot: string) => Prisma.sql`
  WITH g AS (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${footprint}), 4326) AS f,
                    ST_SetSRID(ST_GeomFromGeoJSON(${lot}), 4326) AS l)
  SELECT ST_IsValid(f) AS footprint_valid, ST_IsValidReason(f) AS footprint_reason,
         ST_IsValid(l) AS lot_valid, ST_IsValidReason(l) AS lot_reason,
         CASE WHEN ST_IsValid(f) AND ST_IsValid(l) THEN ST_CoveredBy(f, l) ELSE false END AS covered,
         CASE WHEN ST_IsValid(f) THEN ST_Area(f::geography) ELSE 0 END::float8 AS area_m2
  FROM g`;
