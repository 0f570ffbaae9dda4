/** The hazards layer as the routes select and type it: shared by /api/hazards, the risk summary and the property graph. */
import type { LayerFields } from './cadastre.ts';
import { LAYER_FIELDS } from './cadastre.ts';

export const EVIDENCE_FIELDS = 'type code description severity source distance_m status snapshot_date';
export const BAL_FIELDS = `rating method table fdi vegetation_class distance_m effective_slope_deg slope_direction
  slope_bearing_deg slope_source slope_band distance_band_m indicative note`;
const HAZARD_FIELDS = `severity coverage freshness message evidence { ${EVIDENCE_FIELDS} }`;
/** The hazards layer as every route reading it selects it. */
export const HAZARDS_SELECTION = `hazards { ${LAYER_FIELDS} freshness data {
  flood { ${HAZARD_FIELDS} }
  bushfire { ${HAZARD_FIELDS} bal { ${BAL_FIELDS} } }
  contamination { ${HAZARD_FIELDS} }
} }`;

export type HazardSeverity = 'none' | 'low' | 'medium' | 'high' | 'extreme';
export type HazardJson = {
  severity: HazardSeverity | null;
  coverage: 'found' | 'clear' | 'not_mapped' | 'unavailable';
  freshness: string | null;
  message: string | null;
  evidence: Array<Record<string, unknown>>;
  bal?: ({ rating: string } & Record<string, unknown>) | null;
};
export type HazardsJson = { flood: HazardJson; bushfire: HazardJson; contamination: HazardJson };
export type HazardsLayerJson = LayerFields & { freshness: string | null; data: HazardsJson | null };
