/**
 * The conservative default: where no published residential control we hold applies (commercial,
 * industrial, rural and special-purpose zones, unknown zones, other states, no zone at all), every
 * control takes the strictest of the residential codes we do hold, so an envelope drawn from it
 * is smaller than any of them would allow. Every value is flagged as a fallback.
 */
import { setback } from './formulas.ts';
import { QDC_SIDE_REAR } from './qld.ts';
import type { Draft, RegimeContext } from './regime.ts';
import type { HeightRule } from './types.ts';
import { RESCODE_B17 } from './vic.ts';

export const FALLBACK_REGIME = 'Conservative default';

const SIDE: HeightRule = { kind: 'greatest', of: [RESCODE_B17, QDC_SIDE_REAR] };
const REAR: HeightRule = { kind: 'greatest', of: [{ kind: 'fixed', metres: 3 }, RESCODE_B17, QDC_SIDE_REAR] };
const REFERENCE = 'none: conservative default (no published control held for this lot)';

export function conservativeDefault(ctx: RegimeContext, reason: string): Draft {
  const h = ctx.wallHeightM;
  const arterial = ctx.input.front_road_class === 'arterial';
  const flagged = { reference: REFERENCE, conservative_fallback: true };
  return {
    regime: FALLBACK_REGIME,
    state: ctx.state,
    zone: ctx.zone,
    setbacks: {
      front: setback({ kind: 'fixed', metres: arterial ? 9 : 6 }, h, {
        ...flagged,
        formula: '6 m, or 9 m to an arterial road (the largest street setbacks of the residential codes)',
      }),
      side: setback(SIDE, h, {
        ...flagged,
        formula: 'the greater of ResCode B17 and QDC A2 side clearances at the wall height',
      }),
      rear: setback(REAR, h, {
        ...flagged,
        formula: 'the greatest of 3 m and the ResCode B17 and QDC A2 clearances at the wall height',
      }),
      side_street: setback({ kind: 'fixed', metres: 3 }, h, { ...flagged, formula: '3 m to a secondary road' }),
    },
    site_coverage: { max_pct: 50, formula: '50% of the lot', ...flagged },
    permeability: { min_pct: 20, measure: 'pervious surface', formula: '20% of the lot', ...flagged },
    garden_area: null,
    height: {
      max_m: 8.5,
      storeys: 2,
      mandatory: false,
      formula: '8.5 m and 2 storeys (the lowest default height of the residential codes)',
      ...flagged,
    },
    wall_on_boundary: {
      allowed: false,
      base_length_m: null,
      share_of_remaining: 0,
      max_height_m: null,
      max_average_height_m: null,
      formula: 'no walls on boundaries assumed',
      ...flagged,
    },
    notes: [
      `Conservative default: ${reason}. These values are not a published control for this lot; check the planning scheme before relying on them.`,
    ],
  };
}
