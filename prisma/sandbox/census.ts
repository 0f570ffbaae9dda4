/**
 * Synthetic Census 2021 demographics for the sandbox suburbs, labelled demo data in the layout
 * of the ABS General Community Profile: each suburb is one SAL (Suburbs and Localities) whose
 * boundary is its generated area, cut across its street grid into four SA1s. Each SA1's figures
 * are drawn from a character per suburb (an outer-growth estate, an old goldfield town, a CBD of
 * flats, ...) varied per SA1 from its own seeded stream; the SAL's counts are the sum of its
 * SA1s' and its medians their population-weighted mean, as near as a demo needs. Populations
 * follow the parcels the suburb was generated with.
 */
import type { Frame } from './geometry.ts';
import { rectRing } from './geometry.ts';
import type { Grid } from './grid.ts';
import { suburbKey } from '../../core/suburb-metrics.ts';
import { withoutAbsSuffix } from '../../subgraphs/demographics/profile.ts';
import { coverageRing } from './planning.ts';
import { Rng } from './random.ts';
import type { CensusBoundaryRow, CensusProfileRow } from './rows.ts';
import type { SandboxState, SuburbSpec } from './suburbs.ts';

/** SA1s per sandbox suburb: strips across the grid, low u edge first. */
export const SA1_PER_SUBURB = 4;

/** What a suburb's people and homes are like: the figures an SA1 of it is drawn around. */
export interface CensusCharacter {
  /** The SAL's name as the ABS writes it (a state suffix where the name repeats elsewhere). */
  readonly salName: string;
  readonly medianAge: number;
  readonly householdIncome: number;
  readonly rentWeekly: number;
  readonly mortgageMonthly: number;
  readonly householdSize: number;
  /** Shares of occupied private dwellings: owned outright, with a mortgage, rented (the rest other or not stated). */
  readonly tenure: readonly [number, number, number];
  /** Shares of occupied private dwellings: separate house, semi-detached or townhouse, flat (the rest other). */
  readonly structure: readonly [number, number, number];
  /** Shares of households: family, lone person (the rest group). */
  readonly households: readonly [number, number];
  /** Shares of families: couple with children, couple without, one parent (the rest other). */
  readonly families: readonly [number, number, number];
}

export const CENSUS_CHARACTERS: Readonly<Record<string, CensusCharacter>> = {
  // Bendigo's northern growth front: young families buying separate houses
  huntly: {
    salName: 'Huntly (Vic.)',
    medianAge: 34,
    householdIncome: 1690,
    rentWeekly: 340,
    mortgageMonthly: 1600,
    householdSize: 2.8,
    tenure: [0.24, 0.5, 0.23],
    structure: [0.95, 0.03, 0.01],
    households: [0.78, 0.19],
    families: [0.5, 0.33, 0.15],
  },
  // an older goldfield town: retirees, owned outright
  'kangaroo-flat': {
    salName: 'Kangaroo Flat',
    medianAge: 42,
    householdIncome: 1190,
    rentWeekly: 300,
    mortgageMonthly: 1300,
    householdSize: 2.3,
    tenure: [0.38, 0.32, 0.27],
    structure: [0.84, 0.12, 0.02],
    households: [0.64, 0.32],
    families: [0.36, 0.44, 0.18],
  },
  // a second CBD of apartment towers: young renters, many born overseas
  parramatta: {
    salName: 'Parramatta',
    medianAge: 32,
    householdIncome: 1680,
    rentWeekly: 480,
    mortgageMonthly: 2200,
    householdSize: 2.4,
    tenure: [0.13, 0.2, 0.63],
    structure: [0.08, 0.07, 0.84],
    households: [0.66, 0.26],
    families: [0.47, 0.38, 0.12],
  },
  // the Hills: established families in large houses
  'castle-hill': {
    salName: 'Castle Hill (NSW)',
    medianAge: 41,
    householdIncome: 2450,
    rentWeekly: 560,
    mortgageMonthly: 2600,
    householdSize: 2.9,
    tenure: [0.39, 0.36, 0.22],
    structure: [0.7, 0.14, 0.15],
    households: [0.81, 0.16],
    families: [0.5, 0.35, 0.12],
  },
  // a middle-ring Brisbane centre: units around the shopping centre, houses beyond
  chermside: {
    salName: 'Chermside',
    medianAge: 37,
    householdIncome: 1480,
    rentWeekly: 400,
    mortgageMonthly: 1950,
    householdSize: 2.2,
    tenure: [0.25, 0.27, 0.45],
    structure: [0.45, 0.18, 0.36],
    households: [0.6, 0.33],
    families: [0.38, 0.42, 0.17],
  },
  // a master-planned estate: mortgages and young children
  'north-lakes': {
    salName: 'North Lakes',
    medianAge: 32,
    householdIncome: 2080,
    rentWeekly: 450,
    mortgageMonthly: 2000,
    householdSize: 2.9,
    tenure: [0.14, 0.46, 0.38],
    structure: [0.86, 0.12, 0.01],
    households: [0.82, 0.15],
    families: [0.55, 0.27, 0.16],
  },
};

/** The ABS state digit that opens a SAL or SA1 code. */
const STATE_DIGIT: Record<SandboxState, string> = { NSW: '1', VIC: '2', QLD: '3' };

/** G01's age groups, youngest first, and the share of persons in each for a young and an old area. */
const AGE_BANDS = ['0_4', '5_14', '15_19', '20_24', '25_34', '35_44', '45_54', '55_64', '65_74', '75_84', '85_over'];
const YOUNG = [0.09, 0.15, 0.06, 0.07, 0.19, 0.16, 0.11, 0.08, 0.05, 0.03, 0.01];
const OLD = [0.05, 0.11, 0.06, 0.05, 0.1, 0.11, 0.13, 0.14, 0.13, 0.08, 0.04];

/** Splits `total` by shares summing to 1 or less; the remainder goes to the last part. */
function split(total: number, shares: readonly number[]): number[] {
  const parts = shares.map((s) => Math.round(total * s));
  const used = parts.reduce((a, b) => a + b, 0);
  return [...parts, Math.max(0, total - used)];
}

const round = (value: number, step: number) => Math.round(value / step) * step;

/** One SA1's figures around the suburb's character, varied from its own stream. */
function sa1Profile(
  c: CensusCharacter,
  persons: number,
  rng: Rng,
): Omit<CensusProfileRow, 'geography' | 'code' | 'state'> {
  const vary = (value: number, spread: number) => value * (1 + rng.range(-spread, spread));
  const medianAge = Math.round(vary(c.medianAge, 0.08));
  const t = Math.min(1, Math.max(0, (medianAge - 30) / 14));
  const ages = split(
    persons,
    YOUNG.slice(0, -1).map((y, i) => y + (OLD[i]! - y) * t),
  );
  const householdSize = Math.round(vary(c.householdSize, 0.06) * 10) / 10;
  const households = Math.max(1, Math.round(persons / householdSize));
  const [family, lone, group] = split(households, c.households);
  const [withChildren, noChildren, oneParent, otherFamily] = split(family!, c.families);
  const [outright, mortgage, rented, rest] = split(households, c.tenure);
  const otherTenure = Math.round(rest! * 0.4);
  const [house, semi, flat, otherDwelling] = split(households, c.structure);
  const unoccupied = Math.round(households * vary(0.07, 0.3));
  const males = Math.round(persons * vary(0.49, 0.02));
  return {
    population: persons,
    males,
    females: persons - males,
    age_groups: Object.fromEntries(AGE_BANDS.map((band, i) => [band, ages[i]!])),
    median_age: medianAge,
    median_personal_income_weekly: round(vary(c.householdIncome / 2.1, 0.1), 1),
    median_family_income_weekly: round(vary(c.householdIncome * 1.22, 0.1), 1),
    median_household_income_weekly: round(vary(c.householdIncome, 0.12), 1),
    median_rent_weekly: round(vary(c.rentWeekly, 0.1), 5),
    median_mortgage_monthly: round(vary(c.mortgageMonthly, 0.1), 1),
    average_household_size: householdSize,
    average_persons_per_bedroom: Math.round(vary(0.8, 0.1) * 10) / 10,
    families: {
      couple_with_children: withChildren!,
      couple_no_children: noChildren!,
      one_parent: oneParent!,
      other: otherFamily!,
      total: family!,
    },
    households: { family: family!, lone_person: lone!, group: group!, total: households },
    dwellings: {
      separate_house: house!,
      semi_detached: semi!,
      flat_apartment: flat!,
      other: otherDwelling!,
      not_stated: 0,
      occupied: households,
      unoccupied,
      total: households + unoccupied,
    },
    tenure: {
      owned_outright: outright!,
      owned_with_mortgage: mortgage!,
      rented: rented!,
      other: otherTenure,
      not_stated: rest! - otherTenure,
      total: households,
    },
    tables: ['G01', 'G02', 'G29', 'G35', 'G36', 'G37'],
  };
}

type Counts = Record<string, number>;

/** The SAL's figures from its SA1s': counts summed, medians weighted by population. */
function salProfile(parts: readonly Omit<CensusProfileRow, 'geography' | 'code' | 'state'>[]) {
  const population = parts.reduce((sum, p) => sum + p.population, 0);
  const sum = (pick: (p: (typeof parts)[number]) => Counts): Counts => {
    const out: Counts = {};
    for (const p of parts) for (const [k, v] of Object.entries(pick(p))) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const weighted = (pick: (p: (typeof parts)[number]) => number, step: number) =>
    round(parts.reduce((s, p) => s + pick(p) * p.population, 0) / population, step);
  const households = sum((p) => p.households);
  return {
    population,
    males: parts.reduce((s, p) => s + p.males, 0),
    females: parts.reduce((s, p) => s + p.females, 0),
    age_groups: sum((p) => p.age_groups),
    median_age: weighted((p) => p.median_age, 1),
    median_personal_income_weekly: weighted((p) => p.median_personal_income_weekly, 1),
    median_family_income_weekly: weighted((p) => p.median_family_income_weekly, 1),
    median_household_income_weekly: weighted((p) => p.median_household_income_weekly, 1),
    median_rent_weekly: weighted((p) => p.median_rent_weekly, 5),
    median_mortgage_monthly: weighted((p) => p.median_mortgage_monthly, 1),
    average_household_size: Math.round((population / households.total!) * 10) / 10,
    average_persons_per_bedroom: weighted((p) => p.average_persons_per_bedroom, 0.1),
    families: sum((p) => p.families),
    households,
    dwellings: sum((p) => p.dwellings),
    tenure: sum((p) => p.tenure),
    tables: parts[0]!.tables,
  };
}

/** The suburb's SAL and SA1 boundaries and figures; `index` numbers it within its state's codes. */
export function censusRows(
  seed: number,
  spec: SuburbSpec,
  grid: Grid,
  frame: Frame,
  parcels: number,
  index: number,
): { boundaries: CensusBoundaryRow[]; profiles: CensusProfileRow[] } {
  const character = CENSUS_CHARACTERS[spec.key];
  if (!character) return { boundaries: [], profiles: [] };
  const digit = STATE_DIGIT[spec.state];
  const salCode = `${digit}${String(9000 + index).padStart(4, '0')}`;
  const sal = frame.polygon(coverageRing(grid));
  const nameKey = suburbKey(withoutAbsSuffix(character.salName));
  const boundaries: CensusBoundaryRow[] = [
    {
      geography: 'SAL',
      code: salCode,
      name: character.salName,
      name_key: nameKey,
      state: spec.state,
      area_km2: sal.areaM2 / 1e6,
      wkt: sal.wkt,
    },
  ];
  const { uMin, uMax, vMin, vMax } = grid.bounds;
  const width = (uMax - uMin) / SA1_PER_SUBURB;
  // about 0.93 of the lots hold an occupied dwelling on census night
  const persons = Math.round(parcels * 0.93 * character.householdSize);
  const sa1 = [];
  for (let i = 0; i < SA1_PER_SUBURB; i++) {
    const u0 = uMin + i * width;
    const u1 = i === SA1_PER_SUBURB - 1 ? uMax : u0 + width;
    const polygon = frame.polygon(rectRing(u0, u1, vMin, vMax, grid.crossCentres, grid.crossCentres));
    const code = `${digit}9${String(index).padStart(2, '0')}0000${String(i + 1).padStart(3, '0')}`;
    boundaries.push({
      geography: 'SA1',
      code,
      // an SA1 has no name of its own: it takes its SA2's, here the suburb's
      name: character.salName,
      name_key: nameKey,
      state: spec.state,
      area_km2: polygon.areaM2 / 1e6,
      wkt: polygon.wkt,
    });
    const rng = Rng.for(seed, spec.key, 'census', i);
    const share = rng.range(0.18, 0.32);
    sa1.push({ code, figures: sa1Profile(character, Math.max(50, Math.round(persons * share)), rng) });
  }
  const profiles: CensusProfileRow[] = sa1.map((s) => ({
    geography: 'SA1' as const,
    code: s.code,
    state: spec.state,
    ...s.figures,
  }));
  profiles.push({ geography: 'SAL', code: salCode, state: spec.state, ...salProfile(sa1.map((s) => s.figures)) });
  return { boundaries, profiles };
}
