/**
 * Which published rows are hazards, and what they say. A Vicmap Planning PLAN_OVERLAY file
 * holds every overlay of a scheme; only the hazard overlays are kept, each with the kind and
 * severity its code implies on the hazards layer's scale (docs/decisions.md "Hazard severity
 * scale"). A contamination register is a CSV of sites with coordinates, its columns found by
 * name under the spellings registers use.
 */
import type { HazardKind, Severity } from '../../subgraphs/hazards/sql.ts';
import { IngestError } from './gnaf-release.ts';

export const HAZARD_KINDS: readonly HazardKind[] = ['flood', 'bushfire', 'contamination'];

export function checkKind(value: string | undefined): HazardKind | undefined {
  if (value === undefined) return undefined;
  const kind = HAZARD_KINDS.find((k) => k === value.trim().toLowerCase());
  if (!kind) throw new IngestError(`unknown --kind "${value}": one of ${HAZARD_KINDS.join(', ')}`);
  return kind;
}

type HazardOverlay = { readonly kind: HazardKind; readonly severity: Severity; readonly name: string };

/**
 * The Victorian planning overlays that are hazards, by scheme code (the code without its
 * schedule number: LSIO1 is LSIO). Others (HO, DDO, DCPO...) are not hazards and are skipped.
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

/** Register columns, by the names registers give them (compared without case, spaces or underscores). */
const REGISTER_COLUMNS = {
  id: ['SITEID', 'ID', 'SITENUMBER', 'NOTICENUMBER', 'NOTICEID', 'PSRID', 'RECORDID'],
  name: ['SITENAME', 'NAME', 'SITE', 'PREMISES', 'PREMISESNAME', 'BUSINESSNAME'],
  address: ['ADDRESS', 'SITEADDRESS', 'STREETADDRESS', 'LOCATION'],
  suburb: ['SUBURB', 'LOCALITY', 'TOWN'],
  latitude: ['LATITUDE', 'LAT', 'Y'],
  longitude: ['LONGITUDE', 'LONG', 'LON', 'LNG', 'X'],
  status: ['STATUS', 'SITESTATUS', 'NOTICETYPE', 'ISSUE', 'CATEGORY'],
} as const;
export type RegisterColumn = keyof typeof REGISTER_COLUMNS;
const REQUIRED: readonly RegisterColumn[] = ['name', 'latitude', 'longitude'];

const squash = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Each register column's index in the header; throws IngestError naming what is missing. */
export function registerColumns(file: string, header: readonly string[]): Partial<Record<RegisterColumn, number>> {
  const squashed = header.map(squash);
  const found: Partial<Record<RegisterColumn, number>> = {};
  for (const column of Object.keys(REGISTER_COLUMNS) as RegisterColumn[]) {
    const index = REGISTER_COLUMNS[column].map((alias) => squashed.indexOf(alias)).find((i) => i >= 0);
    if (index !== undefined) found[column] = index;
  }
  const missing = REQUIRED.filter((column) => found[column] === undefined);
  if (missing.length > 0) {
    throw new IngestError(
      `${file} is not a contamination register with coordinates: it lacks ${missing
        .map((c) => `a ${c} column (${REGISTER_COLUMNS[c].join(', ')})`)
        .join('; ')} (its columns: ${header.join(', ') || 'none'})`,
    );
  }
  return found;
}
