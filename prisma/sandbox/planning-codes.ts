/**
 * Zone and overlay vocabularies of the real schemes, in the Vicmap Planning attribute layout
 * the planning tables use for every state: scheme_code is the family ('GRZ'), the code is the
 * full code with its schedule ('GRZ1'), the description is the scheme's own wording.
 */
import type { PlanningScheme } from './suburbs.ts';

export interface PlanningCode {
  readonly scheme: string;
  readonly code: string;
  readonly description: string;
}

export type ZoneRole = 'centre' | 'mixed' | 'park' | 'sport' | 'inner' | 'middle' | 'outer' | 'fringe' | 'road';
export type OverlayRole =
  'flood' | 'environment' | 'bushfire' | 'heritage' | 'design' | 'vegetation' | 'contributions' | 'character';

const code = (scheme: string, full: string, description: string): PlanningCode => ({ scheme, code: full, description });

const VIC_ZONES: Record<ZoneRole, PlanningCode> = {
  centre: code('C1Z', 'C1Z', 'COMMERCIAL 1 ZONE'),
  mixed: code('MUZ', 'MUZ', 'MIXED USE ZONE'),
  park: code('PPRZ', 'PPRZ', 'PUBLIC PARK AND RECREATION ZONE'),
  sport: code('PPRZ', 'PPRZ', 'PUBLIC PARK AND RECREATION ZONE'),
  inner: code('RGZ', 'RGZ1', 'RESIDENTIAL GROWTH ZONE - SCHEDULE 1'),
  middle: code('GRZ', 'GRZ1', 'GENERAL RESIDENTIAL ZONE - SCHEDULE 1'),
  outer: code('NRZ', 'NRZ1', 'NEIGHBOURHOOD RESIDENTIAL ZONE - SCHEDULE 1'),
  fringe: code('LDRZ', 'LDRZ', 'LOW DENSITY RESIDENTIAL ZONE'),
  road: code('RDZ', 'RDZ1', 'ROAD ZONE - CATEGORY 1'),
};

// NSW Standard Instrument LEP zones carry no schedules: the family is the code.
const NSW_ZONES: Record<ZoneRole, PlanningCode> = {
  centre: code('E1', 'E1', 'LOCAL CENTRE'),
  mixed: code('MU1', 'MU1', 'MIXED USE'),
  park: code('RE1', 'RE1', 'PUBLIC RECREATION'),
  sport: code('RE1', 'RE1', 'PUBLIC RECREATION'),
  inner: code('R4', 'R4', 'HIGH DENSITY RESIDENTIAL'),
  middle: code('R3', 'R3', 'MEDIUM DENSITY RESIDENTIAL'),
  outer: code('R2', 'R2', 'LOW DENSITY RESIDENTIAL'),
  fringe: code('R2', 'R2', 'LOW DENSITY RESIDENTIAL'),
  road: code('SP2', 'SP2', 'INFRASTRUCTURE'),
};

// Brisbane City Plan 2014 has no road zone: the adjoining zones run to the road centreline.
const BRISBANE_ZONES: Record<ZoneRole, PlanningCode | null> = {
  centre: code('DC', 'DC', 'DISTRICT CENTRE'),
  mixed: code('MDR', 'MDR', 'MEDIUM DENSITY RESIDENTIAL'),
  park: code('OS', 'OS', 'OPEN SPACE'),
  sport: code('SR', 'SR', 'SPORT AND RECREATION'),
  inner: code('LMR', 'LMR2', 'LOW-MEDIUM DENSITY RESIDENTIAL (2 STOREY MIX)'),
  middle: code('LMR', 'LMR2', 'LOW-MEDIUM DENSITY RESIDENTIAL (2 STOREY MIX)'),
  outer: code('LDR', 'LDR', 'LOW DENSITY RESIDENTIAL'),
  fringe: code('LDR', 'LDR', 'LOW DENSITY RESIDENTIAL'),
  road: null,
};

const MORETON_BAY_ZONES: Record<ZoneRole, PlanningCode | null> = {
  centre: code('CZ', 'CZ', 'CENTRE ZONE'),
  mixed: code('GRZ', 'GRZ', 'GENERAL RESIDENTIAL ZONE'),
  park: code('ROSZ', 'ROSZ', 'RECREATION AND OPEN SPACE ZONE'),
  sport: code('ROSZ', 'ROSZ', 'RECREATION AND OPEN SPACE ZONE'),
  inner: code('GRZ', 'GRZ', 'GENERAL RESIDENTIAL ZONE'),
  middle: code('GRZ', 'GRZ', 'GENERAL RESIDENTIAL ZONE'),
  outer: code('GRZ', 'GRZ', 'GENERAL RESIDENTIAL ZONE'),
  fringe: code('GRZ', 'GRZ', 'GENERAL RESIDENTIAL ZONE'),
  road: null,
};

const ZONES: Record<PlanningScheme, Record<ZoneRole, PlanningCode | null>> = {
  VIC_VPP: VIC_ZONES,
  NSW_LEP: NSW_ZONES,
  QLD_BRISBANE: BRISBANE_ZONES,
  QLD_MORETON_BAY: MORETON_BAY_ZONES,
};

export function zoneCode(scheme: PlanningScheme, role: ZoneRole): PlanningCode | null {
  return ZONES[scheme][role];
}

/**
 * The overlay a scheme uses for a role, or null when it has none. `n` numbers the instances
 * that carry one (heritage places).
 */
export function overlayCode(scheme: PlanningScheme, role: OverlayRole, n: number): PlanningCode | null {
  switch (scheme) {
    case 'VIC_VPP':
      return {
        flood: code('LSIO', 'LSIO', 'LAND SUBJECT TO INUNDATION OVERLAY'),
        environment: code('ESO', 'ESO1', 'ENVIRONMENTAL SIGNIFICANCE OVERLAY - SCHEDULE 1'),
        bushfire: code('BMO', 'BMO', 'BUSHFIRE MANAGEMENT OVERLAY'),
        heritage: code('HO', `HO${n}`, 'HERITAGE OVERLAY'),
        design: code('DDO', 'DDO1', 'DESIGN AND DEVELOPMENT OVERLAY - SCHEDULE 1'),
        vegetation: code('VPO', 'VPO1', 'VEGETATION PROTECTION OVERLAY - SCHEDULE 1'),
        contributions: code('DCPO', 'DCPO2', 'DEVELOPMENT CONTRIBUTIONS PLAN OVERLAY - SCHEDULE 2'),
        character: null,
      }[role];
    case 'NSW_LEP':
      // LEP and SEPP map layers rather than overlays; heritage items are numbered in the LEP schedule
      return {
        flood: code('FPA', 'FPA', 'FLOOD PLANNING AREA'),
        environment: null,
        bushfire: code('BFPL', 'BFPL', 'BUSH FIRE PRONE LAND'),
        heritage: code('HER', 'HER', `HERITAGE ITEM I${n} (LOCAL)`),
        design: null,
        vegetation: null,
        contributions: null,
        character: null,
      }[role];
    case 'QLD_BRISBANE':
    case 'QLD_MORETON_BAY':
      return {
        flood: code('FLOOD', 'FLOOD', 'FLOOD OVERLAY'),
        environment: null,
        bushfire: code('BUSHFIRE', 'BUSHFIRE', 'BUSHFIRE OVERLAY'),
        heritage: code('HERITAGE', 'HERITAGE', 'HERITAGE OVERLAY'),
        design: null,
        vegetation: null,
        contributions: null,
        // a Brisbane City Plan overlay; Moreton Bay has no equivalent
        character: scheme === 'QLD_BRISBANE' ? code('TBC', 'TBC', 'TRADITIONAL BUILDING CHARACTER OVERLAY') : null,
      }[role];
  }
}
