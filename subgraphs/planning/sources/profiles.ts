import type { StateCode } from '../../../core/geo.ts';
import { field } from '../../../core/sources/attributes.ts';
import type { ZoneRow } from '../sql.ts';

/** Which attributes of a state's service carry our zone fields, in order of preference (read case-insensitively). */
export type ControlFields = {
  code: string[];
  description: string[];
  /** Where the service names the code's family; absent: the family is derived from the code. */
  scheme?: string[];
  lgaCode?: string[];
  lgaName?: string[];
};

/**
 * What Landgraph knows about one state's published planning service: the protocols it is served
 * in, the layers and attribute names of each, and the credit its licence requires on every answer.
 */
export type PlanningProfile = {
  state: StateCode;
  /** Who publishes it and what, for health and coverage answers. */
  provider: string;
  attribution: string;
  license: string;
  /** Whether zone codes carry a schedule number after the family (GRZ1); NSW codes (R2, SP2) do not. */
  schedules: boolean;
  /**
   * WFS: the zone and overlay feature types, in the published attribute layout, and the urban
   * growth boundary's feature type where the state publishes one (Victoria).
   */
  wfs?: { zoneType: string; overlayType: string | null; fields: ControlFields; ugbType?: string };
  /** ArcGIS REST: the configured layer is the zoning layer; overlays are other layers, not asked. */
  arcgis?: { fields: ControlFields };
};

/**
 * A code's family: the code without its schedule number ('GRZ1' → 'GRZ', 'DCPO2' → 'DCPO'). Codes
 * whose digits are part of the name (NSW 'R2', 'SP2', 'MU1') have no schedules: the family is the code.
 */
function familyOf(code: string, schedules: boolean): string {
  if (!schedules) return code;
  const family = code.replace(/\d+$/, '');
  return family === '' ? code : family;
}

/** A zone or overlay from a feature's attributes; null when the feature carries no code. */
export function readControl(
  attributes: Record<string, unknown>,
  fields: ControlFields,
  schedules: boolean,
): ZoneRow | null {
  const code = field(attributes, ...fields.code);
  if (!code) return null;
  return {
    code,
    description: field(attributes, ...fields.description) ?? code,
    scheme_code: (fields.scheme && field(attributes, ...fields.scheme)) ?? familyOf(code, schedules),
    lga_code: fields.lgaCode ? field(attributes, ...fields.lgaCode) : null,
    lga_name: fields.lgaName ? field(attributes, ...fields.lgaName) : null,
  };
}

/**
 * Vicmap Planning (PLAN_ZONE, PLAN_OVERLAY) on the state's GeoServer, where the attribute names
 * are lower case (zone_code, zone_description, scheme_code, lga_code, lga); the shapefile
 * release truncates them (ZONE_DESCR, SCHEME_COD), which are read as well.
 */
const VICMAP_FIELDS: ControlFields = {
  code: ['ZONE_CODE'],
  description: ['ZONE_DESCRIPTION', 'ZONE_DESCR'],
  scheme: ['SCHEME_CODE', 'SCHEME_COD'],
  lgaCode: ['LGA_CODE'],
  lgaName: ['LGA'],
};

const VIC: PlanningProfile = {
  state: 'VIC',
  provider: 'Vicmap Planning, Department of Transport and Planning (Victoria)',
  attribution: '© State of Victoria (Department of Transport and Planning)',
  license: 'CC BY 4.0',
  schedules: true,
  wfs: {
    zoneType: 'open-data-platform:plan_zone',
    overlayType: 'open-data-platform:plan_overlay',
    fields: VICMAP_FIELDS,
    ugbType: 'open-data-platform:plan_ugb',
  },
};

/** NSW Planning Portal, EPI Primary Planning Layers, Land Zoning: SYM_CODE (R2), LAY_CLASS, LGA_NAME. */
const NSW: PlanningProfile = {
  state: 'NSW',
  provider: 'NSW Planning Portal (EPI Primary Planning Layers: Land Zoning)',
  attribution: '© State of New South Wales (Department of Planning, Housing and Infrastructure)',
  license: 'CC BY 4.0',
  schedules: false,
  arcgis: { fields: { code: ['SYM_CODE'], description: ['LAY_CLASS'], lgaName: ['LGA_NAME'] } },
};

/**
 * Queensland zoning is each council's planning scheme; the Queensland Planning Provisions
 * layout (ZONE_CODE or ZONE_PREC, DESCRIPTION, LGA_CODE) is what their ArcGIS services share.
 * The credit is Brisbane City Council's, whose City Plan 2014 service is the one configured.
 */
const QLD: PlanningProfile = {
  state: 'QLD',
  provider: 'Brisbane City Council (City Plan 2014 zoning)',
  attribution: '© Brisbane City Council',
  license: 'CC BY 4.0',
  schedules: true,
  arcgis: {
    fields: {
      code: ['ZONE_CODE', 'ZONE_PREC', 'ZONE'],
      description: ['DESCRIPTION', 'ZONE_DESC', 'ZONE_PREC_DESC', 'LVL2_ZONE'],
      lgaCode: ['LGA_CODE'],
      lgaName: ['LGA_NAME', 'LGA'],
    },
  },
};

/** The states with a live planning profile; LANDGRAPH_PLANNING_LIVE may name only these, in their protocols. */
export const PLANNING_PROFILES: Partial<Record<StateCode, PlanningProfile>> = { VIC, NSW, QLD };
