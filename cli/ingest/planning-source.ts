/**
 * Features of a planning file, GeoJSON, line-delimited GeoJSON, FlatGeobuf or shapefile, one at
 * a time with their attributes as published. A shapefile streams record by record (FlatGeobuf
 * and GeoJSONSeq likewise, see flatgeobuf.ts and geojsonseq.ts), so a statewide Vicmap layer never sits in
 * memory whole; GeoJSON has no streaming parser here and is read at once, which holds up to
 * a few hundred megabytes (a larger export loads as line-delimited GeoJSON or a shapefile).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { open as openShapefile } from 'shapefile';
import { FLATGEOBUF_EXTENSIONS, openFlatGeobuf } from './flatgeobuf.ts';
import { IngestError } from './gnaf-release.ts';
import { GEOJSONSEQ_EXTENSIONS, openGeoJsonSeq } from './geojsonseq.ts';
import { checkLngLat, geoJsonCrs, prjCrs } from './planning-crs.ts';

export interface SourceFeature {
  /** 1-based position in the file, as a user counts features in QGIS. */
  readonly index: number;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly geometry: unknown;
}

export interface FeatureSource {
  readonly path: string;
  /** The file's name, for messages and the default snapshot id. */
  readonly name: string;
  readonly format: 'GeoJSON' | 'GeoJSONSeq' | 'FlatGeobuf' | 'shapefile';
  readonly crs: string;
  /** Attribute names of the first feature, in the file's order. */
  readonly fields: readonly string[];
  /** How many features there are, when the format says so before reading them. */
  readonly count: number | null;
  /** The features in file order; a shapefile source can be read once. */
  features(): AsyncIterable<SourceFeature>;
}

// V8 cannot hold a string much over 512 MB; refuse before trying rather than fail inside JSON.parse.
const MAX_GEOJSON_BYTES = 500 * 1024 * 1024;

/** Opens `path`, checks its CRS and reads its first feature's attribute names. */
export async function openFeatureSource(path: string): Promise<FeatureSource> {
  if (!existsSync(path) || !statSync(path).isFile()) throw new IngestError(`no such file: ${path}`);
  const extension = extname(path).toLowerCase();
  if (extension === '.geojson' || extension === '.json') return openGeoJson(path);
  if (extension === '.shp') return openShp(path);
  if (GEOJSONSEQ_EXTENSIONS.includes(extension)) return openGeoJsonSeq(path);
  if (FLATGEOBUF_EXTENSIONS.includes(extension)) return openFlatGeobuf(path);
  throw new IngestError(
    `${basename(path)}: give a GeoJSON file (.geojson, .json), line-delimited GeoJSON (${GEOJSONSEQ_EXTENSIONS.join(', ')}), FlatGeobuf (.fgb) or a shapefile (.shp with its .dbf and .prj beside it)`,
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

async function openGeoJson(path: string): Promise<FeatureSource> {
  const name = basename(path);
  if (statSync(path).size > MAX_GEOJSON_BYTES) {
    throw new IngestError(
      `${name} is over 500 MB: convert it to line-delimited GeoJSON (ogr2ogr -f GeoJSONSeq out.geojsonl ${name}) or a shapefile, which are read as streams`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new IngestError(`${name} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(document) || document.type !== 'FeatureCollection' || !Array.isArray(document.features)) {
    throw new IngestError(`${name} is not a GeoJSON FeatureCollection`);
  }
  const crs = geoJsonCrs(name, document.crs);
  const features: unknown[] = document.features;
  const first = features[0];
  if (first === undefined) throw new IngestError(`${name} has no features`);
  return {
    path,
    name,
    format: 'GeoJSON',
    crs,
    fields: isRecord(first) && isRecord(first.properties) ? Object.keys(first.properties) : [],
    count: features.length,
    async *features() {
      for (const [i, feature] of features.entries()) {
        if (!isRecord(feature) || feature.type !== 'Feature') {
          throw new IngestError(`${name}: feature ${i + 1} is not a GeoJSON Feature`);
        }
        yield {
          index: i + 1,
          properties: isRecord(feature.properties) ? feature.properties : {},
          geometry: feature.geometry,
        };
      }
    },
  };
}

/** The file beside `shp` with another extension, in either case as shapefile tools write them. */
function sibling(shp: string, extension: string): string | undefined {
  const stem = shp.slice(0, -extname(shp).length);
  return [`${stem}.${extension}`, `${stem}.${extension.toUpperCase()}`].find((candidate) => existsSync(candidate));
}

/** The .dbf text encoding from the .cpg beside it; dBASE's own default otherwise. */
function dbfEncoding(shp: string): string {
  const cpg = sibling(shp, 'cpg');
  if (!cpg) return 'windows-1252';
  const label = readFileSync(cpg, 'utf8').trim();
  const encoding = label === '65001' ? 'utf-8' : /^\d+$/.test(label) ? `windows-${label}` : label;
  try {
    return new TextDecoder(encoding).encoding;
  } catch {
    throw new IngestError(`${basename(cpg)} names the encoding "${label}", which this reader does not know`);
  }
}

async function openShp(path: string): Promise<FeatureSource> {
  const name = basename(path);
  const dbf = sibling(path, 'dbf');
  if (!dbf) throw new IngestError(`${name} has no .dbf beside it: its attributes are in the .dbf`);
  const prj = sibling(path, 'prj');
  if (!prj) throw new IngestError(`${name} has no .prj beside it, so its coordinate system is unknown`);
  const crs = prjCrs(basename(prj), readFileSync(prj, 'utf8'));
  let source;
  let first;
  try {
    source = await openShapefile(path, dbf, { encoding: dbfEncoding(path) });
    first = await source.read();
  } catch (error) {
    if (error instanceof IngestError) throw error;
    throw new IngestError(`${name} is not a readable shapefile: ${(error as Error).message}`);
  }
  if (first.done) throw new IngestError(`${name} has no features`);
  const [west = 0, south = 0, east = 0, north = 0] = source.bbox;
  checkLngLat(name, crs, 1, west, south);
  checkLngLat(name, crs, 1, east, north);
  const reader = source;
  const head = first.value;
  return {
    path,
    name,
    format: 'shapefile',
    crs,
    fields: Object.keys(head.properties ?? {}),
    count: null,
    async *features() {
      let record = { done: false, value: head };
      for (let index = 1; !record.done; index += 1) {
        yield { index, properties: record.value.properties ?? {}, geometry: record.value.geometry };
        try {
          record = await reader.read();
        } catch (error) {
          throw new IngestError(`${name}: record ${index + 1} cannot be read: ${(error as Error).message}`);
        }
      }
    },
  };
}
