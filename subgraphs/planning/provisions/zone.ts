import type { ProvisionsInput, Provisions } from './types.ts';

export type ZoneInfo = NonNullable<Provisions['zone']>;

/**
 * The zone's family and schedule: GRZ1 is schedule 1 of GRZ, LMR2 precinct 2 of LMR. The
 * published scheme code is the family when present; otherwise the code without its trailing
 * number, as Vicmap writes it.
 */
export function describeZone(zone: ProvisionsInput['zone']): ZoneInfo | null {
  if (!zone) return null;
  const code = zone.code.trim().toUpperCase();
  const family = (zone.scheme_code.trim() || code.replace(/\d+$/, '')).toUpperCase();
  const rest = code.startsWith(family) ? code.slice(family.length) : '';
  return { code, family, description: zone.description, schedule: /^\d+$/.test(rest) ? rest : null };
}

/** The description without its schedule, for matching zones whose code a source spells its own way. */
export const plainDescription = (zone: ZoneInfo): string =>
  zone.description
    .toUpperCase()
    // 'GENERAL RESIDENTIAL ZONE - SCHEDULE 1', 'LOW-MEDIUM DENSITY RESIDENTIAL (2 STOREY MIX)'
    .replace(/\s+[-–]\s.*$|\s*\(.*$/, '')
    .trim();
