/**
 * An indicative AS 2870 site class from mapped soil figures. AS 2870 classifies a site by its
 * characteristic surface movement ys (mm), which only a geotechnical investigation can measure;
 * mapped clay content, soil depth and a shrink-swell class can only suggest it. The rule is
 * deliberately conservative: two estimates are made and the worse one is kept, and a value on a
 * band's boundary takes the higher class.
 */

export type SiteClass = 'A' | 'S' | 'M' | 'H1' | 'H2' | 'E' | 'P';
export type Reactivity = 'nil' | 'low' | 'moderate' | 'high' | 'very_high' | 'extreme' | 'problem';

export type SiteClassBand = {
  site_class: SiteClass;
  /** The band of ys the class stands for in AS 2870, e.g. "20-40 mm"; null for P. */
  ys_range: string | null;
  description: string;
};

/** AS 2870's classes by characteristic surface movement ys, mildest first. */
export const SITE_CLASS_BANDS: readonly (SiteClassBand & { below_mm: number })[] = [
  {
    site_class: 'A',
    ys_range: '0 mm',
    below_mm: Number.EPSILON,
    description: 'Most sand and rock sites: little or no ground movement from moisture changes.',
  },
  {
    site_class: 'S',
    ys_range: '0-20 mm',
    below_mm: 20,
    description: 'Slightly reactive clay sites: only slight ground movement from moisture changes.',
  },
  {
    site_class: 'M',
    ys_range: '20-40 mm',
    below_mm: 40,
    description: 'Moderately reactive clay or silt sites: moderate ground movement from moisture changes.',
  },
  {
    site_class: 'H1',
    ys_range: '40-60 mm',
    below_mm: 60,
    description: 'Highly reactive clay sites: high ground movement from moisture changes.',
  },
  {
    site_class: 'H2',
    ys_range: '60-75 mm',
    below_mm: 75,
    description: 'Highly reactive clay sites: very high ground movement from moisture changes.',
  },
  {
    site_class: 'E',
    ys_range: 'over 75 mm',
    below_mm: Number.POSITIVE_INFINITY,
    description: 'Extremely reactive sites: extreme ground movement from moisture changes.',
  },
];

const PROBLEM: SiteClassBand = {
  site_class: 'P',
  ys_range: null,
  description:
    'Problem site: uncontrolled fill, soft or collapsing soils, mine subsidence or similar; footings need engineering design.',
};

/** The depth over which moisture changes move the ground; soil deeper than this adds nothing. */
const ACTIVE_DEPTH_M = 2;
/** Clay below this share barely shrinks or swells. */
const INERT_CLAY_PERCENT = 10;
/** Millimetres of ys per percent of clay above the inert share, over the full active depth. */
const YS_MM_PER_CLAY_PERCENT = 1.2;

/**
 * ys from clay content and soil depth: grows with the clay above 10 % and with the depth of
 * soil up to 2 m (AS 2870's depth of design suction change is 1.5 to 4 m; 2 m is a middle).
 * Calibrated so that shallow sands give 0, 30 % clay over 1.5 m gives about 18 mm and deep
 * 60 % clay gives about 60 mm, in line with the classes such soils usually get.
 */
export function ysFromClay(clayPercent: number, depthM: number): number {
  const clay = Math.max(0, clayPercent - INERT_CLAY_PERCENT);
  const depth = Math.min(Math.max(depthM, 0), ACTIVE_DEPTH_M) / ACTIVE_DEPTH_M;
  return Math.round(YS_MM_PER_CLAY_PERCENT * clay * depth * 10) / 10;
}

/** The class a source's own shrink-swell class implies at least. */
const CLASS_OF_REACTIVITY: Record<Reactivity, SiteClass> = {
  nil: 'A',
  low: 'S',
  moderate: 'M',
  high: 'H1',
  very_high: 'H2',
  extreme: 'E',
  problem: 'P',
};

const SEVERITY: readonly SiteClass[] = ['A', 'S', 'M', 'H1', 'H2', 'E', 'P'];

/** How much more severe a class is than another: P above E. */
export const severity = (siteClass: SiteClass): number => SEVERITY.indexOf(siteClass);

export function bandOf(siteClass: SiteClass): SiteClassBand {
  if (siteClass === 'P') return PROBLEM;
  const band = SITE_CLASS_BANDS.find((b) => b.site_class === siteClass);
  if (!band) throw new Error(`No AS 2870 band for class ${siteClass}`);
  return { site_class: band.site_class, ys_range: band.ys_range, description: band.description };
}

/** The class of a ys: the first band it stays below, so a boundary value takes the higher class. */
export function classOfYs(ysMm: number): SiteClass {
  const band = SITE_CLASS_BANDS.find((b) => ysMm < b.below_mm);
  return band?.site_class ?? 'E';
}

export type SiteClassEstimate = {
  site_class: SiteClass;
  ys_estimate_mm: number;
  /** Which estimate set the class: the clay and depth figures, or the source's shrink-swell class. */
  basis: 'clay_and_depth' | 'reactivity';
  explanation: string;
};

/**
 * `reactivity` is null where the source maps no shrink-swell class (the Soil and Landscape
 * Grid publishes clay and depth only): the class then rests on the clay and depth figures.
 */
export function estimateSiteClass(
  clayPercent: number,
  depthM: number,
  reactivity: Reactivity | null,
): SiteClassEstimate {
  const ys = ysFromClay(clayPercent, depthM);
  const fromClay = classOfYs(ys);
  const figures = `${clayPercent} % clay over ${depthM} m of soil suggests ys of about ${ys} mm (class ${fromClay})`;
  if (reactivity === null) {
    return {
      site_class: fromClay,
      ys_estimate_mm: ys,
      basis: 'clay_and_depth',
      explanation: `${figures}; the source maps no shrink-swell class, so ${fromClay} stands.`,
    };
  }
  const fromReactivity = CLASS_OF_REACTIVITY[reactivity];
  const byReactivity = severity(fromReactivity) > severity(fromClay);
  const siteClass = byReactivity ? fromReactivity : fromClay;
  const mapped = `the source maps the soil's shrink-swell class as ${reactivity.replace('_', ' ')} (class ${fromReactivity})`;
  const kept = fromReactivity === fromClay ? `both give ${siteClass}` : `the more severe, ${siteClass}, is kept`;
  return {
    site_class: siteClass,
    ys_estimate_mm: ys,
    basis: byReactivity ? 'reactivity' : 'clay_and_depth',
    explanation: `${figures}; ${mapped}; ${kept}.`,
  };
}

export const INDICATIVE_NOTICE =
  'Indicative only, from mapped soil data: the AS 2870 site class of a lot needs a geotechnical site classification (bore holes and testing) before footings are designed.';
