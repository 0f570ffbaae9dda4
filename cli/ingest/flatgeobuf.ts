/**
 * FlatGeobuf (.fgb), as the states' open data portals and `ogr2ogr -f FlatGeobuf` write it:
 * read as a stream through the flatgeobuf package, feature by feature, so a statewide layer
 * costs one feature of memory (the spatial index, when there is one, is read past). The
 * header names the CRS and the columns, so both are checked before any feature is read. A
 * file that is not FlatGeobuf or ends inside a feature stops the run naming the feature: a
 * damaged file is not half loaded.
 */
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { deserialize } from 'flatgeobuf/lib/mjs/geojson.js';
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import { calcTreeSize } from 'flatgeobuf/lib/mjs/packedrtree.js';
import { IngestError } from './gnaf-release.ts';
import { checkLngLat, geoJsonCrs, prjCrs } from './planning-crs.ts';
import type { FeatureSource, SourceFeature } from './planning-source.ts';

export const FLATGEOBUF_EXTENSIONS: readonly string[] = ['.fgb'];

// The smallest file with a header: 8 magic bytes, a 4-byte header length and the header.
const MAGIC = [0x66, 0x67, 0x62];

/** The CRS label of a header, refusing a projected one as the other formats do. */
function headerCrs(name: string, header: HeaderMeta): string {
  const crs = header.crs;
  if (!crs || (crs.code === 0 && !crs.wkt)) return 'unspecified (longitude/latitude assumed, checked per feature)';
  if (crs.code !== 0 && (crs.org === null || /^EPSG$/i.test(crs.org))) {
    return geoJsonCrs(name, { properties: { name: `EPSG:${crs.code}` } });
  }
  if (crs.wkt) return prjCrs(name, crs.wkt);
  throw new IngestError(`${name} is in the CRS ${crs.org}:${crs.code}, which this reader does not know`);
}

function stream(path: string): { web: ReadableStream; node: ReturnType<typeof createReadStream> } {
  const node = createReadStream(path, { highWaterMark: 1 << 20 });
  // Node's web stream type and the DOM's one the package declares are the same object at run time.
  const web = Readable.toWeb(node) as unknown as ReadableStream;
  return { web, node };
}

/** Why a read failed, in words for the user rather than the decoder's internals. */
function unreadable(name: string, at: string, error: unknown): IngestError {
  const message = (error as Error).message || String(error);
  return new IngestError(`${name} is not a readable FlatGeobuf file: ${at} cannot be read (${message})`);
}

/**
 * How many whole features the file's framing holds, walking the size prefixes: the decoder
 * pads a feature cut short by the end of the file with zeros and decodes it, so a truncated
 * file is told by its bytes, not by a decode error. `undefined` where the framing is broken.
 */
async function framedFeatures(path: string, header: HeaderMeta, headerLength: number): Promise<number | undefined> {
  const size = statSync(path).size;
  let offset = 8 + 4 + headerLength;
  if (header.indexNodeSize > 0 && header.featuresCount > 0) {
    offset += calcTreeSize(header.featuresCount, header.indexNodeSize);
  }
  const file = await open(path, 'r');
  const window = Buffer.alloc(1 << 20);
  let windowStart = -1;
  let windowLength = 0;
  const uint32At = async (at: number) => {
    if (windowStart < 0 || at < windowStart || at + 4 > windowStart + windowLength) {
      windowStart = at;
      windowLength = (await file.read(window, 0, window.length, at)).bytesRead;
    }
    return window.readUInt32LE(at - windowStart);
  };
  try {
    let count = 0;
    while (offset < size) {
      if (offset + 4 > size) return undefined;
      offset += 4 + (await uint32At(offset));
      if (offset > size) return undefined;
      count += 1;
    }
    return count;
  } finally {
    await file.close();
  }
}

async function headerLengthOf(path: string): Promise<number> {
  const file = await open(path, 'r');
  try {
    const bytes = Buffer.alloc(4);
    await file.read(bytes, 0, 4, 8);
    return bytes.readUInt32LE(0);
  } finally {
    await file.close();
  }
}

async function* featuresOf(path: string, name: string, onHeader?: (h: HeaderMeta) => void) {
  const { web, node } = stream(path);
  let index = 0;
  let header: HeaderMeta | undefined;
  try {
    const features = deserialize(web, {
      headerMetaFn: (h: HeaderMeta) => {
        header = h;
        onHeader?.(h);
      },
    });
    while (true) {
      let next;
      try {
        next = await features.next();
      } catch (error) {
        if (error instanceof IngestError) throw error;
        throw unreadable(name, index === 0 ? 'its header' : `feature ${index + 1}`, error);
      }
      if (next.done) break;
      index += 1;
      const feature = next.value;
      const properties = { ...(feature.properties ?? {}) } as Record<string, unknown>;
      yield { index, properties, geometry: feature.geometry } satisfies SourceFeature;
    }
    if (header) {
      const framed = await framedFeatures(path, header, await headerLengthOf(path));
      if (framed === undefined || framed !== index) {
        throw new IngestError(
          `${name} is not a readable FlatGeobuf file: it ends inside feature ${index} (the file is cut short)`,
        );
      }
      if (header.featuresCount > 0 && index !== header.featuresCount) {
        throw new IngestError(
          `${name} is not a readable FlatGeobuf file: it holds ${index} features where its header announces ${header.featuresCount} (the file is cut short)`,
        );
      }
    }
  } finally {
    node.destroy();
  }
}

/** Opens `path`, reads its header (CRS, columns, count) and first feature; the rest are read as iterated. */
export async function openFlatGeobuf(path: string): Promise<FeatureSource> {
  const name = basename(path);
  const head = Buffer.alloc(8);
  const fd = await open(path, 'r');
  try {
    await fd.read(head, 0, 8, 0);
  } finally {
    await fd.close();
  }
  if (statSync(path).size < 12 || !MAGIC.every((byte, i) => head[i] === byte)) {
    throw new IngestError(`${name} is not a FlatGeobuf file (it does not start with the "fgb" magic bytes)`);
  }
  let header: HeaderMeta | undefined;
  let first: SourceFeature | undefined;
  for await (const feature of featuresOf(path, name, (h) => (header = h))) {
    first = feature;
    break;
  }
  if (!header) throw new IngestError(`${name} is not a readable FlatGeobuf file: its header cannot be read`);
  const crs = headerCrs(name, header);
  if (!first) throw new IngestError(`${name} has no features`);
  const envelope = header.envelope;
  if (envelope && envelope.length >= 4) {
    checkLngLat(name, crs, 1, envelope[0]!, envelope[1]!);
    checkLngLat(name, crs, 1, envelope[2]!, envelope[3]!);
  }
  const columns = header.columns?.map((c) => c.name) ?? Object.keys(first.properties);
  return {
    path,
    name,
    format: 'FlatGeobuf',
    crs,
    fields: columns,
    // Writers that stream leave the count at 0 ("unknown").
    count: header.featuresCount > 0 ? header.featuresCount : null,
    features: () => featuresOf(path, name),
  };
}
