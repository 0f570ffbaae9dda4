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
