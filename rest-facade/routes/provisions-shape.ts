/**
 * The planning provisions and envelope as the graph answers them, the selections that ask for
 * them, and their REST form (spec 2.8: snake_case fields, per-boundary `appliedRules`).
 */
import type { GeoJSONGeometry } from '../../core/geojson.ts';
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS } from './cadastre.ts';
import { z } from 'zod';
import type { LotFigure } from '../../core/validate.ts';
import { LOT_FIGURE_RANGES, lotFigureProblem } from '../../core/validate.ts';
import { PARAMETER_NOTES } from '../openapi/parameters.ts';
import { numeric } from '../params.ts';

const RULE_FIELDS = 'reference conservative_fallback';

export const PROVISIONS_FIELDS = `state zone_code zone_description overlays regime conservative_fallback
  lot { area_m2 frontage_m depth_m corner source }
  front_setback { min_m formula ${RULE_FIELDS} } side_setback { min_m formula ${RULE_FIELDS} }
  rear_setback { min_m formula ${RULE_FIELDS} }
  site_coverage { percent ${RULE_FIELDS} } permeability { percent ${RULE_FIELDS} } garden_area { percent ${RULE_FIELDS} }
  height { max_m max_storeys ${RULE_FIELDS} }
  wall_on_boundary { allowed max_length_m max_height_m max_average_height_m formula ${RULE_FIELDS} }
  applied_rules { boundary edge length_m facing_deg road_name wall_height_m setback_m rule reference }
  notes`;

export const ENVELOPE_FIELDS = `${LAYER_FIELDS} gap data {
  geometry area_m2 parcel_area_m2 max_footprint_m2 height_limit_m max_storeys conservative_fallback
  levels { wall_height_m front_setback_m side_setback_m rear_setback_m geometry area_m2 }
  boundaries { edge kind length_m facing_deg road_name geometry }
  provisions { ${PROVISIONS_FIELDS} } }`;

type Rule = { reference: string; conservative_fallback: boolean };
type SetbackRule = Rule & { min_m: number; formula: string | null };
type PercentRule = Rule & { percent: number };

export type ProvisionsFields = {
  state: string;
  zone_code: string | null;
  zone_description: string | null;
  overlays: string[];
  regime: string;
  conservative_fallback: boolean;
  lot: { area_m2: number | null; frontage_m: number | null; depth_m: number | null; corner: boolean; source: string };
  front_setback: SetbackRule;
  side_setback: SetbackRule;
  rear_setback: SetbackRule;
  site_coverage: PercentRule | null;
  permeability: PercentRule | null;
  garden_area: PercentRule | null;
  height: Rule & { max_m: number | null; max_storeys: number | null };
  wall_on_boundary:
    | (Rule & {
        allowed: boolean;
        max_length_m: number | null;
        max_height_m: number | null;
        max_average_height_m: number | null;
        formula: string | null;
      })
    | null;
  applied_rules: Array<{
    boundary: 'front' | 'side' | 'rear';
    edge: number | null;
    length_m: number | null;
    facing_deg: number | null;
    road_name: string | null;
    wall_height_m: number;
    setback_m: number;
    rule: string;
    reference: string;
  }>;
  notes: string[];
};

export type ProvisionsLayerFields = LayerFields & { data: ProvisionsFields | null };

export type EnvelopeFields = {
  geometry: GeoJSONGeometry | null;
  area_m2: number;
  parcel_area_m2: number;
  max_footprint_m2: number | null;
  height_limit_m: number | null;
  max_storeys: number | null;
  conservative_fallback: boolean;
  levels: Array<{
    wall_height_m: number;
    front_setback_m: number;
    side_setback_m: number;
    rear_setback_m: number;
    geometry: GeoJSONGeometry | null;
    area_m2: number;
  }>;
  boundaries: Array<{
    edge: number;
    kind: string;
    length_m: number;
    facing_deg: number;
    road_name: string | null;
    geometry: GeoJSONGeometry;
  }>;
  provisions: ProvisionsFields;
};

export type EnvelopeGap = 'no_parcel' | 'degenerate_parcel' | 'no_front_boundary' | 'setbacks_consume_lot';
export type EnvelopeLayerFields = LayerFields & { gap: EnvelopeGap | null; data: EnvelopeFields | null };

const round = (value: number | null, places = 2) =>
  value === null ? null : Math.round(value * 10 ** places) / 10 ** places;

const percentRule = (rule: PercentRule | null, key: 'max_percent' | 'min_percent') =>
  rule ? { [key]: rule.percent, reference: rule.reference, conservative_fallback: rule.conservative_fallback } : null;

/** Spec 2.8 as the REST body writes it. */
export function provisionsToRest(p: ProvisionsFields) {
  return {
    state: p.state,
    zone: p.zone_code ? { code: p.zone_code, description: p.zone_description } : null,
    overlays: p.overlays,
    regime: p.regime,
    conservative_fallback: p.conservative_fallback,
    lot: {
      area_m2: round(p.lot.area_m2, 1),
      frontage_m: round(p.lot.frontage_m),
      depth_m: round(p.lot.depth_m),
      corner: p.lot.corner,
      source: p.lot.source,
    },
    setbacks: { front: p.front_setback, side: p.side_setback, rear: p.rear_setback },
    site_coverage: percentRule(p.site_coverage, 'max_percent'),
    permeability: percentRule(p.permeability, 'min_percent'),
    garden_area: percentRule(p.garden_area, 'min_percent'),
    height: p.height,
    wall_on_boundary: p.wall_on_boundary,
    appliedRules: p.applied_rules.map((rule) => ({
      ...rule,
      length_m: round(rule.length_m),
      facing_deg: round(rule.facing_deg, 0),
    })),
    notes: p.notes,
  };
}

/** The envelope as a GeoJSON Feature, its tiers and its classified boundaries. */
export function envelopeToRest(e: EnvelopeFields) {
  return {
    type: 'Feature' as const,
    geometry: e.geometry,
    properties: {
      area_m2: round(e.area_m2, 1),
      parcel_area_m2: round(e.parcel_area_m2, 1),
      max_footprint_m2: round(e.max_footprint_m2, 1),
      height_limit_m: e.height_limit_m,
      max_storeys: e.max_storeys,
      conservative_fallback: e.conservative_fallback,
    },
    levels: e.levels.map((level) => ({ ...level, area_m2: round(level.area_m2, 1) })),
    boundaries: {
      type: 'FeatureCollection' as const,
      features: e.boundaries.map(({ geometry, ...properties }) => ({
        type: 'Feature' as const,
        geometry,
        properties: {
          ...properties,
          length_m: round(properties.length_m),
          facing_deg: round(properties.facing_deg, 0),
        },
      })),
    },
  };
}

const lotFigure = (name: LotFigure) =>
  numeric(name)
    .transform((value, ctx) => {
      const problem = lotFigureProblem(name, value);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return value;
    })
    .meta({ description: `${PARAMETER_NOTES[name] ?? ''} ${rangeWords(name)}`.trim() });

const rangeWords = (name: LotFigure) => {
  const { min, max, unit } = LOT_FIGURE_RANGES[name];
  return `From ${min} to ${max} ${unit}.`;
};

const booleanParam = (name: string) =>
  z.enum(['true', 'false'], { error: `${name} must be true or false.` }).transform((value) => value === 'true');

/** Lot characteristics a caller may give (each overrides what the parcel's geometry measures). */
export const LOT_PARAMS = {
  lot_area_m2: lotFigure('lot_area_m2').optional(),
  frontage_m: lotFigure('frontage_m').optional(),
  depth_m: lotFigure('depth_m').optional(),
  corner: booleanParam('corner').optional(),
  wall_height_m: lotFigure('wall_height_m').optional(),
};

export type LotInput = {
  lot_area_m2?: number;
  frontage_m?: number;
  depth_m?: number;
  corner?: boolean;
  wall_height_m?: number;
};

/** The GraphQL LotCharacteristicsInput of the caller's lot parameters, or null when none was given. */
export function lotVariable(q: LotInput): LotInput | null {
  const lot: LotInput = {};
  if (q.lot_area_m2 !== undefined) lot.lot_area_m2 = q.lot_area_m2;
  if (q.frontage_m !== undefined) lot.frontage_m = q.frontage_m;
  if (q.depth_m !== undefined) lot.depth_m = q.depth_m;
  if (q.corner !== undefined) lot.corner = q.corner;
  if (q.wall_height_m !== undefined) lot.wall_height_m = q.wall_height_m;
  return Object.keys(lot).length > 0 ? lot : null;
}
