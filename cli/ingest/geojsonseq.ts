/**
 * Line-delimited GeoJSON (GeoJSONSeq, RFC 8142; .geojsonl as Microsoft publishes its building
 * footprints and GDAL writes them): one Feature a line, read as a stream so a national file
 * of millions of footprints costs no more memory than one line. The RFC's record separator
 * (0x1E) before a record is allowed and dropped; blank lines are skipped. A line that is not
 * a GeoJSON Feature stops the run naming its line number: a damaged file is not half loaded.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { IngestError } from './gnaf-release.ts';
import { geoJsonCrs } from './planning-crs.ts';
import type { FeatureSource, SourceFeature } from './planning-source.ts';
import { linesOf } from './psv.ts';

export const GEOJSONSEQ_EXTENSIONS: readonly string[] = ['.geojsonl', '.geojsons', '.geojsonseq', '.ndjson', '.jsonl'];

const RECORD_SEPARATOR = '\u001e';
const BOM = '\uFEFF';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The Feature on one line; `index` is the line number, which is how a user finds it in the file. */
function parseLine(name: string, line: number, text: string): SourceFeature | null {
  const record = text.replace(BOM, '').replace(RECORD_SEPARATOR, '').trim();
  if (record === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(record);
  } catch (error) {
    throw new IngestError(`${name} line ${line} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(value) || value.type !== 'Feature') {
    throw new IngestError(`${name} line ${line} is not a GeoJSON Feature (one Feature a line is expected)`);
  }
  const properties = isRecord(value.properties) ? { ...value.properties } : {};
  // A Feature's own id (RFC 7946 3.2) sits beside its properties; keep it where the reader looks.
  if (value.id !== undefined && properties.id === undefined) properties.id = value.id;
  return { index: line, properties, geometry: value.geometry };
}

async function* featuresOf(path: string, name: string): AsyncGenerator<SourceFeature> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let line = 0;
  try {
    for await (const text of linesOf(stream as AsyncIterable<string>)) {
      line += 1;
      const feature = parseLine(name, line, text);
      if (feature) yield feature;
    }
  } finally {
    stream.destroy();
  }
}

/** Opens `path` and reads its first Feature for the attribute names; the rest are read as iterated. */
export async function openGeoJsonSeq(path: string): Promise<FeatureSource> {
  const name = basename(path);
  let first: SourceFeature | undefined;
  for await (const feature of featuresOf(path, name)) {
    first = feature;
    break;
  }
  if (!first) throw new IngestError(`${name} has no features`);
  return {
    path,
    name,
    format: 'GeoJSONSeq',
    // RFC 8142 records are RFC 7946 GeoJSON, which is WGS 84 longitude/latitude by definition.
    crs: geoJsonCrs(name, undefined),
    fields: Object.keys(first.properties),
    count: null,
    features: () => featuresOf(path, name),
  };
}

/** How a refusal names a feature: by line in a line-delimited file, by position otherwise. */
export const featureLabel = (source: FeatureSource, index: number): string =>
  source.format === 'GeoJSONSeq' ? `line ${index}` : `feature ${index}`;
