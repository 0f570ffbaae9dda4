/**
 * What an OpenStreetMap object is to the amenities layer, from its tags alone, and which ways
 * people walk on. Tagging as the OSM wiki and the Australian tagging guidelines describe it.
 */
import type { AmenityCategory, SchoolLevel, SchoolSector, TransportMode } from '../../core/amenities.ts';
import type { OsmTags } from './osm-read.ts';

export type AmenityClass = {
  category: AmenityCategory;
  subcategory: string | null;
  school_sector: SchoolSector | null;
  school_level: SchoolLevel | null;
  transport_mode: TransportMode | null;
};

const plain = (category: AmenityCategory, subcategory: string | null): AmenityClass => ({
  category,
  subcategory,
  school_sector: null,
  school_level: null,
  transport_mode: null,
});

/**
 * A school's sector from operator:type (government, public, religious, private...), the
 * Australian school:AU:* keys, or the operator's name (a Catholic Education Office, a
 * Department of Education); null when nothing says.
 */
export function schoolSector(tags: OsmTags): SchoolSector | null {
  const type = (tags['operator:type'] ?? tags['school:sector'] ?? tags['school:AU:sector'] ?? '').toLowerCase();
  const operator = `${tags.operator ?? ''} ${tags['operator:short'] ?? ''}`.toLowerCase();
  const religion = (tags.denomination ?? tags.religion ?? '').toLowerCase();
  if (/catholic/.test(type) || /catholic/.test(operator) || religion === 'catholic' || religion === 'roman_catholic') {
    return 'catholic';
  }
  if (/^(government|public|state)$/.test(type)) return 'government';
  if (/department of education|education queensland|nsw department|state of|dept\.? of education/.test(operator)) {
    return 'government';
  }
  if (/^(private|independent|religious|community|non[-_ ]?government|charitable)$/.test(type)) return 'independent';
  return null;
}

/** A school's level from isced:level (1 primary, 2-3 secondary), school:AU:type or school=*. */
export function schoolLevel(tags: OsmTags): SchoolLevel | null {
  const said = (tags['school:AU:type'] ?? tags.school ?? tags['school:type'] ?? '').toLowerCase();
  if (/special|specific/.test(said)) return 'special';
  if (/combined|k-?12|p-?12|f-?12|primary;secondary|secondary;primary/.test(said)) return 'combined';
  if (/primary|elementary|junior/.test(said)) return 'primary';
  if (/secondary|high|senior|college/.test(said)) return 'secondary';
  const isced = tags['isced:level'];
  if (isced) {
    const levels = new Set(isced.split(/[;,\-–]/).map((s) => s.trim()));
    const primary = levels.has('1') || levels.has('0');
    const secondary = levels.has('2') || levels.has('3');
    if (primary && secondary) return 'combined';
    if (primary) return 'primary';
    if (secondary) return 'secondary';
  }
  const name = (tags.name ?? '').toLowerCase();
  if (/special (school|development)|specialist school/.test(name)) return 'special';
  if (/primary school|public school\b/.test(name)) return 'primary';
  if (/high school|secondary college|secondary school/.test(name)) return 'secondary';
  return null;
}

/** A stop's mode from the tags public transport stops and stations carry. */
export function transportMode(tags: OsmTags): TransportMode | null {
  if (tags.highway === 'bus_stop' || tags.bus === 'yes' || tags.amenity === 'bus_station') return 'bus';
  if (tags.railway === 'tram_stop' || tags.tram === 'yes') return 'tram';
  if (tags.light_rail === 'yes' || tags.station === 'light_rail' || tags.train === 'light_rail') return 'light_rail';
  if (tags.amenity === 'ferry_terminal' || tags.ferry === 'yes') return 'ferry';
  if (tags.railway === 'station' || tags.railway === 'halt' || tags.train === 'yes') return 'train';
  return null;
}

const RECREATION = new Set([
  'park',
  'sports_centre',
  'playground',
  'pitch',
  'fitness_centre',
  'swimming_pool',
  'recreation_ground',
  'nature_reserve',
  'garden',
  'dog_park',
  'track',
  'stadium',
]);
const CHILDCARE = new Set(['kindergarten', 'childcare', 'preschool']);
// shops that are not the daily retail a catchment counts
const NOT_RETAIL = new Set(['no', 'vacant', 'yes;no']);

/** The amenity an object is, or null for anything the layer does not hold. */
export function classifyAmenity(tags: OsmTags): AmenityClass | null {
  const amenity = tags.amenity;
  if (amenity === 'school') {
    return {
      category: 'school',
      subcategory: tags['school:AU:type'] ?? tags.school ?? null,
      school_sector: schoolSector(tags),
      school_level: schoolLevel(tags),
      transport_mode: null,
    };
  }
  if (amenity && CHILDCARE.has(amenity)) return plain('childcare', amenity);
  if (amenity === 'hospital') return plain('hospital', tags.healthcare ?? 'hospital');
  if (amenity === 'cafe') return plain('cafe', tags.cuisine ?? null);
  if (tags.shop === 'supermarket') return plain('supermarket', tags.brand ?? null);
  // transport: the stop people stand at (a platform or a stop node), and stations
  const isStop =
    tags.highway === 'bus_stop' ||
    tags.railway === 'tram_stop' ||
    tags.railway === 'station' ||
    tags.railway === 'halt' ||
    tags.public_transport === 'platform' ||
    tags.public_transport === 'station' ||
    amenity === 'ferry_terminal' ||
    amenity === 'bus_station';
  if (isStop) {
    const mode = transportMode(tags);
    if (mode) {
      return {
        ...plain('transport', tags.public_transport ?? tags.railway ?? tags.highway ?? amenity ?? null),
        transport_mode: mode,
      };
    }
  }
  if (tags.leisure && RECREATION.has(tags.leisure)) return plain('recreation', tags.leisure);
  if (tags.shop && !NOT_RETAIL.has(tags.shop)) return plain('retail', tags.shop);
  return null;
}

/** The highway classes people walk along (motorway, trunk and their links are not among them). */
export const WALKABLE_HIGHWAYS: ReadonlySet<string> = new Set([
  'footway',
  'path',
  'pedestrian',
  'steps',
  'living_street',
  'residential',
  'service',
  'unclassified',
  'tertiary',
  'tertiary_link',
  'secondary',
  'secondary_link',
  'primary',
  'primary_link',
  'track',
  'cycleway',
  'road',
]);

/** True for a way walked on: a walkable highway class, not closed to feet, not an area outline. */
export function isWalkable(tags: OsmTags): boolean {
  const highway = tags.highway;
  if (!highway || !WALKABLE_HIGHWAYS.has(highway)) return false;
  if (tags.foot === 'no' || tags.foot === 'private' || tags.access === 'no' || tags.access === 'private') {
    return tags.foot === 'yes' || tags.foot === 'designated';
  }
  // a cycleway is walked only where feet are allowed on it
  if (highway === 'cycleway' && !(tags.foot === 'yes' || tags.foot === 'designated')) return false;
  if (tags.area === 'yes') return false;
  return true;
}
