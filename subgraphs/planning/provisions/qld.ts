/**
 * Queensland: the Queensland Development Code's siting standards for a single detached house,
 * MP1.1 for lots under 450 m² and MP1.2 for lots of 450 m² and over, with the building height of
 * the planning scheme's residential zones (Brisbane City Plan 2014, Moreton Bay). A planning scheme
 * may set alternative provisions that replace the QDC's; we hold none.
 */
import { setback } from './formulas.ts';
import type { RegimeContext, RegimeResult } from './regime.ts';
import type { HeightRule, Provisions, Setback } from './types.ts';
import { plainDescription, type ZoneInfo } from './zone.ts';

const SMALL_LOT_BELOW_M2 = 450;

type QldZone = { scheme: string; height: Provisions['height'] };

const BRISBANE_HEIGHT: Provisions['height'] = {
  max_m: 9.5,
  storeys: 2,
  mandatory: false,
  formula: 'a dwelling house no higher than 9.5 m and 2 storeys',
  reference: 'Brisbane City Plan 2014, Dwelling house code (acceptable outcome for building height)',
  conservative_fallback: false,
};

const QLD_ZONES: Record<string, QldZone> = {
  LDR: { scheme: 'Brisbane City Plan 2014', height: BRISBANE_HEIGHT },
  LMR: { scheme: 'Brisbane City Plan 2014', height: BRISBANE_HEIGHT },
  CR: { scheme: 'Brisbane City Plan 2014', height: BRISBANE_HEIGHT },
  MDR: { scheme: 'Brisbane City Plan 2014', height: BRISBANE_HEIGHT },
  GRZ: {
    scheme: 'Moreton Bay Regional Council Planning Scheme',
    // Held unconfirmed: the lowest of the heights the scheme's residential precincts are read to set.
    height: {
      max_m: 8.5,
      storeys: 2,
      mandatory: false,
      formula: 'a dwelling house no higher than 8.5 m and 2 storeys (the lowest precinct height, unconfirmed)',
      reference: 'Moreton Bay Regional Council Planning Scheme, General residential zone code',
      conservative_fallback: true,
    },
  },
};

const BY_DESCRIPTION: Record<string, string> = {
  'LOW DENSITY RESIDENTIAL': 'LDR',
  'LOW-MEDIUM DENSITY RESIDENTIAL': 'LMR',
  'CHARACTER RESIDENTIAL': 'CR',
  'MEDIUM DENSITY RESIDENTIAL': 'MDR',
  'GENERAL RESIDENTIAL ZONE': 'GRZ',
  'GENERAL RESIDENTIAL': 'GRZ',
};

// MP1.2 A2: 1.5 m to a part up to 4.5 m high, 2 m up to 7.5 m, then 0.5 m more for every 3 m or part of it.
export const QDC_SIDE_REAR: HeightRule = {
  kind: 'stepped',
  bands: [
    { up_to_m: 4.5, metres: 1.5 },
    { up_to_m: 7.5, metres: 2 },
  ],
  beyond: { every_m: 3, add_m: 0.5 },
};

function qldFamily(zone: ZoneInfo): string | undefined {
  return QLD_ZONES[zone.family] ? zone.family : BY_DESCRIPTION[plainDescription(zone)];
}

function frontSmallLot(ctx: RegimeContext): Setback {
  const roadClass = ctx.input.front_road_class ?? null;
  const reference = 'QDC MP1.1 A1';
  const formula = '3 m to an access or local street, 4 m to a collector street';
  if (roadClass === 'local' || roadClass === 'collector') {
    return setback({ kind: 'fixed', metres: roadClass === 'local' ? 3 : 4 }, ctx.wallHeightM, { reference, formula });
  }
  return setback({ kind: 'fixed', metres: 6 }, ctx.wallHeightM, {
    reference,
    formula: `${formula}; ${roadClass === null ? 'road class unknown' : 'an arterial road'}, so MP1.2's 6 m`,
    conservative_fallback: true,
  });
}

function setbacks(ctx: RegimeContext, smallLot: boolean, areaKnown: boolean): Provisions['setbacks'] {
  const h = ctx.wallHeightM;
  const sideRear = smallLot
    ? {
        reference: 'QDC MP1.1 A2',
        formula: `MP1.2's clearances (never smaller than MP1.1's): 1.5 m up to 4.5 m high, 2 m up to 7.5 m, then 0.5 m more for every 3 m or part of it`,
        conservative_fallback: true,
      }
    : { reference: 'QDC MP1.2 A2(a)–(c)' };
  return {
    front: smallLot
      ? frontSmallLot(ctx)
      : setback({ kind: 'fixed', metres: 6 }, h, {
          reference: 'QDC MP1.2 A1(a)',
          formula: areaKnown
            ? '6 m to the road boundary'
            : '6 m to the road boundary (lot area unknown: MP1.2 assumed)',
          assumes:
            "no neighbouring houses closer to the road; the QDC lets a house align with its neighbours' setbacks",
          conservative_fallback: !areaKnown,
        }),
    side: setback(QDC_SIDE_REAR, h, sideRear),
    rear: setback(QDC_SIDE_REAR, h, sideRear),
    side_street: setback({ kind: 'fixed', metres: 3 }, h, {
      reference: smallLot ? 'QDC MP1.1 A1' : 'QDC MP1.2 A1',
      formula: '3 m to the secondary road of a corner lot (unconfirmed)',
      conservative_fallback: true,
    }),
  };
}

export function qldDevelopmentCode(ctx: RegimeContext): RegimeResult {
  const zone = ctx.zone;
  const family = zone ? qldFamily(zone) : undefined;
  const spec = family ? QLD_ZONES[family] : undefined;
  if (!zone || !family || !spec) {
    return {
      unsupported: zone
        ? `${zone.code} (${zone.description}) is not a residential zone of Brisbane City Plan 2014 or the Moreton Bay scheme that we hold provisions for`
        : 'no planning zone is mapped at this point',
    };
  }
  const area = ctx.input.lot.area_m2;
  const smallLot = area !== null && area < SMALL_LOT_BELOW_M2;
  const part = smallLot ? 'MP1.1' : 'MP1.2';
  return {
    draft: {
      regime: `QLD Development Code ${part}`,
      state: 'QLD',
      zone: { ...zone, family },
      setbacks: setbacks(ctx, smallLot, area !== null),
      site_coverage: {
        max_pct: 50,
        formula: smallLot
          ? "not more than 50% of the lot (MP1.2's site cover, applied to small lots until MP1.1's is confirmed)"
          : 'not more than 50% of the lot',
        reference: `QDC ${part} A3`,
        conservative_fallback: smallLot,
      },
      permeability: null,
      garden_area: null,
      height: spec.height,
      wall_on_boundary: {
        allowed: true,
        base_length_m: 9,
        share_of_remaining: 0,
        max_height_m: 4.5,
        max_average_height_m: 3.5,
        formula:
          'within 1.5 m of a side or rear boundary: 9 m in total along any one boundary, no part over 4.5 m high and 3.5 m high on average',
        reference: `QDC ${part} A2(d)`,
        conservative_fallback: smallLot,
      },
      notes: [
        `QDC ${part} sites a single detached house (Class 1a) and its Class 10 buildings on a lot ${smallLot ? 'under' : 'of'} ${SMALL_LOT_BELOW_M2} m²${smallLot ? '' : ' or more'}${area === null ? ' (lot area unknown, so MP1.2 is assumed)' : ''}.`,
        `${spec.scheme} may set alternative provisions to the QDC for this zone or its overlays; we hold none, so the QDC's acceptable solutions are shown.`,
      ],
    },
  };
}
