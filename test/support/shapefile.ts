import { writeFileSync } from 'node:fs';

type Ring = number[][];
/** The feature shape the writer reads: GeoJSON MultiPolygon geometry and flat attributes. */
export type ShapefileFeature = { properties: Record<string, unknown>; geometry: unknown };

const bounds = (points: Ring) =>
  [0, 1, 0, 1].map((axis, i) => (i < 2 ? Math.min : Math.max)(...points.map((p) => p[axis]!)));

/**
 * The smallest honest ESRI shapefile: polygon records (outer rings clockwise, as ESRI has them)
 * and a dBASE III table of character fields, written from GeoJSON MultiPolygon features.
 */
/** A dBASE character cell: text and numbers as written, anything else blank. */
const cell = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

export function writeShapefile(
  stem: string,
  features: readonly ShapefileFeature[],
  fields: readonly string[],
  prj: string,
): string {
  const records = features.map((f, n) => {
    const rings = (f.geometry as { coordinates: Ring[][] }).coordinates.flatMap((rs) =>
      rs.map((r, i) => {
        const ccw = r.slice(1).reduce((s, p, j) => s + r[j]![0]! * p[1]! - p[0]! * r[j]![1]!, 0) > 0;
        return (i === 0) === ccw ? [...r].reverse() : r;
      }),
    );
    const points = rings.flat();
    const record = Buffer.alloc(8 + 44 + 4 * rings.length + 16 * points.length);
    record.writeInt32BE(n + 1, 0);
    record.writeInt32BE((record.length - 8) / 2, 4);
    record.writeInt32LE(5, 8);
    bounds(points).forEach((v, i) => record.writeDoubleLE(v, 12 + 8 * i));
    record.writeInt32LE(rings.length, 44);
    record.writeInt32LE(points.length, 48);
    rings.reduce((at, r, i) => (record.writeInt32LE(at, 52 + 4 * i), at + r.length), 0);
    points.forEach((p, i) =>
      p.forEach((v, axis) => record.writeDoubleLE(v, 52 + 4 * rings.length + 16 * i + 8 * axis)),
    );
    return record;
  });
  const header = Buffer.alloc(100);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE((100 + records.reduce((s, r) => s + r.length, 0)) / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(5, 32);
  bounds(features.flatMap((f) => (f.geometry as { coordinates: Ring[][] }).coordinates.flat(2))).forEach((v, i) =>
    header.writeDoubleLE(v, 36 + 8 * i),
  );
  writeFileSync(`${stem}.shp`, Buffer.concat([header, ...records]));

  const width = 80;
  const head = 32 + 32 * fields.length + 1;
  const dbf = Buffer.alloc(head + features.length * (1 + width * fields.length) + 1, 0x20);
  dbf.fill(0, 0, head - 1);
  dbf.writeUInt8(3, 0);
  dbf.writeUInt32LE(features.length, 4);
  dbf.writeUInt16LE(head, 8);
  dbf.writeUInt16LE(1 + width * fields.length, 10);
  fields.forEach((name, i) => {
    dbf.write(`${name}`, 32 + 32 * i, 'latin1');
    dbf.write('C', 43 + 32 * i, 'latin1');
    dbf.writeUInt8(width, 48 + 32 * i);
  });
  dbf.writeUInt8(0x0d, head - 1);
  features.forEach((f, n) =>
    fields.forEach((name, i) =>
      dbf.write(cell(f.properties[name]), head + n * (1 + width * fields.length) + 1 + width * i, 'latin1'),
    ),
  );
  dbf.writeUInt8(0x1a, dbf.length - 1);
  writeFileSync(`${stem}.dbf`, dbf);
  writeFileSync(`${stem}.prj`, prj);
  return `${stem}.shp`;
}
