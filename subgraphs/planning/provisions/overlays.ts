/**
 * What the overlays at a point may do to the figures: we hold no overlay schedules, so none is
 * applied; each is flagged with the controls it may vary. An overlay that takes the lot outside
 * the code the figures come from (a NSW heritage item leaves the Housing Code) turns the whole
 * answer into an estimate.
 */
import type { Control, OverlayEffect } from './types.ts';

type Effect = { may_vary: Control[]; excludes_code?: boolean; note: string };

const SITING: Control[] = ['front', 'side', 'rear', 'height', 'site_coverage', 'permeability'];

const VIC: Record<string, Effect> = {
  HO: {
    may_vary: ['front', 'side', 'rear', 'height', 'site_coverage'],
    note: 'Heritage Overlay (cl. 43.01): a permit is needed to demolish and to build; siting and height are assessed against the heritage place and may differ from these standards.',
  },
  DDO: {
    may_vary: SITING,
    note: 'Design and Development Overlay (cl. 43.02): its schedule may set height, setback and site coverage requirements that replace these; the schedule is not held.',
  },
  NCO: {
    may_vary: SITING,
    note: 'Neighbourhood Character Overlay (cl. 43.05): its schedule may vary the ResCode standards shown here; the schedule is not held.',
  },
  DPO: {
    may_vary: SITING,
    note: 'Development Plan Overlay (cl. 43.04): development must be generally in accordance with an approved development plan, which may set its own siting.',
  },
  LSIO: {
    may_vary: ['buildable_area'],
    note: 'Land Subject to Inundation Overlay (cl. 44.04): building needs a permit and floor levels set by the floodplain manager; part of the lot may not be buildable.',
  },
  FO: {
    may_vary: ['buildable_area'],
    note: 'Floodway Overlay (cl. 44.03): building in a floodway is strongly constrained; part or all of the lot may not be buildable.',
  },
  SBO: {
    may_vary: ['buildable_area'],
    note: 'Special Building Overlay (cl. 44.05): overland flow; floor levels and siting are set by the drainage authority.',
  },
  BMO: {
    may_vary: ['buildable_area', 'side', 'rear'],
    note: 'Bushfire Management Overlay (cl. 44.06): defendable space and bushfire construction may keep a building further from vegetation than these setbacks.',
  },
  ESO: {
    may_vary: ['buildable_area'],
    note: 'Environmental Significance Overlay (cl. 42.01): buildings and vegetation removal may need a permit; siting may be constrained.',
  },
  VPO: {
    may_vary: ['buildable_area'],
    note: 'Vegetation Protection Overlay (cl. 42.02): removing protected vegetation needs a permit; siting may have to avoid it.',
  },
  SLO: {
    may_vary: ['buildable_area', 'height'],
    note: 'Significant Landscape Overlay (cl. 42.03): its schedule may limit building height and siting.',
  },
  PAO: {
    may_vary: ['buildable_area'],
    note: 'Public Acquisition Overlay (cl. 45.01): part of the lot may be acquired for a public purpose.',
  },
  EAO: {
    may_vary: [],
    note: 'Environmental Audit Overlay (cl. 45.03): a dwelling needs a preliminary risk screen or environmental audit first.',
  },
};

const NSW: Record<string, Effect> = {
  HER: {
    may_vary: SITING,
    excludes_code: true,
    note: 'Heritage item: complying development under the Housing Code is not available on a heritage item, so a development application is assessed against the LEP and DCP.',
  },
  HCA: {
    may_vary: SITING,
    note: 'Heritage conservation area: the Codes SEPP limits complying development here; a new dwelling may need a development application under the LEP and DCP.',
  },
  FPA: {
    may_vary: ['buildable_area'],
    note: "Flood planning area: complying development on a flood control lot must meet the Codes SEPP's flood standards (floor levels, certification); otherwise a development application is needed.",
  },
  BFPL: {
    may_vary: ['buildable_area'],
    note: 'Bush fire prone land: complying development needs a bushfire attack level of BAL-29 or lower (BAL-40 and flame zone are excluded) and AS 3959 construction.',
  },
};

const QLD: Record<string, Effect> = {
  FLOOD: {
    may_vary: ['buildable_area'],
    note: "Flood overlay: habitable floor levels and siting are set by the planning scheme's flood overlay code.",
  },
  BUSHFIRE: {
    may_vary: ['buildable_area'],
    note: 'Bushfire overlay: separation from hazardous vegetation and AS 3959 construction may constrain siting.',
  },
  HERITAGE: {
    may_vary: SITING,
    note: 'Heritage overlay: building work on a heritage place is assessed against the heritage overlay code, not the QDC alone.',
  },
  TBC: {
    may_vary: ['front', 'side', 'height'],
    note: "Traditional building character overlay (Brisbane): demolition and new building are assessed against the character code, which sets alternative siting provisions to the QDC's.",
  },
};

const BY_STATE: Record<string, Record<string, Effect>> = { VIC, NSW, QLD };

/** An overlay's family: HO123 → HO, DDO1 → DDO, LSIO → LSIO. */
const family = (code: string): string => code.trim().toUpperCase().replace(/\d+$/, '');

export function overlayEffects(state: string, codes: readonly string[]): OverlayEffect[] {
  const known = BY_STATE[state] ?? {};
  const unique = [...new Set(codes.map((c) => c.trim().toUpperCase()).filter((c) => c.length > 0))];
  return unique.map((code) => {
    const effect = known[family(code)];
    return effect
      ? {
          code,
          may_vary: effect.may_vary,
          excludes_code: effect.excludes_code ?? false,
          note: `${code}: ${effect.note}`,
        }
      : {
          code,
          may_vary: [],
          excludes_code: false,
          note: `${code}: an overlay applies here whose controls are not modelled; check its schedule.`,
        };
  });
}
