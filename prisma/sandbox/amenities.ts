/**
 * Synthetic amenities and a walking network for every sandbox suburb, labelled demo data, in
 * the shape the OpenStreetMap ingest writes (cli/ingest/osm.ts): the network follows the
 * suburb's streets (one edge per street per block, intersection to intersection, as the road
 * centrelines run) plus pedestrian cut-throughs across some blocks (a footway from the middle of
 * one street to the middle of the next, splitting both streets there), and the amenities sit
 * just inside blocks beside their street: schools with sector and level, childcare,
 * supermarkets, bus stops along the main street and a station at the centre, shops and cafes
 * on the main street, parks and playgrounds, and a hospital in the bigger suburbs. Drawn from
 * its own random stream, so every other table of the sandbox stays as it was.
 */
import { at } from './arrays.ts';
import type { Batcher } from './batcher.ts';
import { coverageRing } from './planning.ts';
import { Rng } from './random.ts';
import type { SandboxState } from './suburbs.ts';
import type { SuburbPlan } from './suburb.ts';

export const AMENITIES_MODELLED_ON: Record<SandboxState, string> = {
  VIC: 'OpenStreetMap',
  NSW: 'OpenStreetMap',
  QLD: 'OpenStreetMap',
};

export interface WalkNodeRow {
  id: string;
  state: SandboxState;
  lng: number;
  lat: number;
}

export interface WalkEdgeRow {
  id: string;
  state: SandboxState;
  source: string;
  target: string;
  highway: string;
  wkt: string;
}

export interface AmenityRow {
  id: string;
  state: SandboxState;
  category: string;
  subcategory: string | null;
  school_sector: string | null;
  school_level: string | null;
  transport_mode: string | null;
  name: string;
  tags: string;
  lng: number;
  lat: number;
}

export interface AmenityCoverageRow {
  layer: 'amenities' | 'walking-network';
  state: SandboxState;
  name: string;
  wkt: string;
}

/** A block gets a pedestrian cut-through when this hash of its place says so (about one in four). */
const cutThrough = (r: number, j: number) => (r * 7 + j * 3) % 4 === 0;

/** Metres inside the block from the street's centreline where an amenity stands. */
const SETBACK_M = 14;

const title = (name: string) => name.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());

type Place = { u: number; v: number };

/** Rows of the walking network and amenities of one suburb. */
export function pushAmenityRows(seed: number, plan: SuburbPlan, out: Batcher): void {
  const { spec, grid, frame } = plan;
  const rng = Rng.for(seed, spec.key, 'amenities');
  const key = spec.key;
  const state = spec.state;
  const rows = grid.streetCentres.length;
  const cols = grid.crossCentres.length;
  const nodeId = (r: number, k: number) => `${key}-n${r}-${k}`;
  const midId = (r: number, j: number) => `${key}-m${r}-${j}`;
  const node = (id: string, u: number, v: number) => {
    const [lng, lat] = frame.lngLat(u, v);
    out.push('walk_node', { id, state, lng: lng, lat: lat });
  };
  const highwayOf = (axis: 'through' | 'cross', line: number) => {
    if (axis === 'through' && line === grid.mainStreet) return 'primary';
    const last = axis === 'through' ? rows - 1 : cols - 1;
    return line === 0 || line === last ? 'tertiary' : 'residential';
  };
  let edges = 0;
  const edge = (source: string, target: string, highway: string, path: ReadonlyArray<readonly [number, number]>) => {
    edges += 1;
    out.push('walk_edge', {
      id: `${key}-e${String(edges).padStart(5, '0')}`,
      state,
      source,
      target,
      highway,
      wkt: frame.lineString(path as Array<[number, number]>),
    });
  };

  for (let r = 0; r < rows; r++)
    for (let k = 0; k < cols; k++) node(nodeId(r, k), at(grid.crossCentres, k), at(grid.streetCentres, r));
  // through streets, block by block; split at the middle where a cut-through meets them
  const split = (r: number, j: number) => (r < grid.rows.length && cutThrough(r, j)) || (r > 0 && cutThrough(r - 1, j));
  for (let r = 0; r < rows; r++) {
    const v = at(grid.streetCentres, r);
    for (let j = 0; j < cols - 1; j++) {
      const u0 = at(grid.crossCentres, j);
      const u1 = at(grid.crossCentres, j + 1);
      const highway = highwayOf('through', r);
      if (split(r, j)) {
        const um = (u0 + u1) / 2;
        node(midId(r, j), um, v);
        edge(nodeId(r, j), midId(r, j), highway, [
          [u0, v],
          [um, v],
        ]);
        edge(midId(r, j), nodeId(r, j + 1), highway, [
          [um, v],
          [u1, v],
        ]);
      } else {
        edge(nodeId(r, j), nodeId(r, j + 1), highway, [
          [u0, v],
          [u1, v],
        ]);
      }
    }
  }
  for (let k = 0; k < cols; k++) {
    const u = at(grid.crossCentres, k);
    for (let r = 0; r < rows - 1; r++) {
      edge(nodeId(r, k), nodeId(r + 1, k), highwayOf('cross', k), [
        [u, at(grid.streetCentres, r)],
        [u, at(grid.streetCentres, r + 1)],
      ]);
    }
  }
  // the cut-throughs: footways across a block, middle of one street to the middle of the next
  for (let r = 0; r < rows - 1; r++) {
    for (let j = 0; j < cols - 1; j++) {
      if (!cutThrough(r, j)) continue;
      const um = (at(grid.crossCentres, j) + at(grid.crossCentres, j + 1)) / 2;
      edge(midId(r, j), midId(r + 1, j), 'footway', [
        [um, at(grid.streetCentres, r)],
        [um, at(grid.streetCentres, r + 1)],
      ]);
    }
  }

  // amenities: a place just inside block (r, j), beside its lower through street
  const blockPlace = (r: number, j: number, along = rng.range(0.25, 0.75)): Place => ({
    u: at(grid.crossCentres, j) + along * (at(grid.crossCentres, j + 1) - at(grid.crossCentres, j)),
    v: at(grid.streetCentres, r) + SETBACK_M,
  });
  const anyBlock = (along?: number) => blockPlace(rng.int(0, rows - 2), rng.int(0, cols - 2), along);
  const mainBlock = (along?: number) => blockPlace(Math.min(grid.mainStreet, rows - 2), rng.int(0, cols - 2), along);
  let count = 0;
  const place = (
    category: string,
    name: string,
    where: Place,
    extra: Partial<Pick<AmenityRow, 'subcategory' | 'school_sector' | 'school_level' | 'transport_mode'>>,
    tags: Record<string, string>,
  ) => {
    count += 1;
    const [lng, lat] = frame.lngLat(where.u, where.v);
    out.push('amenity', {
      id: `${key}-amenity-${String(count).padStart(3, '0')}`,
      state,
      category,
      subcategory: extra.subcategory ?? null,
      school_sector: extra.school_sector ?? null,
      school_level: extra.school_level ?? null,
      transport_mode: extra.transport_mode ?? null,
      name,
      tags: JSON.stringify({ ...tags, name, note: 'Landgraph sandbox: synthetic demo data, not OpenStreetMap' }),
      lng: lng,
      lat: lat,
    });
  };
  const town = title(spec.name);
  place(
    'school',
    `${town} Primary School (demo)`,
    anyBlock(),
    { subcategory: 'primary', school_sector: 'government', school_level: 'primary' },
    { amenity: 'school', 'operator:type': 'government', 'isced:level': '1' },
  );
  place(
    'school',
    `St Demo's ${town} (demo)`,
    anyBlock(),
    { subcategory: 'primary', school_sector: 'catholic', school_level: 'primary' },
    {
      amenity: 'school',
      'operator:type': 'religious',
      religion: 'christian',
      denomination: 'catholic',
      'isced:level': '1',
    },
  );
  place(
    'school',
    `${town} Secondary College (demo)`,
    anyBlock(),
    { subcategory: 'secondary', school_sector: 'government', school_level: 'secondary' },
    { amenity: 'school', 'operator:type': 'government', 'isced:level': '2;3' },
  );
  if (rng.chance(0.5)) {
    place(
      'school',
      `${town} Grammar (demo)`,
      anyBlock(),
      { school_sector: 'independent', school_level: 'combined' },
      { amenity: 'school', 'operator:type': 'private', 'isced:level': '1;2;3' },
    );
  }
  const childcare = rng.int(2, 3);
  for (let i = 0; i < childcare; i++) {
    const kind = i === 0 ? 'kindergarten' : 'childcare';
    place(
      'childcare',
      `${town} ${kind === 'kindergarten' ? 'Kindergarten' : 'Early Learning Centre'} ${i + 1} (demo)`,
      anyBlock(),
      { subcategory: kind },
      { amenity: kind },
    );
  }
  place(
    'supermarket',
    `Demo Fresh ${town}`,
    mainBlock(),
    { subcategory: 'Demo Fresh' },
    { shop: 'supermarket', brand: 'Demo Fresh' },
  );
  if (rng.chance(0.6))
    place(
      'supermarket',
      `Sandbox Foods ${town}`,
      anyBlock(),
      { subcategory: 'Sandbox Foods' },
      { shop: 'supermarket', brand: 'Sandbox Foods' },
    );
  // a bus stop every third block along the main street, and a station at the centre
  for (let j = 0; j < cols - 1; j += 3) {
    const where = { u: at(grid.crossCentres, j) + 20, v: at(grid.streetCentres, grid.mainStreet) + SETBACK_M - 4 };
    place(
      'transport',
      `${title(spec.mainStreet)} stop ${j / 3 + 1} (demo)`,
      where,
      { subcategory: 'bus_stop', transport_mode: 'bus' },
      { highway: 'bus_stop', public_transport: 'platform', bus: 'yes' },
    );
  }
  const stationAt = {
    u: at(grid.crossCentres, Math.min(grid.centreCol, cols - 1)) + 30,
    v: at(grid.streetCentres, grid.mainStreet) - SETBACK_M - 10,
  };
  place(
    'transport',
    `${town} Station (demo)`,
    stationAt,
    { subcategory: 'station', transport_mode: 'train' },
    { railway: 'station', public_transport: 'station', train: 'yes' },
  );
  const shops = ['bakery', 'chemist', 'hairdresser', 'newsagent', 'hardware', 'butcher', 'clothes'];
  const retail = rng.int(4, 6);
  for (let i = 0; i < retail; i++) {
    const shop = shops[i % shops.length]!;
    place('retail', `${town} ${title(shop)} (demo)`, mainBlock(), { subcategory: shop }, { shop });
  }
  const cafes = rng.int(2, 4);
  for (let i = 0; i < cafes; i++)
    place(
      'cafe',
      `Cafe ${i + 1} ${town} (demo)`,
      mainBlock(),
      { subcategory: 'coffee_shop' },
      { amenity: 'cafe', cuisine: 'coffee_shop' },
    );
  place('recreation', `${town} Reserve (demo)`, anyBlock(0.5), { subcategory: 'park' }, { leisure: 'park' });
  place(
    'recreation',
    `${town} Playground (demo)`,
    anyBlock(),
    { subcategory: 'playground' },
    { leisure: 'playground' },
  );
  if (rng.chance(0.5))
    place(
      'recreation',
      `${town} Sports Centre (demo)`,
      anyBlock(),
      { subcategory: 'sports_centre' },
      { leisure: 'sports_centre' },
    );
  if (plan.parcels >= 2_000 || rng.chance(0.5)) {
    place('hospital', `${town} Hospital (demo)`, anyBlock(), { subcategory: 'hospital' }, { amenity: 'hospital' });
  }

  const wkt = frame.polygon(coverageRing(grid)).wkt;
  out.push('amenity_coverage', { layer: 'amenities', state, name: spec.name, wkt });
  out.push('amenity_coverage', { layer: 'walking-network', state, name: spec.name, wkt });
}
