import { beforeAll, describe, expect, it } from 'vitest';
import { SUBURB_METRIC_NAMES, suburbKey } from '../core/suburb-metrics.ts';
import { CENSUS_CHARACTERS } from '../prisma/sandbox/census.ts';
import { SUBURBS } from '../prisma/sandbox/suburbs.ts';
import { demographicsSuburbMetrics } from '../subgraphs/demographics/suburb-metrics.ts';
import type { TestRuntime } from './support/runtime.ts';
import { testRuntime } from './support/runtime.ts';

describe('demographics suburb metrics (the suburb rollup contract)', () => {
  let t: TestRuntime;

  beforeAll(async () => {
    t = await testRuntime();
  });

  it('gives every sandbox suburb of a state, keyed without the ABS suffix, with the contract names', async () => {
    const vic = await demographicsSuburbMetrics.contribute(t.runtime.db, 'sandbox', 'VIC');
    const expected = SUBURBS.filter((s) => s.state === 'VIC').map((s) => suburbKey(s.name));
    expect([...vic.keys()].sort()).toEqual(expected.sort());
    // "Huntly (Vic.)" is asked for as HUNTLY
    const huntly = vic.get('HUNTLY')!;
    const [row] = await t.runtime.db.query<{ population: number; median_age: number; income: number }>(
      `SELECT p.population, p.median_age, p.median_household_income_weekly AS income
       FROM census.profile p JOIN census.boundary b USING (dataset, geography, code)
       WHERE p.dataset = 'sandbox' AND p.geography = 'SAL' AND b.name = $1`,
      [CENSUS_CHARACTERS.huntly!.salName],
    );
    expect(huntly.metrics).toMatchObject({
      [SUBURB_METRIC_NAMES.population]: row!.population,
      [SUBURB_METRIC_NAMES.medianAge]: row!.median_age,
      [SUBURB_METRIC_NAMES.medianHouseholdIncomeWeekly]: row!.income,
    });
    expect(huntly.metrics.owner_occupied_pct).toBeGreaterThan(50);
    expect(huntly.section).toMatchObject({ census_year: 2021, sal: { geography: 'SAL', state: 'VIC' } });
    // the contract's metric values are numbers or null, never undefined
    for (const value of Object.values(huntly.metrics)) expect(value === null || typeof value === 'number').toBe(true);
  });

  it('credits the loaded Census per state, and nothing where none is loaded', async () => {
    const [credit] = await demographicsSuburbMetrics.credits(t.runtime.db, 'sandbox', 'QLD');
    expect(credit).toMatchObject({ license: 'CC BY 4.0', source: expect.stringMatching(/^mirror:qld\/demographics@/) });
    expect(await demographicsSuburbMetrics.credits(t.runtime.db, 'no_such_dataset', 'QLD')).toEqual([]);
    expect((await demographicsSuburbMetrics.contribute(t.runtime.db, 'no_such_dataset', 'NSW')).size).toBe(0);
  });

  it('lets the most populous of two SALs of one name speak for it, listing the other', async () => {
    const db = t.runtime.db;
    const side = 'census_metrics_test';
    await db.exec(
      `DELETE FROM census.boundary WHERE dataset = '${side}'; DELETE FROM census.profile WHERE dataset = '${side}';`,
    );
    const square = (x: number) => `ST_Multi(ST_MakeEnvelope(${x}, -33.9, ${x + 0.01}, -33.89, 4326))`;
    await db.exec(`
      INSERT INTO census.boundary (dataset, geography, code, name, name_key, state, area_km2, geom) VALUES
        ('${side}', 'SAL', '10124', 'Back Creek (Bland - NSW)', 'BACK CREEK', 'NSW', 449.8, ${square(147)}),
        ('${side}', 'SAL', '10125', 'Back Creek (Gwydir - NSW)', 'BACK CREEK', 'NSW', 119.9, ${square(148)});
      INSERT INTO census.profile (dataset, geography, code, state, population, median_age, tables) VALUES
        ('${side}', 'SAL', '10124', 'NSW', 40, 50, '{G01,G02}'),
        ('${side}', 'SAL', '10125', 'NSW', 90, 44, '{G01,G02}');`);
    try {
      const nsw = await demographicsSuburbMetrics.contribute(db, side, 'NSW');
      expect([...nsw.keys()]).toEqual(['BACK CREEK']);
      const back = nsw.get('BACK CREEK')!;
      expect(back.metrics).toMatchObject({ population: 90, median_age: 44, median_household_income_weekly: null });
      expect(
        (back.section as { others_of_the_name: { code: string }[] }).others_of_the_name.map((o) => o.code),
      ).toEqual(['10124']);
    } finally {
      await db.exec(
        `DELETE FROM census.boundary WHERE dataset = '${side}'; DELETE FROM census.profile WHERE dataset = '${side}';`,
      );
    }
  });
});
