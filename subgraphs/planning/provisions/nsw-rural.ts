/**
 * New South Wales Zone R5 (Large Lot Residential): the Rural Housing Code, Part 3A of State
 * Environmental Planning Policy (Exempt and Complying Development Codes) 2008, under which a
 * dwelling house on an R5 lot may be approved as complying development. Its standards step at a
 * lot area of 4,000 m² rather than by the Housing Code's bands.
 *
 * Only the figures read in the Code's published text are given as its own: the side setbacks
 * (cl. 3A.16), the primary road setback and the 8.5 m height of a lot under 4,000 m² (cl. 3A.15
 * and 3A.14 as published in 2011) and the 18 m lot width (cl. 3A.9). Every other figure is a
 * stand-in chosen to be no more generous than the Code is likely to be, and is flagged as a
 * conservative fallback.
 */
import { setback } from './formulas.ts';
import type { RegimeContext, RegimeResult } from './regime.ts';
import type { Provisions } from './types.ts';

export const RURAL_HOUSING_CODE_REGIME =
  'NSW Rural Housing Code (SEPP Exempt and Complying Development Codes 2008, Part 3A)';
const CODE = 'Codes SEPP 2008 Part 3A (Rural Housing Code)';
/** The area at which the Code's R5 standards step up. */
const LARGE_LOT_M2 = 4000;
/** cl. 3A.9(1)(b): an R5 lot that is not a battle-axe lot is at least this wide at the building line. */
const MIN_LOT_WIDTH_M = 18;

// The published figures, by whether the lot is under 4,000 m².
const SIDE_M = { small: 2.5, large: 10 };
const PRIMARY_ROAD_SMALL_M = 10;
const HEIGHT_SMALL_M = 8.5;
// Stand-ins for figures not read in the published text: twice the smaller lot's road setback for
// the road and rear of a large lot, the road figure for the rear and side street of a small one.
const PRIMARY_ROAD_LARGE_FALLBACK_M = 20;
const REAR_FALLBACK_M = { small: 10, large: 20 };
const SECONDARY_ROAD_FALLBACK_M = { small: 10, large: 20 };
// The 2011 text allows 10 m on a lot of 4,000 m² or more; unconfirmed, the small lot's 8.5 m is held.
const HEIGHT_LARGE_FALLBACK_M = 8.5;

type Size = 'small' | 'large';

function setbacks(ctx: RegimeContext, size: Size, known: boolean): Provisions['setbacks'] {
  const h = ctx.wallHeightM;
  const unknown = known ? '' : ' (lot area unknown: the 4,000 m² or more figures)';
  const small = size === 'small';
  return {
    front: setback({ kind: 'fixed', metres: small ? PRIMARY_ROAD_SMALL_M : PRIMARY_ROAD_LARGE_FALLBACK_M }, h, {
      reference: `${CODE}, cl. 3A.15 setbacks from roads`,
      formula: small
        ? `lot under ${LARGE_LOT_M2} m²: 10 m from a primary road that is not a classified road`
        : `lot of ${LARGE_LOT_M2} m² or more: the Code's figure is not held; ${PRIMARY_ROAD_LARGE_FALLBACK_M} m assumed${unknown}`,
      assumes: small
        ? 'no two dwelling houses within 40 m on the same primary road; where there are, the average of their setbacks applies'
        : null,
      conservative_fallback: !small || !known,
    }),
    side: setback({ kind: 'fixed', metres: SIDE_M[size] }, h, {
      reference: `${CODE}, cl. 3A.16 setbacks from side boundaries`,
      formula: `by lot area: under ${LARGE_LOT_M2} m² ${SIDE_M.small} m, ${LARGE_LOT_M2} m² or more ${SIDE_M.large} m, from any point of the building${unknown}`,
      conservative_fallback: !known,
    }),
    rear: setback({ kind: 'fixed', metres: REAR_FALLBACK_M[size] }, h, {
      reference: `${CODE}, setbacks from rear boundaries`,
      formula: `the Code's rear setback is not held; ${REAR_FALLBACK_M[size]} m assumed, no less than the lot's road or side setback${unknown}`,
      conservative_fallback: true,
    }),
    side_street: setback({ kind: 'fixed', metres: SECONDARY_ROAD_FALLBACK_M[size] }, h, {
      reference: `${CODE}, cl. 3A.15 setbacks from roads`,
      formula: `the Code's secondary road setback is not held; the primary road figure, ${SECONDARY_ROAD_FALLBACK_M[size]} m, assumed${unknown}`,
      conservative_fallback: true,
    }),
  };
}

/** The Rural Housing Code's standards for a dwelling house on a lot in Zone R5. */
export function nswRuralHousingCode(ctx: RegimeContext): RegimeResult {
  const zone = ctx.zone!;
  const { area_m2: area, frontage_m: width } = ctx.input.lot;
  if (width !== null && width < MIN_LOT_WIDTH_M) {
    return {
      unsupported: `the Rural Housing Code needs an R5 lot at least ${MIN_LOT_WIDTH_M} m wide at the building line (cl. 3A.9, battle-axe lots aside); this lot is ${width} m wide, so the council's LEP and DCP apply`,
    };
  }
  const known = area !== null;
  // an unknown area takes the large lot's figures: the larger setbacks, and the height held for both
  const size: Size = area !== null && area < LARGE_LOT_M2 ? 'small' : 'large';
  const small = size === 'small';
  return {
    draft: {
      regime: RURAL_HOUSING_CODE_REGIME,
      state: 'NSW',
      zone,
      setbacks: setbacks(ctx, size, known),
      site_coverage: {
        max_pct: 50,
        formula:
          'the Rural Housing Code limits floor area rather than site coverage; 50% of the lot assumed (the conservative default)',
        reference: `${CODE}, maximum floor area`,
        conservative_fallback: true,
      },
      permeability: {
        min_pct: 20,
        measure: 'landscaped area',
        formula: "the Code's landscaped area for R5 is not held; 20% of the lot assumed (the conservative default)",
        reference: `${CODE}, landscaping`,
        conservative_fallback: true,
      },
      garden_area: null,
      height: {
        max_m: small ? HEIGHT_SMALL_M : HEIGHT_LARGE_FALLBACK_M,
        storeys: 2,
        mandatory: true,
        formula: small
          ? `a dwelling house on an R5 lot under ${LARGE_LOT_M2} m² no higher than ${HEIGHT_SMALL_M} m above ground level (existing)`
          : `lot of ${LARGE_LOT_M2} m² or more: ${HEIGHT_LARGE_FALLBACK_M} m held (the 2011 text allowed 10 m; not confirmed)${known ? '' : ' (lot area unknown)'}`,
        reference: `${CODE}, cl. 3A.14 maximum height of dwelling houses`,
        conservative_fallback: !small,
      },
      wall_on_boundary: {
        allowed: false,
        base_length_m: null,
        share_of_remaining: 0,
        max_height_m: null,
        max_average_height_m: null,
        formula: `every point of the building is at least ${SIDE_M.small} m from a side boundary: no walls on boundaries`,
        reference: `${CODE}, cl. 3A.16 setbacks from side boundaries`,
        conservative_fallback: false,
      },
      notes: [
        `${zone.code}: Zone R5 follows the Rural Housing Code (Part 3A), not the Housing Code; these are its standards for a dwelling house approved as complying development, and a development application is assessed against the LEP and DCP instead.`,
        'The highest point of the dwelling house must also be at least 5 m below the highest ridgeline of any hill within 100 m (cl. 3A.14).',
      ],
    },
  };
}
