/**
 * New South Wales: the Housing Code, Part 3 of State Environmental Planning Policy (Exempt and
 * Complying Development Codes) 2008, which lets a one- or two-storey dwelling house be approved
 * as complying development on a lot in Zone R1, R2, R3, R4 or RU5 of at least 200 m² and 6 m wide
 * at the building line. Its standards step by lot area and lot width, as tables here.
 */
import { band, setback, type Band } from './formulas.ts';
import { nswRuralHousingCode } from './nsw-rural.ts';
import type { RegimeContext, RegimeResult } from './regime.ts';
import type { HeightRule, Provisions } from './types.ts';

const CODE = 'Codes SEPP 2008 Part 3 (Housing Code)';
const HOUSING_CODE_ZONES = new Set(['R1', 'R2', 'R3', 'R4', 'RU5']);
const MIN_LOT_AREA_M2 = 200;
const MIN_LOT_WIDTH_M = 6;

// Maximum site coverage of the dwelling house and all ancillary development, as the Code's
// table of lot-area bands published it ("at least A but less than B").
const SITE_COVERAGE: ReadonlyArray<Band<number>> = [
  { from: 200, to: 250, value: 65 },
  { from: 250, to: 300, value: 60 },
  { from: 300, to: 450, value: 55 },
  { from: 450, to: 900, value: 50 },
  { from: 900, to: 1500, value: 40 },
  { from: 1500, to: null, value: 30 },
];

const LANDSCAPED_AREA: ReadonlyArray<Band<number>> = [
  { from: 200, to: 300, value: 10 },
  { from: 300, to: 450, value: 15 },
  { from: 450, to: 600, value: 20 },
  { from: 600, to: 900, value: 30 },
  { from: 900, to: 1500, value: 40 },
  { from: 1500, to: null, value: 45 },
];

// Primary road setback where there are not two dwelling houses within 40 m on the same side of the road.
const PRIMARY_ROAD: ReadonlyArray<Band<number>> = [
  { from: 200, to: 900, value: 4.5 },
  { from: 900, to: 1500, value: 6.5 },
  { from: 1500, to: null, value: 10 },
];

const SECONDARY_ROAD: ReadonlyArray<Band<number>> = [
  { from: 200, to: 600, value: 2 },
  { from: 600, to: 1500, value: 3 },
  { from: 1500, to: null, value: 5 },
];

// Side setback by lot width at the building line, for the building up to 4.5 m high; above that
// a quarter of the extra height is added.
const SIDE_BY_WIDTH: ReadonlyArray<Band<number>> = [
  { from: 6, to: 18, value: 0.9 },
  { from: 18, to: 24, value: 1.5 },
  { from: 24, to: null, value: 2.5 },
];

const sideRule = (base: number): HeightRule => ({
  kind: 'linear',
  base_m: base,
  slopes: [{ above_m: 4.5, up_to_m: null, metres_per_m: 0.25 }],
});

// Rear setback by lot area: one figure for the building up to 4.5 m high, a larger one above.
// The two larger-lot rows are held unconfirmed, so they are reported as conservative fallbacks.
const REAR_BY_AREA: ReadonlyArray<Band<{ low: number; high: number; confirmed: boolean }>> = [
  { from: 200, to: 900, value: { low: 3, high: 8, confirmed: true } },
  { from: 900, to: 1500, value: { low: 5, high: 12, confirmed: false } },
  { from: 1500, to: null, value: { low: 10, high: 15, confirmed: false } },
];

const rearRule = ({ low, high }: { low: number; high: number }): HeightRule => ({
  kind: 'stepped',
  bands: [
    { up_to_m: 4.5, metres: low },
    { up_to_m: null, metres: high },
  ],
  beyond: null,
});

const last = <T>(bands: ReadonlyArray<Band<T>>): T => {
  const row = bands[bands.length - 1];
  if (!row) throw new Error('Empty band table');
  return row.value;
};

/** A lot-area control: the band's value, or the table's most conservative row when the area is unknown. */
function byArea<T>(
  bands: ReadonlyArray<Band<T>>,
  areaM2: number | null,
  conservative: T,
): { value: T; known: boolean } {
  const value = areaM2 === null ? undefined : band(bands, areaM2, 'lower');
  return value === undefined ? { value: conservative, known: false } : { value, known: true };
}

function setbacks(ctx: RegimeContext): Provisions['setbacks'] {
  const { area_m2: area, frontage_m: width } = ctx.input.lot;
  const h = ctx.wallHeightM;
  const front = byArea(PRIMARY_ROAD, area, last(PRIMARY_ROAD));
  const secondary = byArea(SECONDARY_ROAD, area, last(SECONDARY_ROAD));
  const side = width === null ? undefined : band(SIDE_BY_WIDTH, width, 'lower');
  const rear = byArea(REAR_BY_AREA, area, last(REAR_BY_AREA));
  return {
    front: setback({ kind: 'fixed', metres: front.value }, h, {
      reference: `${CODE}, setback from a primary road`,
      formula: `by lot area: 200–900 m² 4.5 m, 900–1,500 m² 6.5 m, over 1,500 m² 10 m${front.known ? '' : ' (lot area unknown: largest band)'}`,
      assumes:
        'no two dwelling houses within 40 m on the same side of the road; where there are, the average of their setbacks applies',
      conservative_fallback: !front.known,
    }),
    side: setback(sideRule(side ?? last(SIDE_BY_WIDTH)), h, {
      reference: `${CODE}, setbacks from side boundaries`,
      formula: `by lot width at the building line (6–18 m 0.9 m, 18–24 m 1.5 m, over 24 m 2.5 m), plus a quarter of the height over 4.5 m${side === undefined ? ' (lot width unknown: widest band)' : ''}`,
      assumes: 'the lot is as wide at the building line as its frontage',
      conservative_fallback: side === undefined,
    }),
    rear: setback(rearRule(rear.value), h, {
      reference: `${CODE}, setbacks from rear boundaries`,
      formula: `by lot area, for the building up to 4.5 m high and above it: 200–900 m² 3 m / 8 m, 900–1,500 m² 5 m / 12 m, over 1,500 m² 10 m / 15 m${rear.known ? '' : ' (lot area unknown: largest band)'}`,
      conservative_fallback: !rear.known || !rear.value.confirmed,
    }),
    side_street: setback({ kind: 'fixed', metres: secondary.value }, h, {
      reference: `${CODE}, setback from a secondary road`,
      formula: `by lot area: 200–600 m² 2 m, 600–1,500 m² 3 m, over 1,500 m² 5 m${secondary.known ? '' : ' (lot area unknown: largest band)'}`,
      conservative_fallback: !secondary.known,
    }),
  };
}

export function nswHousingCode(ctx: RegimeContext): RegimeResult {
  const zone = ctx.zone;
  // large lot residential has its own code, with setbacks of its own
  if (zone?.family === 'R5') return nswRuralHousingCode(ctx);
  if (!zone || !HOUSING_CODE_ZONES.has(zone.family)) {
    return {
      unsupported: zone
        ? `${zone.code} (${zone.description}) is outside the zones the Housing Code applies to (R1, R2, R3, R4, RU5)${zone.family.startsWith('RU') ? '; the Rural Housing Code (Part 3A) is modelled for Zone R5 only' : ''}`
        : 'no planning zone is mapped at this point',
    };
  }
  const { area_m2: area, frontage_m: width } = ctx.input.lot;
  if ((area !== null && area < MIN_LOT_AREA_M2) || (width !== null && width < MIN_LOT_WIDTH_M)) {
    return {
      unsupported: `the Housing Code needs a lot of at least ${MIN_LOT_AREA_M2} m² and ${MIN_LOT_WIDTH_M} m wide at the building line (cl. 3.1); this lot is ${area ?? '?'} m² and ${width ?? '?'} m wide, so the council's LEP and DCP apply`,
    };
  }
  const coverage = byArea(SITE_COVERAGE, area, last(SITE_COVERAGE));
  const landscaped = byArea(LANDSCAPED_AREA, area, last(LANDSCAPED_AREA));
  const notes = [
    'Housing Code standards apply to a dwelling house approved as complying development; a development application is assessed against the LEP and DCP instead.',
    ...(zone.family === 'R3' || zone.family === 'R4'
      ? [
          `${zone.code}: dual occupancies, terraces and flats follow the LEP, the DCP or the Low Rise Housing Diversity Code; these figures are for a dwelling house.`,
        ]
      : []),
  ];
  return {
    draft: {
      regime: 'NSW Housing Code (SEPP Exempt and Complying Development Codes 2008, Part 3)',
      state: 'NSW',
      zone,
      setbacks: setbacks(ctx),
      site_coverage: {
        max_pct: coverage.value,
        formula: `by lot area: 200–250 m² 65%, 250–300 m² 60%, 300–450 m² 55%, 450–900 m² 50%, 900–1,500 m² 40%, 1,500 m² or more 30%${coverage.known ? '' : ' (lot area unknown: smallest band)'}`,
        reference: `${CODE}, maximum site coverage`,
        conservative_fallback: !coverage.known,
      },
      permeability: {
        min_pct: landscaped.value,
        measure: 'landscaped area',
        formula: `by lot area: 200–300 m² 10%, 300–450 m² 15%, 450–600 m² 20%, 600–900 m² 30%, 900–1,500 m² 40%, over 1,500 m² 45%${landscaped.known ? '' : ' (lot area unknown: largest band)'}`,
        reference: `${CODE}, minimum landscaped area`,
        conservative_fallback: !landscaped.known,
      },
      garden_area: null,
      height: {
        max_m: 8.5,
        storeys: 2,
        mandatory: true,
        formula: 'a dwelling house of 1 or 2 storeys, no higher than 8.5 m above ground level (existing)',
        reference: `${CODE}, maximum height of a dwelling house`,
        conservative_fallback: false,
      },
      wall_on_boundary: {
        allowed: false,
        base_length_m: null,
        share_of_remaining: 0,
        max_height_m: null,
        max_average_height_m: null,
        formula:
          'the Housing Code sets a minimum side and rear setback for every lot; it makes no general allowance for walls on boundaries',
        reference: `${CODE}, setbacks from side and rear boundaries`,
        conservative_fallback: false,
      },
      notes,
    },
  };
}
