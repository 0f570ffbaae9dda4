/**
 * Which published rows are hazards, and what they say. A Vicmap Planning PLAN_OVERLAY file
 * holds every overlay of a scheme; only the hazard overlays are kept, each with the kind and
 * severity its code implies on the hazards layer's scale (docs/decisions.md "Hazard severity
 * scale"). A contamination register is a CSV of sites with coordinates, its columns found by
 * name under the spellings registers use.
 */
import type { HazardKind } from '../../subgraphs/hazards/sql.ts';
import { IngestError } from './gnaf-release.ts';

export const HAZARD_KINDS: readonly HazardKind[] = ['flood', 'bushfire', 'contamination'];

export function checkKind(value: string | undefined): HazardKind | undefined {
  if (value === undefined) return undefined;
  const kind = HAZARD_KINDS.find((k) => k === value.trim().toLowerCase());
  if (!kind) throw new IngestError(`unknown --kind "${value}": one of ${HAZARD_KINDS.join(', ')}`);
  return kind;
}

// The table of which overlays are hazards is the hazards subgraph's: its live Vicmap source reads it too.
export { VIC_HAZARD_OVERLAYS, hazardOfOverlay } from '../../subgraphs/hazards/overlay-codes.ts';

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
