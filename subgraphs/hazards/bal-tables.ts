/**
 * AS 3959 Method 1 distance tables: for each FDI, slope band and vegetation class, the four
 * distances (metres) at which the bushfire attack level steps down. A site closer than
 * `[0]` is BAL-FZ, closer than `[1]` BAL-40, closer than `[2]` BAL-29, closer than `[3]` BAL-19,
 * closer than METHOD_1_REACH_M BAL-12.5, and BAL-LOW from there on ("19-<25" in the standard's
 * notation: the lower edge belongs to the lower rating).
 *
 * SOURCE: AS 3959-2009 Tables 2.4.2 (FDI 100), 2.4.3 (FDI 80), 2.4.4 (FDI 50) and 2.4.5 (FDI 40),
 * as transcribed in Geoscience Australia's Bushfire Attack Level toolbox
 * (github.com/GeoscienceAustralia/BAL, utilities/bal_database.py, commit 18c6cff, Apache-2.0),
 * which its own tests pin. The values below were generated from that file, not typed by hand.
 * VERIFIED: against that transcription of the 2009 edition, every value.
 * UNVERIFIED: that AS 3959-2018 (and its amendments) kept these values and table numbers; no
 * public copy of the 2018 tables was found. Every estimate says so in its note
 * (see EDITION_CAVEAT), and docs/p6-notes-bal.md records it.
 */
import type { FireDangerIndex, SlopeBand, VegetationClass } from './bal.ts';

/** The four step-down distances of one row, nearest first. */
export type DistanceRow = readonly [fz: number, bal40: number, bal29: number, bal19: number];

/** Method 1 considers classified vegetation within this distance only (AS 3959 clause 2.2.3.2). */
export const METHOD_1_REACH_M = 100;

export const TABLE_NAMES: Readonly<Record<FireDangerIndex, string>> = {
  100: 'AS 3959 Table 2.4.2 (FDI 100)',
  80: 'AS 3959 Table 2.4.3 (FDI 80)',
  50: 'AS 3959 Table 2.4.4 (FDI 50)',
  40: 'AS 3959 Table 2.4.5 (FDI 40)',
};

export const EDITION_CAVEAT =
  'Distances are those of the AS 3959-2009 Method 1 tables (as transcribed by Geoscience Australia); ' +
  'that the 2018 edition keeps them is not confirmed.';

type Table = Readonly<Record<SlopeBand, Readonly<Record<VegetationClass, DistanceRow>>>>;

export const BAL_TABLES: Readonly<Record<FireDangerIndex, Table>> = {
  100: {
    flat: {
      forest: [19, 25, 35, 48],
      woodland: [12, 16, 24, 33],
      shrubland: [7, 9, 13, 19],
      scrub: [10, 13, 19, 27],
      mallee_mulga: [6, 8, 12, 17],
      rainforest: [8, 11, 16, 23],
      grassland: [6, 9, 13, 19],
    },
    down_0_5: {
      forest: [24, 32, 43, 57],
      woodland: [15, 21, 29, 41],
      shrubland: [7, 10, 15, 22],
      scrub: [11, 15, 22, 31],
      mallee_mulga: [7, 9, 13, 20],
      rainforest: [10, 14, 20, 29],
      grassland: [7, 10, 15, 22],
    },
    down_5_10: {
      forest: [31, 39, 53, 69],
      woodland: [20, 26, 37, 50],
      shrubland: [8, 11, 17, 25],
      scrub: [12, 17, 24, 35],
      mallee_mulga: [7, 10, 15, 23],
      rainforest: [13, 18, 26, 36],
      grassland: [8, 11, 17, 25],
    },
    down_10_15: {
      forest: [39, 49, 64, 82],
      woodland: [25, 33, 45, 60],
      shrubland: [9, 13, 19, 28],
      scrub: [14, 19, 28, 39],
      mallee_mulga: [8, 11, 18, 26],
      rainforest: [17, 23, 33, 45],
      grassland: [9, 13, 20, 28],
    },
    down_15_20: {
      forest: [50, 61, 78, 98],
      woodland: [32, 41, 56, 73],
      shrubland: [10, 15, 22, 31],
      scrub: [15, 21, 31, 43],
      mallee_mulga: [9, 13, 20, 29],
      rainforest: [22, 29, 42, 56],
      grassland: [11, 15, 23, 32],
    },
  },
  80: {
    flat: {
      forest: [16, 21, 31, 42],
      woodland: [10, 14, 20, 29],
      shrubland: [7, 9, 13, 19],
      scrub: [10, 13, 19, 27],
      mallee_mulga: [6, 8, 12, 17],
      rainforest: [6, 9, 13, 19],
      grassland: [6, 8, 12, 17],
    },
    down_0_5: {
      forest: [20, 27, 37, 50],
      woodland: [13, 17, 25, 35],
      shrubland: [7, 10, 15, 22],
      scrub: [11, 15, 22, 31],
      mallee_mulga: [7, 9, 13, 20],
      rainforest: [8, 11, 17, 24],
      grassland: [7, 9, 14, 20],
    },
    down_5_10: {
      forest: [26, 33, 46, 61],
      woodland: [16, 22, 31, 43],
      shrubland: [8, 11, 17, 25],
      scrub: [12, 17, 24, 35],
      mallee_mulga: [7, 10, 15, 23],
      rainforest: [11, 15, 22, 31],
      grassland: [8, 10, 16, 23],
    },
    down_10_15: {
      forest: [33, 42, 56, 73],
      woodland: [21, 28, 39, 53],
      shrubland: [9, 13, 19, 28],
      scrub: [14, 19, 28, 39],
      mallee_mulga: [8, 11, 18, 26],
      rainforest: [14, 19, 28, 39],
      grassland: [9, 12, 18, 26],
    },
    down_15_20: {
      forest: [42, 52, 68, 87],
      woodland: [27, 35, 48, 64],
      shrubland: [10, 15, 22, 31],
      scrub: [15, 21, 31, 43],
      mallee_mulga: [9, 13, 20, 29],
      rainforest: [18, 25, 36, 48],
      grassland: [10, 14, 21, 30],
    },
  },
  50: {
    flat: {
      forest: [12, 16, 23, 32],
      woodland: [7, 10, 15, 22],
      shrubland: [7, 9, 13, 19],
      scrub: [10, 13, 19, 27],
      mallee_mulga: [6, 8, 12, 17],
      rainforest: [5, 6, 9, 14],
      grassland: [7, 9, 14, 20],
    },
    down_0_5: {
      forest: [14, 19, 27, 38],
      woodland: [9, 12, 18, 26],
      shrubland: [7, 10, 15, 22],
      scrub: [11, 15, 22, 31],
      mallee_mulga: [7, 9, 13, 20],
      rainforest: [6, 8, 12, 17],
      grassland: [8, 10, 16, 23],
    },
    down_5_10: {
      forest: [18, 24, 34, 46],
      woodland: [11, 15, 23, 32],
      shrubland: [8, 11, 17, 25],
      scrub: [12, 17, 24, 35],
      mallee_mulga: [7, 10, 15, 23],
      rainforest: [7, 10, 15, 22],
      grassland: [9, 12, 18, 26],
    },
    down_10_15: {
      forest: [22, 30, 41, 56],
      woodland: [14, 19, 28, 40],
      shrubland: [9, 13, 19, 28],
      scrub: [14, 19, 28, 39],
      mallee_mulga: [8, 11, 18, 26],
      rainforest: [9, 13, 19, 28],
      grassland: [10, 13, 20, 29],
    },
    down_15_20: {
      forest: [28, 37, 51, 67],
      woodland: [18, 25, 36, 48],
      shrubland: [10, 15, 22, 31],
      scrub: [15, 21, 31, 43],
      mallee_mulga: [9, 13, 20, 29],
      rainforest: [12, 17, 25, 35],
      grassland: [11, 15, 23, 33],
    },
  },
  40: {
    flat: {
      forest: [10, 13, 20, 28],
      woodland: [6, 9, 13, 19],
      shrubland: [7, 9, 13, 19],
      scrub: [10, 13, 19, 27],
      mallee_mulga: [6, 8, 12, 17],
      rainforest: [4, 5, 8, 12],
      grassland: [4, 5, 8, 12],
    },
    down_0_5: {
      forest: [12, 16, 24, 34],
      woodland: [8, 11, 16, 23],
      shrubland: [7, 10, 15, 22],
      scrub: [11, 15, 22, 31],
      mallee_mulga: [7, 9, 13, 20],
      rainforest: [5, 7, 10, 15],
      grassland: [4, 6, 9, 14],
    },
    down_5_10: {
      forest: [15, 20, 29, 41],
      woodland: [9, 13, 19, 28],
      shrubland: [8, 11, 17, 25],
      scrub: [12, 17, 24, 35],
      mallee_mulga: [7, 10, 15, 23],
      rainforest: [6, 8, 13, 19],
      grassland: [5, 7, 11, 16],
    },
    down_10_15: {
      forest: [19, 25, 36, 49],
      woodland: [12, 16, 24, 35],
      shrubland: [9, 13, 19, 28],
      scrub: [14, 19, 28, 39],
      mallee_mulga: [8, 11, 18, 26],
      rainforest: [8, 11, 16, 24],
      grassland: [6, 8, 13, 19],
    },
    down_15_20: {
      forest: [24, 31, 44, 59],
      woodland: [15, 21, 31, 42],
      shrubland: [10, 15, 22, 31],
      scrub: [15, 21, 31, 43],
      mallee_mulga: [9, 13, 20, 29],
      rainforest: [10, 14, 21, 30],
      grassland: [7, 9, 15, 22],
    },
  },
};
