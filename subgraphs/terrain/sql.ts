import { Prisma } from '../../generated/prisma/client.ts';
import type { DemTile } from './dem.ts';

/** A DEM tile with the indexes (in the batch) of every window it serves. */
export type DemTileRow = DemTile & { keys: number[] };

/**
 * The largest DEM cell the index prefilter allows for (about 1 km): a tile is read when it
 * comes within one of its own cells of a window, so slopes and lines at the edge have neighbours.
 */
const PREFILTER_MARGIN_DEGREES = 0.01;

/**
 * Every DEM tile within a cell of any window of a batch, in one statement: each tile once,
 * with the windows it serves. The `&&` on the expanded window lets the GiST index on the
 * extent pick candidates; the exact one-cell test then drops tiles merely near a window.
 */
export const DEM_TILES_FOR_WINDOWS = (
  dataset: string,
  states: string[],
  wests: number[],
  souths: number[],
  easts: number[],
  norths: number[],
) => Prisma.sql`
  WITH k AS (
    SELECT (i - 1)::int AS i, state, w, s, e, n
    FROM unnest(${states}::text[], ${wests}::float8[], ${souths}::float8[], ${easts}::float8[], ${norths}::float8[])
      WITH ORDINALITY AS u(state, w, s, e, n, i)
  )
  SELECT t.tile_id, t.west, t.north, t.cell_lng, t.cell_lat, t.cols, t.rows, t.heights,
         array_agg(k.i ORDER BY k.i) AS keys
  FROM k
  JOIN terrain.dem_tile t
    ON t.dataset = ${dataset} AND t.state = k.state
   AND t.extent && ST_Expand(ST_MakeEnvelope(k.w, k.s, k.e, k.n, 4326), ${PREFILTER_MARGIN_DEGREES}::float8)
   AND t.west - t.cell_lng <= k.e AND t.west + (t.cols + 1) * t.cell_lng >= k.w
   AND t.north + t.cell_lat >= k.s AND t.north - (t.rows + 1) * t.cell_lat <= k.n
  GROUP BY t.dataset, t.state, t.tile_id
  ORDER BY t.tile_id`;
