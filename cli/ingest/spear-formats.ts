/**
 * The SPEAR export the ingest reads. Victoria publishes no open SPEAR dataset: SPEAR's public
 * search (spear.land.vic.gov.au) shows one application at a time under SPEAR's terms of use, and
 * no bulk file is offered under an open licence. The ingest therefore reads the most plausible
 * export: the rows of SPEAR's public search answer (`{ "data": { "resultRows": [...] } }`, or a
 * bare array of them), in SPEAR's own field names (spearReference, responsibleAuthority,
 * submittedDate in dd/mm/yyyy, property for the address, intendedUse for the description), plus
 * what an agreed export adds: applicationType, status, decisionDate, lastModified, the touched
 * lots' Vicmap parcelPfis, and lat/lng. SPEAR's report screens export CSV: the same columns, one
 * row per application, read by header name (spearRowsOfCsv). A row needs its lots or its point. A
 * row that cannot be read is reported with its place in the file (a CSV's line) and why, never fatal.
 */
import { isInAustralia } from '../../core/geo.ts';
import type { FeatureNote } from './planning-load.ts';

export type SpearType =
  | 'planning_permit'
  | 'subdivision_permit'
  | 'certification'
  | 'permit_and_certification'
  | 'statement_of_compliance'
  | 'plan_of_subdivision'
  | 'other';
export type SpearStatus =
  | 'lodged'
  | 'under_assessment'
  | 'approved'
  | 'certified'
  | 'compliance_issued'
  | 'registered'
  | 'refused'
  | 'withdrawn'
  | 'lapsed';

export type SpearRecord = {
  /** Where it is in the file: 1 for the first row. */
  seq: number;
  spear_reference: string;
  application_type: SpearType;
  responsible_authority: string;
  council_reference: string | null;
  lga_code: string | null;
  status: SpearStatus;
  description: string | null;
  lodged_date: string | null;
  decided_date: string | null;
  /** Comma-joined Vicmap PFIs (possibly empty: the point finds the lot). */
  parcel_pfis: string;
  address: string | null;
  source_url: string | null;
  updated_at: string;
  lng: number | null;
  lat: number | null;
};

/** The credit a SPEAR export carries unless the load names the one its agreement gives. */
export const SPEAR_CREDIT = {
  attribution:
    'SPEAR (Surveying and Planning through Electronic Applications and Referrals), State of Victoria (Land Use Victoria)',
  license: 'Not openly licensed: used under agreement with the State of Victoria',
};

/** SPEAR's words for the kind of application, to one vocabulary. */
export function spearTypeOf(text: string): SpearType {
  const t = text.toLowerCase();
  if (/statement of compliance/.test(t)) return 'statement_of_compliance';
  if (/plan of subdivision|registration|land use victoria/.test(t)) return 'plan_of_subdivision';
  if (/permit/.test(t) && /certif/.test(t)) return 'permit_and_certification';
  if (/certif/.test(t)) return 'certification';
  if (/permit/.test(t) && /subdivi/.test(t)) return 'subdivision_permit';
  if (/permit/.test(t)) return 'planning_permit';
  return 'other';
}

/** SPEAR's words for where an application stands; null for words it does not know. */
export function spearStatusOf(text: string): SpearStatus | null {
  const t = text.toLowerCase();
  if (/withdrawn/.test(t)) return 'withdrawn';
  if (/lapsed|expired/.test(t)) return 'lapsed';
  if (/refus/.test(t)) return 'refused';
  if (/registered/.test(t)) return 'registered';
  if (/compliance/.test(t)) return 'compliance_issued';
  if (/certified|certification issued/.test(t)) return 'certified';
  if (/permit issued|approved|granted|notice of decision/.test(t)) return 'approved';
  if (/progress|assess|referr|further information|advertis|pending|review/.test(t)) return 'under_assessment';
  if (/submitted|lodged|received|new/.test(t)) return 'lodged';
  return null;
}

/** dd/mm/yyyy (SPEAR's screens) or an ISO date, as YYYY-MM-DD; null when absent; undefined when unreadable. */
export function dayOf(value: unknown): string | null | undefined {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const au = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const day = au ? `${au[3]}-${au[2]!.padStart(2, '0')}-${au[1]!.padStart(2, '0')}` : text.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  // Date.parse rolls 30 February over into March: the day must come back as written
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day ? day : undefined;
}

const text = (value: unknown, max = 2000): string | null => {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const s = String(value).replace(/\0/g, '').trim();
  return s === '' ? null : s.slice(0, max);
};

function pfisOf(value: unknown): string[] | undefined {
  if (value === null || value === undefined || value === '') return [];
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[;,|]/) : undefined;
  if (!parts) return undefined;
  const pfis = parts.map((p) => text(p, 64));
  if (pfis.some((p) => p === null || /[,\s]/.test(p))) return undefined;
  return [...new Set(pfis as string[])];
}

/** The rows of an export body; an error when the body is neither shape. */
function rowsOf(body: unknown): unknown[] | { error: string } {
  if (Array.isArray(body)) return body as unknown[];
  const data = (body as { data?: { resultRows?: unknown } } | null)?.data;
  if (data && Array.isArray(data.resultRows)) return data.resultRows as unknown[];
  return { error: 'is neither an array of SPEAR rows nor a public-search body ({"data": {"resultRows": [...]}})' };
}

export type ParsedSpear = { records: SpearRecord[]; refused: FeatureNote[]; read: number };

/**
 * The export's fields, each with the CSV header names it is read from (matched without case,
 * spaces or punctuation): SPEAR's own field names, as the JSON rows carry them, and the words of
 * SPEAR's report screens.
 */
export const SPEAR_CSV_COLUMNS: Record<string, readonly string[]> = {
  spearReference: ['spearreference', 'spearref', 'reference'],
  responsibleAuthority: ['responsibleauthority', 'authority', 'council'],
  applicationType: ['applicationtype', 'type'],
  status: ['status', 'applicationstatus'],
  submittedDate: ['submitteddate', 'datesubmitted', 'submitted', 'lodgeddate'],
  decisionDate: ['decisiondate', 'decided', 'datedecided'],
  councilReference: ['councilreference', 'councilref', 'permitnumber'],
  lgaCode: ['lgacode'],
  property: ['property', 'address', 'propertyaddress'],
  intendedUse: ['intendeduse', 'description', 'proposal'],
  lastModified: ['lastmodified', 'modified', 'updated'],
  parcelPfis: ['parcelpfis', 'pfis', 'pfi'],
  infoUrl: ['infourl', 'url', 'link'],
  lat: ['lat', 'latitude'],
  lng: ['lng', 'lon', 'long', 'longitude'],
};
const SPEAR_CSV_REQUIRED = ['spearReference', 'responsibleAuthority'];

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * A CSV export (a header row, the same columns as the JSON rows) as the rows parseSpear reads,
 * each keyed by SPEAR's field name; an empty cell is no value. A header lacking a required
 * column, or any way to place a row (parcelPfis, or lat and lng), is an error naming it.
 */
export function spearRowsOfCsv(
  header: readonly string[],
  rows: ReadonlyArray<{ line: number; fields: readonly string[] }>,
  file: string,
): { rows: Array<Record<string, string>>; lines: number[] } | { error: string } {
  const index = new Map(header.map((h, i) => [squash(h), i] as const));
  const columns = new Map<string, number>();
  for (const [field, aliases] of Object.entries(SPEAR_CSV_COLUMNS)) {
    const at = aliases.map((a) => index.get(a)).find((i) => i !== undefined);
    if (at !== undefined) columns.set(field, at);
  }
  const missing = SPEAR_CSV_REQUIRED.filter((field) => !columns.has(field));
  if (!columns.has('parcelPfis') && !(columns.has('lat') && columns.has('lng'))) {
    missing.push(columns.has('lat') ? 'lng' : columns.has('lng') ? 'lat' : 'parcelPfis');
  }
  if (missing.length > 0) {
    return {
      error: `${file} is not a SPEAR export: it lacks ${missing
        .map((field) => `a ${field} column (${SPEAR_CSV_COLUMNS[field]!.join(', ')})`)
        .join('; ')} (its columns: ${header.join(', ') || 'none'})`,
    };
  }
  return {
    lines: rows.map((row) => row.line),
    rows: rows.map((row) => {
      const record: Record<string, string> = {};
      for (const [field, at] of columns) {
        const value = row.fields[at]?.trim();
        if (value) record[field] = value;
      }
      return record;
    }),
  };
}

/** `lines`: where each row is in the file (a CSV's line numbers); by default its place, 1 for the first. */
export function parseSpear(
  body: unknown,
  file: string,
  now: string,
  lines?: readonly number[],
): ParsedSpear | { error: string } {
  const rows = rowsOf(body);
  if (!Array.isArray(rows)) return rows;
  const records: SpearRecord[] = [];
  const refused: FeatureNote[] = [];
  rows.forEach((raw, index) => {
    const seq = lines?.[index] ?? index + 1;
    const row = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const reference = text(row.spearReference, 32);
    const refuse = (reason: string) => refused.push({ file, feature: seq, key: reference, reason });
    if (!reference) return refuse('no spearReference');
    const authority = text(row.responsibleAuthority, 200);
    if (!authority) return refuse('no responsibleAuthority');
    const statusText = text(row.status, 100);
    const status = statusText ? spearStatusOf(statusText) : 'lodged';
    if (!status) return refuse(`unknown status "${statusText}"`);
    const lodged = dayOf(row.submittedDate);
    const decided = dayOf(row.decisionDate);
    if (lodged === undefined) return refuse(`submittedDate "${String(row.submittedDate)}" is not a date`);
    if (decided === undefined) return refuse(`decisionDate "${String(row.decisionDate)}" is not a date`);
    if (lodged && decided && decided < lodged) return refuse('decisionDate is before submittedDate');
    const pfis = pfisOf(row.parcelPfis);
    if (!pfis) return refuse('parcelPfis must be PFIs (an array, or one text split by ;)');
    const hasPoint = row.lat !== undefined && row.lat !== null && row.lng !== undefined && row.lng !== null;
    const lat = hasPoint ? Number(row.lat) : null;
    const lng = hasPoint ? Number(row.lng) : null;
    if (hasPoint && !(Number.isFinite(lat) && Number.isFinite(lng) && isInAustralia(lng!, lat!))) {
      return refuse('lat/lng is not a point in Australia');
    }
    if (pfis.length === 0 && !hasPoint) return refuse('neither parcelPfis nor lat/lng: the application touches no lot');
    const modified = text(row.lastModified, 40);
    const updated = modified && Number.isFinite(Date.parse(modified)) ? new Date(modified).toISOString() : null;
    if (modified && !updated) return refuse(`lastModified "${modified}" is not an instant`);
    const type = text(row.applicationType, 200);
    records.push({
      seq,
      spear_reference: reference,
      application_type: type ? spearTypeOf(type) : 'other',
      responsible_authority: authority,
      council_reference: text(row.councilReference, 64),
      lga_code: text(row.lgaCode, 32),
      status,
      description: text(row.intendedUse),
      lodged_date: lodged,
      decided_date: decided,
      parcel_pfis: pfis.join(','),
      address: text(row.property, 300),
      source_url: text(row.infoUrl, 500),
      updated_at: updated ?? ((decided ?? lodged) ? `${decided ?? lodged}T00:00:00.000Z` : now),
      lng,
      lat,
    });
  });
  return { records, refused, read: rows.length };
}
