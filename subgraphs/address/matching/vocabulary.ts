import type { StateCode } from '../../../core/geo.ts';
import { NON_PARCEL_GEOCODE_TYPES } from '../../../core/vocabulary.ts';

/*
 * G-NAF's vocabularies, embedded so the matcher and the sandbox need no files at run time.
 *
 * Incorporates or developed using G-NAF © Geoscape Australia licensed by the Commonwealth of Australia under the
 * Open Geo-coded National Address File (G-NAF) End User Licence Agreement.
 */

export interface StreetTypeRow {
  /** The full street type, G-NAF's STREET_TYPE_CODE ("ROAD"). */
  readonly code: string;
  /** G-NAF's abbreviation ("RD"). */
  readonly name: string;
  readonly description: string;
}

export type AuthorityName =
  'STREET_TYPE' | 'STREET_SUFFIX' | 'FLAT_TYPE' | 'LEVEL_TYPE' | 'GEOCODE_TYPE' | 'LOCALITY_CLASS' | 'STREET_CLASS';

export interface AuthorityRow {
  readonly authority: AuthorityName;
  readonly code: string;
  readonly name: string;
  readonly description: string | null;
}

// STREET_TYPE_AUT kept as the published PSV text, so a new G-NAF release can be diffed against it line by line.
const STREET_TYPE_AUT_PSV = `CODE|NAME|DESCRIPTION
EAST|EAST|EAST
WEST|WEST|WEST
PART|PART|PART
TRIANGLE|TRIANGLE|TRIANGLE
AIRWALK|AWLK|AIRWALK
PRECINCT|PREC|PREC
SHUNT|SHUN|SHUN
ARTERIAL|ARTL|ARTL
BANAN|BA|BA
RIGHT OF WAY|ROFW|ROFW
ACRE|ACRE|ACRE
WOOD|WD|WD
BULL|BULL|BULL
VILLA|VLLA|VLLA
TRAVERSE|TVSE|TVSE
MART|MART|MART
ACCESS|ACCS|ACCS
ALLEY|ALLY|ALLY
ALLEYWAY|ALWY|ALWY
AMBLE|AMBL|AMBL
APPROACH|APP|APP
ARCADE|ARC|ARC
ARTERY|ARTY|ARTY
AVENUE|AV|AV
BANK|BANK|BANK
BAY|BAY|BAY
BEACH|BCH|BCH
BEND|BEND|BEND
BOARDWALK|BWLK|BWLK
BOULEVARD|BVD|BVD
BOULEVARDE|BVDE|BVDE
BOWL|BOWL|BOWL
BRACE|BR|BR
BRAE|BRAE|BRAE
BRANCH|BRAN|BRAN
BREAK|BRK|BRK
BRETT|BRET|BRET
BRIDGE|BDGE|BDGE
BROADWALK|BRDWLK|BRDWLK
BROADWAY|BDWY|BDWY
BROW|BROW|BROW
BYPASS|BYPA|BYPA
BYWAY|BYWY|BYWY
CAUSEWAY|CSWY|CSWY
CENTRE|CTR|CTR
CENTREWAY|CNWY|CNWY
CHASE|CH|CH
CIRCLE|CIR|CIR
CIRCLET|CLT|CLT
CIRCUIT|CCT|CCT
CIRCUS|CRCS|CRCS
CLOSE|CL|CL
CLUSTER|CLR|CLR
COLONNADE|CLDE|CLDE
COMMON|CMMN|CMMN
COMMONS|CMMNS|CMMNS
CONCORD|CNCD|CNCD
CONCOURSE|CON|CON
CONNECTION|CNTN|CNTN
COPSE|CPS|CPS
CORNER|CNR|CNR
CORSO|CSO|CSO
COURSE|CRSE|CRSE
COURT|CT|CT
COURTYARD|CTYD|CTYD
COVE|COVE|COVE
CRESCENT|CR|CR
CREST|CRST|CRST
CRIEF|CRF|CRF
CROOK|CRK|CRK
CROSS|CRSS|CRSS
CROSSING|CRSG|CRSG
CRUISEWAY|CUWY|CUWY
CUL-DE-SAC|CSAC|CSAC
CUT|CUT|CUT
CUTTING|CUTT|CUTT
DALE|DALE|DALE
DELL|DELL|DELL
DENE|DENE|DENE
DEVIATION|DE|DE
DIP|DIP|DIP
DISTRIBUTOR|DSTR|DSTR
DIVIDE|DIV|DIV
DOCK|DOCK|DOCK
DOMAIN|DOM|DOM
DOWN|DOWN|DOWN
DOWNS|DWNS|DWNS
DRIVE|DR|DR
DRIVEWAY|DVWY|DVWY
EASEMENT|ESMT|ESMT
EDGE|EDGE|EDGE
ELBOW|ELB|ELB
END|END|END
ENTRANCE|ENT|ENT
ESPLANADE|ESP|ESP
ESTATE|EST|EST
EXPRESSWAY|EXP|EXP
EXTENSION|EXTN|EXTN
FAIRWAY|FAWY|FAWY
FIREBREAK|FBRK|FBRK
FIRELINE|FLNE|FLNE
FIRETRACK|FTRK|FTRK
FIRETRAIL|FITR|FITR
FLAT|FLAT|FLAT
FOLLOW|FOLW|FOLW
FOOTWAY|FTWY|FTWY
FORD|FORD|FORD
FORESHORE|FSHR|FSHR
FORK|FORK|FORK
FORMATION|FORM|FORM
FREEWAY|FWY|FWY
FRONT|FRNT|FRNT
FRONTAGE|FRTG|FRTG
GAP|GAP|GAP
GARDEN|GDN|GDN
GARDENS|GDNS|GDNS
GATE|GTE|GTE
GATEWAY|GWY|GWY
GLADE|GLDE|GLDE
GLEN|GLEN|GLEN
GRANGE|GRA|GRA
GREEN|GRN|GRN
GROVE|GR|GR
GULLY|GLY|GLY
HARBOUR|HRBR|HRBR
HAVEN|HVN|HVN
HEATH|HTH|HTH
HEIGHTS|HTS|HTS
HIGHROAD|HIRD|HIRD
HIGHWAY|HWY|HWY
HILL|HILL|HILL
HOLLOW|HLLW|HLLW
HUB|HUB|HUB
INLET|INLT|INLT
INTERCHANGE|INTG|INTG
ISLAND|ID|ID
JUNCTION|JNC|JNC
KEY|KEY|KEY
KEYS|KEYS|KEYS
KNOLL|KNOL|KNOL
LADDER|LADR|LADR
LANDING|LDG|LDG
LANE|LANE|LANE
LANEWAY|LNWY|LNWY
LEADER|LEDR|LEDR
LINE|LINE|LINE
LINK|LINK|LINK
LOOKOUT|LKT|LKT
LOOP|LOOP|LOOP
LYNNE|LYNN|LYNN
MALL|MALL|MALL
MANOR|MANR|MANR
MEAD|MEAD|MEAD
MEANDER|MNDR|MNDR
MEW|MEW|MEW
MEWS|MEWS|MEWS
MILE|MILE|MILE
MOTORWAY|MTWY|MTWY
NOOK|NOOK|NOOK
NORTH|NTH|NTH
NULL|NULL|NULL
OUTLET|OTLT|OTLT
OUTLOOK|OTLK|OTLK
OVAL|OVAL|OVAL
PALMS|PLMS|PLMS
PARADE|PDE|PDE
PARADISE|PRDS|PRDS
PARK|PARK|PARK
PARKWAY|PWY|PWY
PASS|PASS|PASS
PASSAGE|PSGE|PSGE
PATH|PATH|PATH
PATHWAY|PWAY|PWAY
PENINSULA|PSLA|PSLA
PIAZZA|PIAZ|PIAZ
PLACE|PL|PL
PLAZA|PLZA|PLZA
POCKET|PKT|PKT
POINT|PNT|PNT
PORT|PORT|PORT
PROMENADE|PROM|PROM
PURSUIT|PRST|PRST
QUAD|QUAD|QUAD
QUADRANT|QDRT|QDRT
QUAY|QY|QY
QUAYS|QYS|QYS
RAMBLE|RMBL|RMBL
RAMP|RAMP|RAMP
RANGE|RNGE|RNGE
REACH|RCH|RCH
REEF|REEF|REEF
RESERVE|RES|RES
REST|REST|REST
RETREAT|RTT|RTT
RETURN|RTN|RTN
RIDE|RIDE|RIDE
RIDGE|RDGE|RDGE
RING|RING|RING
RISE|RISE|RISE
RISING|RSNG|RSNG
RIVER|RVR|RVR
ROAD|RD|RD
ROADS|RDS|RDS
ROADWAY|RDWY|RDWY
ROTARY|RTY|RTY
ROUND|RND|RND
ROUTE|RTE|RTE
ROW|ROW|ROW
ROWE|ROWE|ROWE
RUE|RUE|RUE
RUN|RUN|RUN
SERVICEWAY|SVWY|SVWY
SKYLINE|SKLN|SKLN
SLOPE|SLPE|SLPE
SOUTH|STH|STH
SPUR|SPUR|SPUR
SQUARE|SQ|SQ
STEPS|STPS|STPS
STRAIGHT|STRT|STRT
STRAIT|STAI|STAI
STRAND|STRA|STRA
STREET|ST|ST
STRIP|STRP|STRP
SUBWAY|SBWY|SBWY
TARN|TARN|TARN
TERRACE|TCE|TCE
THOROUGHFARE|THFR|THFR
THROUGHWAY|THRU|THRU
TOLLWAY|TLWY|TLWY
TOP|TOP|TOP
TOR|TOR|TOR
TRACK|TRK|TRK
TRAIL|TRL|TRL
TRAMWAY|TMWY|TMWY
TRUNKWAY|TKWY|TKWY
TUNNEL|TUNL|TUNL
TURN|TURN|TURN
UNDERPASS|UPAS|UPAS
VALE|VALE|VALE
VALLEY|VLLY|VLLY
VERGE|VERGE|VERGE
VIADUCT|VIAD|VIAD
VIEW|VIEW|VIEW
VIEWS|VWS|VWS
VILLAGE|VLGE|VLGE
VILLAS|VLLS|VLLS
VISTA|VSTA|VSTA
VUE|VUE|VUE
WADE|WADE|WADE
WALK|WALK|WALK
WALKWAY|WKWY|WKWY
WATERS|WTRS|WTRS
WATERWAY|WTWY|WTWY
WAY|WAY|WAY
WHARF|WHRF|WHRF
WOODS|WDS|WDS
WYND|WYND|WYND
YARD|YARD|YARD
TWIST|TWIST|TWIST
DASH|DASH|DASH
HILLS|HILLS|HILLS
LEAD|LEAD|LEAD
BUSWAY|BSWY|BSWY
FLATS|FLTS|FLTS
MAZE|MZ|MZ
HIKE|HIKE|HIKE
CONNECTOR|CONR|CONR
BOUNDARY|BDY|BDY
CROSSOVER|CRVR|CRVR
LINKWAY|LNKWAY|LNKWAY
ANNEX|ANNEX|ANNEX
BIDI|BIDI|BIDI
YARDS|YARDS|YARDS
NEST|NEST|NEST
SIDING|SDNG|SDNG
PERCH|PRCH|PRCH
`;

export const STREET_TYPES: readonly StreetTypeRow[] = STREET_TYPE_AUT_PSV.trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [code = '', name = '', description = ''] = line.split('|');
    return { code, name, description };
  });

/**
 * Spellings people type that the authority table does not carry (its abbreviations are AV, CR, BVD, GR...), mapped to
 * the STREET_TYPE_AUT code. None of them is a code or abbreviation of the table; a test holds that.
 */
export const STREET_TYPE_SPELLINGS: Readonly<Record<string, string>> = {
  STR: 'STREET',
  AVE: 'AVENUE',
  AVN: 'AVENUE',
  CRES: 'CRESCENT',
  CRESC: 'CRESCENT',
  CRS: 'CRESCENT',
  CRT: 'COURT',
  BLVD: 'BOULEVARD',
  BLVDE: 'BOULEVARDE',
  HWAY: 'HIGHWAY',
  TERR: 'TERRACE',
  TER: 'TERRACE',
  CIRC: 'CIRCUIT',
  CRCT: 'CIRCUIT',
  CRCL: 'CIRCLE',
  CLSE: 'CLOSE',
  GRV: 'GROVE',
  GRVE: 'GROVE',
  LN: 'LANE',
  DRV: 'DRIVE',
  DVE: 'DRIVE',
  ESPL: 'ESPLANADE',
  PKWY: 'PARKWAY',
  FRWY: 'FREEWAY',
  MWY: 'MOTORWAY',
  SQR: 'SQUARE',
  PLZ: 'PLAZA',
  WY: 'WAY',
  RDG: 'RIDGE',
  PK: 'PARK',
  VW: 'VIEW',
  WLK: 'WALK',
  EXPY: 'EXPRESSWAY',
};

/** STREET_SUFFIX_AUT: code → name. */
export const STREET_SUFFIXES = {
  CN: 'CENTRAL',
  DE: 'DEVIATION',
  E: 'EAST',
  EX: 'EXTENSION',
  IN: 'INNER',
  LR: 'LOWER',
  ML: 'MALL',
  N: 'NORTH',
  NE: 'NORTH EAST',
  NW: 'NORTH WEST',
  OF: 'OFF',
  ON: 'ON',
  OP: 'OVERPASS',
  OT: 'OUTER',
  S: 'SOUTH',
  SE: 'SOUTH EAST',
  SW: 'SOUTH WEST',
  UP: 'UPPER',
  W: 'WEST',
} as const satisfies Record<string, string>;

const STREET_SUFFIX_SPELLINGS: Readonly<Record<string, string>> = {
  NTH: 'N',
  STH: 'S',
  EXT: 'EX',
  LWR: 'LR',
  UPR: 'UP',
};

/** FLAT_TYPE_AUT: code → name. */
export const FLAT_TYPES = {
  ANT: 'ANTENNA',
  APT: 'APARTMENT',
  ATM: 'AUTOMATED TELLER MACHINE',
  BBQ: 'BARBECUE',
  BLCK: 'BLOCK',
  BLDG: 'BUILDING',
  BNGW: 'BUNGALOW',
  BTSD: 'BOATSHED',
  CAGE: 'CAGE',
  CARP: 'CARPARK',
  CARS: 'CARSPACE',
  CLUB: 'CLUB',
  COOL: 'COOLROOM',
  CTGE: 'COTTAGE',
  DUPL: 'DUPLEX',
  FCTY: 'FACTORY',
  FLAT: 'FLAT',
  GRGE: 'GARAGE',
  HALL: 'HALL',
  HSE: 'HOUSE',
  KSK: 'KIOSK',
  LBBY: 'LOBBY',
  LOFT: 'LOFT',
  LOT: 'LOT',
  LSE: 'LEASE',
  MBTH: 'MARINE BERTH',
  MSNT: 'MAISONETTE',
  OFFC: 'OFFICE',
  PTHS: 'PENTHOUSE',
  REAR: 'REAR',
  RESV: 'RESERVE',
  ROOM: 'ROOM',
  RTCE: 'ROOF TERRACE',
  SE: 'SUITE',
  SEC: 'SECTION',
  SHED: 'SHED',
  SHOP: 'SHOP',
  SHRM: 'SHOWROOM',
  SIGN: 'SIGN',
  SITE: 'SITE',
  STLL: 'STALL',
  STOR: 'STORE',
  STR: 'STRATA UNIT',
  STU: 'STUDIO',
  SUBS: 'SUBSTATION',
  TNCY: 'TENANCY',
  TNHS: 'TOWNHOUSE',
  TWR: 'TOWER',
  UNIT: 'UNIT',
  VLLA: 'VILLA',
  VLT: 'VAULT',
  WARD: 'WARD',
  WHSE: 'WAREHOUSE',
  WKSH: 'WORKSHOP',
} as const satisfies Record<string, string>;

const FLAT_TYPE_SPELLINGS: Readonly<Record<string, string>> = {
  U: 'UNIT',
  F: 'FLAT',
  APPT: 'APT',
  STE: 'SE',
  TH: 'TNHS',
  BLK: 'BLCK',
  RM: 'ROOM',
  OFF: 'OFFC',
  FACT: 'FCTY',
  BARBEQUE: 'BBQ',
};

/** LEVEL_TYPE_AUT: code → name. */
export const LEVEL_TYPES = {
  B: 'BASEMENT',
  FL: 'FLOOR',
  G: 'GROUND',
  L: 'LEVEL',
  LB: 'LOBBY',
  LG: 'LOWER GROUND FLOOR',
  M: 'MEZZANINE',
  OD: 'OBSERVATION DECK',
  P: 'PARKING',
  PDM: 'PODIUM',
  PLF: 'PLATFORM',
  PTHS: 'PENTHOUSE',
  RT: 'ROOFTOP',
  SB: 'SUB-BASEMENT',
  UG: 'UPPER GROUND FLOOR',
  UNGD: 'UNDERGROUND',
} as const satisfies Record<string, string>;

const LEVEL_TYPE_SPELLINGS: Readonly<Record<string, string>> = {
  LVL: 'L',
  LEV: 'L',
  FLR: 'FL',
  GROUND: 'G',
  'GROUND FLOOR': 'G',
  GF: 'G',
  GRD: 'G',
  BSMT: 'B',
  'LOWER GROUND': 'LG',
  LGF: 'LG',
  'UPPER GROUND': 'UG',
  UGF: 'UG',
  MEZZ: 'M',
  MEZ: 'M',
  ROOF: 'RT',
};

/** G-NAF's STATE table: the nine states and territories, with how people write them. */
export interface StateRow {
  /** G-NAF STATE_PID. */
  readonly statePid: string;
  readonly abbreviation: StateCode;
  readonly name: string;
  /** Other spellings: abbreviated ones first, then spelled-out ones. */
  readonly abbreviations: readonly string[];
  readonly spellings: readonly string[];
}

export const STATES: readonly StateRow[] = [
  { statePid: '1', abbreviation: 'NSW', name: 'NEW SOUTH WALES', abbreviations: [], spellings: [] },
  { statePid: '2', abbreviation: 'VIC', name: 'VICTORIA', abbreviations: ['VICT'], spellings: [] },
  { statePid: '3', abbreviation: 'QLD', name: 'QUEENSLAND', abbreviations: ['QLND'], spellings: [] },
  {
    statePid: '4',
    abbreviation: 'SA',
    name: 'SOUTH AUSTRALIA',
    abbreviations: ['STH AUST'],
    spellings: ['SOUTH AUST'],
  },
  {
    statePid: '5',
    abbreviation: 'WA',
    name: 'WESTERN AUSTRALIA',
    abbreviations: ['WEST AUST'],
    spellings: ['WEST AUSTRALIA', 'WESTERN AUST'],
  },
  { statePid: '6', abbreviation: 'TAS', name: 'TASMANIA', abbreviations: ['TASM'], spellings: [] },
  { statePid: '7', abbreviation: 'NT', name: 'NORTHERN TERRITORY', abbreviations: [], spellings: [] },
  { statePid: '8', abbreviation: 'ACT', name: 'AUSTRALIAN CAPITAL TERRITORY', abbreviations: [], spellings: [] },
  {
    statePid: '9',
    abbreviation: 'OT',
    name: 'OTHER TERRITORIES',
    abbreviations: ['JBT'],
    spellings: ['OTHER TERRITORY', 'JERVIS BAY TERRITORY'],
  },
];

/** GEOCODE_TYPE_AUT: code → name. */
export const GEOCODE_TYPES = {
  BAP: 'BUILDING ACCESS POINT',
  BC: 'BUILDING CENTROID',
  BCM: 'BUILDING CENTROID MANUAL',
  CDF: 'CENTRE-LINE DROPPED FRONTAGE',
  DF: 'DRIVEWAY FRONTAGE',
  EA: 'EMERGENCY ACCESS',
  EAS: 'EMERGENCY ACCESS SECONDARY',
  ECP: 'ELECTRICITY CONNECTION POINT',
  EM: 'ELECTRICITY METER',
  FC: 'FRONTAGE CENTRE',
  FCS: 'FRONTAGE CENTRE SETBACK',
  FDA: 'FRONT DOOR ACCESS',
  GCP: 'GAS CONNECTION POINT',
  GG: 'GAP GEOCODE',
  GM: 'GAS METER',
  ICP: 'INTERNET CONNECTION POINT',
  LB: 'LETTERBOX',
  LOC: 'LOCALITY',
  PAP: 'PROPERTY ACCESS POINT',
  PAPS: 'PROPERTY ACCESS POINT SETBACK',
  PC: 'PROPERTY CENTROID',
  PCM: 'PROPERTY CENTROID MANUAL',
  SCP: 'SEWERAGE CONNECTION POINT',
  STL: 'STREET LOCALITY',
  TCP: 'TELEPHONE CONNECTION POINT',
  UC: 'UNIT CENTROID',
  UCM: 'UNIT CENTROID MANUAL',
  UNK: 'UNKNOWN',
  WCP: 'WATER CONNECTION POINT',
  WM: 'WATER METER',
} as const satisfies Record<string, string>;

export type GeocodeTypeCode = keyof typeof GEOCODE_TYPES;

// The facade shares the geocodes off the address's parcel (core/vocabulary.ts): each must stay a G-NAF code.
const _nonParcelGeocodeTypes: readonly GeocodeTypeCode[] = NON_PARCEL_GEOCODE_TYPES;

/** LOCALITY_CLASS_AUT: code → name. */
export const LOCALITY_CLASSES = {
  A: 'ALIAS ONLY LOCALITY',
  D: 'DISTRICT',
  G: 'GAZETTED LOCALITY',
  H: 'HUNDRED',
  I: 'INDIGENOUS LOCATION',
  M: 'MANUALLY VALIDATED',
  T: 'TOPOGRAPHIC LOCALITY',
  U: 'UNOFFICIAL SUBURB',
  V: 'UNOFFICIAL TOPOGRAPHIC FEATURE',
} as const satisfies Record<string, string>;

/** STREET_CLASS_AUT: code → name. */
export const STREET_CLASSES = {
  C: 'CONFIRMED',
  U: 'UNCONFIRMED',
} as const satisfies Record<string, string>;

// Where G-NAF's DESCRIPTION says more than the NAME; every other row of these tables repeats the name.
const DESCRIPTIONS: Partial<Record<AuthorityName, Readonly<Record<string, string>>>> = {
  GEOCODE_TYPE: {
    BAP: 'POINT OF ACCESS TO THE BUILDING.',
    BC: 'POINT AS CENTRE OF BUILDING AND LYING WITHIN ITS BOUNDS (E.G. FOR U-SHAPED BUILDING).',
    BCM: 'POINT MANUALLY PLACED APPROXIMATELY AT CENTRE OF BUILDING AND LYING WITHIN ITS BOUNDS (E.G. FOR U-SHAPED BUILDING).',
    CDF: 'A POINT ON THE ROAD CENTRE-LINE OPPOSITE THE CENTRE OF THE ROAD FRONTAGE OF AN ADDRESS SITE.',
    DF: 'CENTRE OF DRIVEWAY ON ADDRESS SITE FRONTAGE.',
    EA: 'SPECIFIC BUILDING OR PROPERTY ACCESS POINT FOR EMERGENCY SERVICES.',
    EAS: 'SPECIFIC BUILDING OR PROPERTY SECONDARY ACCESS POINT FOR EMERGENCY SERVICES.',
    ECP: 'ELECTRICITY CONNECTION POINT (E.G. BOX, OR UNDERGROUND CHAMBER).',
    EM: 'ELECTRICITY METER POINT (E.G. BOX, OR UNDERGROUND CHAMBER).',
    FC: 'POINT ON THE CENTRE OF THE ADDRESS SITE FRONTAGE.',
    FCS: 'A POINT SET BACK FROM THE CENTRE OF THE ROAD FRONTAGE WITHIN AN ADDRESS SITE.',
    FDA: 'FRONT DOOR OF BUILDING.',
    GCP: 'GAS CONNECTION POINT (E.G. BOX, OR UNDERGROUND CHAMBER).',
    GG: 'POINT PROGRAMMATICALLY ALLOCATED DURING G-NAF PRODUCTION PROPORTIONALLY BETWEEN ADJACENT ADDRESS LOCATIONS (BASED ON NUMBER_FIRST).',
    GM: 'GAS METER POINT (E.G. BOX, OR UNDERGROUND CHAMBER).',
    ICP: 'INTERNET CONNECTION POINT (E.G. BOX, OR UNDERGROUND CHAMBER).',
    LB: 'PLACE WHERE MAIL IS DEPOSITED.',
    LOC: 'POINT REPRESENTING A LOCALITY.',
    PAP: 'ACCESS POINT (CENTRE OF) AT THE ROAD FRONTAGE OF THE PROPERTY.',
    PAPS: 'A POINT SET BACK FROM THE (CENTRE OF THE) ACCESS POINT AT THE ROAD FRONTAGE OF THE PROPERTY.',
    PC: 'POINT OF CENTRE OF PARCELS MAKING UP A PROPERTY AND LYING WITHIN ITS BOUNDARIES.',
    PCM: 'POINT MANUALLY PLACED APPROXIMATELY AT CENTRE OF PARCELS MAKING UP A PROPERTY AND LYING WITHIN ITS BOUNDARIES.',
    SCP: 'SEWERAGE CONNECTION POINT (E.G. BOX, OR UNDERGROUND CHAMBER).',
    STL: 'POINT REPRESENTING THE EXTENT OF A STREET WITHIN A LOCALITY.',
    TCP: 'TELEPHONE CONNECTION POINT (E.G. BOX, OR UNDERGROUND CHAMBER).',
    UC: 'POINT AT CENTRE OF UNIT AND LYING WITHIN ITS BOUNDS.',
    UCM: 'POINT MANUALLY PLACED APPROXIMATELY AT CENTRE OF UNIT AND LYING WITHIN ITS BOUNDS.',
    UNK: 'THE TYPE OF REAL WORLD FEATURE THE POINT REPRESENTS IS NOT KNOWN.',
    WCP: 'WATER CONNECTION POINT (E.G. BOX, OR UNDERGROUND CHAMBER).',
    WM: 'WATER METER POINT (E.G. BOX, OR UNDERGROUND CHAMBER).',
  },
  LOCALITY_CLASS: {
    I: 'LOCATION IDENTIFIED IN THE AUSTRALIAN GOVERNMENT INDIGENOUS PROGRAMS AND POLICY LOCATIONS (AGIL) DATASET',
  },
  STREET_CLASS: {
    C: 'A confirmed street is present in the roads data of the PSMA Transport and Topography product for the same release.',
    U: 'An unconfirmed street is NOT present in the roads data of the PSMA Transport and Topography product for the same release and will not have a street locality geocode.',
  },
};

function rowsOf(authority: AuthorityName, table: Readonly<Record<string, string>>): AuthorityRow[] {
  return Object.entries(table).map(([code, name]) => ({
    authority,
    code,
    name,
    description: DESCRIPTIONS[authority]?.[code] ?? name,
  }));
}

/** Every row of the tables above, as the sandbox writes them into address.authority_code. */
export const AUTHORITY_ROWS: readonly AuthorityRow[] = [
  ...STREET_TYPES.map((row) => ({ authority: 'STREET_TYPE' as const, ...row })),
  ...rowsOf('STREET_SUFFIX', STREET_SUFFIXES),
  ...rowsOf('FLAT_TYPE', FLAT_TYPES),
  ...rowsOf('LEVEL_TYPE', LEVEL_TYPES),
  ...rowsOf('GEOCODE_TYPE', GEOCODE_TYPES),
  ...rowsOf('LOCALITY_CLASS', LOCALITY_CLASSES),
  ...rowsOf('STREET_CLASS', STREET_CLASSES),
];

// Lookups compare letters and digits only, so "St.", "CUL DE SAC", "N.S.W." and "north-east" find their entries.
const keyOf = (word: string): string => word.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');

function lookup<T extends string>(entries: Iterable<readonly [string, T]>): (word: string) => T | null {
  const map = new Map<string, T>();
  for (const [spelling, code] of entries) {
    if (!map.has(keyOf(spelling))) map.set(keyOf(spelling), code);
  }
  return (word) => map.get(keyOf(word)) ?? null;
}

// Codes and names first, so an authority entry always wins over an added spelling.
const codesAndNames = (table: Readonly<Record<string, string>>): [string, string][] => [
  ...Object.keys(table).map((code): [string, string] => [code, code]),
  ...Object.entries(table).map(([code, name]): [string, string] => [name, code]),
];

const streetTypeLookup = lookup([
  ...STREET_TYPES.map((row): [string, string] => [row.code, row.code]),
  ...STREET_TYPES.map((row): [string, string] => [row.name, row.code]),
  ...Object.entries(STREET_TYPE_SPELLINGS),
]);
const abbreviationOfStreetType = new Map(STREET_TYPES.map((row) => [row.code, row.name]));
const streetSuffixLookup = lookup([...codesAndNames(STREET_SUFFIXES), ...Object.entries(STREET_SUFFIX_SPELLINGS)]);
const flatTypeLookup = lookup([...codesAndNames(FLAT_TYPES), ...Object.entries(FLAT_TYPE_SPELLINGS)]);
const levelTypeLookup = lookup([...codesAndNames(LEVEL_TYPES), ...Object.entries(LEVEL_TYPE_SPELLINGS)]);
const stateLookup = lookup(
  STATES.flatMap((state) =>
    [state.abbreviation, state.name, ...state.abbreviations, ...state.spellings].map(
      (spelling): [string, StateCode] => [spelling, state.abbreviation],
    ),
  ),
);
const spelledOutStates = new Set(STATES.flatMap((state) => [state.name, ...state.spellings].map(keyOf)));

/** The STREET_TYPE_AUT code for a code ("ROAD"), an abbreviation ("RD") or a common spelling ("AVE"); else null. */
export const streetTypeCode = (word: string): string | null => streetTypeLookup(word);

/** G-NAF's abbreviation of a street type code ("ROAD" gives "RD"), or null for an unknown code. */
export const streetTypeAbbreviation = (code: string): string | null =>
  abbreviationOfStreetType.get(code.trim().toUpperCase()) ?? null;

/** The STREET_SUFFIX_AUT code for "W", "WEST", "NTH", "north east"...; else null. */
export const streetSuffixCode = (word: string): string | null => streetSuffixLookup(word);

/** The FLAT_TYPE_AUT code for "UNIT", "U", "APARTMENT", "APT", "SUITE"...; else null. */
export const flatTypeCode = (word: string): string | null => flatTypeLookup(word);

/** The LEVEL_TYPE_AUT code for "LEVEL", "L", "LVL", "GROUND FLOOR"...; else null. */
export const levelTypeCode = (word: string): string | null => levelTypeLookup(word);

/** The state's abbreviation for "VIC", "Vic.", "Victoria", "N.S.W.", "new south wales"...; else null. */
export const stateAbbreviation = (word: string): StateCode | null => stateLookup(word);

/** Whether the words are a state written out in full ("VICTORIA") rather than abbreviated ("VIC"). */
export const isSpelledOutState = (words: string): boolean => spelledOutStates.has(keyOf(words));
