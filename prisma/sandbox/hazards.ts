/**
 * Hazard overlays for the sandbox suburbs, in the layouts the states publish: flood along the
 * west edge of each suburb, bushfire along the east edge with classified vegetation beyond it,
 * contamination (an Environmental Audit Overlay and register sites) near the centre. The shapes
 * are fractions of the suburb's extent, so every size of sandbox holds each case:
 * - Castle Hill holds no hazard coverage at all (hazards layer `not_covered`);
 * - Parramatta's contamination register is not held (contamination `not_mapped`);
 * - North Lakes' flood mapping reaches only its southern half (flood `not_mapped` to the north);
 * - the middle of every covered suburb is checked and clear.
 */
import { rectRing } from './geometry.ts';
import type { Frame, Point } from './geometry.ts';
import type { Grid } from './grid.ts';
import { coverageRing } from './planning.ts';
import type { ContaminationSiteRow, HazardCoverageRow, HazardOverlayRow, VegetationRow } from './rows.ts';
import type { SandboxState, SuburbSpec } from './suburbs.ts';

export type HazardKind = 'flood' | 'bushfire' | 'contamination';
type Severity = HazardOverlayRow['severity'];

/** The snapshot date each state's synthetic hazard sources claim, so freshness has a value to show. */
export const HAZARD_SNAPSHOT_DATES: Readonly<Record<SandboxState, Record<HazardKind, string>>> = {
  VIC: { flood: '2025-09-01', bushfire: '2025-07-15', contamination: '2025-10-01' },
  NSW: { flood: '2025-08-20', bushfire: '2025-06-30', contamination: '2025-10-01' },
  QLD: { flood: '2025-05-31', bushfire: '2025-04-30', contamination: '2025-09-15' },
};

type OverlayCode = { code: string; description: string; severity: Severity; source: string };

/** The two bands of each state's flood and bushfire mapping: the wider, milder one and the core. */
const CODES: Readonly<Record<SandboxState, Record<'flood' | 'bushfire', [OverlayCode, OverlayCode]>>> = {
  VIC: {
    flood: [
      {
        code: 'LSIO',
        description: 'Land Subject to Inundation Overlay',
        severity: 'medium',
        source: 'Vicmap Planning',
      },
      { code: 'FO', description: 'Floodway Overlay', severity: 'high', source: 'Vicmap Planning' },
    ],
    bushfire: [
      { code: 'BPA', description: 'Bushfire Prone Area', severity: 'medium', source: 'Vicmap Planning BPA' },
      { code: 'BMO', description: 'Bushfire Management Overlay', severity: 'high', source: 'Vicmap Planning' },
    ],
  },
  NSW: {
    flood: [
      { code: 'FPA', description: 'Flood Planning Area', severity: 'medium', source: 'NSW Flood Planning Areas' },
      {
        code: 'FPA',
        description: 'Flood Planning Area (high hazard)',
        severity: 'high',
        source: 'NSW Flood Planning Areas',
      },
    ],
    bushfire: [
      {
        code: 'BFPL_BUFFER',
        description: 'Bush fire prone land: vegetation buffer',
        severity: 'low',
        source: 'NSW RFS Bush Fire Prone Land',
      },
      {
        code: 'BFPL_CAT1',
        description: 'Bush fire prone land: vegetation category 1',
        severity: 'high',
        source: 'NSW RFS Bush Fire Prone Land',
      },
    ],
  },
  QLD: {
    flood: [
      {
        code: 'FLOOD_HAZARD_MEDIUM',
        description: 'Flood hazard overlay: medium risk',
        severity: 'medium',
        source: 'QLD SPP flood hazard area',
      },
      {
        code: 'FLOOD_HAZARD_HIGH',
        description: 'Flood hazard overlay: high risk',
        severity: 'high',
        source: 'QLD SPP flood hazard area',
      },
    ],
    bushfire: [
      {
        code: 'BPA_MEDIUM',
        description: 'Bushfire prone area: medium potential intensity',
        severity: 'medium',
        source: 'QLD SPP bushfire prone area',
      },
      {
        code: 'BPA_HIGH',
        description: 'Bushfire prone area: high potential intensity',
        severity: 'high',
        source: 'QLD SPP bushfire prone area',
      },
    ],
  },
};

const REGISTERS: Readonly<Record<SandboxState, string>> = {
  VIC: 'EPA Victoria Priority Sites Register',
  NSW: 'NSW EPA contaminated land record',
  QLD: 'QLD Contaminated Land Register',
};

/** Suburbs holding no hazard data at all, and per-kind gaps, as the module comment lists. */
const NO_HAZARDS = new Set(['castle-hill']);
const UNMAPPED: Readonly<Record<string, HazardKind>> = { parramatta: 'contamination' };
const HALF_MAPPED: Readonly<Record<string, HazardKind>> = { 'north-lakes': 'flood' };

export interface SuburbHazards {
  overlays: HazardOverlayRow[];
  sites: ContaminationSiteRow[];
  vegetation: VegetationRow[];
  coverage: HazardCoverageRow[];
}

export function hazardRows(spec: SuburbSpec, grid: Grid, frame: Frame): SuburbHazards {
  const out: SuburbHazards = { overlays: [], sites: [], vegetation: [], coverage: [] };
  if (NO_HAZARDS.has(spec.key)) return out;
  const { uMin, uMax, vMin, vMax } = grid.bounds;
  const w = uMax - uMin;
  const h = vMax - vMin;
  const dates = HAZARD_SNAPSHOT_DATES[spec.state];
  const overlay = (kind: HazardKind, code: OverlayCode, ring: Point[], n: number) => {
    out.overlays.push({
      id: `${spec.key}-${kind}-${n}`,
      state: spec.state,
      kind,
      code: code.code,
      description: code.description,
      severity: code.severity,
      source_name: code.source,
      snapshot_date: dates[kind],
      wkt: frame.polygon(ring).wkt,
    });
  };
  const [floodWide, floodCore] = CODES[spec.state].flood;
  const [fireWide, fireCore] = CODES[spec.state].bushfire;
  overlay('flood', floodWide, rectRing(uMin, uMin + 0.15 * w, vMin, vMax), 1);
  overlay('flood', floodCore, rectRing(uMin, uMin + 0.05 * w, vMin, vMax), 2);
  overlay('bushfire', fireWide, rectRing(uMax - 0.15 * w, uMax, vMin, vMax), 1);
  overlay('bushfire', fireCore, rectRing(uMax - 0.05 * w, uMax, vMin, vMax), 2);
  // the Environmental Audit Overlay is Victoria's; elsewhere the register alone speaks
  if (spec.state === 'VIC') {
    overlay(
      'contamination',
      { code: 'EAO', description: 'Environmental Audit Overlay', severity: 'medium', source: 'Vicmap Planning' },
      rectRing(uMin + 0.45 * w, uMin + 0.55 * w, vMin, vMin + 0.1 * h),
      1,
    );
  }
  // forest beyond the east edge and grassland beyond the north: the BAL estimate's fuel
  out.vegetation.push(
    {
      id: `${spec.key}-veg-1`,
      state: spec.state,
      vegetation_class: 'forest',
      wkt: frame.polygon(rectRing(uMax, uMax + 300, vMin, vMax)).wkt,
    },
    {
      id: `${spec.key}-veg-2`,
      state: spec.state,
      vegetation_class: 'grassland',
      wkt: frame.polygon(rectRing(uMin, uMax, vMax, vMax + 200)).wkt,
    },
  );
  if (UNMAPPED[spec.key] !== 'contamination') {
    const [lng, lat] = frame.lngLat(uMin + 0.5 * w, vMin + 0.05 * h);
    out.sites.push({
      id: `${spec.key}-site-1`,
      state: spec.state,
      name: `Former service station, ${spec.name}`,
      status: 'Priority site: clean-up notice',
      register: REGISTERS[spec.state],
      snapshot_date: dates.contamination,
      lng,
      lat,
    });
  }
  for (const kind of ['flood', 'bushfire', 'contamination'] as const) {
    if (UNMAPPED[spec.key] === kind) continue;
    const ring = HALF_MAPPED[spec.key] === kind ? rectRing(uMin, uMax, vMin, vMin + 0.5 * h) : coverageRing(grid);
    out.coverage.push({
      state: spec.state,
      kind,
      name: spec.name,
      snapshot_date: dates[kind],
      wkt: frame.polygon(ring).wkt,
    });
  }
  return out;
}
