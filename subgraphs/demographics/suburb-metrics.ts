/**
 * The demographics part of the suburb analytics bundle (spec 2.10; contract in
 * core/suburb-metrics.ts): every SAL of a state with its Census 2021 figures, keyed by its name
 * as suburbKey writes it with the ABS's suffix dropped ("Richmond (Vic.)" is RICHMOND). Where two
 * SALs of a state share a name once the suffix is gone ("Back Creek (Bland - NSW)", "Back Creek
 * (Gwydir - NSW)"), the most populous speaks for the name and the section lists the others.
 */
import type { Database } from '../../core/db.ts';
import type {
  SuburbContribution,
  SuburbCredit,
  SuburbMetricsProvider,
  SuburbState,
} from '../../core/suburb-metrics.ts';
import { SUBURB_METRIC_NAMES } from '../../core/suburb-metrics.ts';
import { DEMOGRAPHICS_LAYER } from './data.ts';
import type { ProfileModel } from './profile.ts';
import { toProfile } from './profile.ts';
import type { ProfileRow } from './sql.ts';
import { STATE_SUBURB_PROFILES } from './sql.ts';

/** The screenable figures of one SAL; null where the Census gives none (never a made-up 0). */
export function demographicMetrics(profile: ProfileModel): Record<string, number | null> {
  const ages = profile.age_groups ?? [];
  const persons = (from: number) => ages.filter((b) => b.from_age >= from).reduce((s, b) => s + b.persons, 0);
  const share = (part: number) =>
    profile.population && ages.length > 0 ? Math.round((1000 * part) / profile.population) / 10 : null;
  return {
    [SUBURB_METRIC_NAMES.population]: profile.population,
    [SUBURB_METRIC_NAMES.medianAge]: profile.median_age,
    [SUBURB_METRIC_NAMES.medianHouseholdIncomeWeekly]: profile.median_household_income_weekly,
    median_personal_income_weekly: profile.median_personal_income_weekly,
    median_rent_weekly_census: profile.median_rent_weekly,
    median_mortgage_monthly: profile.median_mortgage_monthly,
    average_household_size: profile.average_household_size,
    population_density_per_km2: profile.density_per_km2,
    owner_occupied_pct: profile.tenure?.owner_occupied_pct ?? null,
    renter_pct: profile.tenure?.rented_pct ?? null,
    aged_65_plus_pct: share(persons(65)),
  };
}

export const demographicsSuburbMetrics: SuburbMetricsProvider = {
  section: 'demographics',

  async credits(db: Database, dataset: string, state: SuburbState): Promise<SuburbCredit[]> {
    const rows = await db.query<{ attribution: string; license: string; snapshot_id: string }>(
      `SELECT attribution, license, snapshot_id FROM public.dataset_source WHERE dataset = $1 AND layer = $2 AND state = $3`,
      [dataset, DEMOGRAPHICS_LAYER, state],
    );
    return rows.map((r) => ({
      source: `mirror:${state.toLowerCase()}/${DEMOGRAPHICS_LAYER}@${r.snapshot_id}`,
      attribution: r.attribution,
      license: r.license,
    }));
  },

  async contribute(db: Database, dataset: string, state: SuburbState): Promise<Map<string, SuburbContribution>> {
    const rows = await db.query<{ profile: ProfileRow; name_key: string }>(STATE_SUBURB_PROFILES, [dataset, state]);
    const out = new Map<string, SuburbContribution>();
    const others = new Map<string, ProfileModel[]>();
    // rows come most populous first within a name: the first speaks for it
    for (const { profile: row, name_key } of rows) {
      const profile = toProfile(row);
      const taken = out.get(name_key);
      if (taken) {
        others.set(name_key, [...(others.get(name_key) ?? []), profile]);
        continue;
      }
      out.set(name_key, {
        metrics: demographicMetrics(profile),
        section: { census_year: 2021, sal: profile, others_of_the_name: [] as ProfileModel[] },
      });
    }
    for (const [key, list] of others) {
      const section = out.get(key)!.section as { others_of_the_name: ProfileModel[] };
      section.others_of_the_name = list;
    }
    return out;
  },
};
