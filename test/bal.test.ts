import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors.ts';
import {
  estimateBal,
  fdiForState,
  hasTable21Fdi,
  type BalInput,
  type BalRating,
  type SlopeDirection,
  type VegetationClass,
} from '../subgraphs/hazards/bal.ts';
import { BAL_TABLES } from '../subgraphs/hazards/bal-tables.ts';

const input = (over: Partial<BalInput>): BalInput => ({
  vegetation: 'forest',
  distance_m: 50,
  effective_slope_deg: 0,
  slope_direction: 'flat',
  fdi: 100,
  ...over,
});

const rate = (over: Partial<BalInput>): BalRating => estimateBal(input(over)).rating;

// The step-down distances of AS 3959-2009 Table 2.4.2 (FDI 100), written out here from the
// published table rather than read from the code's copy, so a slip in either shows.
const FDI_100_ROWS: [VegetationClass, SlopeDirection, number, [number, number, number, number]][] = [
  ['forest', 'flat', 0, [19, 25, 35, 48]],
  ['woodland', 'flat', 0, [12, 16, 24, 33]],
  ['grassland', 'flat', 0, [6, 9, 13, 19]],
  ['forest', 'downslope', 3, [24, 32, 43, 57]],
  ['woodland', 'downslope', 3, [15, 21, 29, 41]],
  ['grassland', 'downslope', 3, [7, 10, 15, 22]],
  ['forest', 'downslope', 18, [50, 61, 78, 98]],
];

describe('BAL by AS 3959 Method 1: every band edge at FDI 100', () => {
  describe.each(FDI_100_ROWS)('%s, %s %f°', (vegetation, slope_direction, effective_slope_deg, [fz, b40, b29, b19]) => {
    const at = (distance_m: number) => rate({ vegetation, slope_direction, effective_slope_deg, distance_m });

    it.each([
      [0, 'BAL-FZ'],
      [fz - 0.5, 'BAL-FZ'],
      [fz, 'BAL-40'],
      [b40 - 0.5, 'BAL-40'],
      [b40, 'BAL-29'],
      [b29 - 0.5, 'BAL-29'],
      [b29, 'BAL-19'],
      [b19 - 0.5, 'BAL-19'],
      [b19, 'BAL-12.5'],
      [99.9, 'BAL-12.5'],
      [100, 'BAL-LOW'],
      [250, 'BAL-LOW'],
    ])('rates %f m as %s (a band holds its lower edge)', (distance, expected) => {
      expect(at(distance)).toBe(expected);
    });
  });

  it('reports the table, FDI, slope band, distance band and inputs it used', () => {
    const estimate = estimateBal(
      input({ vegetation: 'woodland', distance_m: 20, slope_direction: 'downslope', effective_slope_deg: 4 }),
    );
    expect(estimate).toEqual({
      rating: 'BAL-40',
      method: 'AS 3959-2018 Method 1 (simplified procedure)',
      table: 'AS 3959 Table 2.4.2 (FDI 100)',
      fdi: 100,
      inputs: {
        vegetation: 'woodland',
        distance_m: 20,
        effective_slope_deg: 4,
        slope_direction: 'downslope',
        fdi: 100,
      },
      slope_band: 'downslope >0° to 5°',
      distance_band_m: [15, 21],
      indicative: true,
      note: expect.stringContaining('2018 edition keeps them is not confirmed') as unknown,
    });
  });

  it('gives the 12.5 band up to 100 m and the open band beyond', () => {
    expect(estimateBal(input({ distance_m: 60 })).distance_band_m).toEqual([48, 100]);
    expect(estimateBal(input({ distance_m: 10 })).distance_band_m).toEqual([0, 19]);
    expect(estimateBal(input({ distance_m: 100 })).distance_band_m).toEqual([100, null]);
  });
});

describe('BAL tables hold together', () => {
  const tables = Object.entries(BAL_TABLES);

  it('has rows whose distances rise strictly and stay inside 100 m', () => {
    for (const [fdi, table] of tables) {
      for (const [band, rows] of Object.entries(table)) {
        for (const [vegetation, row] of Object.entries(rows)) {
          const where = `FDI ${fdi} ${band} ${vegetation}`;
          expect(
            row.every((limit, i) => i === 0 || limit > row[i - 1]!),
            where,
          ).toBe(true);
          expect(row[3], where).toBeLessThan(100);
        }
      }
    }
  });

  it('never asks for less distance on a steeper downslope', () => {
    const order = ['flat', 'down_0_5', 'down_5_10', 'down_10_15', 'down_15_20'] as const;
    for (const [fdi, table] of tables) {
      for (let i = 1; i < order.length; i += 1) {
        for (const [vegetation, row] of Object.entries(table[order[i]!])) {
          const flatter = table[order[i - 1]!][vegetation as VegetationClass];
          expect(
            row.every((limit, j) => limit >= flatter[j]!),
            `FDI ${fdi} ${vegetation} ${order[i]}`,
          ).toBe(true);
        }
      }
    }
  });
});

describe('BAL slope bands', () => {
  it('treats every upslope as flat land', () => {
    const upslope = estimateBal(input({ distance_m: 20, slope_direction: 'upslope', effective_slope_deg: 15 }));
    expect(upslope.rating).toBe('BAL-40');
    expect(upslope.slope_band).toBe('all upslopes and flat land (0°)');
  });

  it('treats a 0° downslope as flat land', () => {
    expect(estimateBal(input({ slope_direction: 'downslope', effective_slope_deg: 0 })).slope_band).toBe(
      'all upslopes and flat land (0°)',
    );
  });

  it('closes each downslope band above: 5° is in >0-5°, just over 5° in >5-10°', () => {
    // forest at 30 m: BAL-40 on a >0-5° downslope (24-<32), BAL-FZ on >5-10° (<31)
    expect(estimateBal(input({ distance_m: 30, slope_direction: 'downslope', effective_slope_deg: 5 }))).toMatchObject({
      rating: 'BAL-40',
      slope_band: 'downslope >0° to 5°',
    });
    expect(
      estimateBal(input({ distance_m: 30, slope_direction: 'downslope', effective_slope_deg: 5.01 })),
    ).toMatchObject({ rating: 'BAL-FZ', slope_band: 'downslope >5° to 10°' });
    expect(estimateBal(input({ slope_direction: 'downslope', effective_slope_deg: 20 })).slope_band).toBe(
      'downslope >15° to 20°',
    );
  });

  it('rates a downslope over 20° BAL-FZ within 100 m and says Method 1 does not apply', () => {
    const steep = estimateBal(input({ distance_m: 90, slope_direction: 'downslope', effective_slope_deg: 25 }));
    expect(steep.rating).toBe('BAL-FZ');
    expect(steep.slope_band).toBe('downslope >20° (outside Method 1)');
    expect(steep.note).toContain('outside AS 3959 Method 1');
    expect(steep.note).toContain('Method 2');
    expect(rate({ distance_m: 100, slope_direction: 'downslope', effective_slope_deg: 25 })).toBe('BAL-LOW');
  });
});

describe('BAL tables by FDI', () => {
  it.each([
    [100, 'AS 3959 Table 2.4.2 (FDI 100)', 'BAL-FZ'],
    [80, 'AS 3959 Table 2.4.3 (FDI 80)', 'BAL-40'],
    [50, 'AS 3959 Table 2.4.4 (FDI 50)', 'BAL-29'],
    [40, 'AS 3959 Table 2.4.5 (FDI 40)', 'BAL-29'],
  ] as const)('uses the FDI %i table: forest 17 m on flat land is %s %s', (fdi, table, rating) => {
    expect(estimateBal(input({ fdi, distance_m: 17 }))).toMatchObject({ fdi, table, rating });
  });

  it('reads the other vegetation classes from their own rows', () => {
    // FDI 100 flat: shrubland 13-<19 is BAL-19, scrub 13-<19 BAL-29, mallee/mulga 17-<100 BAL-12.5, rainforest 16-<23 BAL-19
    expect(rate({ vegetation: 'shrubland', distance_m: 15 })).toBe('BAL-19');
    expect(rate({ vegetation: 'scrub', distance_m: 15 })).toBe('BAL-29');
    expect(rate({ vegetation: 'mallee_mulga', distance_m: 17 })).toBe('BAL-12.5');
    expect(rate({ vegetation: 'rainforest', distance_m: 16 })).toBe('BAL-19');
  });
});

describe('BAL without classified vegetation', () => {
  it('is BAL-LOW with a note when no vegetation was found', () => {
    const none = estimateBal(input({ vegetation: null, distance_m: null }));
    expect(none).toMatchObject({ rating: 'BAL-LOW', distance_band_m: [100, null], indicative: true });
    expect(none.note).toContain('No classified vegetation was found within 100 m');
  });
});

describe('BAL input validation', () => {
  const refusal = (over: Partial<BalInput>): AppError => {
    try {
      estimateBal(input(over));
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  };

  it('refuses a negative distance with a clear BAD_REQUEST', () => {
    const error = refusal({ distance_m: -1 });
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      'The distance to the classified vegetation must be a number of metres, 0 or more; got -1.',
    );
  });

  it.each([
    ['a distance that is not a number', { distance_m: Number.NaN }, 'must be a number of metres'],
    ['a vegetation class without a distance', { distance_m: null }, 'go together'],
    ['a distance without a vegetation class', { vegetation: null }, 'go together'],
    ['an unknown vegetation class', { vegetation: 'heath' as VegetationClass }, 'Unknown vegetation class "heath"'],
    ['a slope over 90°', { effective_slope_deg: 91 }, 'between 0 and 90 degrees; got 91'],
    ['a negative slope', { effective_slope_deg: -3 }, 'between 0 and 90 degrees; got -3'],
    ['an unknown slope direction', { slope_direction: 'sideways' as SlopeDirection }, 'Unknown slope direction'],
    ['an FDI with no table', { fdi: 70 as BalInput['fdi'] }, 'no table for FDI 70'],
  ])('refuses %s', (_what, over, message) => {
    const error = refusal(over);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toContain(message);
    expect(error.hint).toBeTruthy();
  });
});

describe('FDI by state (AS 3959 Table 2.1)', () => {
  it.each([
    ['ACT', 100],
    ['VIC', 100],
    ['NSW', 100],
    ['QLD', 40],
    ['NT', 40],
    ['SA', 80],
    ['WA', 80],
    ['TAS', 50],
  ] as const)('gives %s FDI %i', (state, fdi) => {
    expect(fdiForState(state)).toBe(fdi);
  });

  it('gives the alpine areas of VIC and NSW FDI 50, and the ACT 100 throughout', () => {
    expect(fdiForState('VIC', true)).toBe(50);
    expect(fdiForState('NSW', true)).toBe(50);
    expect(fdiForState('ACT', true)).toBe(100);
  });

  it('gives NSW 100 in the named fire weather areas, 80 elsewhere, and 100 when the area is unknown', () => {
    expect(fdiForState('NSW', false, 'Greater Sydney')).toBe(100);
    expect(fdiForState('NSW', false, 'Far South Coast')).toBe(100);
    expect(fdiForState('NSW', false, 'New England')).toBe(80);
    expect(fdiForState('NSW')).toBe(100);
  });

  it('knows Table 2.1 has no FDI for the other territories', () => {
    expect(hasTable21Fdi('OT')).toBe(false);
    expect(hasTable21Fdi('QLD')).toBe(true);
  });
});
