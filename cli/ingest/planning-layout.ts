/**
 * The published Vicmap Planning attribute layout (PLAN_ZONE, PLAN_OVERLAY and the UGB layer)
 * and how a feature's attributes become a row. Columns are found by name whatever their case
 * (the WFS service writes them lower-case) and under the 10-character names a shapefile
 * truncates them to (ZONE_DESCR, SCHEME_COD). PLAN_ZONE and PLAN_OVERLAY share one layout,
 * overlays included in ZONE_CODE, so which table a feature belongs in comes from --layer,
 * else its own description ("... OVERLAY - SCHEDULE 2"), else the file's name.
 */
import { IngestError } from './gnaf-release.ts';

export const PLANNING_LAYERS = ['zone', 'overlay', 'ugb'] as const;
export type PlanningLayer = (typeof PLANNING_LAYERS)[number];

export function isPlanningLayer(value: string): value is PlanningLayer {
  return (PLANNING_LAYERS as readonly string[]).includes(value);
}

const COLUMNS = {
  ZONE_CODE: ['ZONE_CODE'],
  ZONE_DESCRIPTION: ['ZONE_DESCRIPTION', 'ZONE_DESCR'],
  SCHEME_CODE: ['SCHEME_CODE', 'SCHEME_COD'],
  LGA_CODE: ['LGA_CODE'],
  LGA: ['LGA', 'LGA_NAME'],
  PFI: ['PFI'],
  UFI: ['UFI'],
  GAIC: ['GAIC', 'GAIC_APPLIES', 'GAIC_APPLI'],
} as const;
type Column = keyof typeof COLUMNS;
type Found = Partial<Record<Column, string>>;

const POLYGON_LAYOUT: readonly Column[] = ['ZONE_CODE', 'ZONE_DESCRIPTION', 'SCHEME_CODE', 'LGA_CODE', 'LGA'];
const UGB_LAYOUT: readonly Column[] = ['LGA'];

export type PolygonRow = {
  readonly layer: 'zone' | 'overlay';
  readonly id: string;
  readonly scheme_code: string;
  readonly code: string;
  readonly description: string;
  readonly lga_code: string | null;
  readonly lga_name: string | null;
};
export type UgbRow = {
  readonly layer: 'ugb';
  readonly id: string;
  readonly lga_code: string | null;
  readonly lga_name: string;
  readonly gaic: boolean;
};
export type PlanningRow = PolygonRow | UgbRow;

/** A feature whose attributes cannot make a row; the message is the reason. */
export class RefusedAttributes extends Error {
  constructor(
    message: string,
    /** The layer the feature would have gone to, for the per-layer counts. */
    readonly layer: PlanningLayer,
  ) {
    super(message);
  }
}

export interface LayoutPlan {
  /** 'ugb', or the --layer that takes every feature; null when each feature says. */
  readonly layer: PlanningLayer | null;
  /** The feature's key for messages ("PFI 1589855"), or null when it has none. */
  label(properties: Readonly<Record<string, unknown>>): string | null;
  /** The row of a feature; throws RefusedAttributes. */
  row(properties: Readonly<Record<string, unknown>>, state: string): PlanningRow;
}

function text(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value !== 'string') return null;
  return value.trim() || null;
}

/** PFIs are integers, which some exports write as "1589855.0". */
const identifier = (value: unknown) => text(value)?.replace(/^(\d+)\.0+$/, '$1') ?? null;

const TRUE_WORDS = new Set(['Y', 'YES', 'T', 'TRUE', '1']);

function flag(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  return TRUE_WORDS.has(text(value)?.toUpperCase() ?? '');
}

function findColumns(fields: readonly string[]): Found {
  const byUpper = new Map(fields.map((field) => [field.toUpperCase(), field]));
  const found: Found = {};
  for (const column of Object.keys(COLUMNS) as Column[]) {
    const name = COLUMNS[column].map((alias) => byUpper.get(alias)).find((f) => f !== undefined);
    if (name !== undefined) found[column] = name;
  }
  return found;
}

function missingColumns(found: Found, required: readonly Column[]): string[] {
  const missing = required
    .filter((column) => !found[column])
    .map((column) => (COLUMNS[column].length > 1 ? `${column} (or ${COLUMNS[column].slice(1).join(', ')})` : column));
  if (!found.PFI && !found.UFI) missing.push('PFI or UFI');
  return missing;
}

/** The layer a file's name gives, as Vicmap names its downloads (PLAN_ZONE, PLAN_OVERLAY, ..._UGB). */
export function layerFromFileName(name: string): PlanningLayer | undefined {
  if (/(^|[^a-z])ugb([^a-z]|$)|urban[_ -]?growth[_ -]?(boundary|area)/i.test(name)) return 'ugb';
  const overlay = /overlay/i.test(name);
  const zone = /zone/i.test(name);
  if (overlay !== zone) return overlay ? 'overlay' : 'zone';
  return undefined;
}

/**
 * How the features of a file become rows: checks the attribute layout once, before anything
 * is read or written, and names every column it misses.
 */
export function planLayout(file: string, fields: readonly string[], layer?: PlanningLayer): LayoutPlan {
  const found = findColumns(fields);
  const named = layerFromFileName(file);
  const ugb = layer === 'ugb' || (!layer && (named === 'ugb' || (found.GAIC !== undefined && !found.ZONE_CODE)));
  const missing = missingColumns(found, ugb ? UGB_LAYOUT : POLYGON_LAYOUT);
  if (missing.length > 0) {
    const layout = ugb ? 'the Vicmap Planning UGB' : 'the Vicmap Planning PLAN_ZONE / PLAN_OVERLAY';
    throw new IngestError(
      `${file} is not in ${layout} attribute layout: it lacks ${missing.join(', ')} (its columns: ${fields.join(', ') || 'none'})`,
    );
  }
  const get = (properties: Readonly<Record<string, unknown>>, column: Column) => {
    const name = found[column];
    return name === undefined ? undefined : properties[name];
  };
  const label = (properties: Readonly<Record<string, unknown>>) => {
    const pfi = identifier(get(properties, 'PFI'));
    if (pfi) return `PFI ${pfi}`;
    const ufi = identifier(get(properties, 'UFI'));
    return ufi ? `UFI ${ufi}` : null;
  };
  const required = (properties: Readonly<Record<string, unknown>>, column: Column, layer: PlanningLayer) => {
    const value = text(get(properties, column));
    if (!value) throw new RefusedAttributes(`its ${found[column] ?? column} is blank`, layer);
    return value;
  };
  // A PFI outlives edits to its feature, a UFI is renewed by each; both are unique only
  // within Vicmap, hence the state in the id.
  const id = (properties: Readonly<Record<string, unknown>>, state: string, layer: PlanningLayer) => {
    const key = label(properties);
    if (!key) throw new RefusedAttributes('it has neither a PFI nor a UFI to keep its row stable across runs', layer);
    return `${state}:${key.replace(' ', ':')}`;
  };
  const fixed: PlanningLayer | null = ugb ? 'ugb' : (layer ?? null);
  // Vicmap's descriptions name their kind ("... OVERLAY - SCHEDULE 2", "... ZONE"); the
  // file's name settles only those that do not.
  const layerOf = (description: string | null): 'zone' | 'overlay' => {
    if (description && /\bOVERLAY\b/i.test(description)) return 'overlay';
    if (description && /\bZONE\b/i.test(description)) return 'zone';
    return named === 'overlay' ? 'overlay' : 'zone';
  };
  return {
    layer: fixed,
    label,
    row(properties, state) {
      if (ugb) {
        return {
          layer: 'ugb',
          id: id(properties, state, 'ugb'),
          lga_code: text(get(properties, 'LGA_CODE')),
          lga_name: required(properties, 'LGA', 'ugb'),
          gaic: flag(get(properties, 'GAIC')),
        };
      }
      const layer =
        fixed === 'zone' || fixed === 'overlay' ? fixed : layerOf(text(get(properties, 'ZONE_DESCRIPTION')));
      return {
        layer,
        id: id(properties, state, layer),
        scheme_code: required(properties, 'SCHEME_CODE', layer),
        code: required(properties, 'ZONE_CODE', layer),
        description: required(properties, 'ZONE_DESCRIPTION', layer),
        lga_code: text(get(properties, 'LGA_CODE')),
        lga_name: text(get(properties, 'LGA')),
      };
    },
  };
}

/**
 * The name a coverage area is kept under: the feature's first name-like attribute (LGA_NAME24,
 * LOC_NAME, NAME, LGA), else the file's name, in upper case as Vicmap writes LGA names, so an
 * ABS boundary ("Greater Bendigo") and the zones of the same council ("GREATER BENDIGO") keep
 * one area. Areas are replaced by name: a rerun replaces its area, another council's sits beside it.
 */
export function coverageName(properties: Readonly<Record<string, unknown>>, fields: readonly string[], file: string) {
  const column = fields.find((f) => /name/i.test(f)) ?? fields.find((f) => f.toUpperCase() === 'LGA');
  return ((column ? text(properties[column]) : null) ?? file.replace(/\.[^.]+$/, '')).toUpperCase();
}
