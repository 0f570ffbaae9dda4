/**
 * The shape of planning provisions (spec 2.8): what a lot may carry by its state's residential
 * code, each control with the rule it came from. Everything here is plain data so a resolver
 * can return it as is; `setbackAt` and `wallOnBoundaryMaxLength` evaluate the rules it holds.
 */

export type { RoadCategory } from '../../../core/boundaries/road-class.ts';
import type { RoadCategory } from '../../../core/boundaries/road-class.ts';

export type ProvisionsInput = {
  /** 'VIC' | 'NSW' | 'QLD'; any other state gets the conservative default. */
  state: string;
  /** The zone at the point (Vicmap Planning layout); null when no zone is mapped there. */
  zone: { code: string; description: string; scheme_code: string } | null;
  /** Overlay codes at the point, e.g. ['HO123', 'LSIO', 'DDO1']. */
  overlays: string[];
  lot: { area_m2: number | null; frontage_m: number | null; depth_m: number | null; corner: boolean };
  /** Class of the road the front boundary faces; 'arterial' stands for a Road Zone Category 1 (VIC) road. */
  front_road_class?: RoadCategory | null;
  /** Wall height the reported setbacks are for; defaults to a single-storey wall (3.6 m). */
  wall_height_m?: number | null;
};

/**
 * How a setback grows with wall height. `linear` adds metres per metre of height between knees
 * (ResCode B17, the NSW Housing Code's quarter above 4.5 m); `stepped` is a table of heights with
 * an optional increment for every further step or part of one (QDC A2); `greatest` takes the
 * largest of several rules (the conservative default).
 */
export type HeightRule =
  | { kind: 'fixed'; metres: number }
  | {
      kind: 'linear';
      base_m: number;
      slopes: ReadonlyArray<{ above_m: number; up_to_m: number | null; metres_per_m: number }>;
    }
  | {
      kind: 'stepped';
      bands: ReadonlyArray<{ up_to_m: number | null; metres: number }>;
      beyond: { every_m: number; add_m: number } | null;
    }
  | { kind: 'greatest'; of: readonly HeightRule[] };

/** Where a number came from, carried by every control. */
export type Provenance = {
  /** The rule in words, e.g. '1 m, plus 0.3 m for every metre of height over 3.6 m up to 6.9 m, …'. */
  formula: string;
  /** The published control, e.g. 'cl. 55.04-1 Standard B17'. */
  reference: string;
  /** True when the value is a default standing in for a control we do not hold (or hold unconfirmed). */
  conservative_fallback: boolean;
};

export type Boundary = 'front' | 'side' | 'rear' | 'side_street';

export type Setback = Provenance & {
  /** The setback at `at_wall_height_m`. */
  min_m: number;
  at_wall_height_m: number;
  rule: HeightRule;
  /** What the value takes for granted about facts we do not know (neighbouring buildings), or null. */
  assumes: string | null;
};

export type WallOnBoundary = Provenance & {
  allowed: boolean;
  /** Length allowed outright along one boundary (VIC 10 m, QDC 9 m). */
  base_length_m: number | null;
  /** Share of the boundary beyond `base_length_m` that may also be walled (VIC 25%). */
  share_of_remaining: number;
  max_height_m: number | null;
  max_average_height_m: number | null;
};

export type Control = 'front' | 'side' | 'rear' | 'height' | 'site_coverage' | 'permeability' | 'buildable_area';

export type OverlayEffect = {
  code: string;
  /** The controls the overlay's provisions may vary; we hold no overlay schedule, so none is applied. */
  may_vary: Control[];
  /** True when the overlay takes the lot outside the code these figures come from. */
  excludes_code: boolean;
  note: string;
};

export type Provisions = {
  regime: string;
  state: string;
  zone: { code: string; family: string; description: string; schedule: string | null } | null;
  /** True when any value below is a conservative default rather than a published control. */
  conservative_fallback: boolean;
  setbacks: { front: Setback; side: Setback; rear: Setback; side_street: Setback };
  site_coverage: Provenance & { max_pct: number };
  /** Pervious surface (VIC, QLD) or landscaped area (NSW); null where the code sets none. */
  permeability: (Provenance & { min_pct: number; measure: 'pervious surface' | 'landscaped area' }) | null;
  /** VIC GRZ/NRZ minimum garden area; null where the zone has none. */
  garden_area: (Provenance & { min_pct: number; exempt: boolean }) | null;
  height: Provenance & { max_m: number; storeys: number | null; mandatory: boolean };
  wall_on_boundary: WallOnBoundary;
  overlays: OverlayEffect[];
  notes: string[];
};
