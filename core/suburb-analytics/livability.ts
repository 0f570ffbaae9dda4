/**
 * The suburb livability score of the suburb analytics bundle (spec 2.10): documented and
 * deterministic, 0-100, from amenity access and hazard exposure. Not the Livability Rating
 * product of spec 2.16 (a property's rating); this one scores a whole suburb from its metrics.
 *
 * Method `landgraph-suburb-livability-v1`:
 * - Each amenity metric (a count of amenities in the suburb) scores `1 - exp(-count / k)`: the
 *   first few of a kind count most and more saturate towards 1. `k` is the count that reaches
 *   63% of the way (one supermarket; ten transport stops).
 * - Each hazard land share (0-100% of the suburb's land under the overlay) scores `1 - share/100`.
 * - The score is the weighted mean of the components whose input the suburb has, times 100,
 *   rounded to one decimal. Amenities weigh 70 in all, hazards 30. A missing input (null: the
 *   layer holds nothing for the suburb) drops out and the weights of the rest are renormalised;
 *   `inputs_weight_pct` says how much of the full weight the score stands on. No input at all: null.
 */
import { SUBURB_METRIC_NAMES as M } from '../suburb-metrics.ts';

export const LIVABILITY_METHODOLOGY = 'landgraph-suburb-livability-v1';

export type LivabilityComponentSpec =
  { metric: string; kind: 'amenity'; weight: number; k: number } | { metric: string; kind: 'hazard'; weight: number };

/** The components, their weights (summing to 100) and saturation constants. */
export const LIVABILITY_COMPONENTS: readonly LivabilityComponentSpec[] = [
  { metric: M.schools, kind: 'amenity', weight: 12, k: 2 },
  { metric: M.childcare, kind: 'amenity', weight: 6, k: 2 },
  { metric: M.supermarkets, kind: 'amenity', weight: 12, k: 1 },
  { metric: M.transportStops, kind: 'amenity', weight: 14, k: 10 },
  { metric: M.hospitals, kind: 'amenity', weight: 6, k: 1 },
  { metric: M.recreation, kind: 'amenity', weight: 8, k: 3 },
  { metric: M.cafes, kind: 'amenity', weight: 6, k: 5 },
  { metric: M.retail, kind: 'amenity', weight: 6, k: 5 },
  { metric: M.floodSharePct, kind: 'hazard', weight: 12 },
  { metric: M.bushfireSharePct, kind: 'hazard', weight: 12 },
  { metric: M.contaminationSharePct, kind: 'hazard', weight: 6 },
];

export type LivabilityComponent = {
  metric: string;
  kind: 'amenity' | 'hazard';
  input: number | null;
  /** 0..1, null when the input is missing. */
  score: number | null;
  /** The nominal weight, and the weight after renormalisation (0 when missing), in percent. */
  weight: number;
  effective_weight_pct: number;
};

export type Livability = {
  methodology: string;
  score: number | null;
  inputs_weight_pct: number;
  components: LivabilityComponent[];
};

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

function componentScore(spec: LivabilityComponentSpec, input: number): number {
  if (spec.kind === 'amenity') return 1 - Math.exp(-Math.max(0, input) / spec.k);
  return 1 - Math.min(100, Math.max(0, input)) / 100;
}

/** The score of one suburb from its flat metrics. */
export function livabilityScore(metrics: Record<string, number | null | undefined>): Livability {
  const present = LIVABILITY_COMPONENTS.map((spec) => {
    const raw = metrics[spec.metric];
    const input = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    return { spec, input, score: input === null ? null : componentScore(spec, input) };
  });
  const total = LIVABILITY_COMPONENTS.reduce((sum, c) => sum + c.weight, 0);
  const used = present.reduce((sum, c) => sum + (c.score === null ? 0 : c.spec.weight), 0);
  const weighted = present.reduce((sum, c) => sum + (c.score === null ? 0 : c.score * c.spec.weight), 0);
  return {
    methodology: LIVABILITY_METHODOLOGY,
    score: used === 0 ? null : round((weighted / used) * 100, 1),
    inputs_weight_pct: round((used / total) * 100, 1),
    components: present.map((c) => ({
      metric: c.spec.metric,
      kind: c.spec.kind,
      input: c.input,
      score: c.score === null ? null : round(c.score, 4),
      weight: c.spec.weight,
      effective_weight_pct: c.score === null || used === 0 ? 0 : round((c.spec.weight / used) * 100, 2),
    })),
  };
}
