/**
 * Planning provisions (spec 2.8): the residential siting controls for a lot, from its state's
 * code (VIC ResCode, the NSW Housing Code, the QDC) and its zone, or a conservative default.
 */
import { conservativeDefault } from './fallback.ts';
import { SINGLE_STOREY_WALL_M } from './formulas.ts';
import { nswHousingCode } from './nsw.ts';
import { overlayEffects } from './overlays.ts';
import { qldDevelopmentCode } from './qld.ts';
import type { Draft, RegimeContext, RegimeResult } from './regime.ts';
import type { Provisions, ProvisionsInput } from './types.ts';
import { vicResCode } from './vic.ts';
import { describeZone } from './zone.ts';

export { FALLBACK_REGIME } from './fallback.ts';
export {
  SINGLE_STOREY_WALL_M,
  TWO_STOREY_WALL_M,
  setbackAt,
  setbackMetres,
  wallOnBoundaryMaxLength,
} from './formulas.ts';
export { roadCategory } from '../../../core/boundaries/road-class.ts';
export type * from './types.ts';

const REGIMES: Record<string, (ctx: RegimeContext) => RegimeResult> = {
  VIC: vicResCode,
  NSW: nswHousingCode,
  QLD: qldDevelopmentCode,
};

/** Whether any control that applies to this lot is a fallback (the side street only on a corner lot). */
function anyFallback(draft: Draft, corner: boolean): boolean {
  const { setbacks, site_coverage, permeability, garden_area, height, wall_on_boundary } = draft;
  return [
    setbacks.front,
    setbacks.side,
    setbacks.rear,
    ...(corner ? [setbacks.side_street] : []),
    site_coverage,
    permeability,
    garden_area,
    height,
    wall_on_boundary,
  ].some((control) => control?.conservative_fallback === true);
}

/**
 * The provisions for a lot. Never throws for an unknown state or zone: those get the
 * conservative default, flagged, with a note saying why.
 */
export function provisionsFor(input: ProvisionsInput): Provisions {
  const wallHeightM = input.wall_height_m ?? SINGLE_STOREY_WALL_M;
  if (!Number.isFinite(wallHeightM) || wallHeightM <= 0) {
    throw new RangeError(`wall_height_m must be a positive number of metres, not ${wallHeightM}`);
  }
  const state = input.state.trim().toUpperCase();
  const ctx: RegimeContext = { input, state, zone: describeZone(input.zone), wallHeightM };
  const regime = REGIMES[state];
  const result: RegimeResult = regime
    ? regime(ctx)
    : { unsupported: `we hold no residential siting code for ${state || 'an unknown state'}` };
  const draft = 'draft' in result ? result.draft : conservativeDefault(ctx, result.unsupported);
  const overlays = overlayEffects(state, input.overlays);
  return {
    ...draft,
    conservative_fallback: anyFallback(draft, input.lot.corner) || overlays.some((o) => o.excludes_code),
    overlays,
    notes: [...draft.notes, ...overlays.map((o) => o.note)],
  };
}
