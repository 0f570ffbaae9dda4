/**
 * The Census figures of one area as the graph serves them, built from a census.profile row:
 * the G01 age groups in age order, tenure shares over the dwellings whose tenure was stated,
 * and the density over the boundary's area. Pure: the suburb rollup reads the same figures.
 */
import type { ProfileRow } from './sql.ts';

/** G01's age groups, youngest first: the key the ingest writes, and the ages it spans. */
export const AGE_BANDS: ReadonlyArray<{ band: string; from_age: number; to_age: number | null }> = [
  { band: '0_4', from_age: 0, to_age: 4 },
  { band: '5_14', from_age: 5, to_age: 14 },
  { band: '15_19', from_age: 15, to_age: 19 },
  { band: '20_24', from_age: 20, to_age: 24 },
  { band: '25_34', from_age: 25, to_age: 34 },
  { band: '35_44', from_age: 35, to_age: 44 },
  { band: '45_54', from_age: 45, to_age: 54 },
  { band: '55_64', from_age: 55, to_age: 64 },
  { band: '65_74', from_age: 65, to_age: 74 },
  { band: '75_84', from_age: 75, to_age: 84 },
  { band: '85_over', from_age: 85, to_age: null },
];

export type AgeBandModel = { band: string; from_age: number; to_age: number | null; persons: number };
type Counts = Record<string, number | null>;

export type ProfileModel = Omit<ProfileRow, 'age_groups' | 'tenure' | 'geography'> & {
  geography: 'SAL' | 'SA1';
  density_per_km2: number | null;
  age_groups: AgeBandModel[] | null;
  tenure: (Counts & { owner_occupied_pct: number | null; rented_pct: number | null }) | null;
};

const round1 = (value: number) => Math.round(value * 10) / 10;

/** A share in percent of the stated total, one decimal; null where nothing was stated. */
function share(part: number | null | undefined, of: number): number | null {
  if (part === null || part === undefined || of <= 0) return null;
  return round1((100 * part) / of);
}

export function tenureShares(tenure: Counts): { owner_occupied_pct: number | null; rented_pct: number | null } {
  const value = (key: string) => tenure[key] ?? 0;
  const stated = value('owned_outright') + value('owned_with_mortgage') + value('rented') + value('other');
  if (tenure.owned_outright == null && tenure.owned_with_mortgage == null) {
    return { owner_occupied_pct: null, rented_pct: share(tenure.rented, stated) };
  }
  return {
    owner_occupied_pct: share(value('owned_outright') + value('owned_with_mortgage'), stated),
    rented_pct: share(tenure.rented, stated),
  };
}

export function toProfile(row: ProfileRow): ProfileModel {
  const ages = row.age_groups;
  return {
    ...row,
    density_per_km2:
      row.population !== null && row.area_km2 !== null && row.area_km2 > 0
        ? round1(row.population / row.area_km2)
        : null,
    age_groups: ages
      ? AGE_BANDS.flatMap((b) => (typeof ages[b.band] === 'number' ? [{ ...b, persons: ages[b.band]! }] : []))
      : null,
    tenure: row.tenure ? { ...row.tenure, ...tenureShares(row.tenure) } : null,
    tables: row.tables ?? [],
  };
}

/** ABS SAL names carry a suffix where a name repeats ("Richmond (Vic.)", "Back Creek (Bland - NSW)"). */
export function withoutAbsSuffix(name: string): string {
  return name.replace(/\s*\([^()]*\)\s*$/, '').trim();
}
