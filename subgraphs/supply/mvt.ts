/**
 * A Mapbox Vector Tile 2.1 encoder for one layer, for the tiles of a PostGIS built without
 * protobuf (PGlite's: its ST_AsMVT refuses with "Compiled without protobuf-c support"). The
 * geometry comes already in tile coordinates, clipped and snapped by SQL; this only writes the
 * protobuf (the tile's layer 3, feature 2, keys 3, values 4, extent 5, version 15).
 */

type Coord = [number, number];
export type TileGeometry =
  | { type: 'Point'; coordinates: Coord }
  | { type: 'MultiPoint'; coordinates: Coord[] }
  | { type: 'LineString'; coordinates: Coord[] }
  | { type: 'MultiLineString'; coordinates: Coord[][] }
  | { type: 'Polygon'; coordinates: Coord[][] }
  | { type: 'MultiPolygon'; coordinates: Coord[][][] }
  | { type: 'GeometryCollection'; geometries: TileGeometry[] };

export type TileFeature = { geometry: TileGeometry; properties: Record<string, string | number | boolean | null> };

class Writer {
  private bytes: number[] = [];

  varint(value: number): this {
    let v = value;
    while (v >= 0x80) {
      this.bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    this.bytes.push(v);
    return this;
  }

  tag(field: number, wire: number): this {
    return this.varint(field * 8 + wire);
  }

  message(field: number, body: Uint8Array): this {
    this.tag(field, 2).varint(body.length);
    for (const b of body) this.bytes.push(b);
    return this;
  }

  string(field: number, text: string): this {
    return this.message(field, new TextEncoder().encode(text));
  }

  packed(field: number, values: readonly number[]): this {
    const inner = new Writer();
    for (const v of values) inner.varint(v);
    return this.message(field, inner.finish());
  }

  double(field: number, value: number): this {
    this.tag(field, 1);
    const buffer = new DataView(new ArrayBuffer(8));
    buffer.setFloat64(0, value, true);
    for (let i = 0; i < 8; i++) this.bytes.push(buffer.getUint8(i));
    return this;
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const zigzag = (n: number) => (n < 0 ? -2 * n - 1 : 2 * n);
const command = (id: number, count: number) => (id & 0x7) | (count << 3);

/** Twice the signed area in tile coordinates (y down): the spec's exterior rings are positive. */
function area2(ring: readonly Coord[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) sum += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return sum;
}

/** The distinct vertices of a closed ring, oriented exterior (positive) or interior (negative). */
function orient(ring: readonly Coord[], exterior: boolean): Coord[] | null {
  const open: Coord[] = [];
  for (const p of ring) {
    const last = open.at(-1);
    if (!last || last[0] !== p[0] || last[1] !== p[1]) open.push(p);
  }
  if (open.length > 1 && open[0]![0] === open.at(-1)![0] && open[0]![1] === open.at(-1)![1]) open.pop();
  if (open.length < 3) return null;
  const closed = [...open, open[0]!];
  const a = area2(closed);
  if (a === 0) return null;
  return a > 0 === exterior ? open : open.reverse();
}

class Cursor {
  x = 0;
  y = 0;
  readonly out: number[] = [];

  moveTo(points: readonly Coord[]): void {
    this.out.push(command(1, points.length));
    this.deltas(points);
  }

  lineTo(points: readonly Coord[]): void {
    if (points.length === 0) return;
    this.out.push(command(2, points.length));
    this.deltas(points);
  }

  close(): void {
    this.out.push(command(7, 1));
  }

  private deltas(points: readonly Coord[]): void {
    for (const [x, y] of points) {
      this.out.push(zigzag(x - this.x), zigzag(y - this.y));
      this.x = x;
      this.y = y;
    }
  }
}

/** The feature's type and command stream; null when nothing of it survives in the tile. */
function encodeGeometry(geometry: TileGeometry): { type: number; commands: number[] } | null {
  const cursor = new Cursor();
  switch (geometry.type) {
    case 'Point':
      cursor.moveTo([geometry.coordinates]);
      return { type: 1, commands: cursor.out };
    case 'MultiPoint':
      if (geometry.coordinates.length === 0) return null;
      cursor.moveTo(geometry.coordinates);
      return { type: 1, commands: cursor.out };
    case 'LineString':
    case 'MultiLineString': {
      const lines = geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates;
      for (const line of lines) {
        if (line.length < 2) continue;
        cursor.moveTo([line[0]!]);
        cursor.lineTo(line.slice(1));
      }
      return cursor.out.length ? { type: 2, commands: cursor.out } : null;
    }
    case 'Polygon':
    case 'MultiPolygon': {
      const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
      for (const rings of polygons) {
        const outer = rings[0] && orient(rings[0], true);
        if (!outer) continue;
        for (const [i, ring] of [outer, ...rings.slice(1).map((r) => orient(r, false))].entries()) {
          if (!ring || (i > 0 && ring === outer)) continue;
          cursor.moveTo([ring[0]!]);
          cursor.lineTo(ring.slice(1));
          cursor.close();
        }
      }
      return cursor.out.length ? { type: 3, commands: cursor.out } : null;
    }
    case 'GeometryCollection': {
      // a clipped polygon can come back as a collection; its polygons are what the lot is
      const polygons = geometry.geometries.flatMap((g) =>
        g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [],
      );
      return polygons.length ? encodeGeometry({ type: 'MultiPolygon', coordinates: polygons }) : null;
    }
  }
}

/** One layer of features as a whole tile; an empty layer list gives the empty tile (zero bytes). */
export function encodeTile(layerName: string, extent: number, features: readonly TileFeature[]): Uint8Array {
  const keys = new Map<string, number>();
  const values = new Map<string, { index: number; value: string | number | boolean }>();
  const encoded: Uint8Array[] = [];
  for (const feature of features) {
    const geometry = encodeGeometry(feature.geometry);
    if (!geometry) continue;
    const tags: number[] = [];
    for (const [key, value] of Object.entries(feature.properties)) {
      if (value === null || value === undefined) continue;
      if (!keys.has(key)) keys.set(key, keys.size);
      const id = `${typeof value}:${String(value)}`;
      if (!values.has(id)) values.set(id, { index: values.size, value });
      tags.push(keys.get(key)!, values.get(id)!.index);
    }
    encoded.push(new Writer().packed(2, tags).tag(3, 0).varint(geometry.type).packed(4, geometry.commands).finish());
  }
  if (encoded.length === 0) return new Uint8Array(0);
  const layer = new Writer().tag(15, 0).varint(2).string(1, layerName);
  for (const f of encoded) layer.message(2, f);
  for (const key of keys.keys()) layer.string(3, key);
  for (const { value } of values.values()) {
    const v = new Writer();
    if (typeof value === 'string') v.string(1, value);
    else if (typeof value === 'boolean') v.tag(7, 0).varint(value ? 1 : 0);
    else if (Number.isInteger(value) && Math.abs(value) < 2 ** 52) {
      if (value >= 0) v.tag(5, 0).varint(value);
      else v.tag(6, 0).varint(zigzag(value));
    } else v.double(3, value);
    layer.message(4, v.finish());
  }
  layer.tag(5, 0).varint(extent);
  return new Writer().message(3, layer.finish()).finish();
}
