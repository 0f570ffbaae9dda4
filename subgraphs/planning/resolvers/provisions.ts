import { guardLayer, layerOk } from '../../../core/layer.ts';
import type { LayerResult } from '../../../core/layer.ts';
import type { PlanningContext, PlanningProperty } from '../data.ts';
import type { ClassifiedEdge } from '../../../core/boundaries/boundaries.ts';
import { boundaryOf } from '../envelope/envelope.ts';
import type {
  AppliedRule,
  LotCharacteristicsInput,
  PercentRule,
  PlanningProvisions,
  SetbackRule,
} from '../generated/resolvers-types.ts';
import type { Provisions, Setback } from '../provisions/index.ts';
import { SINGLE_STOREY_WALL_M, setbackAt, wallOnBoundaryMaxLength } from '../provisions/index.ts';
import type { Assessment } from './assessment.ts';
import { assess } from './assessment.ts';

const setbackRule = (s: Setback): SetbackRule => ({
  min_m: s.min_m,
  formula: s.formula,
  reference: s.reference,
  conservative_fallback: s.conservative_fallback,
});

const percentRule = (
  rule: { reference: string; conservative_fallback: boolean } | null,
  percent: number | undefined,
): PercentRule | null =>
  rule && percent !== undefined
    ? { percent, reference: rule.reference, conservative_fallback: rule.conservative_fallback }
    : null;

/** The rule applied to each boundary: measured edges where the parcel was classified, else one per kind. */
function appliedRules(assessment: Assessment, wallHeightM: number): AppliedRule[] {
  const { provisions, classification } = assessment;
  const rule = (kind: AppliedRule['boundary'], edge: ClassifiedEdge | null): AppliedRule => {
    const applied = setbackAt(provisions, edge ? boundaryOf(edge) : kind, wallHeightM);
    return {
      boundary: kind,
      edge: edge?.index ?? null,
      length_m: edge?.length_m ?? null,
      facing_deg: edge?.facing_deg ?? null,
      road_name: edge?.road?.name ?? null,
      wall_height_m: wallHeightM,
      setback_m: applied.metres,
      rule: applied.rule,
      reference: applied.reference,
    };
  };
  if (classification?.ok) return classification.edges.map((edge) => rule(edge.kind, edge));
  return (['front', 'side', 'rear'] as const).map((kind) => rule(kind, null));
}

/** The longest side boundary a wall could run along: what the wall-on-boundary allowance is worked out for. */
function longestSide(assessment: Assessment): number | null {
  const { classification, lot } = assessment;
  if (!classification?.ok) return lot.depth_m;
  const sides = classification.edges.filter((e) => e.kind === 'side').map((e) => e.length_m);
  return sides.length > 0 ? Math.max(...sides) : lot.depth_m;
}

/** The provisions of an assessed lot in the graph's shape (spec 2.8). */
export function provisionsModel(assessment: Assessment): PlanningProvisions {
  const p: Provisions = assessment.provisions;
  const wallHeightM = assessment.wallHeightM ?? SINGLE_STOREY_WALL_M;
  const wall = p.wall_on_boundary;
  const sideLength = longestSide(assessment);
  return {
    state: p.state,
    zone_code: p.zone?.code ?? null,
    zone_description: p.zone?.description ?? null,
    overlays: assessment.planning?.overlays.map((o) => o.code) ?? [],
    regime: p.regime,
    conservative_fallback: p.conservative_fallback,
    lot: assessment.lot,
    front_setback: setbackRule(p.setbacks.front),
    side_setback: setbackRule(p.setbacks.side),
    rear_setback: setbackRule(p.setbacks.rear),
    site_coverage: percentRule(p.site_coverage, p.site_coverage.max_pct),
    permeability: percentRule(p.permeability, p.permeability?.min_pct),
    garden_area: percentRule(
      p.garden_area,
      p.garden_area ? (p.garden_area.exempt ? 0 : p.garden_area.min_pct) : undefined,
    ),
    height: {
      max_m: p.height.max_m,
      max_storeys: p.height.storeys,
      reference: p.height.reference,
      conservative_fallback: p.height.conservative_fallback,
    },
    wall_on_boundary: {
      allowed: wall.allowed,
      max_length_m: sideLength !== null ? wallOnBoundaryMaxLength(p, sideLength) : wall.base_length_m,
      max_height_m: wall.max_height_m,
      max_average_height_m: wall.max_average_height_m,
      formula: wall.formula,
      reference: wall.reference,
      conservative_fallback: wall.conservative_fallback,
    },
    applied_rules: appliedRules(assessment, wallHeightM),
    notes: p.notes,
  };
}

/** Planning provisions for a property's lot, or why there are none. */
export function provisionsLayer(
  property: PlanningProperty,
  lot: LotCharacteristicsInput | null,
  ctx: PlanningContext,
): Promise<LayerResult<PlanningProvisions>> {
  return guardLayer('provisions', async () => {
    const assessment = await assess(property, lot, ctx);
    if (!('provisions' in assessment)) return assessment;
    const data = provisionsModel(assessment);
    const layer = assessment.provenance
      ? layerOk(data, assessment.provenance)
      : { status: 'ok' as const, data, message: null, attribution: null, license: null, source: null };
    return { ...layer, status: assessment.status, message: assessment.message };
  });
}
