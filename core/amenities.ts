/**
 * The vocabulary of the amenities layer (OpenStreetMap points people walk to) and of the walking
 * catchment, shared by the ingest, the sandbox, the amenities subgraph and the routes.
 */

/** Categories of spec 2.11 and 4.11, as stored in amenities.amenity.category. */
export const AMENITY_CATEGORIES = [
  'school',
  'childcare',
  'supermarket',
  'transport',
  'retail',
  'recreation',
  'cafe',
  'hospital',
] as const;
export type AmenityCategory = (typeof AMENITY_CATEGORIES)[number];
export const isAmenityCategory = (value: string): value is AmenityCategory =>
  (AMENITY_CATEGORIES as readonly string[]).includes(value);

export const SCHOOL_SECTORS = ['government', 'catholic', 'independent'] as const;
export const SCHOOL_LEVELS = ['primary', 'secondary', 'combined', 'special'] as const;
export const TRANSPORT_MODES = ['bus', 'train', 'tram', 'light_rail', 'ferry'] as const;
export type SchoolSector = (typeof SCHOOL_SECTORS)[number];
export type SchoolLevel = (typeof SCHOOL_LEVELS)[number];
export type TransportMode = (typeof TRANSPORT_MODES)[number];

/**
 * Walking speed of the catchment: 4.8 km/h, 80 metres a minute (an unhurried adult pace, the
 * figure walkability studies commonly use for a "10-minute walk" of 800 m).
 */
export const WALKING_SPEED_M_PER_MIN = 80;
/** The catchments served (spec 8): anything else is a 400. */
export const CATCHMENT_MINUTES = [5, 10, 15] as const;
/**
 * How far the point may lie from the network's nearest node (metres): further than this the
 * area holds no network for it and the catchment degrades to a straight-line buffer.
 */
export const NETWORK_SNAP_M = 300;
/** Half-width of the band drawn along each reached stretch of way to make the catchment polygon. */
export const CATCHMENT_BAND_M = 40;

/** The layer name amenities and the walking network are credited under (public.dataset_source). */
export const AMENITIES_LAYER = 'amenities';
export const OSM_ATTRIBUTION = '© OpenStreetMap contributors, available under the Open Database License (ODbL)';
export const OSM_LICENSE = 'ODbL';
