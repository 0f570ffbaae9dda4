/**
 * Victoria: ResCode, the standards of Clauses 54 (one dwelling on a lot, A-series) and 55 (two or
 * more dwellings, B-series) of every planning scheme, with the zone clauses' garden area and
 * height requirements. The Building Regulations 2018 Part 5 site a dwelling that needs no permit
 * with the same numbers (r. 74 street setback, r. 76 site coverage, r. 79 side and rear setbacks).
 */
import { band, setback, type Band } from './formulas.ts';
import type { RegimeContext, RegimeResult } from './regime.ts';
import type { HeightRule, Provisions } from './types.ts';
import { plainDescription } from './zone.ts';

type VicZone = {
  name: string;
  clause: string;
  height: { max_m: number; storeys: number | null; mandatory: boolean; reference: string; formula: string };
  /** The zone's garden area clause, for GRZ and NRZ. */
  gardenArea: string | null;
};

const VIC_ZONES: Record<string, VicZone> = {
  GRZ: {
    name: 'General Residential Zone',
    clause: '32.08',
    height: {
      max_m: 11,
      storeys: 3,
      mandatory: true,
      reference: 'cl. 32.08-10',
      formula: 'a dwelling must not exceed 11 m and 3 storeys (a schedule may set a different height)',
    },
    gardenArea: 'cl. 32.08-4',
  },
  NRZ: {
    name: 'Neighbourhood Residential Zone',
    clause: '32.09',
    height: {
      max_m: 9,
      storeys: 2,
      mandatory: true,
      reference: 'cl. 32.09-10',
      formula: 'a dwelling must not exceed 9 m and 2 storeys (a schedule may set a different height)',
    },
    gardenArea: 'cl. 32.09-4',
  },
  RGZ: {
    name: 'Residential Growth Zone',
    clause: '32.07',
    height: {
      max_m: 13.5,
      storeys: null,
      mandatory: false,
      reference: 'cl. 32.07 (maximum building height)',
      formula: 'where the schedule specifies no height, a building should not exceed 13.5 m',
    },
    gardenArea: null,
  },
  MUZ: {
    name: 'Mixed Use Zone',
    clause: '32.04',
    height: {
      max_m: 9,
      storeys: null,
      mandatory: false,
      reference: 'cl. 54.03-2 Standard A4 / cl. 55.03-2 Standard B7',
      formula: 'no height in the zone or its schedule, so the standard applies: 9 m (10 m on a slope of 2.5° or more)',
    },
    gardenArea: null,
  },
  TZ: {
    name: 'Township Zone',
    clause: '32.05',
    height: {
      max_m: 9,
      storeys: null,
      mandatory: false,
      reference: 'cl. 54.03-2 Standard A4 / cl. 55.03-2 Standard B7',
      formula: 'no height in the zone schedule held, so the standard applies: 9 m (10 m on a slope of 2.5° or more)',
    },
    gardenArea: null,
  },
};

const BY_DESCRIPTION = new Map(Object.entries(VIC_ZONES).map(([family, z]) => [z.name.toUpperCase(), family]));

// Standard A10/B17: 1 m, plus 0.3 m per metre of wall over 3.6 m up to 6.9 m, plus 1 m per metre over 6.9 m.
export const RESCODE_B17: HeightRule = {
  kind: 'linear',
  base_m: 1,
  slopes: [
    { above_m: 3.6, up_to_m: 6.9, metres_per_m: 0.3 },
    { above_m: 6.9, up_to_m: null, metres_per_m: 1 },
  ],
};

// cl. 32.08-4 / 32.09-4: "400–500 m²: 25%; above 500–650 m²: 30%; above 650 m²: 35%"; under 400 m² exempt.
const GARDEN_AREA: ReadonlyArray<Band<number>> = [
  { from: 400, to: 500, value: 25 },
  { from: 500, to: 650, value: 30 },
  { from: 650, to: null, value: 35 },
];
const GARDEN_AREA_EXEMPT_BELOW_M2 = 400;

function gardenArea(clause: string, areaM2: number | null): NonNullable<Provisions['garden_area']> {
  const formula = 'lots under 400 m² exempt; 400–500 m²: 25%; over 500–650 m²: 30%; over 650 m²: 35% of the lot';
  if (areaM2 === null) {
    return { min_pct: 35, exempt: false, formula, reference: clause, conservative_fallback: true };
  }
  if (areaM2 < GARDEN_AREA_EXEMPT_BELOW_M2) {
    return { min_pct: 0, exempt: true, formula, reference: clause, conservative_fallback: false };
  }
  return {
    min_pct: band(GARDEN_AREA, areaM2, 'upper') ?? 35,
    exempt: false,
    formula,
    reference: clause,
    conservative_fallback: false,
  };
}

function frontSetback(ctx: RegimeContext): Provisions['setbacks']['front'] {
  const roadClass = ctx.input.front_road_class ?? null;
  const reference = 'cl. 54.03-1 Standard A3 / cl. 55.03-1 Standard B6';
  const assumes =
    'no existing building on either abutting lot facing the same street; where there is one, its front wall setback (or the average of the two) applies, up to 9 m';
  if (roadClass === null) {
    return setback({ kind: 'fixed', metres: 6 }, ctx.wallHeightM, {
      reference,
      assumes,
      formula: '6 m to a Road Zone Category 1 road, 4 m to other streets; road class unknown, so 6 m',
      conservative_fallback: true,
    });
  }
  const arterial = roadClass === 'arterial';
  return setback({ kind: 'fixed', metres: arterial ? 6 : 4 }, ctx.wallHeightM, {
    reference,
    assumes,
    formula: `6 m to a Road Zone Category 1 road, 4 m to other streets (${arterial ? 'Category 1 road' : 'other street'})`,
  });
}

export function vicResCode(ctx: RegimeContext): RegimeResult {
  const zone = ctx.zone;
  const family = zone && (VIC_ZONES[zone.family] ? zone.family : BY_DESCRIPTION.get(plainDescription(zone)));
  const spec = family ? VIC_ZONES[family] : undefined;
  if (!zone || !family || !spec) {
    return {
      unsupported: zone
        ? `${zone.code} (${zone.description}) is not one of the residential zones ResCode's Clauses 54 and 55 govern (GRZ, NRZ, RGZ, MUZ, TZ)`
        : 'no planning zone is mapped at this point',
    };
  }
  const sideRear = { reference: 'cl. 54.04-1 Standard A10 / cl. 55.04-1 Standard B17' };
  const notes = [
    'ResCode standards (Clause 54 for one dwelling on a lot, Clause 55 for two or more) are the benchmarks a permit is assessed against; where no permit is needed the Building Regulations 2018 Part 5 apply the same siting numbers.',
    zone.schedule
      ? `${zone.code}: schedule ${zone.schedule} to the ${spec.name} may vary the street setback, site coverage, permeability, side and rear setback, walls on boundaries and height standards; we hold no schedule variations, so the clause defaults are shown.`
      : `${zone.code}: no schedule number; the clause defaults are shown.`,
  ];
  return {
    draft: {
      regime: 'VIC ResCode (Clause 54/55)',
      state: 'VIC',
      zone: { ...zone, family },
      setbacks: {
        front: frontSetback(ctx),
        side: setback(RESCODE_B17, ctx.wallHeightM, sideRear),
        rear: setback(RESCODE_B17, ctx.wallHeightM, sideRear),
        side_street: setback({ kind: 'fixed', metres: 2 }, ctx.wallHeightM, {
          reference: 'cl. 54.03-1 Standard A3 / cl. 55.03-1 Standard B6 (corner site, side street)',
          formula: '2 m to the side street of a corner site',
          assumes:
            'no building on the abutting lot facing the side street; where there is one, side walls may align with its front wall (2 m at most is required)',
        }),
      },
      site_coverage: {
        max_pct: 60,
        formula: 'buildings should not cover more than 60% of the site',
        reference: 'cl. 54.03-3 Standard A5 / cl. 55.03-3 Standard B8',
        conservative_fallback: false,
      },
      permeability: {
        min_pct: 20,
        measure: 'pervious surface',
        formula: 'at least 20% of the site should not be covered by impervious surfaces',
        reference: 'cl. 54.03-4 Standard A6 / cl. 55.03-4 Standard B9',
        conservative_fallback: false,
      },
      garden_area: spec.gardenArea ? gardenArea(spec.gardenArea, ctx.input.lot.area_m2) : null,
      height: { ...spec.height, conservative_fallback: false },
      wall_on_boundary: {
        allowed: true,
        base_length_m: 10,
        share_of_remaining: 0.25,
        max_height_m: 3.6,
        max_average_height_m: 3.2,
        formula:
          'a wall on or within 200 mm of a side or rear boundary: up to 10 m plus 25% of the rest of that boundary (or the length of an abutting wall, if longer), 3.6 m high at most and 3.2 m on average',
        reference: 'cl. 54.04-2 Standard A11 / cl. 55.04-2 Standard B18',
        conservative_fallback: false,
      },
      notes,
    },
  };
}
