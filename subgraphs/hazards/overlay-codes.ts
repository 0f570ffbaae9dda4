import type { HazardKind, Severity } from './sql.ts';

export type HazardOverlay = { readonly kind: HazardKind; readonly severity: Severity; readonly name: string };

/**
 * The Victorian planning overlays that are hazards, by scheme code (the code without its
 * schedule number: LSIO1 is LSIO), each with the kind and severity its code implies on the
 * hazards layer's scale. The ingest and the live Vicmap source read overlays by the same table.
 * Others (HO, DDO, DCPO...) are not hazards.
 */
export const VIC_HAZARD_OVERLAYS: Readonly<Record<string, HazardOverlay>> = {
  FO: { kind: 'flood', severity: 'high', name: 'FLOODWAY OVERLAY' },
  LSIO: { kind: 'flood', severity: 'medium', name: 'LAND SUBJECT TO INUNDATION OVERLAY' },
  SBO: { kind: 'flood', severity: 'low', name: 'SPECIAL BUILDING OVERLAY' },
  BMO: { kind: 'bushfire', severity: 'high', name: 'BUSHFIRE MANAGEMENT OVERLAY' },
  EAO: { kind: 'contamination', severity: 'medium', name: 'ENVIRONMENTAL AUDIT OVERLAY' },
};

/** The hazard an overlay code is, or undefined for an overlay that is not one. */
export function hazardOfOverlay(code: string): HazardOverlay | undefined {
  const scheme = code.trim().toUpperCase().replace(/\d+$/, '');
  return Object.hasOwn(VIC_HAZARD_OVERLAYS, scheme) ? VIC_HAZARD_OVERLAYS[scheme] : undefined;
}
