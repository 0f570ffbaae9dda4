/**
 * The operator layout of `landgraph ingest land-supply`: an estates file and a lots file, each
 * CSV (a header row) or GeoJSON (a FeatureCollection whose properties are the columns and whose
 * geometry is the location). No state publishes land supply lot by lot: the Victorian and NSW
 * Urban Development Programs report estates/precincts by LGA with their lot yield, proposed
 * (certified plan, no title) and titled lots (from Vicmap Property / the DCDB); asking prices
 * and sales status come from developers' price lists. The layout joins the two: an estate
 * register (id, name, developer, state, LGA, suburb, status, location) and a weekly price list
 * of lots (estate, lot number, title status as the programmes count it, sales status, asking
 * price, area, frontage, depth, location or drawn boundary). Column names are matched without
 * case, spaces or punctuation, with the aliases below. Rows that cannot be read are refused
 * and listed; a missing required column refuses the file, naming the column.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { LngLat } from '../../core/aspect.ts';
import { deriveAspect } from '../../core/aspect.ts';
import { isStateCode } from '../../core/geo.ts';
import { readCsv } from './csv.ts';
import { IngestError } from './gnaf-release.ts';
import type { FeatureNote } from './planning-load.ts';

const MAX_FILE_BYTES = 128 * 1024 * 1024;

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Each column and the header names it is read from (squashed: lower case, letters and digits). */
export const ESTATE_COLUMNS = {
  estate_id: ['estateid', 'id', 'projectid'],
  name: ['name', 'estatename', 'projectname'],
  developer: ['developer', 'developername'],
  state: ['state'],
  status: ['status', 'estatestatus'],
  lga_code: ['lgacode'],
  lga_name: ['lganame', 'lga'],
  suburb: ['suburb', 'locality'],
  lat: ['lat', 'latitude'],
  lng: ['lng', 'lon', 'long', 'longitude'],
} as const;
const ESTATE_REQUIRED = ['estate_id', 'name', 'state', 'status'] as const;

export const LOT_COLUMNS = {
  lot_id: ['lotid'],
  estate_id: ['estateid'],
  lot_number: ['lotnumber', 'lot', 'lotno'],
  sales_status: ['salesstatus', 'status', 'availability'],
  title_status: ['titlestatus', 'title'],
  asking_price: ['askingprice', 'price', 'listprice'],
  area_m2: ['aream2', 'area', 'lotsize', 'landsize', 'sizem2'],
  frontage_m: ['frontagem', 'frontage', 'width'],
  depth_m: ['depthm', 'depth'],
  listing_text: ['listingtext', 'description', 'notes'],
  plan_front_to_rear_deg: ['planfronttoreardeg'],
  plan_north_point_deg: ['plannorthpointdeg'],
  frontage_edge: ['frontageedge'],
  lat: ['lat', 'latitude'],
  lng: ['lng', 'lon', 'long', 'longitude'],
} as const;
const LOT_REQUIRED = ['estate_id', 'lot_number', 'sales_status', 'title_status'] as const;

type EstateColumn = keyof typeof ESTATE_COLUMNS;
type LotColumn = keyof typeof LOT_COLUMNS;

const SALES_WORDS: Record<string, 'available' | 'under_offer' | 'sold' | 'withdrawn'> = {
  available: 'available',
  forsale: 'available',
  onsale: 'available',
  selling: 'available',
  underoffer: 'under_offer',
  deposit: 'under_offer',
  deposittaken: 'under_offer',
  hold: 'under_offer',
  onhold: 'under_offer',
  reserved: 'under_offer',
  undercontract: 'under_offer',
  sold: 'sold',
  settled: 'sold',
  withdrawn: 'withdrawn',
  offmarket: 'withdrawn',
  delisted: 'withdrawn',
  unavailable: 'withdrawn',
};
// The programmes' words: a titled lot ("lots with a title") or one on a certified plan without one ("proposed").
const TITLE_WORDS: Record<string, 'titled' | 'untitled'> = {
  titled: 'titled',
  registered: 'titled',
  title: 'titled',
  yes: 'titled',
  y: 'titled',
  true: 'titled',
  untitled: 'untitled',
  proposed: 'untitled',
  unregistered: 'untitled',
  titlespending: 'untitled',
  notitled: 'untitled',
  nottitled: 'untitled',
  no: 'untitled',
  n: 'untitled',
  false: 'untitled',
};
const ESTATE_STATUS_WORDS: Record<string, 'selling' | 'coming_soon' | 'sold_out'> = {
  selling: 'selling',
  sellingnow: 'selling',
  onsale: 'selling',
  active: 'selling',
  comingsoon: 'coming_soon',
  upcoming: 'coming_soon',
  planned: 'coming_soon',
  registerinterest: 'coming_soon',
  soldout: 'sold_out',
  completed: 'sold_out',
  complete: 'sold_out',
};

export type EstateRecord = {
  seq: number;
  estate_id: string;
  name: string;
  developer: string | null;
  state: string;
  status: string;
  lga_code: string | null;
  lga_name: string | null;
  suburb: string | null;
  lng: number | null;
  lat: number | null;
  /** A drawn estate outline (GeoJSON Polygon text); its point on surface is the estate's point. */
  outline: string | null;
};

export type LotRecord = {
  seq: number;
  lot_id: string;
  estate_id: string;
  lot_number: string;
  sales_status: string;
  title_status: string;
  asking_price: number | null;
  area_m2: number | null;
  frontage_m: number | null;
  depth_m: number | null;
  listing_text: string | null;
  aspect: string | null;
  aspect_source: string | null;
  lng: number | null;
  lat: number | null;
  /** The lot as drawn (GeoJSON Polygon text), and the edge of it on the road (GeoJSON LineString text). */
  boundary: string | null;
  frontage_edge: string | null;
};

type Row = { line: number; get(column: string): string | null; geometry: unknown };
type Table = { file: string; columns: readonly string[]; rows: Row[]; unit: 'line' | 'feature' };

/** Reads a CSV (header row) or a GeoJSON FeatureCollection (properties as columns) as rows. */
export async function readTable(path: string): Promise<Table> {
  const file = basename(path);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    throw new IngestError(`cannot read ${path}`);
  }
  if (size > MAX_FILE_BYTES) throw new IngestError(`${file} is over ${MAX_FILE_BYTES / 1024 / 1024} MB`);
  const ext = extname(path).toLowerCase();
  if (ext === '.geojson' || ext === '.json') {
    let body: unknown;
    try {
      body = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new IngestError(`${file} is not JSON: ${(error as Error).message}`);
    }
    const features = (body as { type?: unknown; features?: unknown }).features;
    if ((body as { type?: unknown }).type !== 'FeatureCollection' || !Array.isArray(features)) {
      throw new IngestError(`${file} is not a GeoJSON FeatureCollection`);
    }
    const columns = new Set<string>();
    const rows: Row[] = features.map((feature: unknown, i) => {
      const f = (feature ?? {}) as { properties?: Record<string, unknown> | null; geometry?: unknown };
      const props = new Map<string, unknown>();
      for (const [key, value] of Object.entries(f.properties ?? {})) {
        columns.add(key);
        props.set(squash(key), value);
      }
      return {
        line: i + 1,
        geometry: f.geometry ?? null,
        get: (column: string) => {
          const value = props.get(column);
          if (value === undefined || value === null) return null;
          if (typeof value === 'string') return value.trim() || null;
          // a number or true/false as written; an object or array as its JSON (never a valid value)
          return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
        },
      };
    });
    return { file, columns: [...columns], rows, unit: 'feature' };
  }
  if (ext !== '.csv') throw new IngestError(`${file}: give a .csv or a .geojson (or .json) file`);
  const table = readCsv(path);
  const index = new Map(table.header.map((h, i) => [squash(h), i] as const));
  return {
    file,
    columns: table.header,
    unit: 'line',
    rows: table.rows.map((row) => ({
      line: row.line,
      geometry: null,
      get: (column: string) => {
        const i = index.get(column);
        return i === undefined ? null : row.fields[i]?.trim() || null;
      },
    })),
  };
}

/** The squashed header name each column is read from; a required column missing refuses the file. */
function columnsOf<C extends string>(
  table: Table,
  what: string,
  aliases: Record<C, readonly string[]>,
  required: readonly C[],
  located: boolean,
): Partial<Record<C, string>> {
  const present = new Set(table.columns.map(squash));
  const found: Partial<Record<C, string>> = {};
  for (const column of Object.keys(aliases) as C[]) {
    const alias = aliases[column].find((a) => present.has(a));
    if (alias) found[column] = alias;
  }
  const missing: string[] = required.filter((c) => found[c] === undefined);
  // a CSV says where each row is in lat and lng columns; GeoJSON in each feature's geometry
  if (!located) for (const c of ['lat', 'lng'] as C[]) if (found[c] === undefined) missing.push(c);
  if (missing.length > 0) {
    throw new IngestError(
      `${table.file} is not a land-supply ${what} file: it lacks ${missing
        .map((c) => `a ${c} column (${(aliases[c as C] ?? []).join(', ')})`)
        .join('; ')} (its columns: ${table.columns.join(', ') || 'none'})`,
    );
  }
  return found;
}

class RowError extends Error {}

// Price lists say these where a lot has no price shown: no asking price, not a bad row.
const NO_PRICE = /^(poa|price on application|contact (agent|us|sales)|tba|tbc|-)$/i;

function number(value: string | null, what: string): number | null {
  if (value === null || NO_PRICE.test(value)) return null;
  const cleaned = value.replace(/[$,\s]|m²|m2|sqm|m$/gi, '');
  const n = Number(cleaned);
  if (cleaned === '' || !Number.isFinite(n)) throw new RowError(`${what} "${value}" is not a number`);
  if (n <= 0) throw new RowError(`${what} ${value} is not above 0`);
  return n;
}

function coordinate(value: string | null, what: 'lat' | 'lng'): number | null {
  if (value === null) return null;
  const n = Number(value);
  const limit = what === 'lat' ? 90 : 180;
  if (!Number.isFinite(n) || Math.abs(n) > limit) throw new RowError(`${what} "${value}" is not a coordinate`);
  return n;
}

function word<T>(value: string | null, what: string, words: Record<string, T>): T {
  if (value === null) throw new RowError(`no ${what}`);
  const found = words[squash(value)];
  if (found === undefined) throw new RowError(`unknown ${what} "${value}"`);
  return found;
}

const isPosition = (p: unknown): p is [number, number] =>
  Array.isArray(p) && p.length >= 2 && p.every((n) => typeof n === 'number' && Number.isFinite(n));

/** A feature's Point, or its Polygon's outer ring (closed, at least four positions). */
function placeOf(geometry: unknown): { point: LngLat | null; ring: LngLat[] | null } {
  if (geometry === null || geometry === undefined) return { point: null, ring: null };
  const g = geometry as { type?: unknown; coordinates?: unknown };
  if (g.type === 'Point' && isPosition(g.coordinates)) {
    const [lng, lat] = g.coordinates;
    if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) return { point: [lng, lat], ring: null };
  }
  if (g.type === 'Polygon' && Array.isArray(g.coordinates) && Array.isArray(g.coordinates[0])) {
    const ring = g.coordinates[0] as unknown[];
    if (ring.length >= 4 && ring.every(isPosition)) {
      const first = ring[0] as [number, number];
      const last = ring.at(-1) as [number, number];
      if (first[0] === last[0] && first[1] === last[1]) {
        return { point: null, ring: ring.map(([lng, lat]) => [lng, lat] as const) };
      }
    }
  }
  throw new RowError('its geometry is not a Point or a closed Polygon in WGS84 longitude, latitude');
}

const polygonText = (ring: readonly LngLat[]) => JSON.stringify({ type: 'Polygon', coordinates: [ring] });

export type Parsed<R> = { records: R[]; refused: FeatureNote[]; read: number };

function parseRows<R>(table: Table, read: (row: Row) => R, key: (row: Row) => string | null): Parsed<R> {
  const records: R[] = [];
  const refused: FeatureNote[] = [];
  for (const row of table.rows) {
    try {
      records.push(read(row));
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      refused.push({ file: table.file, feature: row.line, key: key(row), reason: error.message });
    }
  }
  return { records, refused, read: table.rows.length };
}

export function parseEstates(table: Table): Parsed<EstateRecord> {
  const c = columnsOf<EstateColumn>(table, 'estates', ESTATE_COLUMNS, ESTATE_REQUIRED, table.unit === 'feature');
  const get = (row: Row, column: EstateColumn) => (c[column] ? row.get(c[column]) : null);
  return parseRows(
    table,
    (row) => {
      const estate_id = get(row, 'estate_id');
      const name = get(row, 'name');
      if (!estate_id) throw new RowError('no estate_id');
      if (!name) throw new RowError('no name');
      const state = (get(row, 'state') ?? '').toUpperCase();
      if (!isStateCode(state)) throw new RowError(`unknown state "${get(row, 'state') ?? ''}"`);
      const place = placeOf(row.geometry);
      const lat = coordinate(get(row, 'lat'), 'lat');
      const lng = coordinate(get(row, 'lng'), 'lng');
      const point = lat !== null && lng !== null ? ([lng, lat] as const) : place.point;
      if (!point && !place.ring) throw new RowError('no location (lat and lng, or a geometry)');
      return {
        seq: row.line,
        estate_id,
        name,
        developer: get(row, 'developer'),
        state,
        status: word(get(row, 'status'), 'estate status', ESTATE_STATUS_WORDS),
        lga_code: get(row, 'lga_code'),
        lga_name: get(row, 'lga_name'),
        suburb: get(row, 'suburb')?.toUpperCase() ?? null,
        lng: point?.[0] ?? null,
        lat: point?.[1] ?? null,
        outline: point ? null : polygonText(place.ring!),
      };
    },
    (row) => get(row, 'estate_id'),
  );
}

export function parseLots(table: Table): Parsed<LotRecord> {
  const c = columnsOf<LotColumn>(table, 'lots', LOT_COLUMNS, LOT_REQUIRED, table.unit === 'feature');
  const get = (row: Row, column: LotColumn) => (c[column] ? row.get(c[column]) : null);
  return parseRows(
    table,
    (row) => {
      const estate_id = get(row, 'estate_id');
      const lot_number = get(row, 'lot_number');
      if (!estate_id) throw new RowError('no estate_id');
      if (!lot_number) throw new RowError('no lot_number');
      const place = placeOf(row.geometry);
      const lat = coordinate(get(row, 'lat'), 'lat');
      const lng = coordinate(get(row, 'lng'), 'lng');
      const point = lat !== null && lng !== null ? ([lng, lat] as const) : place.point;
      if (!point && !place.ring) throw new RowError('no location (lat and lng, or a geometry)');
      // the edge of the drawn boundary on the road: the index i of the ring's edge from vertex i to i+1
      let frontage: [LngLat, LngLat] | null = null;
      const edge = get(row, 'frontage_edge');
      if (edge !== null) {
        const i = Number(edge);
        if (!place.ring || !Number.isInteger(i) || i < 0 || i >= place.ring.length - 1) {
          throw new RowError(`frontage_edge "${edge}" is not an edge of the lot's drawn boundary`);
        }
        frontage = [place.ring[i]!, place.ring[i + 1]!];
      }
      const front = get(row, 'plan_front_to_rear_deg');
      const north = get(row, 'plan_north_point_deg');
      const plan =
        front !== null && north !== null && Number.isFinite(Number(front)) && Number.isFinite(Number(north))
          ? { front_to_rear_deg: Number(front), north_point_deg: Number(north) }
          : null;
      const listing_text = get(row, 'listing_text');
      const aspect = deriveAspect({ polygon: place.ring, frontage, plan, text: listing_text });
      return {
        seq: row.line,
        lot_id: get(row, 'lot_id') ?? `${estate_id}-${lot_number}`,
        estate_id,
        lot_number,
        sales_status: word(get(row, 'sales_status'), 'sales status', SALES_WORDS),
        title_status: word(get(row, 'title_status'), 'title status', TITLE_WORDS),
        asking_price: number(get(row, 'asking_price'), 'asking_price'),
        area_m2: number(get(row, 'area_m2'), 'area_m2'),
        frontage_m: number(get(row, 'frontage_m'), 'frontage_m'),
        depth_m: number(get(row, 'depth_m'), 'depth_m'),
        listing_text,
        aspect: aspect.aspect,
        aspect_source: aspect.aspect_source,
        lng: point?.[0] ?? null,
        lat: point?.[1] ?? null,
        boundary: place.ring ? polygonText(place.ring) : null,
        frontage_edge: frontage ? JSON.stringify({ type: 'LineString', coordinates: frontage }) : null,
      };
    },
    (row) => {
      const estate = get(row, 'estate_id');
      const lot = get(row, 'lot_number');
      return estate && lot ? `${estate} lot ${lot}` : null;
    },
  );
}
