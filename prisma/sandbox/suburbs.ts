/**
 * The real places the sandbox is built around: names, postcodes, councils (Vicmap LGA code for
 * Victoria, ABS LGA 2024 codes elsewhere, as each state's planning data publishes them) and
 * approximate locality centres. Streets, parcels and addresses are generated; these are not.
 */

import { STATES } from '../../subgraphs/address/matching/vocabulary.ts';
import type { StateRow } from './rows.ts';

export type SandboxState = 'VIC' | 'NSW' | 'QLD';

/** G-NAF's STATE row of a sandbox state: its STATE_PID and name. */
export function stateRow(state: SandboxState): StateRow {
  const gnaf = STATES.find((s) => s.abbreviation === state);
  if (!gnaf) throw new Error(`G-NAF has no state ${state}`);
  return { state_pid: gnaf.statePid, state_name: gnaf.name, state_abbreviation: state };
}

export const statePid = (state: SandboxState): string => stateRow(state).state_pid;

/** Which planning scheme's zone and overlay vocabulary a suburb uses. */
export type PlanningScheme = 'VIC_VPP' | 'NSW_LEP' | 'QLD_BRISBANE' | 'QLD_MORETON_BAY';

/** Registered plan series; each state's cadastre numbers its own (see identifiers.ts). */
export type PlanKind = 'PS' | 'LP' | 'DP' | 'DP_OLD' | 'SP_STRATA' | 'RP' | 'SP';

/** How a suburb's urban growth boundary runs, where its state draws one. */
export type UgbExtent = 'excluding-fringe' | 'whole';

/**
 * The lie of the land, for the sandbox DEM: a place's typical height, its regional fall, rises
 * and hollows of about `reliefRadiusM`, and a valley along each of its creek lines.
 */
export interface TerrainSpec {
  /** Typical ground height, metres AHD. */
  readonly baseM: number;
  /** The regional fall (percent) and the compass bearing it falls toward. */
  readonly fallPercent: number;
  readonly fallBearingDeg: number;
  /** Largest height of a rise or hollow (metres) and its typical radius (metres). */
  readonly reliefM: number;
  readonly reliefRadiusM: number;
  /** How far a creek line sits below its banks (metres), and the valley's half-width (metres). */
  readonly valleyDepthM: number;
  readonly valleyWidthM: number;
}

export interface SuburbSpec {
  readonly key: string;
  readonly name: string;
  readonly state: SandboxState;
  readonly postcode: string;
  readonly lga: { readonly code: string; readonly name: string };
  readonly centre: { readonly lat: number; readonly lng: number };
  /** Bearing of the street grid, so each suburb's streets run their own way. */
  readonly rotationDeg: number;
  /** Newer estates wind: cross streets follow a gentle curve of this amplitude (metres). */
  readonly curveAmplitude: number;
  readonly planning: PlanningScheme;
  /** False where the state's planning layer is deliberately absent (planning "not_covered"). */
  readonly planningCovered: boolean;
  /** Leave one block inside planning coverage with no zone at all (planning "no_data"). */
  readonly deferredBlock: boolean;
  /** Large low-density lots on the outer ring of blocks (a town on the rural fringe). */
  readonly fringe: boolean;
  /** Plan series used for ordinary subdivisions here, with their share. */
  readonly plans: ReadonlyArray<readonly [PlanKind, number]>;
  /** The centre street that carries the shops. */
  readonly mainStreet: string;
  /** Real or locally plausible street names with their G-NAF street type, nearest the centre first. */
  readonly streets: readonly string[];
  /** The urban growth boundary over the suburb; null where the state draws none. */
  readonly ugb: UgbExtent | null;
  /** Null where the sandbox holds no DEM (terrain "not_covered"). */
  readonly terrain: TerrainSpec | null;
}

export const SUBURBS: readonly SuburbSpec[] = [
  {
    key: 'huntly',
    name: 'HUNTLY',
    state: 'VIC',
    postcode: '3551',
    lga: { code: '325', name: 'GREATER BENDIGO' },
    centre: { lat: -36.663, lng: 144.331 },
    rotationDeg: 12,
    curveAmplitude: 0,
    planning: 'VIC_VPP',
    planningCovered: true,
    deferredBlock: true,
    fringe: true,
    plans: [
      ['PS', 0.8],
      ['LP', 0.2],
    ],
    mainStreet: 'MIDLAND HIGHWAY',
    // prettier-ignore
    streets: [
      'DWYER STREET', 'HUNTLY-FOSTERVILLE ROAD', 'AERODROME ROAD', 'ANDERSON STREET', 'SCOTT STREET',
      'NORMAN STREET', 'BAGSHOT ROAD', 'CALLISTEMON DRIVE', 'NEILBOROUGH ROAD', 'RAILWAY PLACE',
      'PRINCESS STREET', 'GEORGE STREET', 'WATTLEBIRD WAY', 'IRONBARK COURT',
    ],
    ugb: 'excluding-fringe',
    // Bendigo Creek's plain north of Bendigo, about 190-210 m, draining gently north
    terrain: {
      baseM: 200,
      fallPercent: 0.5,
      fallBearingDeg: 0,
      reliefM: 5,
      reliefRadiusM: 450,
      valleyDepthM: 4,
      valleyWidthM: 100,
    },
  },
  {
    key: 'kangaroo-flat',
    name: 'KANGAROO FLAT',
    state: 'VIC',
    postcode: '3555',
    lga: { code: '325', name: 'GREATER BENDIGO' },
    centre: { lat: -36.797, lng: 144.246 },
    rotationDeg: -8,
    curveAmplitude: 0,
    planning: 'VIC_VPP',
    planningCovered: true,
    deferredBlock: true,
    fringe: false,
    plans: [
      ['LP', 0.6],
      ['PS', 0.4],
    ],
    mainStreet: 'HIGH STREET',
    // prettier-ignore
    streets: [
      'OLYMPIC PARADE', 'STATION STREET', 'LOCKWOOD ROAD', 'FREEMAN STREET', 'HELM STREET',
      'CROOK STREET', 'ALLINGHAM STREET', 'VICTORIA STREET', 'QUEEN STREET', 'WILLIAM STREET',
      'TANNERY LANE', 'SPRING GULLY ROAD', 'BARNARD STREET', 'MAINS STREET',
    ],
    ugb: 'whole',
    // the Bendigo Creek valley below the Big Hill ranges, about 220-260 m, falling north-east to Bendigo
    terrain: {
      baseM: 240,
      fallPercent: 1,
      fallBearingDeg: 45,
      reliefM: 10,
      reliefRadiusM: 450,
      valleyDepthM: 5,
      valleyWidthM: 110,
    },
  },
  {
    key: 'parramatta',
    name: 'PARRAMATTA',
    state: 'NSW',
    postcode: '2150',
    lga: { code: '16260', name: 'PARRAMATTA' },
    centre: { lat: -33.815, lng: 151.003 },
    rotationDeg: 5,
    curveAmplitude: 0,
    planning: 'NSW_LEP',
    planningCovered: true,
    deferredBlock: true,
    fringe: false,
    plans: [
      ['DP_OLD', 0.65],
      ['DP', 0.35],
    ],
    mainStreet: 'CHURCH STREET',
    // prettier-ignore
    streets: [
      'GEORGE STREET', 'MACQUARIE STREET', 'PHILLIP STREET', 'SMITH STREET', 'MARSDEN STREET',
      'HASSALL STREET', 'WIGRAM STREET', 'ARGYLE STREET', "O'CONNELL STREET", 'HARRIS STREET',
      'ALFRED STREET', 'BRICKFIELD STREET', 'VICTORIA ROAD', 'HUNTER STREET', 'DARCY STREET',
    ],
    ugb: null,
    // the head of the Parramatta River, about 10-40 m: the creek line is the river's valley
    terrain: {
      baseM: 26,
      fallPercent: 0.6,
      fallBearingDeg: 90,
      reliefM: 7,
      reliefRadiusM: 500,
      valleyDepthM: 9,
      valleyWidthM: 160,
    },
  },
  {
    key: 'castle-hill',
    name: 'CASTLE HILL',
    state: 'NSW',
    postcode: '2154',
    lga: { code: '17420', name: 'THE HILLS SHIRE' },
    centre: { lat: -33.731, lng: 151.004 },
    rotationDeg: 28,
    curveAmplitude: 35,
    planning: 'NSW_LEP',
    planningCovered: false,
    deferredBlock: false,
    fringe: false,
    plans: [
      ['DP_OLD', 0.55],
      ['DP', 0.45],
    ],
    mainStreet: 'OLD NORTHERN ROAD',
    // prettier-ignore
    streets: [
      'SHOWGROUND ROAD', 'CASTLE STREET', 'TERMINUS STREET', 'CECIL AVENUE', 'PENNANT STREET',
      'GILBERT ROAD', 'CARRINGTON ROAD', 'MCMULLEN AVENUE', 'DAVID ROAD', 'BRISBANE ROAD',
      'PEEL ROAD', 'PURCHASE ROAD', 'FRANKLIN ROAD', 'KENTWELL AVENUE',
    ],
    ugb: null,
    // ridge-top suburb of the Hills District, about 90-170 m, with steeper sides than the rest
    terrain: {
      baseM: 130,
      fallPercent: 2,
      fallBearingDeg: 300,
      reliefM: 18,
      reliefRadiusM: 380,
      valleyDepthM: 0,
      valleyWidthM: 0,
    },
  },
  {
    key: 'chermside',
    name: 'CHERMSIDE',
    state: 'QLD',
    postcode: '4032',
    lga: { code: '31000', name: 'BRISBANE' },
    centre: { lat: -27.385, lng: 153.031 },
    rotationDeg: -15,
    curveAmplitude: 0,
    planning: 'QLD_BRISBANE',
    planningCovered: true,
    deferredBlock: true,
    fringe: false,
    plans: [
      ['RP', 0.8],
      ['SP', 0.2],
    ],
    mainStreet: 'GYMPIE ROAD',
    // prettier-ignore
    streets: [
      'HAMILTON ROAD', 'KITTYHAWK DRIVE', 'MURPHY ROAD', 'BANFIELD STREET', 'HALL STREET',
      'PLAYFIELD STREET', 'ROBINSON ROAD', 'NEWMAN ROAD', 'ELLISON ROAD', 'RODE ROAD',
      'SPARKES STREET', 'JOYCE STREET', 'KURAU STREET', 'MEROLA STREET',
    ],
    ugb: null,
    terrain: null,
  },
  {
    key: 'north-lakes',
    name: 'NORTH LAKES',
    state: 'QLD',
    postcode: '4509',
    lga: { code: '35010', name: 'MORETON BAY' },
    centre: { lat: -27.234, lng: 153.018 },
    rotationDeg: 40,
    curveAmplitude: 45,
    planning: 'QLD_MORETON_BAY',
    planningCovered: true,
    deferredBlock: false,
    fringe: false,
    plans: [['SP', 1]],
    mainStreet: 'NORTH LAKES DRIVE',
    // prettier-ignore
    streets: [
      'ANZAC AVENUE', 'DISCOVERY DRIVE', 'ENDEAVOUR BOULEVARD', 'LAKEFIELD DRIVE', 'FLINDERS PARADE',
      'MEMORIAL DRIVE', 'JOYNER CIRCUIT', 'BRIDGEMAN DRIVE', 'WORKS WAY', 'PARKWAY CIRCUIT',
      'ELIZABETH STREET', 'MANGO HILL BOULEVARD', 'FREEDOM CIRCUIT', 'LINKFIELD ROAD',
    ],
    ugb: null,
    terrain: null,
  },
];
