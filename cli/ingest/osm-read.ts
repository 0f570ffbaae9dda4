/**
 * Reading the OpenStreetMap formats people download: OSM XML (`.osm`, an editor's or the API's
 * export, or a Geofabrik/BBBike extract as XML) streamed with saxes, and PBF (`.osm.pbf`, the
 * extract format) with tiny-osmpbf. Both give the same elements in file order: nodes (id,
 * point, tags), ways (id, node ids, tags) and relations (id, tags; their members are not read).
 *
 * PBF is decoded in memory (tiny-osmpbf is synchronous over the whole buffer), so a PBF file is
 * refused above MAX_PBF_BYTES: a suburb, a city or a small state extract, not a country. XML is
 * streamed and has no such limit; either way the ingest keeps every node's point to build ways.
 */
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { SaxesParser } from 'saxes';
import tinyosmpbf, { type OsmPbfElement } from 'tiny-osmpbf';
import { IngestError } from './gnaf-release.ts';

/** The largest PBF file read (bytes): it is decoded in memory, several times its size. */
export const MAX_PBF_BYTES = 256 * 1024 * 1024;

export type OsmTags = Record<string, string>;
export type OsmElement =
  | { type: 'node'; id: number; lat: number; lon: number; tags: OsmTags }
  | { type: 'way'; id: number; nodes: number[]; tags: OsmTags }
  | { type: 'relation'; id: number; tags: OsmTags };

export type OsmFormat = 'OSM XML' | 'OSM PBF';

export function osmFormatOf(file: string): OsmFormat {
  const name = basename(file).toLowerCase();
  if (name.endsWith('.osm.pbf') || name.endsWith('.pbf')) return 'OSM PBF';
  if (name.endsWith('.osm') || name.endsWith('.xml') || name.endsWith('.osm.xml')) return 'OSM XML';
  throw new IngestError(`${basename(file)}: an OpenStreetMap file ends .osm (XML) or .osm.pbf (PBF)`);
}

/** Every element of an OSM file, in file order. */
export async function* readOsm(file: string): AsyncGenerator<OsmElement> {
  if (osmFormatOf(file) === 'OSM PBF') yield* readPbf(file);
  else yield* readXml(file);
}

async function* readPbf(file: string): AsyncGenerator<OsmElement> {
  const size = statSync(file).size;
  if (size > MAX_PBF_BYTES) {
    throw new IngestError(
      `${basename(file)} is ${Math.round(size / 1048576)} MB: PBF files are decoded in memory, up to ${MAX_PBF_BYTES / 1048576} MB ` +
        '(cut a smaller extract, e.g. with osmium extract, or convert it to .osm XML, which is streamed)',
    );
  }
  const elements: OsmElement[] = [];
  try {
    tinyosmpbf(await readFile(file), (e: OsmPbfElement) => {
      const tags = e.tags ?? {};
      if (e.type === 'node') elements.push({ type: 'node', id: e.id, lat: e.lat, lon: e.lon, tags });
      else if (e.type === 'way') elements.push({ type: 'way', id: e.id, nodes: e.nodes, tags });
      else elements.push({ type: 'relation', id: e.id, tags });
    });
  } catch (error) {
    throw new IngestError(`${basename(file)} is not a readable OSM PBF file (${(error as Error).message})`);
  }
  yield* elements;
}

async function* readXml(file: string): AsyncGenerator<OsmElement> {
  const parser = new SaxesParser();
  const ready: OsmElement[] = [];
  let current: OsmElement | null = null;
  let sawRoot = false;
  let failure: Error | null = null;
  const int = (value: string | undefined, what: string): number => {
    const n = Number(value);
    if (value === undefined || !Number.isSafeInteger(n)) throw new Error(`${what} "${value ?? ''}" is not an id`);
    return n;
  };
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentag', (tag) => {
    const a = tag.attributes as Record<string, string>;
    switch (tag.name) {
      case 'osm':
      case 'osmChange':
        sawRoot = true;
        break;
      case 'node': {
        const lat = Number(a.lat);
        const lon = Number(a.lon);
        if (!Number.isFinite(lat) || !Number.isFinite(lon)) throw new Error(`node ${a.id ?? '?'} has no lat/lon`);
        current = { type: 'node', id: int(a.id, 'node id'), lat, lon, tags: {} };
        break;
      }
      case 'way':
        current = { type: 'way', id: int(a.id, 'way id'), nodes: [], tags: {} };
        break;
      case 'relation':
        current = { type: 'relation', id: int(a.id, 'relation id'), tags: {} };
        break;
      case 'nd':
        if (current?.type === 'way') current.nodes.push(int(a.ref, 'nd ref'));
        break;
      case 'tag':
        if (current && a.k !== undefined) current.tags[a.k] = a.v ?? '';
        break;
    }
  });
  parser.on('closetag', (tag) => {
    if ((tag.name === 'node' || tag.name === 'way' || tag.name === 'relation') && current) {
      ready.push(current);
      current = null;
    }
  });
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream) {
      parser.write(chunk as string);
      if (failure) break;
      yield* ready.splice(0);
    }
    if (!failure) parser.close();
  } catch (error) {
    failure ??= error as Error;
  }
  if (failure) throw new IngestError(`${basename(file)} is not readable OSM XML (${failure.message})`);
  if (!sawRoot) throw new IngestError(`${basename(file)} is not OSM XML (no <osm> element)`);
  yield* ready.splice(0);
}
