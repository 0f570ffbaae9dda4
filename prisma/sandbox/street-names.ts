/**
 * Names for the streets a suburb's own list does not cover: the trees, birds, explorers,
 * statesmen and landforms Australian councils have named streets after for a century.
 * Compound names ("WATTLE RIDGE") give estate-style variety once the single words run out,
 * which only the million-parcel scale reaches.
 */

// prettier-ignore
export const BASE_NAMES: readonly string[] = [
  'ACACIA', 'BANKSIA', 'BOTTLEBRUSH', 'WATTLE', 'IRONBARK', 'BLACKWOOD', 'CASUARINA', 'GREVILLEA',
  'JACARANDA', 'MAGNOLIA', 'MYRTLE', 'WARATAH', 'BORONIA', 'KURRAJONG', 'MELALEUCA', 'SHEOAK',
  'STRINGYBARK', 'YELLOWBOX', 'REDGUM', 'BLUEGUM', 'SPOTTED GUM', 'CORYMBIA', 'LILLY PILLY', 'KOWHAI',
  'KOOKABURRA', 'MAGPIE', 'ROSELLA', 'LORIKEET', 'GALAH', 'CURRAWONG', 'WREN', 'ROBIN', 'FALCON',
  'HERON', 'PELICAN', 'BROLGA', 'JABIRU', 'OSPREY', 'KESTREL', 'FANTAIL', 'PARDALOTE', 'BELLBIRD',
  'BANKS', 'COOK', 'FLINDERS', 'BASS', 'HUME', 'HOVELL', 'STURT', 'MITCHELL', 'LEICHHARDT', 'OXLEY',
  'BURKE', 'WILLS', 'EYRE', 'FORREST', 'KENNEDY', 'LAWSON', 'WENTWORTH', 'BLAXLAND', 'MACARTHUR',
  'PATERSON', 'MCKELLAR', 'CHIFLEY', 'CURTIN', 'MENZIES', 'DEAKIN', 'BARTON', 'WATSON', 'FISHER',
  'LYONS', 'SCULLIN', 'BRUCE', 'HOLT', 'GORTON', 'PARKES', 'LALOR', 'MONASH', 'CHAUVEL', 'BLAMEY',
  'ALBERT', 'VICTORIA', 'ELIZABETH', 'WILLIAM', 'QUEEN', 'KING', 'PRINCE', 'REGENT', 'ALEXANDRA',
  'CHURCH', 'STATION', 'RAILWAY', 'SCHOOL', 'BRIDGE', 'MILL', 'FOREST', 'RIVER', 'CREEK', 'PARK',
  'GOLD', 'QUARTZ', 'NUGGET', 'MINERS', 'DIGGERS', 'CROWN', 'EUREKA', 'BALLARAT', 'CASTLEMAINE',
  'ECHUCA', 'ELMORE', 'HEATHCOTE', 'MALDON', 'MARONG', 'AXEDALE', 'EPSOM', 'ASCOT', 'STRATHDALE',
  'GLENELG', 'MURRAY', 'DARLING', 'GOULBURN', 'LODDON', 'CAMPASPE', 'HAWKESBURY', 'NEPEAN', 'BRISBANE',
  'PINE', 'CEDAR', 'OAK', 'ELM', 'ASH', 'BIRCH', 'LAUREL', 'HAWTHORN', 'POPLAR', 'WILLOW', 'PLANE',
  'CAMELLIA', 'DAHLIA', 'ORCHID', 'LAVENDER', 'ROSEMARY', 'JASMINE', 'HIBISCUS', 'FRANGIPANI',
  'ATKINSON', 'BAILEY', 'CAMPBELL', 'DAVIDSON', 'EDWARDS', 'FERGUSON', 'GRAHAM', 'HAMILTON', 'IRVINE',
  'JOHNSTON', 'KEATING', 'LINDSAY', 'MORRISON', 'NICHOLSON', 'OLIVER', 'PRESTON', 'RICHARDSON',
  'SUTHERLAND', 'THOMPSON', 'WALLACE', 'YOUNG', 'BARKLY', 'BOURKE', 'GIPPS', 'HOTHAM', 'LATROBE',
];

// prettier-ignore
export const LANDFORMS: readonly string[] = [
  'RIDGE', 'VIEW', 'VALE', 'GLEN', 'HILL', 'PARK', 'FIELD', 'WOOD', 'DOWNS', 'HEIGHTS', 'MEADOW', 'BROOK',
];

/** G-NAF full street types (STREET_TYPE_AUT codes) for long through streets, with their share. */
// prettier-ignore
export const THROUGH_STREET_TYPES: ReadonlyArray<readonly [string, number]> = [
  ['STREET', 45], ['ROAD', 18], ['AVENUE', 14], ['DRIVE', 10], ['PARADE', 5], ['BOULEVARD', 3],
  ['TERRACE', 3], ['HIGHWAY', 0.5],
];

/** Types for the shorter cross streets: courts, closes and crescents belong here. */
// prettier-ignore
export const CROSS_STREET_TYPES: ReadonlyArray<readonly [string, number]> = [
  ['STREET', 30], ['COURT', 14], ['CRESCENT', 10], ['PLACE', 10], ['WAY', 8], ['CLOSE', 8],
  ['AVENUE', 8], ['GROVE', 5], ['CIRCUIT', 4], ['LANE', 3],
];

/** G-NAF STREET_SUFFIX codes and the words the single-line address spells out. */
export const SUFFIX_WORDS: Readonly<Record<string, string>> = { N: 'NORTH', S: 'SOUTH', E: 'EAST', W: 'WEST' };

/** Splits 'OLD NORTHERN ROAD' into its name and its G-NAF street type. */
export function splitStreet(full: string): { name: string; type: string } {
  const at = full.lastIndexOf(' ');
  if (at <= 0) throw new Error(`Street "${full}" has no street type`);
  return { name: full.slice(0, at), type: full.slice(at + 1) };
}
