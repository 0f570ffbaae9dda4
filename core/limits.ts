/*
 * Limits a subgraph enforces and the facade also states (its parameter checks and OpenAPI text).
 * They live here, not in the subgraph, so the facade reads no subgraph's internals and the two
 * cannot drift apart.
 */

/** The web map zooms contours can be drawn for (0 is the whole world on one tile). */
export const MIN_ZOOM = 0;
export const MAX_ZOOM = 22;

/** Terrain statistics read every DEM cell inside the polygon: one square kilometre at most. */
export const MAX_TERRAIN_AREA_M2 = 1_000_000;
export const MAX_TERRAIN_VERTICES = 10_000;
/** Largest footprint earthworks are worked out for (1 ha): a building pad, not a subdivision. */
export const MAX_EARTHWORKS_FOOTPRINT_M2 = 10_000;
/** Most positions a footprint may have: every ground sample is tested against its outline. */
export const MAX_EARTHWORKS_FOOTPRINT_VERTICES = 1_000;
/** A pad level more than this above or below the ground under the footprint is refused as a mistake. */
export const MAX_EARTHWORKS_DEPTH_M = 20;
/** Pad levels (m AHD) outside this range are no level on Australian land (Lake Eyre -15 m, Kosciuszko 2 228 m). */
export const MIN_PAD_LEVEL_M = -50;
export const MAX_PAD_LEVEL_M = 2_300;

/** Nearest road centrelines: how many by default and at most. */
export const DEFAULT_NEAREST_ROADS = 5;
export const MAX_NEAREST_ROADS = 50;
/** A point further than this from every centreline is not near a road: it gets no_data, not a far road. */
export const NEAREST_ROAD_REACH_M = 2000;

/** Development applications near a point: the radius by default and at most, in metres. */
export const DEFAULT_DA_RADIUS_M = 500;
export const MAX_DA_RADIUS_M = 2000;
/** More applications than this within the radius is refused (ask a smaller radius), never truncated. */
export const MAX_DA_NEAR = 1000;
/** Pages of applications (an LGA's list, the change feed): rows by default and at most. */
export const DEFAULT_DA_PAGE = 100;
export const MAX_DA_PAGE = 200;
/** The change feed's window: at most this many degrees per axis (spec 8). */
export const MAX_DA_FEED_SPAN_DEGREES = 2;
/** An LGA's list pages by offset up to here; further back, the feed's cursor pages any depth. */
export const MAX_DA_OFFSET = 10_000;
/** Statistics: months of history by default and at most. */
export const DEFAULT_DA_STATS_MONTHS = 24;
export const MAX_DA_STATS_MONTHS = 120;

/** SPEAR applications near a point: the radius by default and at most, in metres. */
export const DEFAULT_SPEAR_RADIUS_M = 200;
export const MAX_SPEAR_RADIUS_M = 2000;
/** More SPEAR applications than this near a point or in a window is refused (ask less), never truncated. */
export const MAX_SPEAR_RESULTS = 1000;
/** Land supply (spec 4.5): the nearby radii, the most rows a nearby answer lists, the series window, the tile zooms. */
export const DEFAULT_SUPPLY_ESTATE_RADIUS_KM = 10;
export const MAX_SUPPLY_ESTATE_RADIUS_KM = 50;
export const DEFAULT_SUPPLY_LOT_RADIUS_KM = 1;
export const MAX_SUPPLY_LOT_RADIUS_KM = 5;
export const MAX_SUPPLY_NEAR = 500;
export const DEFAULT_SUPPLY_WEEKS = 12;
export const MAX_SUPPLY_WEEKS = 104;
export const MIN_SUPPLY_TILE_ZOOM = 10;
export const MAX_SUPPLY_TILE_ZOOM = 18;

/** Property sales (market subgraph): the circle a sales search covers, and how many one answer lists. */
export const DEFAULT_SALES_RADIUS_M = 500;
export const MAX_SALES_RADIUS_M = 5000;
export const DEFAULT_SALES_LIMIT = 50;
export const MAX_SALES_LIMIT = 200;
/** Comparable sales: the circle, the months back from the newest sale of the state and how many. */
export const DEFAULT_COMPARABLE_RADIUS_M = 1500;
export const MAX_COMPARABLE_RADIUS_M = 5000;
export const DEFAULT_COMPARABLE_MONTHS = 24;
export const MAX_COMPARABLE_MONTHS = 60;
export const DEFAULT_COMPARABLES = 10;
export const MAX_COMPARABLES = 50;
/** Suburb analytics (spec 4.4, 8): rows per page of the screen; more is refused (400), never clamped. */
export const MAX_SUBURB_SCREEN_PAGE = 100;
export const DEFAULT_SUBURB_SCREEN_PAGE = 50;
/** Rows per page of the list of a state's computed suburbs. */
export const MAX_SUBURB_LIST_PAGE = 500;
export const DEFAULT_SUBURB_LIST_PAGE = 100;
/** Range filters one screen takes (a metric's _min and _max count as one). */
export const MAX_SUBURB_SCREEN_RANGES = 20;
// amenities near a point (locality routes, amenitiesNear)
export const DEFAULT_AMENITY_RADIUS_M = 1500;
export const MAX_AMENITY_RADIUS_M = 5000;
export const DEFAULT_AMENITY_LIMIT = 20;
export const MAX_AMENITY_LIMIT = 100;

/** Bulk export (spec 8): properties per export, and addresses per uploaded list; more is refused, never truncated. */
export const MAX_EXPORT_PROPERTIES = 25_000;
export const MAX_EXPORT_ADDRESSES = 5_000;
/** Properties one batch graph operation reads (propertiesByGnafPids): the export's and enrich's batch size. */
export const MAX_PROPERTY_BATCH = 500;
/** Vertices of an export's area polygon (all rings). */
export const MAX_SELECTION_VERTICES = 10_000;
