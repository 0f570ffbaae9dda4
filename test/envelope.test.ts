import { describe, expect, it } from 'vitest';
import type { GeoJSONGeometry, Position } from '../core/geojson.ts';
import { classifyBoundaries, type ClassifiedEdge, type RoadLine } from '../core/boundaries/boundaries.ts';
import { buildEnvelope, wallHeightTiers } from '../subgraphs/planning/envelope/envelope.ts';
import { LocalFrame } from '../core/boundaries/projection.ts';
import { provisionsFor, type ProvisionsInput } from '../subgraphs/planning/provisions/index.ts';

// Test lots are drawn in metres on a plane around a point in Huntly, VIC, rotated to a street
// bearing so nothing lines up with the graticule by accident.
const HUNTLY = new LocalFrame({ lng: 144.33, lat: -36.66 });
const ROTATION = (25 * Math.PI) / 180;
const place = ([x, y]: readonly [number, number]): Position =>
  HUNTLY.toLngLat([
    x * Math.cos(ROTATION) - y * Math.sin(ROTATION) + 120,
    x * Math.sin(ROTATION) + y * Math.cos(ROTATION) - 80,
  ]);

const polygon = (...points: Array<[number, number]>): GeoJSONGeometry => ({
  type: 'Polygon',
  coordinates: [[...points, points[0]!].map(place)],
});
const rectangle = (width: number, depth: number) => polygon([0, 0], [width, 0], [width, depth], [0, depth]);

const road = (road_class: string, name: string, ...points: Array<[number, number]>): RoadLine => ({
  name,
  road_class,
  coordinates: points.map(place),
});

// The street along the bottom of every lot: a centreline 8 m out, in its road reserve.
const HIGH_STREET = road('Local Road', 'High Street', [-60, -8], [80, -8]);
const ARTERIAL = road('Arterial', 'Midland Highway', [-60, -8], [80, -8]);

const vicGrz = (area: number, front: ProvisionsInput['front_road_class'], corner = false) =>
  provisionsFor({
    state: 'VIC',
    zone: { code: 'GRZ1', description: 'GENERAL RESIDENTIAL ZONE - SCHEDULE 1', scheme_code: 'GRZ' },
    overlays: [],
    lot: { area_m2: area, frontage_m: null, depth_m: null, corner },
    front_road_class: front,
  });

function classified(parcel: GeoJSONGeometry, roads: RoadLine[]) {
  const result = classifyBoundaries(parcel, roads);
  if (!result.ok) throw new Error(`expected a classification, got ${result.gap}: ${result.message}`);
  return result;
}

const kinds = (edges: ClassifiedEdge[]) => edges.map((e) => `${e.kind}:${Math.round(e.length_m)}`);

/** Even-odd point in polygon, on lng/lat: fine at lot scale. */
function contains(geometry: { type: 'Polygon'; coordinates: Position[][] }, [x = 0, y = 0]: Position): boolean {
  let inside = false;
  for (const ring of geometry.coordinates) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi = 0, yi = 0] = ring[i]!;
      const [xj = 0, yj = 0] = ring[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

const decimals = (value: number) => (String(value).split('.')[1] ?? '').length;

describe('boundary classification', () => {
  it('fronts a 15 x 40 m lot on the road along its short side', () => {
    const c = classified(rectangle(15, 40), [HIGH_STREET]);
    expect(kinds(c.edges)).toEqual(['front:15', 'side:40', 'rear:15', 'side:40']);
    expect(c.frontage_m).toBeCloseTo(15, 1);
    expect(c.depth_m).toBeCloseTo(40, 1);
    expect(c.corner).toBe(false);
    expect(c.front_road_class).toBe('Local Road');
    expect(c.edges[0]?.road).toMatchObject({ name: 'High Street', road_class: 'Local Road' });
    expect(c.edges[0]?.road?.distance_m).toBeCloseTo(8, 1);
  });

  it('gives each boundary the compass bearing it faces', () => {
    const c = classified(rectangle(15, 40), [HIGH_STREET]);
    // the lot is turned 25° anticlockwise, so its street side faces 180° − 25°
    expect(c.edges.map((e) => e.facing_deg)).toEqual([155, 65, 335, 245]);
  });

  it('reads a clockwise ring the same as an anticlockwise one', () => {
    const clockwise = polygon([0, 0], [0, 40], [15, 40], [15, 0]);
    const c = classified(clockwise, [HIGH_STREET]);
    expect(kinds(c.edges)).toEqual(['front:15', 'side:40', 'rear:15', 'side:40']);
    expect(c.edges[0]?.facing_deg).toBe(155);
  });

  it('merges a straight boundary digitised with several slightly wandering vertices', () => {
    const parcel = polygon([0, 0], [3.7, 0.04], [7.5, -0.03], [11.2, 0.02], [15, 0], [15, 20.01], [15.02, 40], [0, 40]);
    const c = classified(parcel, [HIGH_STREET]);
    expect(kinds(c.edges)).toEqual(['front:15', 'side:40', 'rear:15', 'side:40']);
    expect(c.edges[0]?.path).toHaveLength(5);
  });

  it('takes the shorter road boundary of a corner lot as its front and the other as a side street', () => {
    const crossStreet = road('Local Road', 'Scott Street', [28, -60], [28, 80]);
    const c = classified(rectangle(20, 32), [HIGH_STREET, crossStreet]);
    expect(kinds(c.edges)).toEqual(['front:20', 'side:32', 'rear:20', 'side:32']);
    expect(c.edges[1]?.road?.name).toBe('Scott Street');
    expect(c.corner).toBe(true);

    const wide = classified(rectangle(32, 20), [HIGH_STREET, road('Local Road', 'Scott Street', [40, -60], [40, 80])]);
    expect(wide.edges[0]?.road?.name).toBe('Scott Street');
    expect(kinds(wide.edges)).toEqual(['front:20', 'side:32', 'rear:20', 'side:32']);
    expect(wide.frontage_m).toBeCloseTo(20, 1);
    expect(wide.depth_m).toBeCloseTo(32, 1);
  });

  it('fronts a through lot on its quieter road, with the other road at its rear', () => {
    const behind = road('Arterial', 'Midland Highway', [-60, 55], [80, 55]);
    const c = classified(rectangle(15, 40), [HIGH_STREET, behind]);
    expect(c.front_road_class).toBe('Local Road');
    expect(c.edges.find((e) => e.kind === 'rear')?.road?.name).toBe('Midland Highway');
    expect(c.corner).toBe(false);
  });

  it('does not take a road beyond the neighbouring lot for a side street', () => {
    const beyondNeighbour = road('Local Road', 'Scott Street', [15 + 15 + 8, -60], [38, 80]);
    expect(classified(rectangle(15, 40), [HIGH_STREET, beyondNeighbour]).corner).toBe(false);
  });

  it('ignores a lane behind the lot when finding the front', () => {
    const lane = road('Lane', 'Rear Lane', [-60, 43], [80, 43]);
    const c = classified(rectangle(15, 40), [HIGH_STREET, lane]);
    expect(c.edges[0]?.road?.name).toBe('High Street');
    expect(c.edges.find((e) => e.kind === 'rear')?.road).toBeNull();
  });

  it('uses the largest polygon of a multipolygon', () => {
    const big = rectangle(15, 40);
    const small = polygon([30, 30], [32, 30], [32, 32], [30, 32]);
    if (big.type !== 'Polygon' || small.type !== 'Polygon') throw new Error('polygons expected');
    const c = classified({ type: 'MultiPolygon', coordinates: [small.coordinates, big.coordinates] }, [HIGH_STREET]);
    expect(c.frontage_m).toBeCloseTo(15, 1);
  });

  it('reports no front boundary when no road lies within 40 m', () => {
    const far = road('Local Road', 'Distant Road', [-60, -60], [80, -60]);
    for (const roads of [[], [far]]) {
      expect(classifyBoundaries(rectangle(15, 40), roads)).toMatchObject({ ok: false, gap: 'no_front_boundary' });
    }
  });

  it('reports a degenerate parcel for too few vertices or no area', () => {
    expect(classifyBoundaries(polygon([0, 0], [10, 0], [0, 0]), [HIGH_STREET])).toMatchObject({
      ok: false,
      gap: 'degenerate_parcel',
    });
    expect(classifyBoundaries(polygon([0, 0], [10, 0], [20, 0]), [HIGH_STREET])).toMatchObject({
      ok: false,
      gap: 'degenerate_parcel',
    });
    expect(classifyBoundaries({ type: 'Point', coordinates: place([0, 0]) }, [HIGH_STREET])).toMatchObject({
      gap: 'degenerate_parcel',
    });
  });
});

describe('building envelope', () => {
  it('leaves 13 x 33 m of a 15 x 40 m VIC GRZ lot on a Category 1 road (front 6, sides and rear 1)', () => {
    const parcel = rectangle(15, 40);
    const c = classified(parcel, [ARTERIAL]);
    const provisions = vicGrz(600, 'arterial');
    const e = buildEnvelope(parcel, c.edges, provisions);
    expect(e.parcel_area_m2).toBeCloseTo(600, 0);
    expect(Math.abs(e.area_m2 - 429) / 429).toBeLessThan(0.005);
    expect(e.levels[0]).toMatchObject({ wall_height_m: 3.6, setbacks: { front: 6, side: 1, rear: 1 } });
    expect(e.geometry?.type).toBe('Polygon');
    expect(e.max_footprint_m2).toBeCloseTo(360, 1); // 60% site coverage of 600 m²
    expect(e.gap).toBeNull();
  });

  it('narrows with the wall height, up to the zone height limit', () => {
    const parcel = rectangle(15, 40);
    const e = buildEnvelope(parcel, classified(parcel, [HIGH_STREET]).edges, vicGrz(600, 'local'));
    expect(e.levels.map((l) => l.wall_height_m)).toEqual([3.6, 6.9, 11]);
    expect(e.area_m2).toBeCloseTo(13 * 35, 0); // front 4 m to a local street
    expect(e.levels[1]?.area_m2).toBeCloseTo((15 - 2 * 1.99) * (40 - 4 - 1.99), 0);
    expect(e.levels[2]?.area_m2).toBeCloseTo((15 - 2 * 6.09) * (40 - 4 - 6.09), 0);
  });

  it('rounds the inside corner of an L-shaped lot', () => {
    const parcel = polygon([0, 0], [30, 0], [30, 15], [15, 15], [15, 30], [0, 30]);
    const c = classified(parcel, [HIGH_STREET]);
    expect(kinds(c.edges)).toEqual(['front:30', 'side:15', 'rear:15', 'side:15', 'rear:15', 'side:30']);
    const e = buildEnvelope(parcel, c.edges, vicGrz(675, 'local'));
    // the bar (28 x 10) and the column (13 x 25) less their overlap (13 x 10), plus the corner
    // square beyond a 1 m radius of the inside corner
    const exact = 28 * 10 + 13 * 25 - 13 * 10 + (1 - Math.PI / 4);
    expect(e.area_m2).toBeCloseTo(exact, 0);
    const shape = e.geometry;
    if (shape?.type !== 'Polygon') throw new Error('expected a polygon');
    const inside = (p: [number, number]) => contains(shape, place(p));
    expect(inside([14.1, 14.1])).toBe(true); // 1.27 m from the inside corner
    expect(inside([14.5, 14.5])).toBe(false); // 0.71 m from it, though 0.5 m beyond both offset lines
    expect(inside([7, 20])).toBe(true);
    expect(inside([20, 20])).toBe(false); // the missing quarter
  });

  it('splits a lot whose narrow waist the side setbacks consume into two parts, each wound as RFC 7946 asks', () => {
    // two 15 m squares joined by a waist 2 m wide and 10 m long: 1 m off each side of the waist leaves nothing
    const parcel = polygon(
      [0, 0],
      [15, 0],
      [15, 15],
      [8.5, 15],
      [8.5, 25],
      [15, 25],
      [15, 40],
      [0, 40],
      [0, 25],
      [6.5, 25],
      [6.5, 15],
      [0, 15],
    );
    const e = buildEnvelope(parcel, classified(parcel, [HIGH_STREET]).edges, vicGrz(470, 'local'));
    const shape = e.geometry;
    if (shape?.type !== 'MultiPolygon') throw new Error(`expected a multipolygon, got ${shape?.type}`);
    expect(shape.coordinates).toHaveLength(2);
    const inAny = (p: [number, number]) =>
      shape.coordinates.some((coordinates) => contains({ type: 'Polygon', coordinates }, place(p)));
    expect(inAny([7.5, 9])).toBe(true);
    expect(inAny([7.5, 20])).toBe(false); // the waist
    expect(inAny([7.5, 32])).toBe(true);
    for (const [outer] of shape.coordinates) {
      // counter-clockwise exterior: positive shoelace area on lng/lat
      let twice = 0;
      for (let i = 0; i + 1 < outer!.length; i += 1)
        twice += outer![i]![0]! * outer![i + 1]![1]! - outer![i + 1]![0]! * outer![i]![1]!;
      expect(twice).toBeGreaterThan(0);
      expect(outer![0]).toEqual(outer![outer!.length - 1]);
    }
  });

  it('keeps a courtyard of the parcel out of the envelope, wound clockwise as a hole', () => {
    const lot = rectangle(30, 40);
    if (lot.type !== 'Polygon') throw new Error('expected a polygon');
    // a 6 x 6 m hole in the title (a neighbour's lot inside it), clear of every setback
    const courtyard = [
      [12, 18],
      [12, 24],
      [18, 24],
      [18, 18],
      [12, 18],
    ] as Array<[number, number]>;
    const parcel: GeoJSONGeometry = { type: 'Polygon', coordinates: [lot.coordinates[0]!, courtyard.map(place)] };
    const e = buildEnvelope(parcel, classified(parcel, [HIGH_STREET]).edges, vicGrz(1164, 'local'));
    const shape = e.geometry;
    if (shape?.type !== 'Polygon') throw new Error('expected a polygon');
    expect(shape.coordinates).toHaveLength(2);
    expect(contains(shape, place([15, 21]))).toBe(false);
    expect(contains(shape, place([8, 21]))).toBe(true);
    const hole = shape.coordinates[1]!;
    let twice = 0;
    for (let i = 0; i + 1 < hole.length; i += 1)
      twice += hole[i]![0]! * hole[i + 1]![1]! - hole[i + 1]![0]! * hole[i]![1]!;
    expect(twice).toBeLessThan(0);
    // the front 4 m, sides and rear 1 m, less the courtyard
    expect(e.area_m2).toBeCloseTo(28 * 35 - 36, 0);
  });

  it('sets a corner lot back from its side street as a side street', () => {
    const parcel = rectangle(20, 32);
    const c = classified(parcel, [HIGH_STREET, road('Local Road', 'Scott Street', [28, -60], [28, 80])]);
    const e = buildEnvelope(parcel, c.edges, vicGrz(640, 'local', true));
    expect(e.levels[0]?.setbacks).toMatchObject({ front: 4, side: 1, rear: 1, side_street: 2 });
    expect(e.area_m2).toBeCloseTo((20 - 1 - 2) * (32 - 4 - 1), 0);
  });

  it('reports that setbacks consume a tiny lot', () => {
    const parcel = rectangle(5, 7);
    const e = buildEnvelope(parcel, classified(parcel, [HIGH_STREET]).edges, vicGrz(35, 'local'));
    expect(e.area_m2).toBeCloseTo(3 * 2, 0);
    expect(e.gap).toMatchObject({ code: 'setbacks_consume_lot' });
    expect(e.gap?.message).toMatch(/leave [\d.]+ m² of this [\d.]+ m² lot/);
  });

  it('returns no geometry when nothing is left', () => {
    const parcel = rectangle(3, 4);
    const e = buildEnvelope(parcel, classified(parcel, [HIGH_STREET]).edges, vicGrz(12, 'local'));
    expect(e).toMatchObject({ geometry: null, area_m2: 0, max_footprint_m2: 0 });
    expect(e.gap?.code).toBe('setbacks_consume_lot');
  });

  it('writes WGS84 coordinates inside the parcel, rounded to 7 decimals', () => {
    const parcel = rectangle(15, 40);
    const e = buildEnvelope(parcel, classified(parcel, [HIGH_STREET]).edges, vicGrz(600, 'local'));
    if (e.geometry?.type !== 'Polygon') throw new Error('expected a polygon');
    const ring = e.geometry.coordinates[0]!;
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    for (const [lng = 0, lat = 0] of ring) {
      expect(decimals(lng)).toBeLessThanOrEqual(7);
      expect(decimals(lat)).toBeLessThanOrEqual(7);
      expect(lng).toBeGreaterThan(144.33);
      expect(lat).toBeLessThan(-36.66);
    }
  });

  it('uses one tier per storey up to the height limit', () => {
    expect(wallHeightTiers(8.5)).toEqual([3.6, 6.9, 8.5]);
    expect(wallHeightTiers(6.9)).toEqual([3.6, 6.9]);
    expect(wallHeightTiers(3)).toEqual([3]);
  });
});
