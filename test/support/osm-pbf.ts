/**
 * A minimal OSM PBF writer for tests: turns the elements of an OSM file (as cli/ingest/osm-read.ts
 * reads them) into a PBF file per the published format (https://wiki.openstreetmap.org/wiki/PBF_Format):
 * an OSMHeader blob, then one zlib OSMData blob with one primitive group per element kind
 * (plain nodes, ways with delta-coded refs, relations without members). Written here from the
 * format's .proto, so the XML sample can be checked to read the same as its PBF form.
 */
import { deflateSync } from 'node:zlib';
import type { OsmElement } from '../../cli/ingest/osm-read.ts';

class Writer {
  private readonly bytes: number[] = [];

  varint(value: bigint): this {
    let v = BigInt.asUintN(64, value);
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      this.bytes.push(byte);
    } while (v > 0n);
    return this;
  }

  key(field: number, wire: 0 | 2): this {
    return this.varint(BigInt((field << 3) | wire));
  }

  uint(field: number, value: number | bigint): this {
    return this.key(field, 0).varint(BigInt(value));
  }

  sint(field: number, value: number | bigint): this {
    return this.key(field, 0).varint(zigzag(BigInt(value)));
  }

  bytesField(field: number, data: Uint8Array): this {
    this.key(field, 2).varint(BigInt(data.length));
    for (const b of data) this.bytes.push(b);
    return this;
  }

  packed(field: number, values: readonly bigint[]): this {
    if (values.length === 0) return this;
    const inner = new Writer();
    for (const v of values) inner.varint(v);
    return this.bytesField(field, inner.done());
  }

  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const zigzag = (v: bigint) => (v << 1n) ^ (v >> 63n);
const text = (s: string) => new TextEncoder().encode(s);

function blob(type: string, payload: Uint8Array): Buffer {
  const body = new Writer().uint(2, payload.length).bytesField(3, deflateSync(payload)).done();
  const header = new Writer().bytesField(1, text(type)).uint(3, body.length).done();
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  return Buffer.concat([size, header, body]);
}

/** The elements as an .osm.pbf file's bytes. */
export function encodeOsmPbf(elements: readonly OsmElement[]): Buffer {
  const strings = [''];
  const index = new Map<string, number>([['', 0]]);
  const sid = (s: string) => {
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    return BigInt(i);
  };
  const tagFields = (w: Writer, tags: Record<string, string>) => {
    const entries = Object.entries(tags);
    return w
      .packed(
        2,
        entries.map(([k]) => sid(k)),
      )
      .packed(
        3,
        entries.map(([, v]) => sid(v)),
      );
  };
  const nodes = new Writer();
  const ways = new Writer();
  const relations = new Writer();
  for (const e of elements) {
    if (e.type === 'node') {
      const n = new Writer().sint(1, e.id);
      tagFields(n, e.tags);
      n.sint(8, Math.round(e.lat * 1e7)).sint(9, Math.round(e.lon * 1e7));
      nodes.bytesField(1, n.done());
    } else if (e.type === 'way') {
      const w = new Writer().uint(1, e.id);
      tagFields(w, e.tags);
      let last = 0n;
      const refs = e.nodes.map((ref) => {
        const delta = BigInt(ref) - last;
        last = BigInt(ref);
        return zigzag(delta);
      });
      ways.bytesField(3, w.packed(8, refs).done());
    } else {
      const r = new Writer().uint(1, e.id);
      relations.bytesField(4, tagFields(r, e.tags).done());
    }
  }
  const table = new Writer();
  for (const s of strings) table.bytesField(1, text(s));
  const block = new Writer().bytesField(1, table.done());
  for (const group of [nodes, ways, relations]) {
    const bytes = group.done();
    if (bytes.length > 0) block.bytesField(2, bytes);
  }
  block.uint(17, 100);
  const header = new Writer().bytesField(4, text('OsmSchema-V0.6')).bytesField(4, text('DenseNodes')).done();
  return Buffer.concat([blob('OSMHeader', header), blob('OSMData', block.done())]);
}
